// SYCL 2020 4.7.6 buffer accessors: every access mode (read, write, read_write and the
// deprecated discard_write / discard_read_write), the read_only / write_only / read_write tags
// and the types they deduce, no_init, ranged accessors (offset + range) in kernels,
// multi-dimensional subscripts acc[i][j][k], iterators, get_pointer and the size queries.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <numeric>
#include <type_traits>
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

constexpr int N = 64;
using sycl::access_mode;

void test_modes(sycl::queue& q) {
  std::vector<int> in(N), out(N, 0);
  std::iota(in.begin(), in.end(), 0);
  {
    sycl::buffer<int> bin(in.data(), sycl::range<1>(N));
    sycl::buffer<int> bout(out.data(), sycl::range<1>(N));
    // Explicit template arguments: read, write.
    q.submit([&](sycl::handler& h) {
      sycl::accessor<int, 1, access_mode::read> r(bin, h);
      sycl::accessor<int, 1, access_mode::write> w(bout, h);
      static_assert(std::is_same_v<decltype(r)::value_type, const int>);
      static_assert(std::is_same_v<decltype(w)::value_type, int>);
      static_assert(std::is_same_v<decltype(r[0]), const int&>);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { w[i] = r[i] * 2; });
    });
    // read_write.
    q.submit([&](sycl::handler& h) {
      sycl::accessor<int, 1, access_mode::read_write> rw(bout, h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { rw[i] += 1; });
    });
    // Deprecated discard modes: the old contents may be dropped; every element is rewritten.
    q.submit([&](sycl::handler& h) {
      sycl::accessor<int, 1, access_mode::discard_write> dw(bin, h);
      h.parallel_for(sycl::range<1>(N),
                     [=](sycl::id<1> i) { dw[i] = static_cast<int>(i[0]) * 10; });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor<int, 1, access_mode::discard_read_write> drw(bin, h);
      h.parallel_for(sycl::range<1>(N),
                     [=](sycl::id<1> i) { drw[i] = static_cast<int>(i[0]) + 5; });
    });
    // get_access with a mode.
    q.submit([&](sycl::handler& h) {
      auto r = bin.get_access<access_mode::read>(h);
      auto rw = bout.get_access<access_mode::read_write>(h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { rw[i] += r[i] * 1000; });
    });
  }
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && in[i] == i + 5 && out[i] == 2 * i + 1 + (i + 5) * 1000;
  CHECK(ok);
}

void test_tags(sycl::queue& q) {
  std::vector<float> data(N, 1.0f);
  {
    sycl::buffer<float> a(data.data(), sycl::range<1>(N));
    sycl::buffer<float> b{sycl::range<1>(N)};
    q.submit([&](sycl::handler& h) {
      sycl::accessor ro(a, h, sycl::read_only);
      sycl::accessor wo(b, h, sycl::write_only, sycl::no_init);
      static_assert(std::is_same_v<decltype(ro), sycl::accessor<float, 1, access_mode::read>>);
      static_assert(std::is_same_v<decltype(wo), sycl::accessor<float, 1, access_mode::write>>);
      h.parallel_for(sycl::range<1>(N),
                     [=](sycl::id<1> i) { wo[i] = ro[i] + static_cast<float>(i[0]); });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor rw(a, h, sycl::read_write);
      sycl::accessor ro(b, h, sycl::read_only);
      sycl::accessor plain(a, h);
      static_assert(
          std::is_same_v<decltype(rw), sycl::accessor<float, 1, access_mode::read_write>>);
      static_assert(std::is_same_v<decltype(plain), decltype(rw)>);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { rw[i] = ro[i] * 2.0f; });
    });
    // A read-only accessor converts from a read-write one.
    q.submit([&](sycl::handler& h) {
      sycl::accessor<float, 1, access_mode::read_write> rw(a, h);
      sycl::accessor<const float, 1, access_mode::read> ro = rw;
      sycl::accessor w(b, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { w[i] = ro[i]; });
    });
    // no_init with read_only is an error.
    EXPECT_ERRC(sycl::errc::invalid, "no_init", q.submit([&](sycl::handler& h) {
      sycl::accessor bad(a, h, sycl::read_only, sycl::no_init);
      h.single_task([=] { (void)bad[0]; });
    }));
  }
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && data[i] == (1.0f + i) * 2.0f;
  CHECK(ok);
}

void test_ranged_in_kernel(sycl::queue& q) {
  std::vector<int> v(N, 0);
  {
    sycl::buffer<int> b(v.data(), sycl::range<1>(N));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::range<1>(10), sycl::id<1>(20), sycl::write_only);
      CHECK(a.get_range() == sycl::range<1>(10) && a.get_offset() == sycl::id<1>(20));
      CHECK(a.size() == 10 && a.byte_size() == 40 && !a.empty());
      // Indices are relative to the offset.
      h.parallel_for(sycl::range<1>(10), [=](sycl::id<1> i) { a[i] = 1 + static_cast<int>(i[0]); });
    });
  }
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && v[i] == ((i >= 20 && i < 30) ? i - 19 : 0);
  CHECK(ok);

  constexpr int R = 6, C = 8;
  std::vector<int> m(R * C, 0);
  {
    sycl::buffer<int, 2> b(m.data(), sycl::range<2>(R, C));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::range<2>(2, 3), sycl::id<2>(3, 4));
      h.parallel_for(sycl::range<2>(2, 3), [=](sycl::id<2> i) {
        a[i] = static_cast<int>(10 * i[0] + i[1] + 1); // via id
        a[i[0]][i[1]] += 100;                          // via subscripts
      });
    });
  }
  ok = true;
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      bool in = r >= 3 && r < 5 && c >= 4 && c < 7;
      ok = ok && m[r * C + c] == (in ? 10 * (r - 3) + (c - 4) + 1 + 100 : 0);
    }
  CHECK(ok);
}

void test_subscripts_3d(sycl::queue& q) {
  constexpr int X = 3, Y = 4, Z = 5;
  std::vector<int> v(X * Y * Z, 0);
  {
    sycl::buffer<int, 3> b(v.data(), sycl::range<3>(X, Y, Z));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.parallel_for(sycl::range<3>(X, Y, Z), [=](sycl::id<3> i) {
        a[i[0]][i[1]][i[2]] = static_cast<int>(i[0] * 100 + i[1] * 10 + i[2]);
      });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.single_task([=] {
        // Reading through partial subscripts and ids agrees.
        int sum = 0;
        for (int x = 0; x < X; ++x)
          for (int y = 0; y < Y; ++y)
            for (int z = 0; z < Z; ++z) sum += a[x][y][z] - a[sycl::id<3>(x, y, z)];
        a[0][0][0] = sum;
      });
    });
  }
  bool ok = v[0] == 0;
  for (int i = 1; i < X * Y * Z; ++i) {
    int x = i / (Y * Z), y = i / Z % Y, z = i % Z;
    ok = ok && v[i] == x * 100 + y * 10 + z;
  }
  CHECK(ok);
}

void test_iterators_and_pointer(sycl::queue& q) {
  std::vector<int> v(N);
  std::iota(v.begin(), v.end(), 1);
  int total = 0;
  {
    sycl::buffer<int> b(v.data(), sycl::range<1>(N));
    sycl::buffer<int> t(&total, sycl::range<1>(1));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::read_only);
      sycl::accessor out(t, h, sycl::write_only);
      h.single_task([=] {
        int s = 0;
        for (auto it = a.begin(); it != a.end(); ++it) s += *it;
        for (const int& x : a) s += x;
        out[0] = s + static_cast<int>(a.end() - a.begin()) * 0;
      });
    });
    // Ranged iteration covers exactly the range; reverse iteration too.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::range<1>(4), sycl::id<1>(8));
      h.single_task([=] {
        int k = 0;
        for (auto it = a.rbegin(); it != a.rend(); ++it) *it = -(++k); // elements 11, 10, 9, 8
      });
    });
    // get_pointer (deprecated) addresses the start of the buffer, also for a ranged accessor
    // (SYCL 2020 4.7.6.9.1; SYCL 1.2.1 gave the first accessed element), as get_multi_ptr does.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::range<1>(4), sycl::id<1>(40));
      h.single_task([=] {
        int* p = a.get_pointer();
        bool same = p == a.get_multi_ptr<sycl::access::decorated::no>().get();
        for (int i = 0; i < 4; ++i) p[40 + i] = same ? 7000 + i : -7000;
      });
    });
  }
  CHECK(total == 2 * N * (N + 1) / 2);
  CHECK(v[7] == 8 && v[8] == -4 && v[9] == -3 && v[10] == -2 && v[11] == -1 && v[12] == 13);
  CHECK(v[39] == 40 && v[40] == 7000 && v[43] == 7003 && v[44] == 45);

  // Host-side queries of an accessor.
  sycl::buffer<double, 2> b2{sycl::range<2>(3, 7)};
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b2, h, sycl::write_only);
    CHECK(a.get_range() == sycl::range<2>(3, 7) && a.size() == 21 && a.byte_size() == 21 * 8);
    CHECK(a.get_offset() == sycl::id<2>(0, 0) && !a.is_placeholder());
    h.parallel_for(sycl::range<2>(3, 7), [=](sycl::item<2> it) {
      a[it] = static_cast<double>(it.get_linear_id());
      // The raw pointer and the subscript address the same element.
      if (&a.get_pointer()[it.get_linear_id()] != &a[it.get_id()]) a[it] = -1.0;
    });
  });
  sycl::host_accessor h(b2, sycl::read_only);
  bool ok = true;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 7; ++j) ok = ok && h[i][j] == static_cast<double>(i * 7 + j);
  CHECK(ok);
}
} // namespace

int main() {
  sycl::queue q;
  test_modes(q);
  test_tags(q);
  test_ranged_in_kernel(q);
  test_subscripts_3d(q);
  test_iterators_and_pointer(q);
  if (g_failures) {
    std::printf("accessor_modes: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("accessor_modes: PASSED\n");
  return 0;
}
