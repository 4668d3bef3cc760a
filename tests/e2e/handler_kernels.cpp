// SYCL 2020 4.9.4.2 kernel dispatch through the handler: single_task, parallel_for over
// range<1>, range<2> and range<3> with item, id and generic (auto) parameters, the integer
// count form parallel_for(1024, ...), named and unnamed kernels, and kernel_handler as an
// optional last parameter (4.9.5).
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

class named_single;
class named_range2;

void test_single_task(sycl::queue& q) {
  int* p = sycl::malloc_shared<int>(2, q);
  p[0] = p[1] = 0;
  q.submit([&](sycl::handler& h) { h.single_task([=] { p[0] = 41 + 1; }); }).wait();
  q.submit([&](sycl::handler& h) { h.single_task<named_single>([=] { p[1] = p[0] * 2; }); }).wait();
  CHECK(p[0] == 42 && p[1] == 84);
  q.submit([&](sycl::handler& h) {
     h.single_task([=](sycl::kernel_handler) { p[0] = -1; });
   }).wait();
  CHECK(p[0] == -1);
  // A single task may loop over data on its own.
  constexpr int n = 1000;
  std::vector<int> v(n);
  {
    sycl::buffer<int> b(v.data(), sycl::range<1>(n));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.single_task([=] {
        for (int i = 0; i < n; ++i) a[i] = i * i;
      });
    });
  }
  CHECK(v[0] == 0 && v[999] == 999 * 999);
  sycl::free(p, q);
}

void test_range1(sycl::queue& q) {
  constexpr std::size_t n = 1000;
  std::vector<long> out(n, -1);
  {
    sycl::buffer<long> b(out.data(), sycl::range<1>(n));
    // id<1> parameter.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = static_cast<long>(i[0]); });
    });
    // item<1> parameter: id, range and linear id.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(sycl::range<1>(n), [=](sycl::item<1> it) {
        bool ok = it.get_range(0) == n && it.get_range() == sycl::range<1>(n) &&
                  it.get_linear_id() == it.get_id(0) && it[0] == it.get_id()[0];
        a[it] = ok ? a[it] * 10 : -100000;
      });
    });
    // Generic parameter: SYCL 2020 passes an item, convertible to id.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(sycl::range<1>(n), [=](auto it) {
        sycl::id<1> i = it;
        a[i] += 1;
      });
    });
    // Integer count.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(n, [=](sycl::id<1> i) { a[i] += 2; });
    });
    // kernel_handler as the last parameter.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(sycl::range<1>(n),
                     [=](sycl::item<1> it, sycl::kernel_handler) { a[it] *= 2; });
    });
  }
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (out[i] != (static_cast<long>(i) * 10 + 3) * 2) ++bad;
  CHECK(bad == 0);

  // Large index space.
  constexpr std::size_t big = 1 << 20;
  unsigned* hits = sycl::malloc_shared<unsigned>(big, q);
  q.parallel_for(big, [=](sycl::id<1> i) {
     hits[i] = static_cast<unsigned>(i[0] * 2654435761u);
   }).wait();
  bad = 0;
  for (std::size_t i = 0; i < big; ++i)
    if (hits[i] != static_cast<unsigned>(i * 2654435761u)) ++bad;
  CHECK(bad == 0);
  sycl::free(hits, q);
}

void test_range2(sycl::queue& q) {
  constexpr std::size_t rows = 13, cols = 37;
  std::vector<int> m(rows * cols, 0);
  {
    sycl::buffer<int, 2> b(m.data(), sycl::range<2>(rows, cols));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.parallel_for<named_range2>(sycl::range<2>(rows, cols), [=](sycl::item<2> it) {
        std::size_t r = it.get_id(0), c = it.get_id(1);
        bool ok = it.get_range() == sycl::range<2>(rows, cols) &&
                  it.get_linear_id() == r * cols + c && it[1] == c;
        a[it.get_id()] = ok ? static_cast<int>(r * 1000 + c) : -1;
      });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(sycl::range<2>(rows, cols), [=](sycl::id<2> i) { a[i[0]][i[1]] += 1; });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(sycl::range<2>(rows, cols), [=](auto it, sycl::kernel_handler) {
        sycl::id<2> i = it;
        a[i] *= 3;
      });
    });
  }
  int bad = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      if (m[r * cols + c] != static_cast<int>((r * 1000 + c + 1) * 3)) ++bad;
  CHECK(bad == 0);
}

void test_range3(sycl::queue& q) {
  constexpr std::size_t x = 5, y = 7, z = 11;
  std::vector<std::size_t> out(x * y * z, 0);
  {
    sycl::buffer<std::size_t, 3> b(out.data(), sycl::range<3>(x, y, z));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.parallel_for(sycl::range<3>(x, y, z), [=](sycl::item<3> it) {
        a[it.get_id()] = it.get_linear_id() * 10 + (it.get_range(2) == z ? 1 : 0);
      });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(sycl::range<3>(x, y, z), [=](sycl::id<3> i) {
        a[i[0]][i[1]][i[2]] += i[0] * 100000 + i[1] * 1000 + i[2];
      });
    });
  }
  int bad = 0;
  for (std::size_t i = 0; i < x; ++i)
    for (std::size_t j = 0; j < y; ++j)
      for (std::size_t k = 0; k < z; ++k) {
        std::size_t lin = (i * y + j) * z + k;
        if (out[lin] != lin * 10 + 1 + i * 100000 + j * 1000 + k) ++bad;
      }
  CHECK(bad == 0);
}

// A functor class as the kernel (not a lambda), also with kernel_handler.
struct saxpy {
  float a;
  const float* x;
  float* y;
  void operator()(sycl::id<1> i) const { y[i] = a * x[i] + y[i]; }
};
struct scale_with_handler {
  float* y;
  void operator()(sycl::item<1> it, sycl::kernel_handler) const { y[it] *= 2.0f; }
};

void test_functors(sycl::queue& q) {
  constexpr std::size_t n = 100;
  float* x = sycl::malloc_shared<float>(n, q);
  float* y = sycl::malloc_shared<float>(n, q);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  q.submit([&](sycl::handler& h) { h.parallel_for(sycl::range<1>(n), saxpy{2.0f, x, y}); });
  q.wait();
  q.submit([&](sycl::handler& h) { h.parallel_for(sycl::range<1>(n), scale_with_handler{y}); });
  q.wait();
  CHECK(y[0] == 2.0f && y[10] == 42.0f && y[99] == (2.0f * 99 + 1) * 2);
  sycl::free(x, q);
  sycl::free(y, q);
}
} // namespace

int main() {
  sycl::queue q;
  test_single_task(q);
  test_range1(q);
  test_range2(q);
  test_range3(q);
  test_functors(q);
  if (g_failures) {
    std::printf("handler_kernels: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("handler_kernels: PASSED\n");
  return 0;
}
