// SYCL 2020 4.7.3 images, 4.7.6.13-14 image accessors and 4.7.8 samplers, computed in kernels and
// checked on the host: every image_format through a kernel's read and write accessors (decoding
// from raw bytes the host wrote, encoding checked in the bytes written back), sampling with every
// addressing mode, filtering mode and coordinate normalization against values worked out by hand
// and against a reference written from the OpenCL 1.2 sampling rules, host accessors, host-task
// accessors, dependencies between commands through images, pitches and write-back.
#include <sycl/sycl.hpp>

#include "expect.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace {

using sycl::image_format;

bool close(float a, float b, float tol) {
  return std::fabs(a - b) <= tol * std::fmax(1.0f, std::fabs(b));
}

// ---- formats ---------------------------------------------------------------------------------

enum class kind { unorm, sint, uint, sfloat };
struct format_info {
  image_format format;
  kind k;
  int bits; // per channel
  bool bgra;
  const char* name;
};
const format_info formats[] = {
    {image_format::r8g8b8a8_unorm, kind::unorm, 8, false, "r8g8b8a8_unorm"},
    {image_format::r16g16b16a16_unorm, kind::unorm, 16, false, "r16g16b16a16_unorm"},
    {image_format::r8g8b8a8_sint, kind::sint, 8, false, "r8g8b8a8_sint"},
    {image_format::r16g16b16a16_sint, kind::sint, 16, false, "r16g16b16a16_sint"},
    {image_format::r32b32g32a32_sint, kind::sint, 32, false, "r32b32g32a32_sint"},
    {image_format::r8g8b8a8_uint, kind::uint, 8, false, "r8g8b8a8_uint"},
    {image_format::r16g16b16a16_uint, kind::uint, 16, false, "r16g16b16a16_uint"},
    {image_format::r32b32g32a32_uint, kind::uint, 32, false, "r32b32g32a32_uint"},
    {image_format::r16b16g16a16_sfloat, kind::sfloat, 16, false, "r16b16g16a16_sfloat"},
    {image_format::r32g32b32a32_sfloat, kind::sfloat, 32, false, "r32g32b32a32_sfloat"},
    {image_format::b8g8r8a8_unorm, kind::unorm, 8, true, "b8g8r8a8_unorm"},
};

// Raw channel k of an element as stored (channel order of memory), little-endian.
std::int64_t load_raw(const std::byte* p, int bits, bool is_signed) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, bits / 8);
  if (is_signed && bits < 64 && (v >> (bits - 1)) & 1) v |= ~std::uint64_t(0) << bits;
  return static_cast<std::int64_t>(v);
}
void store_raw(std::byte* p, int bits, std::uint64_t v) {
  std::memcpy(p, &v, bits / 8);
}

// The test's own decoding of channel c (RGBA order) of the element at p, as a double.
double reference_decode(const format_info& f, const std::byte* p, int c) {
  int mem = f.bgra && (c == 0 || c == 2) ? 2 - c : c;
  const std::byte* q = p + mem * f.bits / 8;
  switch (f.k) {
  case kind::unorm:
    return double(load_raw(q, f.bits, false)) / double((1ull << f.bits) - 1);
  case kind::sint:
    return double(load_raw(q, f.bits, true));
  case kind::uint:
    return double(load_raw(q, f.bits, false));
  case kind::sfloat:
    if (f.bits == 16) return float(sycl::half::from_bits(std::uint16_t(load_raw(q, 16, false))));
    float x;
    std::memcpy(&x, q, 4);
    return x;
  }
  return 0;
}

// The element pattern the host writes: codes that cover each format's range.
void fill_pattern(const format_info& f, std::byte* p, int e) {
  for (int c = 0; c < 4; ++c) {
    std::byte* q = p + c * f.bits / 8;
    switch (f.k) {
    case kind::unorm:
    case kind::uint: {
      std::uint64_t max = (1ull << f.bits) - 1;
      std::uint64_t codes[] = {0, 1, max / 3, max / 2, max - 1, max};
      std::uint64_t v = f.k == kind::uint && f.bits == 32 ? std::uint64_t(e * 1000 + c * 7 + 3)
                                                          : codes[(e + c) % 6];
      store_raw(q, f.bits, v);
      break;
    }
    case kind::sint: {
      std::int64_t lo = -(std::int64_t(1) << (f.bits - 1)), hi = -lo - 1;
      std::int64_t codes[] = {lo, lo + 1, -1, 0, 1, hi / 3, hi};
      std::int64_t v = f.bits == 32 ? (e * 1000 + c * 7) - 9000 : codes[(e + 2 * c) % 7];
      store_raw(q, f.bits, static_cast<std::uint64_t>(v));
      break;
    }
    case kind::sfloat: {
      float x = (e - 7) * 0.5f + c * 0.25f;
      if (f.bits == 16)
        store_raw(q, 16, sycl::half(x).to_bits());
      else
        std::memcpy(q, &x, 4);
      break;
    }
    }
  }
}

// What the kernel writes for a value it read: float formats v * 0.5 + 0.125, signed v * 3 - 5,
// unsigned v * 3 + 7 (saturated by the image's write).
double transform(const format_info& f, double v) {
  switch (f.k) {
  case kind::unorm:
  case kind::sfloat:
    return double(float(v) * 0.5f + 0.125f);
  case kind::sint:
    return v * 3 - 5;
  case kind::uint:
    return v * 3 + 7;
  }
  return 0;
}
// The test's own encoding expectation: what channel value a write of x leaves, decoded again.
double expected_written(const format_info& f, double x) {
  switch (f.k) {
  case kind::unorm: {
    double max = double((1ull << f.bits) - 1);
    x = std::fmin(std::fmax(x, 0.0), 1.0);
    return std::nearbyint(x * max) / max;
  }
  case kind::sint: {
    double lo = -std::ldexp(1.0, f.bits - 1), hi = -lo - 1;
    return std::fmin(std::fmax(x, lo), hi);
  }
  case kind::uint:
    return std::fmin(std::fmax(x, 0.0), std::ldexp(1.0, f.bits) - 1);
  case kind::sfloat:
    return f.bits == 16 ? double(float(sycl::half(float(x)))) : double(float(x));
  }
  return 0;
}
double tolerance(const format_info& f) {
  switch (f.k) {
  case kind::unorm:
    return 1.0 / double((1ull << f.bits) - 1) + 1e-6; // a code either way (fma vs mul+add)
  case kind::sfloat:
    return f.bits == 16 ? 2e-3 : 1e-6;
  default:
    return 0;
  }
}

// A 2-D image of the format, once with the default pitch and once with a padded one: a kernel
// reads every element into a buffer and writes the transformed element to a second image, whose
// host memory receives it when the image goes.
template <typename DataT>
void round_trip(sycl::queue& q, const format_info& f, bool padded) {
  constexpr int W = 7, H = 3;
  const std::size_t element = 4 * f.bits / 8;
  const std::size_t pitch = padded ? W * element + 3 * element : W * element;
  std::vector<std::byte> src(pitch * H, std::byte{0x5a}), dst(pitch * H, std::byte{0xa5});
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) fill_pattern(f, src.data() + y * pitch + x * element, y * W + x);
  std::vector<DataT> seen(W * H);
  {
    sycl::unsampled_image<2> in =
        padded ? sycl::unsampled_image<2>(src.data(), f.format, sycl::range<2>(W, H),
                                          sycl::range<1>(pitch))
               : sycl::unsampled_image<2>(src.data(), f.format, sycl::range<2>(W, H));
    sycl::unsampled_image<2> out =
        padded ? sycl::unsampled_image<2>(dst.data(), f.format, sycl::range<2>(W, H),
                                          sycl::range<1>(pitch))
               : sycl::unsampled_image<2>(dst.data(), f.format, sycl::range<2>(W, H));
    EXPECT(in.get_pitch()[0] == pitch);
    EXPECT(in.byte_size() == pitch * H);
    EXPECT(in.size() == std::size_t(W * H));
    sycl::buffer<DataT, 1> seen_buf(seen.data(), sycl::range<1>(W * H));
    const bool is_float = f.k == kind::unorm || f.k == kind::sfloat;
    const bool is_signed = f.k == kind::sint;
    q.submit([&](sycl::handler& h) {
      auto r = in.get_access<DataT, sycl::access_mode::read>(h);
      auto w = out.get_access<DataT, sycl::access_mode::write>(h);
      sycl::accessor s(seen_buf, h, sycl::write_only);
      h.parallel_for(sycl::range<2>(W, H), [=](sycl::item<2> it) {
        int x = static_cast<int>(it[0]), y = static_cast<int>(it[1]);
        DataT v = r.read(sycl::int2(x, y));
        s[y * W + x] = v;
        DataT t;
        using E = typename DataT::element_type;
        for (int c = 0; c < 4; ++c) {
          if (is_float)
            t[c] = static_cast<E>(static_cast<float>(v[c]) * 0.5f + 0.125f);
          else if (is_signed)
            t[c] = static_cast<E>(v[c] * 3 - 5);
          else
            t[c] = static_cast<E>(v[c] * 3 + 7);
        }
        w.write(sycl::int2(x, y), t);
      });
    });
  } // both images wait for the kernel; `out` writes back to dst
  int bad = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      for (int c = 0; c < 4; ++c) {
        const std::byte* ps = src.data() + y * pitch + x * element;
        const std::byte* pd = dst.data() + y * pitch + x * element;
        double want = reference_decode(f, ps, c);
        double got = double(seen[y * W + x][c]);
        // Reading decodes exactly (up to float rounding); half4 rounds to half.
        double tol = f.k == kind::unorm || f.k == kind::sfloat ? 1e-6 : 0;
        if (std::is_same_v<typename DataT::element_type, sycl::half>) tol = 2e-3;
        if (std::fabs(got - want) > tol * std::fmax(1.0, std::fabs(want))) {
          if (bad++ < 4)
            std::printf("FAIL %s%s read (%d,%d) channel %d: %g, expected %g\n", f.name,
                        padded ? " (padded)" : "", x, y, c, got, want);
        }
        double wrote = reference_decode(f, pd, c);
        double expect_w = expected_written(f, transform(f, want));
        if (std::fabs(wrote - expect_w) >
            tolerance(f) * std::fmax(1.0, std::fabs(expect_w)) + (tol > 1e-6 ? 2e-3 : 0)) {
          if (bad++ < 4)
            std::printf("FAIL %s%s write (%d,%d) channel %d: %g, expected %g\n", f.name,
                        padded ? " (padded)" : "", x, y, c, wrote, expect_w);
        }
      }
  failures += bad;
}

void check_formats(sycl::queue& q) {
  for (const auto& f : formats) {
    for (bool padded : {false, true}) {
      switch (f.k) {
      case kind::sint:
        round_trip<sycl::int4>(q, f, padded);
        break;
      case kind::uint:
        round_trip<sycl::uint4>(q, f, padded);
        break;
      default:
        round_trip<sycl::float4>(q, f, padded);
        if (!padded) round_trip<sycl::half4>(q, f, padded);
        break;
      }
    }
  }
}

// ---- sampling ----------------------------------------------------------------------------------

// A 1-D image of four elements 10, 20, 30, 40 (in every channel, scaled per channel), sampled
// at coordinates where the expected values were worked out by hand from OpenCL 1.2 8.2.
struct hand_case {
  sycl::addressing_mode a;
  sycl::coordinate_normalization_mode n;
  sycl::filtering_mode f;
  float coord;
  float expected;
};
void check_sampling_by_hand(sycl::queue& q) {
  using am = sycl::addressing_mode;
  using nm = sycl::coordinate_normalization_mode;
  using fm = sycl::filtering_mode;
  const hand_case cases[] = {
      // nearest, unnormalized: floor(u)
      {am::clamp_to_edge, nm::unnormalized, fm::nearest, 2.9f, 30},
      {am::clamp_to_edge, nm::unnormalized, fm::nearest, -3.0f, 10},
      {am::clamp_to_edge, nm::unnormalized, fm::nearest, 4.5f, 40},
      {am::clamp, nm::unnormalized, fm::nearest, 4.5f, 0},  // border
      {am::clamp, nm::unnormalized, fm::nearest, -0.5f, 0}, // border
      {am::clamp, nm::unnormalized, fm::nearest, 0.0f, 10},
      {am::none, nm::unnormalized, fm::nearest, 1.5f, 20},
      // nearest, normalized: u = s * 4
      {am::clamp_to_edge, nm::normalized, fm::nearest, 0.6f, 30},
      {am::repeat, nm::normalized, fm::nearest, 1.3f, 20},           // u = 0.3 * 4 = 1.2
      {am::repeat, nm::normalized, fm::nearest, -0.1f, 40},          // 0.9 * 4 = 3.6
      {am::mirrored_repeat, nm::normalized, fm::nearest, 1.3f, 30},  // |1.3 - 2| * 4 = 2.8
      {am::mirrored_repeat, nm::normalized, fm::nearest, -0.3f, 20}, // 0.3 * 4 = 1.2
      // linear, unnormalized: i0 = floor(u - 0.5), a = frac(u - 0.5)
      {am::clamp_to_edge, nm::unnormalized, fm::linear, 1.0f, 15},
      {am::clamp_to_edge, nm::unnormalized, fm::linear, 2.25f, 27.5f},
      {am::clamp_to_edge, nm::unnormalized, fm::linear, 0.25f, 10}, // both taps clamp to 0
      {am::clamp, nm::unnormalized, fm::linear, 0.25f, 7.5f},       // 0.25 * 0 + 0.75 * 10
      {am::clamp, nm::unnormalized, fm::linear, 4.25f, 10},         // 0.25 * 40 + 0.75 * 0
      {am::clamp_to_edge, nm::unnormalized, fm::linear, 4.25f, 40},
      // linear, normalized
      {am::clamp_to_edge, nm::normalized, fm::linear, 0.5f, 25}, // u = 2: halfway 20..30
      {am::repeat, nm::normalized, fm::linear, 0.0625f, 17.5f},  // taps 3 (40) and 0 (10)
      {am::repeat, nm::normalized, fm::linear, 1.0625f, 17.5f},
      {am::mirrored_repeat, nm::normalized, fm::linear, -0.0625f, 10}, // mirrored to 0.25
      {am::mirrored_repeat, nm::normalized, fm::linear, 1.2f, 37},     // 0.8: u = 3.2, 30..40
  };
  const int n = sizeof(cases) / sizeof(cases[0]);
  float texels[4 * 4];
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 4; ++c) texels[i * 4 + c] = (10.0f * (i + 1)) * (c + 1);
  std::vector<sycl::float4> got(n);
  {
    sycl::buffer<sycl::float4> out(got.data(), sycl::range<1>(n));
    for (int k = 0; k < n; ++k) {
      sycl::sampled_image<1> img(texels, image_format::r32g32b32a32_sfloat,
                                 sycl::image_sampler{cases[k].a, cases[k].n, cases[k].f},
                                 sycl::range<1>(4));
      q.submit([&](sycl::handler& h) {
        sycl::sampled_image_accessor<sycl::float4, 1> acc(img, h);
        sycl::accessor o(out, h, sycl::write_only);
        float coord = cases[k].coord;
        h.single_task([=] { o[k] = acc.read(coord); });
      });
    }
  }
  for (int k = 0; k < n; ++k)
    for (int c = 0; c < 4; ++c)
      if (!close(got[k][c], cases[k].expected * (c + 1), 1e-5f)) {
        std::printf("FAIL hand case %d (addressing %d, %s, %s) at %g channel %d: %g, expected %g\n",
                    k, int(cases[k].a),
                    cases[k].n == sycl::coordinate_normalization_mode::normalized ? "normalized"
                                                                                  : "unnormalized",
                    cases[k].f == sycl::filtering_mode::linear ? "linear" : "nearest",
                    cases[k].coord, c, got[k][c], cases[k].expected * (c + 1));
        ++failures;
      }
}

// The reference: OpenCL 1.2 8.2, written out again in double for one dimension.
struct taps {
  int i0, i1;
  double a;
  bool in0, in1;
};
taps ref_taps(double s, int w, const sycl::image_sampler& sm) {
  using am = sycl::addressing_mode;
  bool norm = sm.coordinate == sycl::coordinate_normalization_mode::normalized;
  taps t{0, 0, 0, true, true};
  bool linear = sm.filtering == sycl::filtering_mode::linear;
  if (sm.addressing == am::repeat) {
    double sn = norm ? s : s / w;
    double u = (sn - std::floor(sn)) * w;
    if (!linear) {
      int i = int(std::floor(u));
      if (i > w - 1) i -= w;
      t.i0 = t.i1 = i;
      return t;
    }
    t.i0 = int(std::floor(u - 0.5));
    t.i1 = t.i0 + 1;
    if (t.i0 < 0) t.i0 += w;
    if (t.i1 > w - 1) t.i1 -= w;
    t.a = (u - 0.5) - std::floor(u - 0.5);
    return t;
  }
  if (sm.addressing == am::mirrored_repeat) {
    double sn = norm ? s : s / w;
    double sp = std::fabs(sn - 2.0 * std::nearbyint(0.5 * sn));
    double u = sp * w;
    if (!linear) {
      int i = std::min(int(std::floor(u)), w - 1);
      t.i0 = t.i1 = i;
      return t;
    }
    t.i0 = std::max(int(std::floor(u - 0.5)), 0);
    t.i1 = std::min(int(std::floor(u - 0.5)) + 1, w - 1);
    t.a = (u - 0.5) - std::floor(u - 0.5);
    return t;
  }
  double u = norm ? s * w : s;
  if (!linear) {
    int i = int(std::floor(u));
    if (sm.addressing == am::clamp) {
      t.in0 = t.in1 = i >= 0 && i < w;
      t.i0 = t.i1 = i;
    } else {
      t.i0 = t.i1 = std::min(std::max(i, 0), w - 1);
    }
    return t;
  }
  t.i0 = int(std::floor(u - 0.5));
  t.i1 = t.i0 + 1;
  t.a = (u - 0.5) - std::floor(u - 0.5);
  if (sm.addressing == am::clamp) {
    t.in0 = t.i0 >= 0 && t.i0 < w;
    t.in1 = t.i1 >= 0 && t.i1 < w;
  } else {
    t.i0 = std::min(std::max(t.i0, 0), w - 1);
    t.i1 = std::min(std::max(t.i1, 0), w - 1);
  }
  return t;
}

// 2-D and 3-D sampled images, sampled by a kernel at many coordinates (in and around the
// image) with every sampler, against the reference.
template <int D>
void check_sampling_reference(sycl::queue& q) {
  const int ext[3] = {5, D >= 2 ? 4 : 1, D == 3 ? 3 : 1};
  const int elements = ext[0] * ext[1] * ext[2];
  std::vector<float> texels(elements * 4);
  for (int e = 0; e < elements; ++e)
    for (int c = 0; c < 4; ++c) texels[e * 4 + c] = float((e * 37 + c * 11) % 53) - 20.0f;
  // Coordinates: normalized ones in [-1.25, 2.25], unnormalized ones in [-2, w + 2].
  const int points = 40;
  std::vector<float> frac(points * 3);
  for (int p = 0; p < points; ++p)
    for (int d = 0; d < 3; ++d) frac[p * 3 + d] = float(((p * 7 + d * 13) % 29)) / 8.0f - 1.25f;
  using am = sycl::addressing_mode;
  using nm = sycl::coordinate_normalization_mode;
  using fm = sycl::filtering_mode;
  for (am a : {am::mirrored_repeat, am::repeat, am::clamp_to_edge, am::clamp, am::none})
    for (nm n : {nm::normalized, nm::unnormalized})
      for (fm f : {fm::nearest, fm::linear}) {
        // repeat and mirrored_repeat are defined for normalized coordinates only (4.7.8); none
        // only for coordinates inside the image.
        if ((a == am::repeat || a == am::mirrored_repeat) && n == nm::unnormalized) continue;
        sycl::image_sampler sm{a, n, f};
        std::vector<float> coords(points * 4, 0.0f);
        for (int p = 0; p < points; ++p)
          for (int d = 0; d < D; ++d) {
            float t = frac[p * 3 + d];
            if (a == am::none) t = 0.05f + std::fabs(t) / 2.5f * 0.9f; // inside: [0.05, 0.95)
            coords[p * 4 + d] = n == nm::normalized ? t : t * ext[d];
          }
        std::vector<sycl::float4> got(points);
        {
          sycl::range<D> r = [&] {
            if constexpr (D == 1)
              return sycl::range<1>(ext[0]);
            else if constexpr (D == 2)
              return sycl::range<2>(ext[0], ext[1]);
            else
              return sycl::range<3>(ext[0], ext[1], ext[2]);
          }();
          sycl::sampled_image<D> img(texels.data(), image_format::r32g32b32a32_sfloat, sm, r);
          sycl::buffer<float> cb(coords.data(), sycl::range<1>(coords.size()));
          sycl::buffer<sycl::float4> out(got.data(), sycl::range<1>(points));
          q.submit([&](sycl::handler& h) {
            auto acc = img.template get_access<sycl::float4>(h);
            sycl::accessor c(cb, h, sycl::read_only);
            sycl::accessor o(out, h, sycl::write_only);
            h.parallel_for(sycl::range<1>(points), [=](sycl::id<1> i) {
              int p = static_cast<int>(i[0]);
              if constexpr (D == 1)
                o[i] = acc.read(c[p * 4]);
              else if constexpr (D == 2)
                o[i] = acc.read(sycl::float2(c[p * 4], c[p * 4 + 1]));
              else
                o[i] = acc.read(sycl::float4(c[p * 4], c[p * 4 + 1], c[p * 4 + 2], 0.0f));
            });
          });
        }
        int bad = 0;
        for (int p = 0; p < points; ++p) {
          taps t[3];
          for (int d = 0; d < 3; ++d)
            t[d] = d < D ? ref_taps(coords[p * 4 + d], ext[d], sm) : taps{0, 0, 0, true, false};
          for (int c = 0; c < 4; ++c) {
            double want = 0;
            for (int corner = 0; corner < (1 << D); ++corner) {
              double weight = 1;
              int idx[3] = {0, 0, 0};
              bool border = false;
              for (int d = 0; d < D; ++d) {
                bool up = (corner >> d) & 1;
                if (f == fm::nearest && up) weight = 0;
                double a_d = f == fm::nearest ? 0 : t[d].a;
                weight *= up ? a_d : 1 - a_d;
                idx[d] = up ? t[d].i1 : t[d].i0;
                border |= !(up ? t[d].in1 : t[d].in0);
              }
              if (weight == 0 || border) continue;
              want += weight * texels[((idx[2] * ext[1] + idx[1]) * ext[0] + idx[0]) * 4 + c];
            }
            if (!close(got[p][c], float(want), 1e-4f)) {
              if (bad++ < 3)
                std::printf("FAIL %d-D sampling (addressing %d, %s, %s) point %d (%g, %g, %g) "
                            "channel %d: %g, expected %g\n",
                            D, int(a), n == nm::normalized ? "normalized" : "unnormalized",
                            f == fm::linear ? "linear" : "nearest", p, coords[p * 4],
                            coords[p * 4 + 1], coords[p * 4 + 2], c, got[p][c], want);
            }
          }
        }
        failures += bad;
      }
}

// Sampling an 8-bit unorm image linearly: the result is the weighted codes / 255, not codes
// quantized first; and half4 accessors of the same.
void check_sampling_unorm(sycl::queue& q) {
  std::uint8_t texels[2 * 4] = {0, 51, 255, 255, 255, 102, 0, 255};
  sycl::sampled_image<1> img(texels, image_format::r8g8b8a8_unorm,
                             {sycl::addressing_mode::clamp_to_edge,
                              sycl::coordinate_normalization_mode::unnormalized,
                              sycl::filtering_mode::linear},
                             sycl::range<1>(2));
  sycl::float4 got_f;
  sycl::half4 got_h;
  {
    sycl::buffer<sycl::float4> bf(&got_f, 1);
    sycl::buffer<sycl::half4> bh(&got_h, 1);
    q.submit([&](sycl::handler& h) {
      auto a = img.get_access<sycl::float4>(h);
      auto b = img.get_access<sycl::half4>(h);
      sycl::accessor of(bf, h, sycl::write_only);
      sycl::accessor oh(bh, h, sycl::write_only);
      h.single_task([=] {
        of[0] = a.read(1.25f); // a = 0.75: 0.25 * first + 0.75 * second
        oh[0] = b.read(1.25f);
      });
    });
  }
  const float want[4] = {0.25f * 0 + 0.75f * 1, 0.25f * 0.2f + 0.75f * 0.4f, 0.25f * 1 + 0.75f * 0,
                         1.0f};
  for (int c = 0; c < 4; ++c) {
    EXPECT(close(got_f[c], want[c], 1e-5f));
    EXPECT(close(float(got_h[c]), want[c], 2e-3f));
  }
  // Host sampled accessor: the same sample on the host.
  sycl::host_sampled_image_accessor<sycl::float4, 1> ha(img);
  EXPECT(ha.size() == 2);
  sycl::float4 v = ha.read(1.25f);
  for (int c = 0; c < 4; ++c) EXPECT(close(v[c], want[c], 1e-5f));
}

// ---- host accessors, host tasks, dependencies, write-back ---------------------------------------

void check_host_access_and_dependencies(sycl::queue& q) {
  constexpr int W = 16, H = 8, D = 2;
  sycl::unsampled_image<3> img(image_format::r32b32g32a32_sint, sycl::range<3>(W, H, D));
  EXPECT(img.get_pitch()[0] == W * 16);
  EXPECT(img.get_pitch()[1] == W * H * 16);
  {
    sycl::host_unsampled_image_accessor<sycl::int4, 3, sycl::access_mode::write> w(img);
    for (int z = 0; z < D; ++z)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) w.write(sycl::int4(x, y, z, 0), sycl::int4(x, y, z, x * y + z));
  }
  // Three kernels in a row on an out-of-order queue: each reads what the last one wrote, through
  // the image's dependency tracking (the first one after the host accessor).
  sycl::unsampled_image<3> tmp(image_format::r32b32g32a32_sint, sycl::range<3>(W, H, D));
  for (int round = 0; round < 3; ++round) {
    sycl::unsampled_image<3>& from = round % 2 == 0 ? img : tmp;
    sycl::unsampled_image<3>& to = round % 2 == 0 ? tmp : img;
    q.submit([&](sycl::handler& h) {
      sycl::unsampled_image_accessor<sycl::int4, 3, sycl::access_mode::read> r(from, h);
      sycl::unsampled_image_accessor<sycl::int4, 3, sycl::access_mode::write> wr(to, h);
      h.parallel_for(sycl::range<3>(W, H, D), [=](sycl::item<3> it) {
        sycl::int4 c(static_cast<int>(it[0]), static_cast<int>(it[1]), static_cast<int>(it[2]), 0);
        sycl::int4 v = r.read(c);
        v.w() += 1;
        wr.write(c, v);
      });
    });
  }
  // After three rounds the newest contents are in tmp; a host accessor waits for the kernels.
  sycl::host_unsampled_image_accessor<const sycl::int4, 3> r(tmp);
  EXPECT(r.size() == std::size_t(W * H * D));
  int bad = 0;
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        sycl::int4 v = r.read(sycl::int4(x, y, z, 0));
        if (v.x() != x || v.y() != y || v.z() != z || v.w() != x * y + z + 3) ++bad;
      }
  EXPECT(bad == 0);
  // Outside the image a read gives zeros (OpenCL leaves it undefined; syclone touches no memory).
  sycl::int4 outside = r.read(sycl::int4(W, 0, 0, 0));
  EXPECT(outside.x() == 0 && outside.w() == 0);

  // A host task's accessors (image_target::host_task) see the host copy, in order with kernels.
  int from_task = -1;
  q.submit([&](sycl::handler& h) {
    sycl::unsampled_image_accessor<sycl::int4, 3, sycl::access_mode::read,
                                   sycl::image_target::host_task>
        a(img, h);
    h.host_task([=, &from_task] { from_task = a.read(sycl::int4(3, 2, 1, 0)).w(); });
  });
  q.wait();
  EXPECT(from_task == 3 * 2 + 1 + 2); // img holds the second round's result
}

void check_write_back(sycl::queue& q) {
  constexpr int N = 8;
  auto run_writer = [&](sycl::unsampled_image<1>& img, int base) {
    q.submit([&](sycl::handler& h) {
      auto w = img.get_access<sycl::uint4, sycl::access_mode::write>(h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
        unsigned v = base + static_cast<unsigned>(i[0]);
        w.write(static_cast<int>(i[0]), sycl::uint4(v, v + 1, v + 2, v + 3));
      });
    });
  };
  // To the host pointer the image was made with.
  std::vector<std::uint32_t> host(N * 4, 0);
  {
    sycl::unsampled_image<1> img(host.data(), image_format::r32b32g32a32_uint, sycl::range<1>(N));
    run_writer(img, 100);
  }
  EXPECT(host[0] == 100 && host[3] == 103 && host[(N - 1) * 4 + 2] == 100 + N - 1 + 2);
  // set_final_data to another pointer; the original stays as it was.
  std::vector<std::uint32_t> orig(N * 4, 7), other(N * 4, 0);
  {
    sycl::unsampled_image<1> img(orig.data(), image_format::r32b32g32a32_uint, sycl::range<1>(N));
    img.set_final_data(other.data());
    run_writer(img, 200);
  }
  EXPECT(orig[0] == 7 && other[0] == 200 && other[N * 4 - 1] == 200 + N - 1 + 3);
  // set_write_back(false): nothing goes back.
  std::vector<std::uint32_t> kept(N * 4, 9);
  {
    sycl::unsampled_image<1> img(kept.data(), image_format::r32b32g32a32_uint, sycl::range<1>(N));
    img.set_write_back(false);
    run_writer(img, 300);
  }
  EXPECT(kept[0] == 9 && kept[N * 4 - 1] == 9);
  // Shared host memory: written back there; set_final_data with a weak_ptr too.
  std::shared_ptr<void> shared(new std::uint32_t[N * 4](),
                               [](void* p) { delete[] static_cast<std::uint32_t*>(p); });
  {
    sycl::unsampled_image<1> img(shared, image_format::r32b32g32a32_uint, sycl::range<1>(N));
    run_writer(img, 400);
  }
  EXPECT(static_cast<std::uint32_t*>(shared.get())[4] == 401);
  auto target = std::make_shared<std::array<std::uint32_t, N * 4>>();
  {
    sycl::unsampled_image<1> img(image_format::r32b32g32a32_uint, sycl::range<1>(N));
    img.set_final_data(std::weak_ptr<std::array<std::uint32_t, N * 4>>(target));
    run_writer(img, 500);
  }
  EXPECT((*target)[0] == 500 && (*target)[5] == 502);
  // An output iterator of bytes.
  std::vector<std::uint32_t> via_iterator(N * 4, 0);
  {
    sycl::unsampled_image<1> img(image_format::r32b32g32a32_uint, sycl::range<1>(N));
    img.set_final_data(via_iterator.begin());
    run_writer(img, 600);
  }
  EXPECT(via_iterator[0] == 600 && via_iterator[N * 4 - 1] == 600 + N - 1 + 3);
  // use_host_ptr: the host memory is the storage.
  std::vector<std::uint32_t> direct(N * 4, 0);
  {
    sycl::unsampled_image<1> img(direct.data(), image_format::r32b32g32a32_uint, sycl::range<1>(N),
                                 {sycl::property::image::use_host_ptr{}});
    EXPECT(img.has_property<sycl::property::image::use_host_ptr>());
    run_writer(img, 700);
  }
  EXPECT(direct[0] == 700 && direct[7] == 704);
  // A sampled image never writes back, and reads host memory made with a shared_ptr<const void>.
  std::shared_ptr<const void> cshared(new float[4]{1, 2, 3, 4},
                                      [](const void* p) { delete[] static_cast<const float*>(p); });
  {
    sycl::sampled_image<1> img(cshared, image_format::r32g32b32a32_sfloat,
                               {sycl::addressing_mode::none,
                                sycl::coordinate_normalization_mode::unnormalized,
                                sycl::filtering_mode::nearest},
                               sycl::range<1>(1));
    sycl::float4 v;
    {
      sycl::buffer<sycl::float4> b(&v, 1);
      q.submit([&](sycl::handler& h) {
        auto a = img.get_access<sycl::float4>(h);
        sycl::accessor o(b, h, sycl::write_only);
        h.single_task([=] { o[0] = a.read(0.5f); });
      });
    }
    EXPECT(v[0] == 1 && v[3] == 4);
  }
}

// Common reference semantics and the queries (SYCL 2020 4.5.2, 4.7.3).
void check_semantics(sycl::queue& q) {
  sycl::unsampled_image<2> a(image_format::r8g8b8a8_unorm, sycl::range<2>(3, 2));
  sycl::unsampled_image<2> b = a, c(image_format::r8g8b8a8_unorm, sycl::range<2>(3, 2));
  EXPECT(a == b && a != c);
  EXPECT(std::hash<sycl::unsampled_image<2>>()(a) == std::hash<sycl::unsampled_image<2>>()(b));
  EXPECT(a.get_range() == sycl::range<2>(3, 2));
  EXPECT(a.size() == 6 && a.byte_size() == 24);
  {
    auto w = b.get_host_access<sycl::float4, sycl::access_mode::write>();
    w.write(sycl::int2(2, 1), sycl::float4(1.0f, 0.0f, 0.5f, 1.0f));
  }
  auto r = a.get_host_access<sycl::float4, sycl::access_mode::read>();
  sycl::float4 v = r.read(sycl::int2(2, 1));
  EXPECT(v[0] == 1.0f && v[1] == 0.0f && close(v[2], 128.0f / 255.0f, 1e-6f) && v[3] == 1.0f);
  auto r2 = r;
  EXPECT(r2 == r);
  sycl::host_unsampled_image_accessor<const sycl::float4, 2, sycl::access_mode::read> rc = r;
  EXPECT(rc.read(sycl::int2(2, 1))[0] == 1.0f);

  using host_read = sycl::host_unsampled_image_accessor<sycl::float4, 2, sycl::access_mode::read>;
  EXPECT(std::hash<host_read>()(r2) == std::hash<host_read>()(r));

  // sycl_ext_oneapi_weak_object: an image's weak object locks to an equal image while a copy
  // lives, and expires with the last one.
  std::optional<sycl::ext::oneapi::weak_object<sycl::sampled_image<1>>> weak;
  {
    float texel[4] = {1, 2, 3, 4};
    sycl::sampled_image<1> s(texel, image_format::r32g32b32a32_sfloat,
                             {sycl::addressing_mode::none,
                              sycl::coordinate_normalization_mode::unnormalized,
                              sycl::filtering_mode::nearest},
                             sycl::range<1>(1));
    weak.emplace(s);
    EXPECT(!weak->expired());
    auto locked = weak->lock();
    EXPECT(locked == s);
    EXPECT(locked.get_host_access<sycl::float4>().read(0.5f)[1] == 2.0f);
  }
  EXPECT(weak->expired());

  auto dev = q.get_device();
  EXPECT(dev.has(sycl::aspect::image));
  EXPECT(dev.get_info<sycl::info::device::image_support>());
  EXPECT(dev.get_info<sycl::info::device::image2d_max_width>() >= 8192);
  EXPECT(dev.get_info<sycl::info::device::image3d_max_depth>() >= 2048);
  EXPECT(dev.get_info<sycl::info::device::max_read_image_args>() >= 128);
  EXPECT(dev.get_info<sycl::info::device::max_write_image_args>() >= 8);
  EXPECT(dev.get_info<sycl::info::device::max_samplers>() >= 16);
}

} // namespace

int main() {
  sycl::queue q;
  std::printf("images on %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  check_semantics(q);
  check_formats(q);
  check_sampling_by_hand(q);
  check_sampling_reference<1>(q);
  check_sampling_reference<2>(q);
  check_sampling_reference<3>(q);
  check_sampling_unorm(q);
  check_host_access_and_dependencies(q);
  check_write_back(q);
  if (failures) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("images: every format, sampler and accessor checked\n");
  return 0;
}
