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

// How the channels of an element are stored: their type, how many there are, and which stored
// channel each of r, g, b and a comes from (SYCL 2020 image_format, and the channel orders and
// types of SYCL 1.2.1's image class, <sycl/image_legacy.hpp>).
enum class texel_type : std::uint8_t {
  snorm8,
  snorm16,
  unorm8,
  unorm16,
  unorm565,    // packed in 16 bits: r 15..11, g 10..5, b 4..0
  unorm555,    // packed in 16 bits: r 14..10, g 9..5, b 4..0
  unorm101010, // packed in 32 bits: r 29..20, g 19..10, b 9..0
  sint8,
  sint16,
  sint32,
  uint8,
  uint16,
  uint32,
  fp16,
  fp32
};
struct texel_layout {
  texel_type type = texel_type::unorm8;
  std::uint8_t channels = 4;            // stored channels (1 for packed types)
  std::int8_t source[4] = {0, 1, 2, 3}; // stored channel of r, g, b, a; -1: 0 for r, g, b, 1 for a
  std::uint8_t element_size = 4;        // bytes
  // The border colour's alpha (addressing_mode::clamp): 1 for the orders without alpha, whose
  // reads give alpha 1 (OpenCL 1.2 8.3: r, rg, rgb, luminance), else 0.
  std::uint8_t border_alpha = 0;
};

constexpr bool texel_type_is_integer(texel_type t) {
  return t == texel_type::sint8 || t == texel_type::sint16 || t == texel_type::sint32 ||
         t == texel_type::uint8 || t == texel_type::uint16 || t == texel_type::uint32;
}
constexpr bool texel_type_is_packed(texel_type t) {
  return t == texel_type::unorm565 || t == texel_type::unorm555 || t == texel_type::unorm101010;
}
constexpr std::uint8_t texel_type_size(texel_type t) {
  switch (t) {
  case texel_type::snorm8:
  case texel_type::unorm8:
  case texel_type::sint8:
  case texel_type::uint8:
    return 1;
  case texel_type::snorm16:
  case texel_type::unorm16:
  case texel_type::unorm565:
  case texel_type::unorm555:
  case texel_type::sint16:
  case texel_type::uint16:
  case texel_type::fp16:
    return 2;
  default:
    return 4;
  }
}

// The layout of a SYCL 2020 image_format: four channels, RGBA or BGRA.
constexpr texel_layout layout_of(image_format f) {
  texel_layout l;
  switch (f) {
  case image_format::r8g8b8a8_unorm:
  case image_format::b8g8r8a8_unorm:
    l.type = texel_type::unorm8;
    break;
  case image_format::r16g16b16a16_unorm:
    l.type = texel_type::unorm16;
    break;
  case image_format::r8g8b8a8_sint:
    l.type = texel_type::sint8;
    break;
  case image_format::r16g16b16a16_sint:
    l.type = texel_type::sint16;
    break;
  case image_format::r32b32g32a32_sint:
    l.type = texel_type::sint32;
    break;
  case image_format::r8g8b8a8_uint:
    l.type = texel_type::uint8;
    break;
  case image_format::r16g16b16a16_uint:
    l.type = texel_type::uint16;
    break;
  case image_format::r32b32g32a32_uint:
    l.type = texel_type::uint32;
    break;
  case image_format::r16b16g16a16_sfloat:
    l.type = texel_type::fp16;
    break;
  case image_format::r32g32b32a32_sfloat:
    l.type = texel_type::fp32;
    break;
  }
  if (f == image_format::b8g8r8a8_unorm) {
    l.source[0] = 2;
    l.source[2] = 0;
  }
  l.element_size = static_cast<std::uint8_t>(4 * texel_type_size(l.type));
  return l;
}

// Where an accessor finds the image's elements on the device it is used on.
struct image_view {
  std::byte* data = nullptr;          // element {0, 0, 0}
  std::int32_t extent[3] = {1, 1, 1}; // width, height, depth in elements
  std::size_t pitch[2] = {0, 0};      // bytes from a row to the next, a slice to the next
  texel_layout layout;
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

// One stored channel, widened: float for normalized and floating-point types, the integer's
// value (or bits, for uint32) otherwise.
template <texel_type T>
SYCLONE_INLINE void decode_channel(const std::byte* p, float& f, std::int32_t& i) {
  if constexpr (T == texel_type::snorm8) {
    float x = static_cast<float>(load<std::int8_t>(p)) / 127.0f;
    f = x < -1.0f ? -1.0f : x;
  } else if constexpr (T == texel_type::snorm16) {
    float x = static_cast<float>(load<std::int16_t>(p)) / 32767.0f;
    f = x < -1.0f ? -1.0f : x;
  } else if constexpr (T == texel_type::unorm8) {
    f = static_cast<float>(load<std::uint8_t>(p)) / 255.0f;
  } else if constexpr (T == texel_type::unorm16) {
    f = static_cast<float>(load<std::uint16_t>(p)) / 65535.0f;
  } else if constexpr (T == texel_type::sint8) {
    i = load<std::int8_t>(p);
  } else if constexpr (T == texel_type::sint16) {
    i = load<std::int16_t>(p);
  } else if constexpr (T == texel_type::sint32 || T == texel_type::uint32) {
    i = load<std::int32_t>(p);
  } else if constexpr (T == texel_type::uint8) {
    i = load<std::uint8_t>(p);
  } else if constexpr (T == texel_type::uint16) {
    i = load<std::uint16_t>(p);
  } else if constexpr (T == texel_type::fp16) {
    f = static_cast<float>(half::from_bits(load<std::uint16_t>(p)));
  } else if constexpr (T == texel_type::fp32) {
    f = load<float>(p);
  }
}

// a[k] for a k known only at run time, as selects: a GPU keeps a dynamically indexed array in
// local memory, four selects stay in registers.
template <typename T>
SYCLONE_INLINE T pick(const T (&a)[4], int k) {
  return k == 0 ? a[0] : k == 1 ? a[1] : k == 2 ? a[2] : a[3];
}

// The stored channels of the element at p, then r, g, b, a from them (OpenCL 1.2 table 8.1:
// missing r, g and b read as 0, a missing alpha as 1).
template <texel_type T>
SYCLONE_INLINE texel_value decode_as(const std::byte* p, const texel_layout& l) {
  texel_value stored{};
  constexpr std::size_t size = texel_type_size(T);
  if (l.channels == 4) {
    // Four channels move as one access of the element's size (one vector on GPUs).
    using word =
        std::conditional_t<size == 1, std::uint32_t,
                           std::conditional_t<size == 2, std::uint64_t, channels<std::uint32_t>>>;
    word w = load<word>(p);
    const std::byte* q = reinterpret_cast<const std::byte*>(&w);
#pragma unroll
    for (int k = 0; k < 4; ++k) decode_channel<T>(q + k * size, stored.f[k], stored.i[k]);
  } else {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (k < l.channels) decode_channel<T>(p + k * size, stored.f[k], stored.i[k]);
  }
  texel_value t;
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    const int s = l.source[c];
    t.f[c] = s >= 0 ? pick(stored.f, s) : c == 3 ? 1.0f : 0.0f;
    t.i[c] = s >= 0 ? pick(stored.i, s) : c == 3 ? 1 : 0;
  }
  return t;
}

SYCLONE_INLINE texel_value decode_packed(const std::byte* p, texel_type type) {
  texel_value t{};
  if (type == texel_type::unorm101010) {
    std::uint32_t v = load<std::uint32_t>(p);
    t.f[0] = static_cast<float>((v >> 20) & 1023u) / 1023.0f;
    t.f[1] = static_cast<float>((v >> 10) & 1023u) / 1023.0f;
    t.f[2] = static_cast<float>(v & 1023u) / 1023.0f;
  } else {
    std::uint32_t v = load<std::uint16_t>(p);
    const bool is565 = type == texel_type::unorm565;
    t.f[0] = static_cast<float>((v >> (is565 ? 11 : 10)) & 31u) / 31.0f;
    t.f[1] = is565 ? static_cast<float>((v >> 5) & 63u) / 63.0f
                   : static_cast<float>((v >> 5) & 31u) / 31.0f;
    t.f[2] = static_cast<float>(v & 31u) / 31.0f;
  }
  t.f[3] = 1.0f;
  return t;
}

SYCLONE_INLINE texel_value decode(const std::byte* p, const texel_layout& l) {
  switch (l.type) {
  case texel_type::snorm8:
    return decode_as<texel_type::snorm8>(p, l);
  case texel_type::snorm16:
    return decode_as<texel_type::snorm16>(p, l);
  case texel_type::unorm8:
    return decode_as<texel_type::unorm8>(p, l);
  case texel_type::unorm16:
    return decode_as<texel_type::unorm16>(p, l);
  case texel_type::sint8:
    return decode_as<texel_type::sint8>(p, l);
  case texel_type::sint16:
    return decode_as<texel_type::sint16>(p, l);
  case texel_type::sint32:
    return decode_as<texel_type::sint32>(p, l);
  case texel_type::uint8:
    return decode_as<texel_type::uint8>(p, l);
  case texel_type::uint16:
    return decode_as<texel_type::uint16>(p, l);
  case texel_type::uint32:
    return decode_as<texel_type::uint32>(p, l);
  case texel_type::fp16:
    return decode_as<texel_type::fp16>(p, l);
  case texel_type::fp32:
    return decode_as<texel_type::fp32>(p, l);
  default:
    return decode_packed(p, l.type);
  }
}

// The element as the accessor's DataT (int4, uint4, float4 or half4). Reading a float format
// into an integer vector, or the other way round, is undefined in OpenCL; syclone converts the
// values numerically.
template <typename DataT>
SYCLONE_INLINE DataT to_data(const texel_value& t, const texel_layout& l) {
  using E = typename DataT::element_type;
  DataT r;
  const bool integer = texel_type_is_integer(l.type);
  const bool is_unsigned =
      l.type == texel_type::uint8 || l.type == texel_type::uint16 || l.type == texel_type::uint32;
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

// Channel value x (float for normalized and floating-point types) as stored by type T.
template <texel_type T, typename V>
SYCLONE_INLINE void encode_channel(std::byte* p, V x) {
  if constexpr (T == texel_type::snorm8) {
    float f = static_cast<float>(x);
    f = f != f ? 0.0f : f < -1.0f ? -1.0f : f > 1.0f ? 1.0f : f;
    store(p, static_cast<std::int8_t>(__builtin_rintf(f * 127.0f)));
  } else if constexpr (T == texel_type::snorm16) {
    float f = static_cast<float>(x);
    f = f != f ? 0.0f : f < -1.0f ? -1.0f : f > 1.0f ? 1.0f : f;
    store(p, static_cast<std::int16_t>(__builtin_rintf(f * 32767.0f)));
  } else if constexpr (T == texel_type::unorm8) {
    store(p, static_cast<std::uint8_t>(to_unorm(static_cast<float>(x), 255.0f)));
  } else if constexpr (T == texel_type::unorm16) {
    store(p, static_cast<std::uint16_t>(to_unorm(static_cast<float>(x), 65535.0f)));
  } else if constexpr (T == texel_type::sint8) {
    store(p, static_cast<std::int8_t>(saturate(x, -128, 127)));
  } else if constexpr (T == texel_type::sint16) {
    store(p, static_cast<std::int16_t>(saturate(x, -32768, 32767)));
  } else if constexpr (T == texel_type::sint32) {
    store(p, static_cast<std::int32_t>(saturate(x, INT32_MIN, INT32_MAX)));
  } else if constexpr (T == texel_type::uint8) {
    store(p, static_cast<std::uint8_t>(saturate(x, 0, 255)));
  } else if constexpr (T == texel_type::uint16) {
    store(p, static_cast<std::uint16_t>(saturate(x, 0, 65535)));
  } else if constexpr (T == texel_type::uint32) {
    store(p, static_cast<std::uint32_t>(saturate(x, 0, UINT32_MAX)));
  } else if constexpr (T == texel_type::fp16) {
    store(p, half(static_cast<float>(x)).to_bits());
  } else if constexpr (T == texel_type::fp32) {
    store(p, static_cast<float>(x));
  }
}

// Stored channel k takes the value of the first of r, g, b, a that comes from it (the
// intensity and luminance orders store r).
template <texel_type T, typename DataT>
SYCLONE_INLINE void encode_as(std::byte* p, const texel_layout& l, const DataT& v) {
  using E = typename DataT::element_type;
  using wide = std::conditional_t<std::is_same_v<E, half>, float, E>;
  constexpr std::size_t size = texel_type_size(T);
  const wide value[4] = {static_cast<wide>(v[0]), static_cast<wide>(v[1]), static_cast<wide>(v[2]),
                         static_cast<wide>(v[3])};
  auto channel_value = [&](int k) {
    return l.source[0] == k   ? value[0]
           : l.source[1] == k ? value[1]
           : l.source[2] == k ? value[2]
                              : value[3];
  };
  if (l.channels == 4) {
    using word =
        std::conditional_t<size == 1, std::uint32_t,
                           std::conditional_t<size == 2, std::uint64_t, channels<std::uint32_t>>>;
    word w;
    std::byte* q = reinterpret_cast<std::byte*>(&w);
#pragma unroll
    for (int k = 0; k < 4; ++k) encode_channel<T>(q + k * size, channel_value(k));
    store(p, w);
    return;
  }
#pragma unroll
  for (int k = 0; k < 4; ++k)
    if (k < l.channels) encode_channel<T>(p + k * size, channel_value(k));
}

template <typename DataT>
SYCLONE_INLINE void encode_packed(std::byte* p, texel_type type, const DataT& v) {
  auto code = [&](int c, float largest) { return to_unorm(static_cast<float>(v[c]), largest); };
  if (type == texel_type::unorm101010)
    store(p, static_cast<std::uint32_t>((code(0, 1023.0f) << 20) | (code(1, 1023.0f) << 10) |
                                        code(2, 1023.0f)));
  else if (type == texel_type::unorm565)
    store(p, static_cast<std::uint16_t>((code(0, 31.0f) << 11) | (code(1, 63.0f) << 5) |
                                        code(2, 31.0f)));
  else
    store(p, static_cast<std::uint16_t>((code(0, 31.0f) << 10) | (code(1, 31.0f) << 5) |
                                        code(2, 31.0f)));
}

template <typename DataT>
SYCLONE_INLINE void encode(std::byte* p, const texel_layout& l, const DataT& v) {
  switch (l.type) {
  case texel_type::snorm8:
    return encode_as<texel_type::snorm8>(p, l, v);
  case texel_type::snorm16:
    return encode_as<texel_type::snorm16>(p, l, v);
  case texel_type::unorm8:
    return encode_as<texel_type::unorm8>(p, l, v);
  case texel_type::unorm16:
    return encode_as<texel_type::unorm16>(p, l, v);
  case texel_type::sint8:
    return encode_as<texel_type::sint8>(p, l, v);
  case texel_type::sint16:
    return encode_as<texel_type::sint16>(p, l, v);
  case texel_type::sint32:
    return encode_as<texel_type::sint32>(p, l, v);
  case texel_type::uint8:
    return encode_as<texel_type::uint8>(p, l, v);
  case texel_type::uint16:
    return encode_as<texel_type::uint16>(p, l, v);
  case texel_type::uint32:
    return encode_as<texel_type::uint32>(p, l, v);
  case texel_type::fp16:
    return encode_as<texel_type::fp16>(p, l, v);
  case texel_type::fp32:
    return encode_as<texel_type::fp32>(p, l, v);
  default:
    return encode_packed(p, l.type, v);
  }
}

SYCLONE_INLINE std::byte* address(const image_view& v, std::int32_t x, std::int32_t y,
                                  std::int32_t z) {
  return v.data + static_cast<std::size_t>(x) * v.layout.element_size +
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
  return texel::to_data<DataT>(texel::decode(texel::address(v, c[0], c[1], c[2]), v.layout),
                               v.layout);
}
template <typename DataT, int Dimensions, typename CoordT>
SYCLONE_INLINE void image_write(const image_view& v, const CoordT& coords, const DataT& color) {
  std::int32_t c[3];
  texel::coordinates<Dimensions>(coords, c);
  if (!texel::inside(v, c)) return;
  texel::encode(texel::address(v, c[0], c[1], c[2]), v.layout, color);
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

namespace texel {
template <typename DataT>
SYCLONE_INLINE DataT border(const texel_layout& l) {
  using E = typename DataT::element_type;
  return DataT(E(0), E(0), E(0), static_cast<E>(l.border_alpha));
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
      if (!texel::nearest_index(s[d], v.extent[d], sm, c[d])) return texel::border<DataT>(v.layout);
    return texel::to_data<DataT>(texel::decode(texel::address(v, c[0], c[1], c[2]), v.layout),
                                 v.layout);
  }
  // Linear: the weighted sum of the 2^Dimensions elements around the coordinate, in float.
  texel::linear_taps t[3] = {
      {0, 0, 0.0f, true, false}, {0, 0, 0.0f, true, false}, {0, 0, 0.0f, true, false}};
  // The per-dimension taps stay in registers (a GPU keeps dynamically indexed arrays in local
  // memory): the dimension loops are unrolled, and the corner loop is not, so that the format's
  // decoding is there once.
#pragma unroll
  for (int d = 0; d < Dimensions; ++d) t[d] = texel::linear_index(s[d], v.extent[d], sm);
  float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  constexpr int corners = 1 << Dimensions;
#pragma nounroll
  for (int corner = 0; corner < corners; ++corner) {
    float weight = 1.0f;
    std::int32_t c[3] = {0, 0, 0};
    bool border = false;
    // Arithmetic rather than selects between the taps, which the optimizer would turn into
    // loads from a selected address (and the taps into local memory).
#pragma unroll
    for (int d = 0; d < Dimensions; ++d) {
      const std::int32_t upper = (corner >> d) & 1;
      const float fu = static_cast<float>(upper);
      weight *= fu * t[d].a + (1.0f - fu) * (1.0f - t[d].a);
      c[d] = t[d].i0 + upper * (t[d].i1 - t[d].i0);
      border |= (upper & !t[d].in1) | ((1 - upper) & !t[d].in0);
    }
    if (border) { // the border colour: (0, 0, 0, 0) or (0, 0, 0, 1)
      sum[3] += weight * static_cast<float>(v.layout.border_alpha);
      continue;
    }
    texel_value e = texel::decode(texel::address(v, c[0], c[1], c[2]), v.layout);
#pragma unroll
    for (int k = 0; k < 4; ++k) sum[k] += weight * e.f[k];
  }
  texel_value r{};
  for (int k = 0; k < 4; ++k) r.f[k] = sum[k];
  return texel::to_data<DataT>(r, v.layout);
}

} // namespace detail
SYCLONE_END_NAMESPACE
