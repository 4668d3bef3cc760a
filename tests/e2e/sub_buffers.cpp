// SYCL 2020 4.7.2.3 sub-buffers and 4.7.2 buffer::reinterpret: writes through sub-buffer
// accessors land in the parent (and reach the parent's host data on destruction), ordering
// between sub-buffers and the parent, the contiguity rule (errc::invalid), and reinterpreting
// a buffer as another element type or shape.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

template <typename F>
void expect_errc(sycl::errc code, const char* needle, F f, int line) {
  try {
    f();
    std::printf("FAILED line %d: no exception thrown\n", line);
    ++g_failures;
  } catch (const sycl::exception& e) {
    if (e.code() != code || (needle && !std::strstr(e.what(), needle))) {
      std::printf("FAILED line %d: errc %d \"%s\"\n", line, e.code().value(), e.what());
      ++g_failures;
    }
  }
}
#define EXPECT_ERRC(code, needle, ...) expect_errc(code, needle, [&] { __VA_ARGS__; }, __LINE__)

void test_1d(sycl::queue& q) {
  std::vector<int> host(64);
  std::iota(host.begin(), host.end(), 0);
  {
    sycl::buffer<int> parent(host.data(), sycl::range<1>(64));
    sycl::buffer<int> sub(parent, sycl::id<1>(16), sycl::range<1>(16));
    CHECK(sub.is_sub_buffer() && !parent.is_sub_buffer());
    CHECK(sub.get_range() == sycl::range<1>(16) && sub.size() == 16 && sub.byte_size() == 64);
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(sub, h);
      h.parallel_for(sycl::range<1>(16), [=](sycl::id<1> i) { a[i] = -a[i]; });
    });
    {
      sycl::host_accessor p(parent, sycl::read_only);
      CHECK(p[15] == 15 && p[16] == -16 && p[31] == -31 && p[32] == 32);
    }
    // Two disjoint sub-buffers and the parent, in dependency order on an out-of-order queue.
    sycl::buffer<int> lo(parent, sycl::id<1>(0), sycl::range<1>(8));
    sycl::buffer<int> hi(parent, sycl::id<1>(56), sycl::range<1>(8));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(lo, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { a[i] = 1000; });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(hi, h, sycl::write_only);
      h.fill(a, 2000);
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(parent, h);
      h.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { a[i] += 1; });
    });
    // A sub-buffer's host accessor sees the parent's writes.
    sycl::host_accessor s(sub, sycl::read_only);
    CHECK(s[0] == -15 && s[15] == -30);
  }
  bool ok = true;
  for (int i = 0; i < 64; ++i) {
    int expect = i + 1;
    if (i < 8)
      expect = 1001;
    else if (i >= 16 && i < 32)
      expect = -i + 1;
    else if (i >= 56)
      expect = 2001;
    ok = ok && host[i] == expect;
  }
  CHECK(ok);
}

void test_2d(sycl::queue& q) {
  constexpr int R = 6, C = 5;
  std::vector<float> host(R * C, 0.0f);
  {
    sycl::buffer<float, 2> parent(host.data(), sycl::range<2>(R, C));
    // Rows 2..4, full width: contiguous.
    sycl::buffer<float, 2> rows(parent, sycl::id<2>(2, 0), sycl::range<2>(3, C));
    CHECK(rows.get_range() == sycl::range<2>(3, C));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(rows, h, sycl::write_only);
      h.parallel_for(rows.get_range(),
                     [=](sycl::id<2> i) { a[i] = static_cast<float>(i[0] * 10 + i[1]); });
    });
    // Part of one row: contiguous as well.
    sycl::buffer<float, 2> piece(parent, sycl::id<2>(5, 1), sycl::range<2>(1, 3));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(piece, h, sycl::write_only);
      h.fill(a, 7.5f);
    });
    // Not contiguous: a column block.
    EXPECT_ERRC(sycl::errc::invalid, "not contiguous",
                sycl::buffer<float, 2>(parent, sycl::id<2>(0, 0), sycl::range<2>(4, 2)));
    EXPECT_ERRC(sycl::errc::invalid, "not contiguous",
                sycl::buffer<float, 2>(parent, sycl::id<2>(1, 1), sycl::range<2>(2, C - 1)));
    // Outside the parent.
    EXPECT_ERRC(sycl::errc::invalid, "exceeds",
                sycl::buffer<float, 2>(parent, sycl::id<2>(4, 0), sycl::range<2>(3, C)));
    // A sub-buffer of a sub-buffer.
    EXPECT_ERRC(sycl::errc::invalid, "sub-buffer of a sub-buffer",
                sycl::buffer<float, 2>(rows, sycl::id<2>(0, 0), sycl::range<2>(1, C)));
  }
  bool ok = true;
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      float expect = 0.0f;
      if (r >= 2 && r < 5) expect = static_cast<float>((r - 2) * 10 + c);
      if (r == 5 && c >= 1 && c < 4) expect = 7.5f;
      ok = ok && host[r * C + c] == expect;
    }
  CHECK(ok);
  // 3-D: planes are contiguous.
  std::vector<int> cube(4 * 3 * 2, 0);
  {
    sycl::buffer<int, 3> parent(cube.data(), sycl::range<3>(4, 3, 2));
    sycl::buffer<int, 3> planes(parent, sycl::id<3>(1, 0, 0), sycl::range<3>(2, 3, 2));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(planes, h, sycl::write_only);
      h.fill(a, 3);
    });
    EXPECT_ERRC(sycl::errc::invalid, "not contiguous",
                sycl::buffer<int, 3>(parent, sycl::id<3>(0, 0, 0), sycl::range<3>(2, 2, 2)));
  }
  ok = true;
  for (int i = 0; i < 24; ++i) ok = ok && cube[i] == ((i >= 6 && i < 18) ? 3 : 0);
  CHECK(ok);
}

void test_reinterpret(sycl::queue& q) {
  std::vector<unsigned> host(16, 0);
  {
    sycl::buffer<unsigned> words(host.data(), sycl::range<1>(16));
    // As bytes: 64 of them.
    sycl::buffer<unsigned char> bytes = words.reinterpret<unsigned char>(sycl::range<1>(64));
    CHECK(bytes.size() == 64 && bytes.byte_size() == words.byte_size());
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(bytes, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) {
        a[i] = static_cast<unsigned char>(i[0] % 4 == 0 ? 1 : 0);
      });
    });
    // As a 4x4 matrix of ints; the default-range form keeps the shape.
    sycl::buffer<int, 2> matrix = words.reinterpret<int, 2>(sycl::range<2>(4, 4));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(matrix, h);
      h.parallel_for(sycl::range<2>(4, 4),
                     [=](sycl::id<2> i) { a[i] += static_cast<int>(i[0] * 4 + i[1]) << 8; });
    });
    sycl::buffer<int> same_shape = words.reinterpret<int>();
    CHECK(same_shape.size() == 16);
    sycl::buffer<char> as_chars = words.reinterpret<char>();
    CHECK(as_chars.size() == 64);
    // A range of the wrong size.
    EXPECT_ERRC(sycl::errc::invalid, "bytes",
                (void)words.reinterpret<unsigned char>(sycl::range<1>(63)));
    EXPECT_ERRC(sycl::errc::invalid, "bytes",
                (void)words.reinterpret<int, 2>(sycl::range<2>(4, 5)));
  }
  bool ok = true;
  for (unsigned i = 0; i < 16; ++i) ok = ok && host[i] == (1u | (i << 8)); // little endian
  CHECK(ok);
}
} // namespace

int main() {
  sycl::queue q;
  test_1d(q);
  test_2d(q);
  test_reinterpret(q);
  if (g_failures) {
    std::printf("sub_buffers: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("sub_buffers: PASSED\n");
  return 0;
}
