// Reading, writing and sampling image elements (SYCL 2020 4.7.6.13-14, 4.7.8): the same code on
// every target. An image's elements lie in one allocation (the image's storage, a buffer_impl of
// bytes) as rows of `pitch[0]` bytes and slices of `pitch[1]` bytes; an accessor carries an
// image_view of that storage on the device it is used on.
//
// The conversions and the sampler's arithmetic are the OpenCL C 1.2 rules the SYCL
// specification refers to for images (OpenCL C 6.12.14 image read and write functions, OpenCL
// 1.2 8.2-8.3 image addressing, filtering and conversions): unorm channels read as c / (2^n - 1)
// and are written as round-to-nearest-even of the saturated value times 2^n - 1; integer channels
// are written saturated; sfloat channels are binary16, written with round-to-nearest-even.
// Nearest filtering picks the element floor(u) addresses, linear filtering weighs the 2, 4 or 8
// elements around u - 0.5 by its fraction, in float. An integer format cannot be filtered
// linearly (OpenCL: undefined); the accessors refuse that combination.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/half.hpp>
#include <sycl/sampler.hpp>
#include <sycl/vec.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

// SYCL 2020 4.7.3: the layout of an image's elements (channel order, width and type). The
// spec's names keep its spelling (r32b32g32a32 is an RGBA format like the others).
enum class image_format : unsigned int {
  r8g8b8a8_unorm,
  r16g16b16a16_unorm,
  r8g8b8a8_sint,
  r16g16b16a16_sint,
  r32b32g32a32_sint,
  r8g8b8a8_uint,
  r16g16b16a16_uint,
  r32b32g32a32_uint,
  r16b16g16a16_sfloat,
  r32g32b32a32_sfloat,
  b8g8r8a8_unorm
};

namespace detail {

// Bytes of one element of each image_format (four channels of 8, 16 or 32 bits).
constexpr std::size_t image_element_size(image_format f) {
  switch (f) {
  case image_format::r16g16b16a16_unorm:
  case image_format::r16g16b16a16_sint:
  case image_format::r16g16b16a16_uint:
  case image_format::r16b16g16a16_sfloat:
    return 8;
  case image_format::r32b32g32a32_sint:
  case image_format::r32b32g32a32_uint:
  case image_format::r32g32b32a32_sfloat:
    return 16;
  default:
    return 4;
  }
}

// Whether a format's channels are integers (read as int4 / uint4, never filtered linearly).
constexpr bool image_format_is_integer(image_format f) {
  switch (f) {
  case image_format::r8g8b8a8_sint:
  case image_format::r16g16b16a16_sint:
  case image_format::r32b32g32a32_sint:
  case image_format::r8g8b8a8_uint:
  case image_format::r16g16b16a16_uint:
  case image_format::r32b32g32a32_uint:
    return true;
  default:
    return false;
  }
}

// The format's name as the specification spells it, for messages.
constexpr const char* image_format_name(image_format f) {
  switch (f) {
  case image_format::r8g8b8a8_unorm:
    return "image_format::r8g8b8a8_unorm";
  case image_format::r16g16b16a16_unorm:
    return "image_format::r16g16b16a16_unorm";
  case image_format::r8g8b8a8_sint:
    return "image_format::r8g8b8a8_sint";
  case image_format::r16g16b16a16_sint:
    return "image_format::r16g16b16a16_sint";
  case image_format::r32b32g32a32_sint:
    return "image_format::r32b32g32a32_sint";
  case image_format::r8g8b8a8_uint:
    return "image_format::r8g8b8a8_uint";
  case image_format::r16g16b16a16_uint:
    return "image_format::r16g16b16a16_uint";
  case image_format::r32b32g32a32_uint:
    return "image_format::r32b32g32a32_uint";
  case image_format::r16b16g16a16_sfloat:
    return "image_format::r16b16g16a16_sfloat";
  case image_format::r32g32b32a32_sfloat:
    return "image_format::r32g32b32a32_sfloat";
  case image_format::b8g8r8a8_unorm:
    return "image_format::b8g8r8a8_unorm";
  }
  return "image_format::<invalid>";
}

// Where an accessor finds the image's elements on the device it is used on.
struct image_view {
  std::byte* data = nullptr;          // element {0, 0, 0}
  std::int32_t extent[3] = {1, 1, 1}; // width, height, depth in elements
  std::size_t pitch[2] = {0, 0};      // bytes from a row to the next, a slice to the next
  image_format format = image_format::r8g8b8a8_unorm;
};

// The four channels of an element as the format stores them, widened: floats for unorm and
// sfloat formats, 32-bit integers for the integer ones (uint values in the bits of int).
struct texel_value {
  float f[4];
  std::int32_t i[4];
};

namespace texel {

// Element loads and stores: the storage holds elements at multiples of their size from an
// aligned base on devices (cuMemAlloc's), so those use aligned accesses; host storage may be
// the user's (property::image::use_host_ptr), so the host makes no assumption.
template <typename T>
SYCLONE_INLINE T load(const std::byte* p) {
  T v;
  if constexpr (dev::is_host)
    __builtin_memcpy(&v, p, sizeof(T));
  else
    __builtin_memcpy(&v, __builtin_assume_aligned(p, sizeof(T)), sizeof(T));
  return v;
}
template <typename T>
SYCLONE_INLINE void store(std::byte* p, T v) {
  if constexpr (dev::is_host)
    __builtin_memcpy(p, &v, sizeof(T));
  else
    __builtin_memcpy(__builtin_assume_aligned(p, sizeof(T)), &v, sizeof(T));
}

template <typename C>
struct channels {
  C c[4];
};

// OpenCL 1.2 8.3.1.1: round to nearest even of the saturated value times the largest code.
SYCLONE_INLINE std::uint32_t to_unorm(float x, float largest) {
  x = x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; // NaN writes 0
  return static_cast<std::uint32_t>(__builtin_rintf(x * largest));
}
// Saturating conversion of any channel value to the integer range [lo, hi] (OpenCL
// convert_<type>_sat; floats round toward zero, NaN gives 0).
template <typename T>
SYCLONE_INLINE std::int64_t saturate(T x, std::int64_t lo, std::int64_t hi) {
  if constexpr (std::is_floating_point_v<T>) {
    if (x != x) return 0;
    if (x <= static_cast<T>(lo)) return lo;
    if (x >= static_cast<T>(hi)) return hi;
    return static_cast<std::int64_t>(x);
  } else {
    std::int64_t v = static_cast<std::int64_t>(x);
    return v < lo ? lo : v > hi ? hi : v;
  }
}

SYCLONE_INLINE texel_value decode(const std::byte* p, image_format f) {
  texel_value t{};
  switch (f) {
  case image_format::r8g8b8a8_unorm:
  case image_format::b8g8r8a8_unorm: {
    auto c = load<channels<std::uint8_t>>(p);
    for (int k = 0; k < 4; ++k) t.f[k] = static_cast<float>(c.c[k]) / 255.0f;
    if (f == image_format::b8g8r8a8_unorm) {
      float b = t.f[0];
      t.f[0] = t.f[2];
      t.f[2] = b;
    }
    break;
  }
  case image_format::r16g16b16a16_unorm: {
    auto c = load<channels<std::uint16_t>>(p);
    for (int k = 0; k < 4; ++k) t.f[k] = static_cast<float>(c.c[k]) / 65535.0f;
    break;
  }
  case image_format::r8g8b8a8_sint: {
    auto c = load<channels<std::int8_t>>(p);
    for (int k = 0; k < 4; ++k) t.i[k] = c.c[k];
    break;
  }
  case image_format::r16g16b16a16_sint: {
    auto c = load<channels<std::int16_t>>(p);
    for (int k = 0; k < 4; ++k) t.i[k] = c.c[k];
    break;
  }
  case image_format::r32b32g32a32_sint:
  case image_format::r32b32g32a32_uint: {
    auto c = load<channels<std::int32_t>>(p);
    for (int k = 0; k < 4; ++k) t.i[k] = c.c[k];
    break;
  }
  case image_format::r8g8b8a8_uint: {
    auto c = load<channels<std::uint8_t>>(p);
    for (int k = 0; k < 4; ++k) t.i[k] = c.c[k];
    break;
  }
  case image_format::r16g16b16a16_uint: {
    auto c = load<channels<std::uint16_t>>(p);
    for (int k = 0; k < 4; ++k) t.i[k] = c.c[k];
    break;
  }
  case image_format::r16b16g16a16_sfloat: {
    auto c = load<channels<std::uint16_t>>(p);
    for (int k = 0; k < 4; ++k) t.f[k] = static_cast<float>(half::from_bits(c.c[k]));
    break;
  }
  case image_format::r32g32b32a32_sfloat: {
    auto c = load<channels<float>>(p);
    for (int k = 0; k < 4; ++k) t.f[k] = c.c[k];
    break;
  }
  }
  return t;
}

// The element as the accessor's DataT (int4, uint4, float4 or half4). Reading a float format
// into an integer vector, or the other way round, is undefined in OpenCL; syclone converts the
// values numerically.
template <typename DataT>
SYCLONE_INLINE DataT to_data(const texel_value& t, image_format f) {
  using E = typename DataT::element_type;
  DataT r;
  const bool integer = image_format_is_integer(f);
  const bool is_unsigned = f == image_format::r8g8b8a8_uint ||
                           f == image_format::r16g16b16a16_uint ||
                           f == image_format::r32b32g32a32_uint;
  for (int k = 0; k < 4; ++k) {
    if (!integer)
      r[k] = static_cast<E>(t.f[k]);
    else if (is_unsigned)
      r[k] = static_cast<E>(static_cast<std::uint32_t>(t.i[k]));
    else
      r[k] = static_cast<E>(t.i[k]);
  }
  return r;
}

template <typename DataT>
SYCLONE_INLINE void encode(std::byte* p, image_format f, const DataT& v) {
  using E = typename DataT::element_type;
  using wide = std::conditional_t<std::is_same_v<E, half>, float, E>;
  auto channel = [&](int k) { return static_cast<wide>(v[k]); };
  switch (f) {
  case image_format::r8g8b8a8_unorm:
  case image_format::b8g8r8a8_unorm: {
    channels<std::uint8_t> c;
    for (int k = 0; k < 4; ++k)
      c.c[k] = static_cast<std::uint8_t>(to_unorm(static_cast<float>(channel(k)), 255.0f));
    if (f == image_format::b8g8r8a8_unorm) {
      std::uint8_t r = c.c[0];
      c.c[0] = c.c[2];
      c.c[2] = r;
    }
    store(p, c);
    break;
  }
  case image_format::r16g16b16a16_unorm: {
    channels<std::uint16_t> c;
    for (int k = 0; k < 4; ++k)
      c.c[k] = static_cast<std::uint16_t>(to_unorm(static_cast<float>(channel(k)), 65535.0f));
    store(p, c);
    break;
  }
  case image_format::r8g8b8a8_sint: {
    channels<std::int8_t> c;
    for (int k = 0; k < 4; ++k) c.c[k] = static_cast<std::int8_t>(saturate(channel(k), -128, 127));
    store(p, c);
    break;
  }
  case image_format::r16g16b16a16_sint: {
    channels<std::int16_t> c;
    for (int k = 0; k < 4; ++k)
      c.c[k] = static_cast<std::int16_t>(saturate(channel(k), -32768, 32767));
    store(p, c);
    break;
  }
  case image_format::r32b32g32a32_sint: {
    channels<std::int32_t> c;
    for (int k = 0; k < 4; ++k)
      c.c[k] = static_cast<std::int32_t>(saturate(channel(k), INT32_MIN, INT32_MAX));
    store(p, c);
    break;
  }
  case image_format::r8g8b8a8_uint: {
    channels<std::uint8_t> c;
    for (int k = 0; k < 4; ++k) c.c[k] = static_cast<std::uint8_t>(saturate(channel(k), 0, 255));
    store(p, c);
    break;
  }
  case image_format::r16g16b16a16_uint: {
    channels<std::uint16_t> c;
    for (int k = 0; k < 4; ++k) c.c[k] = static_cast<std::uint16_t>(saturate(channel(k), 0, 65535));
    store(p, c);
    break;
  }
  case image_format::r32b32g32a32_uint: {
    channels<std::uint32_t> c;
    for (int k = 0; k < 4; ++k)
      c.c[k] = static_cast<std::uint32_t>(saturate(channel(k), 0, UINT32_MAX));
    store(p, c);
    break;
  }
  case image_format::r16b16g16a16_sfloat: {
    channels<std::uint16_t> c;
    for (int k = 0; k < 4; ++k) c.c[k] = half(static_cast<float>(channel(k))).to_bits();
    store(p, c);
    break;
  }
  case image_format::r32g32b32a32_sfloat: {
    channels<float> c;
    for (int k = 0; k < 4; ++k) c.c[k] = static_cast<float>(channel(k));
    store(p, c);
    break;
  }
  }
}

SYCLONE_INLINE std::byte* address(const image_view& v, std::int32_t x, std::int32_t y,
                                  std::int32_t z) {
  return v.data + static_cast<std::size_t>(x) * image_element_size(v.format) +
         static_cast<std::size_t>(y) * v.pitch[0] + static_cast<std::size_t>(z) * v.pitch[1];
}
SYCLONE_INLINE bool inside(const image_view& v, const std::int32_t* c) {
  for (int d = 0; d < 3; ++d)
    if (c[d] < 0 || c[d] >= v.extent[d]) return false;
  return true;
}

// The coordinates of a read or write: int / float, int2 / float2, int4 / float4 (the fourth
// element of a 3-dimensional coordinate is not used).
template <int Dimensions, typename T, typename CoordT>
SYCLONE_INLINE void coordinates(const CoordT& c, T* out) {
  out[0] = out[1] = out[2] = T(0);
  if constexpr (Dimensions == 1)
    out[0] = static_cast<T>(c);
  else
    for (int d = 0; d < Dimensions; ++d) out[d] = static_cast<T>(c[d]);
}

} // namespace texel

// SYCL 2020 4.7.6.13: the element at integer coordinates. Outside the image (undefined in
// OpenCL) a read gives zeros and a write does nothing, so a wrong coordinate never touches
// memory beyond the image.
template <typename DataT, int Dimensions, typename CoordT>
SYCLONE_INLINE DataT image_read(const image_view& v, const CoordT& coords) {
  std::int32_t c[3];
  texel::coordinates<Dimensions>(coords, c);
  if (!texel::inside(v, c)) return DataT(0);
  return texel::to_data<DataT>(texel::decode(texel::address(v, c[0], c[1], c[2]), v.format),
                               v.format);
}
template <typename DataT, int Dimensions, typename CoordT>
SYCLONE_INLINE void image_write(const image_view& v, const CoordT& coords, const DataT& color) {
  std::int32_t c[3];
  texel::coordinates<Dimensions>(coords, c);
  if (!texel::inside(v, c)) return;
  texel::encode(texel::address(v, c[0], c[1], c[2]), v.format, color);
}

namespace texel {

// OpenCL 1.2 8.2: the element index of coordinate s in a dimension of `w` elements for nearest
// filtering; false where the addressing mode gives the border colour (clamp).
SYCLONE_INLINE bool nearest_index(float s, std::int32_t w, image_sampler sm, std::int32_t& i) {
  const float fw = static_cast<float>(w);
  const bool normalized = sm.coordinate == coordinate_normalization_mode::normalized;
  switch (sm.addressing) {
  case addressing_mode::repeat: {
    // Defined for normalized coordinates only; unnormalized ones are normalized first.
    if (!normalized) s /= fw;
    float u = (s - __builtin_floorf(s)) * fw;
    i = static_cast<std::int32_t>(__builtin_floorf(u));
    if (i > w - 1) i -= w;
    if (i < 0) i = 0;
    return true;
  }
  case addressing_mode::mirrored_repeat: {
    if (!normalized) s /= fw;
    float sp = 2.0f * __builtin_rintf(0.5f * s);
    sp = __builtin_fabsf(s - sp);
    float u = sp * fw;
    i = static_cast<std::int32_t>(__builtin_floorf(u));
    if (i > w - 1) i = w - 1;
    if (i < 0) i = 0;
    return true;
  }
  default: {
    float u = normalized ? s * fw : s;
    // Far outside the image every clamping mode gives the edge or the border: keep the float in
    // the range of int first.
    u = u != u ? 0.0f : u < -1.0f ? -1.0f : u > fw ? fw : u;
    i = static_cast<std::int32_t>(__builtin_floorf(u));
    if (sm.addressing == addressing_mode::clamp) return i >= 0 && i < w;
    // clamp_to_edge; none promises coordinates inside the image and gets the same.
    i = i < 0 ? 0 : i > w - 1 ? w - 1 : i;
    return true;
  }
  }
}

// OpenCL 1.2 8.2: the two element indices (i0, i1) around coordinate s and the weight `a` of
// i1 for linear filtering; in0 / in1 false where that index gives the border colour.
struct linear_taps {
  std::int32_t i0, i1;
  float a;
  bool in0, in1;
};
SYCLONE_INLINE linear_taps linear_index(float s, std::int32_t w, image_sampler sm) {
  const float fw = static_cast<float>(w);
  const bool normalized = sm.coordinate == coordinate_normalization_mode::normalized;
  linear_taps t{0, 0, 0.0f, true, true};
  auto frac = [](float x) {
    float f = x - __builtin_floorf(x);
    return f < 0x1.fffffep-1f ? f : 0x1.fffffep-1f;
  };
  switch (sm.addressing) {
  case addressing_mode::repeat: {
    if (!normalized) s /= fw;
    float u = (s - __builtin_floorf(s)) * fw;
    t.i0 = static_cast<std::int32_t>(__builtin_floorf(u - 0.5f));
    t.i1 = t.i0 + 1;
    if (t.i0 < 0) t.i0 += w;
    if (t.i1 > w - 1) t.i1 -= w;
    t.a = frac(u - 0.5f);
    break;
  }
  case addressing_mode::mirrored_repeat: {
    if (!normalized) s /= fw;
    float sp = 2.0f * __builtin_rintf(0.5f * s);
    sp = __builtin_fabsf(s - sp);
    float u = sp * fw;
    t.i0 = static_cast<std::int32_t>(__builtin_floorf(u - 0.5f));
    t.i1 = t.i0 + 1;
    if (t.i0 < 0) t.i0 = 0;
    if (t.i1 > w - 1) t.i1 = w - 1;
    t.a = frac(u - 0.5f);
    break;
  }
  default: {
    float u = normalized ? s * fw : s;
    u = u != u ? 0.0f : u < -2.0f ? -2.0f : u > fw + 1.0f ? fw + 1.0f : u;
    float base = __builtin_floorf(u - 0.5f);
    t.i0 = static_cast<std::int32_t>(base);
    t.i1 = t.i0 + 1;
    t.a = frac(u - 0.5f);
    if (sm.addressing == addressing_mode::clamp) {
      t.in0 = t.i0 >= 0 && t.i0 < w;
      t.in1 = t.i1 >= 0 && t.i1 < w;
    } else {
      t.i0 = t.i0 < 0 ? 0 : t.i0 > w - 1 ? w - 1 : t.i0;
      t.i1 = t.i1 < 0 ? 0 : t.i1 > w - 1 ? w - 1 : t.i1;
    }
    break;
  }
  }
  // Repeat arithmetic on coordinates far outside can still leave the range: stay in memory.
  t.i0 = t.i0 < 0 ? 0 : t.i0 > w - 1 ? w - 1 : t.i0;
  t.i1 = t.i1 < 0 ? 0 : t.i1 > w - 1 ? w - 1 : t.i1;
  return t;
}

} // namespace texel

// SYCL 2020 4.7.6.14, 4.7.8: the sampled element at float coordinates. The border colour of
// addressing_mode::clamp is (0, 0, 0, 0): every SYCL image format has an alpha channel.
template <typename DataT, int Dimensions, typename CoordT>
SYCLONE_INLINE DataT image_sample(const image_view& v, image_sampler sm, const CoordT& coords) {
  float s[3];
  texel::coordinates<Dimensions>(coords, s);
  if (sm.filtering == filtering_mode::nearest) {
    std::int32_t c[3] = {0, 0, 0};
#pragma unroll
    for (int d = 0; d < Dimensions; ++d)
      if (!texel::nearest_index(s[d], v.extent[d], sm, c[d])) return DataT(0);
    return texel::to_data<DataT>(texel::decode(texel::address(v, c[0], c[1], c[2]), v.format),
                                 v.format);
  }
  // Linear: the weighted sum of the 2^Dimensions elements around the coordinate, in float.
  texel::linear_taps t[3] = {
      {0, 0, 0.0f, true, false}, {0, 0, 0.0f, true, false}, {0, 0, 0.0f, true, false}};
  // Fully unrolled, so that the per-dimension taps stay in registers (a GPU's dynamically
  // indexed arrays live in local memory).
#pragma unroll
  for (int d = 0; d < Dimensions; ++d) t[d] = texel::linear_index(s[d], v.extent[d], sm);
  float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  constexpr int corners = 1 << Dimensions;
#pragma unroll
  for (int corner = 0; corner < corners; ++corner) {
    float weight = 1.0f;
    std::int32_t c[3] = {0, 0, 0};
    bool border = false;
#pragma unroll
    for (int d = 0; d < Dimensions; ++d) {
      const bool upper = (corner >> d) & 1;
      weight *= upper ? t[d].a : 1.0f - t[d].a;
      c[d] = upper ? t[d].i1 : t[d].i0;
      border |= !(upper ? t[d].in1 : t[d].in0);
    }
    if (border) continue; // the border colour adds nothing
    texel_value e = texel::decode(texel::address(v, c[0], c[1], c[2]), v.format);
    for (int k = 0; k < 4; ++k) sum[k] += weight * e.f[k];
  }
  texel_value r{};
  for (int k = 0; k < 4; ++k) r.f[k] = sum[k];
  return texel::to_data<DataT>(r, v.format);
}

} // namespace detail
SYCLONE_END_NAMESPACE
