// SYCL 1.2.1's images, which SYCL 2020 removed and DPC++ still offers (<sycl/image_legacy.hpp>):
// sycl::image of every channel order with the channel types that fit it, written through
// target::host_image accessors and read back by kernels through target::image accessors (the
// stored channels, the missing ones' defaults, the quantization of each type and the memory
// order of argb / bgra / abgr), sampled reads with sycl::sampler (border colours of orders with
// and without alpha), target::image_array accessors over the layers of an image, and write-back.
#include <sycl/sycl.hpp>

#include "expect.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using order = sycl::image_channel_order;
using type = sycl::image_channel_type;

bool near(float a, float b, float tol) {
  return std::fabs(a - b) <= tol;
}

enum class kind { normalized, floating, sint, uint };

struct case_t {
  order o;
  type t;
  kind k;
  float levels; // the type's largest code for normalized values (0: exact)
  const char* name;
};

// What a write of w reads back as for the order (OpenCL 1.2 table 8.1: missing r, g, b read 0,
// a missing alpha 1).
sycl::float4 expected_channels(order o, sycl::float4 w) {
  switch (o) {
  case order::a:
    return {0, 0, 0, w[3]};
  case order::r:
  case order::rx:
    return {w[0], 0, 0, 1};
  case order::rg:
  case order::rgx:
    return {w[0], w[1], 0, 1};
  case order::ra:
    return {w[0], 0, 0, w[3]};
  case order::rgb:
  case order::rgbx:
    return {w[0], w[1], w[2], 1};
  case order::intensity:
    return {w[0], w[0], w[0], w[0]};
  case order::luminance:
    return {w[0], w[0], w[0], 1};
  default:
    return w;
  }
}

float quantize(float x, const case_t& c, int channel) {
  if (c.k != kind::normalized) return x;
  float levels = c.levels;
  if (c.t == type::unorm_short_565 && channel == 1) levels = 63.0f;
  // OpenCL 1.2 8.3.1: round to nearest even of x times the largest code; read as code / largest.
  return std::nearbyint(x * levels) / levels;
}

template <typename DataT>
void round_trip(sycl::queue& q, const case_t& c) {
  constexpr int W = 5, H = 3;
  const sycl::float4 written_f(0.2f, 0.4f, 0.6f, 0.8f);
  const sycl::float4 written_snorm(-0.5f, 0.25f, -1.0f, 0.75f);
  const bool snorm = c.t == type::snorm_int8 || c.t == type::snorm_int16;
  sycl::image<2> img(c.o, c.t, sycl::range<2>(W, H));
  EXPECT(img.get_range() == sycl::range<2>(W, H));
  EXPECT(img.get_count() == W * H);
  {
    sycl::accessor<DataT, 2, sycl::access_mode::write, sycl::target::host_image> w(img);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        DataT v;
        for (int k = 0; k < 4; ++k) {
          if constexpr (std::is_same_v<DataT, sycl::float4>)
            v[k] = (snorm ? written_snorm[k] : written_f[k]) * ((x + y) % 2 ? 1.0f : 0.5f);
          else if constexpr (std::is_same_v<DataT, sycl::int4>)
            v[k] = (x + 10 * y) * (k % 2 ? -1 : 1) + k;
          else
            v[k] = static_cast<unsigned>(x + 10 * y + k);
        }
        w.write(sycl::int2(x, y), v);
      }
  }
  std::vector<DataT> got(W * H);
  {
    sycl::buffer<DataT> out(got.data(), sycl::range<1>(W * H));
    q.submit([&](sycl::handler& h) {
      auto r = img.get_access<DataT, sycl::access_mode::read>(h);
      sycl::accessor o(out, h, sycl::write_only);
      h.parallel_for(sycl::range<2>(W, H), [=](sycl::item<2> it) {
        int x = static_cast<int>(it[0]), y = static_cast<int>(it[1]);
        o[y * W + x] = r.read(sycl::int2(x, y));
      });
    });
  }
  int bad = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      sycl::float4 w;
      for (int k = 0; k < 4; ++k) {
        if constexpr (std::is_same_v<DataT, sycl::float4>)
          w[k] = (snorm ? written_snorm[k] : written_f[k]) * ((x + y) % 2 ? 1.0f : 0.5f);
        else if constexpr (std::is_same_v<DataT, sycl::int4>)
          w[k] = float((x + 10 * y) * (k % 2 ? -1 : 1) + k);
        else
          w[k] = float(x + 10 * y + k);
      }
      sycl::float4 want = expected_channels(c.o, w);
      for (int k = 0; k < 4; ++k) {
        // Packed types have no alpha: it reads 1.
        float expect = c.t == type::unorm_short_565 || c.t == type::unorm_short_555 ||
                               c.t == type::unorm_int_101010
                           ? (k == 3 ? 1.0f : quantize(want[k], c, k))
                           : quantize(want[k], c, k);
        if (c.t == type::fp16) expect = float(sycl::half(expect));
        float g = float(got[y * W + x][k]);
        if (!near(g, expect, c.k == kind::normalized ? 1e-5f : 0.0f)) {
          if (bad++ < 3)
            std::printf("FAIL %s (%d,%d) channel %d: %g, expected %g\n", c.name, x, y, k, g,
                        expect);
        }
      }
    }
  failures += bad;
}

void check_orders_and_types(sycl::queue& q) {
  const float u8 = 255, u16 = 65535, s8 = 127, s16 = 32767;
  const case_t normalized[] = {
      {order::rgba, type::unorm_int8, kind::normalized, u8, "rgba unorm_int8"},
      {order::bgra, type::unorm_int8, kind::normalized, u8, "bgra unorm_int8"},
      {order::argb, type::unorm_int8, kind::normalized, u8, "argb unorm_int8"},
      {order::abgr, type::unorm_int16, kind::normalized, u16, "abgr unorm_int16"},
      {order::r, type::unorm_int8, kind::normalized, u8, "r unorm_int8"},
      {order::rx, type::unorm_int16, kind::normalized, u16, "rx unorm_int16"},
      {order::rg, type::snorm_int8, kind::normalized, s8, "rg snorm_int8"},
      {order::rgx, type::snorm_int16, kind::normalized, s16, "rgx snorm_int16"},
      {order::ra, type::unorm_int16, kind::normalized, u16, "ra unorm_int16"},
      {order::a, type::unorm_int8, kind::normalized, u8, "a unorm_int8"},
      {order::rgb, type::unorm_int8, kind::normalized, u8, "rgb unorm_int8 (3 bytes)"},
      {order::intensity, type::unorm_int8, kind::normalized, u8, "intensity unorm_int8"},
      {order::luminance, type::unorm_int16, kind::normalized, u16, "luminance unorm_int16"},
      {order::rgb, type::unorm_short_565, kind::normalized, 31, "rgb unorm_short_565"},
      {order::rgbx, type::unorm_short_555, kind::normalized, 31, "rgbx unorm_short_555"},
      {order::rgb, type::unorm_int_101010, kind::normalized, 1023, "rgb unorm_int_101010"},
      {order::rgba, type::fp16, kind::floating, 0, "rgba fp16"},
      {order::r, type::fp32, kind::floating, 0, "r fp32"},
      {order::rgb, type::fp32, kind::floating, 0, "rgb fp32 (12 bytes)"},
      {order::intensity, type::fp16, kind::floating, 0, "intensity fp16"},
  };
  for (const auto& c : normalized) round_trip<sycl::float4>(q, c);
  const case_t signed_cases[] = {
      {order::rgba, type::signed_int8, kind::sint, 0, "rgba signed_int8"},
      {order::rg, type::signed_int16, kind::sint, 0, "rg signed_int16"},
      {order::r, type::signed_int32, kind::sint, 0, "r signed_int32"},
      {order::argb, type::signed_int32, kind::sint, 0, "argb signed_int32"},
  };
  for (const auto& c : signed_cases) round_trip<sycl::int4>(q, c);
  const case_t unsigned_cases[] = {
      {order::rgba, type::unsigned_int8, kind::uint, 0, "rgba unsigned_int8"},
      {order::a, type::unsigned_int16, kind::uint, 0, "a unsigned_int16"},
      {order::bgra, type::unsigned_int32, kind::uint, 0, "bgra unsigned_int32"},
  };
  for (const auto& c : unsigned_cases) round_trip<sycl::uint4>(q, c);

  // The memory order of the four-channel orders, in the bytes written back.
  for (auto [o, first] : {std::pair{order::rgba, 'r'}, std::pair{order::argb, 'a'},
                          std::pair{order::bgra, 'b'}, std::pair{order::abgr, 'a'}}) {
    std::uint8_t bytes[4] = {};
    {
      sycl::image<1> img(bytes, o, type::unsigned_int8, sycl::range<1>(1));
      q.submit([&](sycl::handler& h) {
        sycl::accessor<sycl::uint4, 1, sycl::access_mode::write, sycl::target::image> w(img, h);
        h.single_task([=] { w.write(0, sycl::uint4('r', 'g', 'b', 'a')); });
      });
    }
    EXPECT(bytes[0] == first);
    if (o == order::abgr) EXPECT(bytes[1] == 'b' && bytes[3] == 'r');
    if (o == order::argb) EXPECT(bytes[1] == 'r' && bytes[3] == 'b');
    if (o == order::bgra) EXPECT(bytes[2] == 'r' && bytes[3] == 'a');
  }
}

// Sampled reads through the 1.2.1 sampler: int and float coordinates, and the border colour,
// (0, 0, 0, 1) for orders without alpha and (0, 0, 0, 0) for the others.
void check_sampler(sycl::queue& q) {
  sycl::sampler s(sycl::coordinate_normalization_mode::unnormalized, sycl::addressing_mode::clamp,
                  sycl::filtering_mode::linear);
  EXPECT(s.get_addressing_mode() == sycl::addressing_mode::clamp);
  EXPECT(s.get_filtering_mode() == sycl::filtering_mode::linear);
  EXPECT(s.get_coordinate_normalization_mode() ==
         sycl::coordinate_normalization_mode::unnormalized);
  sycl::sampler s2 = s;
  EXPECT(s2 == s && std::hash<sycl::sampler>()(s2) == std::hash<sycl::sampler>()(s));
  sycl::sampler nearest(sycl::coordinate_normalization_mode::unnormalized,
                        sycl::addressing_mode::clamp, sycl::filtering_mode::nearest);
  EXPECT(nearest != s);

  float r_texels[4] = {10, 20, 30, 40};
  float rgba_texels[4 * 4];
  for (int i = 0; i < 16; ++i) rgba_texels[i] = float(10 * (i / 4 + 1));
  sycl::image<1> r_img(r_texels, order::r, type::fp32, sycl::range<1>(4));
  sycl::image<1> rgba_img(rgba_texels, order::rgba, type::fp32, sycl::range<1>(4));
  sycl::float4 got[6];
  {
    sycl::buffer<sycl::float4> out(got, sycl::range<1>(6));
    q.submit([&](sycl::handler& h) {
      sycl::accessor<sycl::float4, 1, sycl::access_mode::read, sycl::target::image> r(r_img, h);
      sycl::accessor<sycl::float4, 1, sycl::access_mode::read, sycl::target::image> a(rgba_img, h);
      sycl::accessor o(out, h, sycl::write_only);
      h.single_task([=] {
        o[0] = r.read(2.25f, s);    // 0.25 * 20 + 0.75 * 30
        o[1] = r.read(0.25f, s);    // 0.25 * border + 0.75 * 10: alpha 0.25 * 1 + 0.75 * 1
        o[2] = r.read(-3, nearest); // border (0, 0, 0, 1)
        o[3] = a.read(-3, nearest); // border (0, 0, 0, 0)
        o[4] = a.read(0.25f, s);    // alpha: 0.25 * 0 + 0.75 * 10
        o[5] = r.read(1, nearest);  // an int coordinate with a sampler: element 1
      });
    });
  }
  EXPECT(near(got[0][0], 27.5f, 1e-4f) && near(got[0][3], 1.0f, 1e-6f));
  EXPECT(near(got[1][0], 7.5f, 1e-4f) && near(got[1][3], 1.0f, 1e-6f));
  EXPECT(got[2][0] == 0 && got[2][3] == 1.0f);
  EXPECT(got[3][0] == 0 && got[3][3] == 0.0f);
  EXPECT(near(got[4][3], 7.5f, 1e-4f));
  EXPECT(got[5][0] == 20.0f);
  // The same sampled read on the host.
  sycl::accessor<sycl::float4, 1, sycl::access_mode::read, sycl::target::host_image> h(r_img);
  EXPECT(near(h.read(2.25f, s)[0], 27.5f, 1e-4f));
  EXPECT(h.get_count() == 4 && h.get_size() == 16 && h.get_range() == sycl::range<1>(4));
}

// An image array: a 2-D image's rows as 1-D layers, and a 3-D image's slices as 2-D layers.
void check_image_array(sycl::queue& q) {
  constexpr int W = 4, L = 3;
  std::vector<std::int32_t> texels(W * L * 4);
  for (int l = 0; l < L; ++l)
    for (int x = 0; x < W; ++x)
      for (int k = 0; k < 4; ++k) texels[(l * W + x) * 4 + k] = 100 * l + 10 * x + k;
  sycl::int4 got[4];
  {
    sycl::image<2> layers(texels.data(), order::rgba, type::signed_int32, sycl::range<2>(W, L));
    sycl::buffer<sycl::int4> out(got, sycl::range<1>(4));
    q.submit([&](sycl::handler& h) {
      sycl::accessor<sycl::int4, 1, sycl::access_mode::read, sycl::target::image_array> a(layers,
                                                                                          h);
      sycl::accessor o(out, h, sycl::write_only);
      sycl::sampler smp(sycl::coordinate_normalization_mode::normalized,
                        sycl::addressing_mode::clamp_to_edge, sycl::filtering_mode::nearest);
      h.single_task([=] {
        o[0] = a[1].read(2);          // layer 1, element 2
        o[1] = a[2].read(0.99f, smp); // layer 2, normalized 0.99: element 3
        o[2] = a[7].read(1);          // the layer index is clamped: layer 2
        o[3] =
            sycl::int4(static_cast<int>(a.get_count()), static_cast<int>(a.get_range()[1]), 0, 0);
      });
    });
    // Writes through a layer, into a 3-D image's slice.
    sycl::image<3> volume(order::rgba, type::signed_int32, sycl::range<3>(2, 2, 3));
    q.submit([&](sycl::handler& h) {
      sycl::accessor<sycl::int4, 2, sycl::access_mode::write, sycl::target::image_array> a(volume,
                                                                                           h);
      h.parallel_for(sycl::range<3>(2, 2, 3), [=](sycl::item<3> it) {
        int x = static_cast<int>(it[0]), y = static_cast<int>(it[1]), z = static_cast<int>(it[2]);
        a[z].write(sycl::int2(x, y), sycl::int4(x, y, z, x + 2 * y + 4 * z));
      });
    });
    sycl::accessor<sycl::int4, 3, sycl::access_mode::read, sycl::target::host_image> r(volume);
    int bad = 0;
    for (int z = 0; z < 3; ++z)
      for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x)
          if (r.read(sycl::int4(x, y, z, 0)).w() != x + 2 * y + 4 * z) ++bad;
    EXPECT(bad == 0);
  }
  EXPECT(got[0].x() == 120 && got[0].w() == 123);
  EXPECT(got[1].x() == 230);
  EXPECT(got[2].x() == 210);
  EXPECT(got[3].x() == W * L && got[3].y() == L);
}

void check_write_back(sycl::queue& q) {
  std::vector<std::uint16_t> host(6 * 2, 0);
  {
    sycl::image<2> img(host.data(), order::r, type::unorm_int16, sycl::range<2>(6, 2));
    EXPECT(img.get_size() == 24 && img.get_pitch()[0] == 12);
    q.submit([&](sycl::handler& h) {
      auto w = img.get_access<sycl::float4, sycl::access_mode::discard_write>(h);
      h.parallel_for(sycl::range<2>(6, 2), [=](sycl::item<2> it) {
        int x = static_cast<int>(it[0]), y = static_cast<int>(it[1]);
        w.write(sycl::int2(x, y), sycl::float4((x + 6 * y) / 11.0f, 0, 0, 0));
      });
    });
  }
  EXPECT(host[0] == 0 && host[11] == 65535 &&
         host[5] == std::uint16_t(std::nearbyint(5 / 11.0 * 65535)));
  // Read-only host memory is never written back.
  const std::uint8_t ro[4] = {1, 2, 3, 4};
  {
    sycl::image<1> img(static_cast<const void*>(ro), order::rgba, type::unsigned_int8,
                       sycl::range<1>(1));
    auto rw = img.get_access<sycl::uint4, sycl::access_mode::read_write>();
    EXPECT(rw.read(0).z() == 3);
    rw.write(0, sycl::uint4(9, 9, 9, 9));
  }
  EXPECT(ro[0] == 1 && ro[3] == 4);
}

void check_refusals() {
  try {
    sycl::image<1> img(order::rgba, type::unorm_short_565, sycl::range<1>(4));
    EXPECT(!"a packed type with rgba was accepted");
  } catch (const sycl::exception& e) {
    EXPECT(e.code() == sycl::errc::invalid && std::strstr(e.what(), "unorm_short_565"));
  }
  try {
    sycl::image<1> img(order::ext_oneapi_srgba, type::unorm_int8, sycl::range<1>(4));
    EXPECT(!"an sRGB image was accepted");
  } catch (const sycl::exception& e) {
    EXPECT(e.code() == sycl::errc::feature_not_supported &&
           std::strstr(e.what(), "ext_oneapi_srgba"));
  }
}

} // namespace

int main() {
  sycl::queue q;
  check_orders_and_types(q);
  check_sampler(q);
  check_image_array(q);
  check_write_back(q);
  check_refusals();
  if (failures) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("SYCL 1.2.1 images: every channel order, the sampler and image arrays checked\n");
  return 0;
}
