// sycl_ext_oneapi_memcpy2d (issue 30): rectangles of rows with padding between them copied and
// filled through the handler and the queue shortcuts (with dependencies), between host memory
// and USM device, shared and host allocations, fills into USM and into the program's own host
// memory; the padding around each rectangle keeps its values; a width above a pitch throws
// errc::invalid and the queue goes on working.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <cstdint>
#include <vector>

#ifndef SYCL_EXT_ONEAPI_MEMCPY2D
#error "SYCL_EXT_ONEAPI_MEMCPY2D is not defined"
#endif

namespace {

struct pixel {
  std::uint8_t r, g, b;
  bool operator==(const pixel&) const = default;
};

// Rows of `pitch` ints, the first `width` of row y, x being 1000 * y + x + `base`; -1 elsewhere.
std::vector<int> picture(std::size_t pitch, std::size_t width, std::size_t height, int base) {
  std::vector<int> v(pitch * height, -1);
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < width; ++x) v[y * pitch + x] = int(1000 * y + x) + base;
  return v;
}

void copies(sycl::queue& q, sycl::usm::alloc kind) {
  constexpr std::size_t width = 37, height = 9, src_pitch = 40, mid_pitch = 64, dst_pitch = 50;
  const std::vector<int> src = picture(src_pitch, width, height, 7);
  int* mid = static_cast<int*>(sycl::malloc(mid_pitch * height * sizeof(int), q, kind));
  q.fill(mid, -2, mid_pitch * height).wait();
  // Host to USM in bytes (handler), then USM to host in elements (queue shortcut after it).
  sycl::event in = q.submit([&](sycl::handler& h) {
    h.ext_oneapi_memcpy2d(mid, mid_pitch * sizeof(int), src.data(), src_pitch * sizeof(int),
                          width * sizeof(int), height);
  });
  std::vector<int> dst(dst_pitch * height, -3);
  q.ext_oneapi_copy2d(mid, mid_pitch, dst.data(), dst_pitch, width, height, in).wait();
  bool ok = true;
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < dst_pitch; ++x)
      ok &= dst[y * dst_pitch + x] == (x < width ? int(1000 * y + x) + 7 : -3);
  EXPECT(ok);
  // The padding of the USM rows kept its fill; a kernel sees the copied values.
  int* check = sycl::malloc_shared<int>(1, q);
  q.single_task([=] {
     int bad = 0;
     for (std::size_t y = 0; y < height; ++y)
       for (std::size_t x = 0; x < mid_pitch; ++x)
         bad += mid[y * mid_pitch + x] != (x < width ? int(1000 * y + x) + 7 : -2);
     *check = bad;
   }).wait();
  EXPECT(*check == 0);
  // USM to USM, through the queue's byte form with a vector of dependencies.
  int* other = static_cast<int*>(sycl::malloc(mid_pitch * height * sizeof(int), q, kind));
  sycl::event cleared = q.fill(other, 0, mid_pitch * height);
  q.ext_oneapi_memcpy2d(other + 1, mid_pitch * sizeof(int), mid, mid_pitch * sizeof(int),
                        (width - 1) * sizeof(int), height - 1, std::vector<sycl::event>{cleared})
      .wait();
  std::vector<int> back(mid_pitch * height);
  q.memcpy(back.data(), other, back.size() * sizeof(int)).wait();
  ok = true;
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < mid_pitch; ++x) {
      bool inside = y < height - 1 && x >= 1 && x < width;
      ok &= back[y * mid_pitch + x] == (inside ? int(1000 * y + x - 1) + 7 : 0);
    }
  EXPECT(ok);
  sycl::free(mid, q);
  sycl::free(other, q);
  sycl::free(check, q);
}

void fills(sycl::queue& q) {
  constexpr std::size_t width = 13, height = 5, pitch = 16;
  auto* bytes = sycl::malloc_device<std::uint8_t>(pitch * height, q);
  q.memset(bytes, 0x11, pitch * height).wait();
  q.ext_oneapi_memset2d(bytes, pitch, 0x1ab, width, height).wait(); // 0x1ab as unsigned char
  std::vector<std::uint8_t> b(pitch * height);
  q.memcpy(b.data(), bytes, b.size()).wait();
  bool ok = true;
  for (std::size_t i = 0; i < b.size(); ++i) ok &= b[i] == (i % pitch < width ? 0xab : 0x11);
  EXPECT(ok);
  auto* pixels = sycl::malloc_shared<pixel>(pitch * height, q);
  for (std::size_t i = 0; i < pitch * height; ++i) pixels[i] = {0, 0, 0};
  const pixel teal{0, 128, 128};
  q.submit([&](sycl::handler& h) { h.ext_oneapi_fill2d(pixels + 2, pitch, teal, 7, 3); }).wait();
  ok = true;
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < pitch; ++x) {
      bool inside = y < 3 && x >= 2 && x < 9;
      ok &= pixels[y * pitch + x] == (inside ? teal : pixel{0, 0, 0});
    }
  EXPECT(ok);
  auto* doubles = sycl::malloc_device<double>(pitch * height, q);
  q.ext_oneapi_fill2d(doubles, pitch, 2.5, pitch, height).wait(); // width == pitch: contiguous
  std::vector<double> d(pitch * height);
  q.memcpy(d.data(), doubles, d.size() * sizeof(double)).wait();
  ok = true;
  for (double v : d) ok &= v == 2.5;
  EXPECT(ok);
  // Into the program's own host memory (not USM), which a GPU's driver does not fill: the rows
  // are still set, the padding kept, on every device.
  std::vector<std::uint8_t> plain(pitch * height, 0x22);
  q.ext_oneapi_memset2d(plain.data(), pitch, 0x33, width, height).wait();
  ok = true;
  for (std::size_t i = 0; i < plain.size(); ++i)
    ok &= plain[i] == (i % pitch < width ? 0x33 : 0x22);
  EXPECT(ok);
  std::vector<int> plain_ints(pitch * height, -1);
  q.submit([&](sycl::handler& h) {
     h.ext_oneapi_fill2d(plain_ints.data() + 1, pitch, 77, width - 1, height - 1);
   }).wait();
  ok = true;
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < pitch; ++x)
      ok &= plain_ints[y * pitch + x] == (y < height - 1 && x >= 1 && x < width ? 77 : -1);
  EXPECT(ok);
  std::vector<int> plain_row(64, 5);
  q.memset(plain_row.data(), 0, 32 * sizeof(int)).wait();
  ok = true;
  for (std::size_t i = 0; i < plain_row.size(); ++i) ok &= plain_row[i] == (i < 32 ? 0 : 5);
  EXPECT(ok);
  sycl::free(bytes, q);
  sycl::free(pixels, q);
  sycl::free(doubles, q);
}

template <typename F>
bool throws_invalid(F f) {
  try {
    f();
  } catch (const sycl::exception& e) {
    return e.code() == sycl::errc::invalid;
  }
  return false;
}

void errors(sycl::queue& q) {
  int* p = sycl::malloc_device<int>(64, q);
  std::vector<int> host(64);
  EXPECT(throws_invalid([&] { q.ext_oneapi_memcpy2d(p, 16, host.data(), 32, 20, 2); }));
  EXPECT(throws_invalid([&] { q.ext_oneapi_copy2d(host.data(), 4, p, 8, 5, 2); }));
  EXPECT(throws_invalid([&] { q.ext_oneapi_memset2d(p, 8, 0, 9, 2); }));
  EXPECT(throws_invalid(
      [&] { q.submit([&](sycl::handler& h) { h.ext_oneapi_fill2d(p, 4, 1, 5, 2); }); }));
  // Nothing was enqueued, and the queue still works; empty rectangles are nothing to do.
  q.ext_oneapi_copy2d(host.data(), 8, p, 8, 0, 4).wait();
  q.ext_oneapi_memset2d(p, 8, 0, 8, 0).wait();
  q.ext_oneapi_memset2d(p, 8 * sizeof(int), 0, 8 * sizeof(int), 8).wait();
  q.memcpy(host.data(), p, 64 * sizeof(int)).wait();
  bool zero = true;
  for (int v : host) zero &= v == 0;
  EXPECT(zero);
  sycl::free(p, q);
}

} // namespace

int main() {
  sycl::queue q;
  copies(q, sycl::usm::alloc::device);
  copies(q, sycl::usm::alloc::shared);
  copies(q, sycl::usm::alloc::host);
  fills(q);
  errors(q);
  if (failures == 0) std::printf("memcpy2d: all checks passed\n");
  return failures;
}
