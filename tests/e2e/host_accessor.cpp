// SYCL 2020 4.7.6.10 host_accessor: constructing one waits for the kernels that write the
// buffer and sees their results; while it lives, later commands on the buffer wait; modes,
// ranges and offsets, multi-dimensional subscripts and iterators on the host.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <thread>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

using namespace std::chrono_literals;
constexpr int N = 128;

void test_sees_kernel_results(sycl::queue& q) {
  sycl::buffer<int> b{sycl::range<1>(N)};
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::write_only);
    h.host_task([] { std::this_thread::sleep_for(20ms); }); // slow first writer
  });
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]) * 7; });
  });
  // No wait(): the host accessor waits for the writers itself.
  sycl::host_accessor h(b, sycl::read_only);
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && h[i] == i * 7;
  CHECK(ok);
  static_assert(std::is_same_v<decltype(h)::value_type, const int>);
  CHECK(h.size() == N && h.byte_size() == N * sizeof(int) && !h.empty());
}

void test_blocks_later_commands(sycl::queue& q) {
  sycl::buffer<int> b{sycl::range<1>(N)};
  sycl::event later;
  {
    sycl::host_accessor h(b, sycl::write_only);
    for (int i = 0; i < N; ++i) h[i] = 1;
    // Submitted while the host accessor is alive: must not run yet.
    later = q.submit([&](sycl::handler& cgh) {
      sycl::accessor a(b, cgh);
      cgh.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] += 10; });
    });
    std::this_thread::sleep_for(30ms);
    CHECK(later.get_info<sycl::info::event::command_execution_status>() !=
          sycl::info::event_command_status::complete);
    CHECK(h[0] == 1);                     // the kernel has not touched the data
    for (int i = 0; i < N; ++i) h[i] = 2; // the kernel must see this
  }
  later.wait();
  sycl::host_accessor r(b, sycl::read_only);
  CHECK(std::all_of(r.begin(), r.end(), [](int v) { return v == 12; }));

  // Two read-only host accessors may live together, and a read-only kernel still runs.
  sycl::host_accessor r2(b, sycl::read_only);
  int* sum = sycl::malloc_shared<int>(1, q);
  *sum = 0;
  q.submit([&](sycl::handler& cgh) {
     sycl::accessor a(b, cgh, sycl::read_only);
     cgh.single_task([=] {
       for (int i = 0; i < N; ++i) *sum += a[i];
     });
   }).wait();
  CHECK(*sum == 12 * N);
  CHECK(r2[5] == 12);
  sycl::free(sum, q);
}

void test_ranges_and_dims(sycl::queue& q) {
  std::vector<int> data(N);
  std::iota(data.begin(), data.end(), 0);
  {
    sycl::buffer<int> b(data.data(), sycl::range<1>(N));
    {
      sycl::host_accessor h(b, sycl::range<1>(8), sycl::id<1>(100));
      CHECK(h.get_range() == sycl::range<1>(8) && h.get_offset() == sycl::id<1>(100));
      CHECK(h[0] == 100 && h[7] == 107);
      CHECK(h.get_pointer() + 100 == &h[0]); // the buffer's start (SYCL 2020 4.7.6.10)
      CHECK(h.get_pointer()[100] == 100);
      int k = 0;
      for (int& x : h) x = -(++k); // 100..107 -> -1..-8
    }
    {
      sycl::host_accessor h(b, sycl::range<1>(4), sycl::id<1>(0), sycl::read_only);
      CHECK(std::accumulate(h.cbegin(), h.cend(), 0) == 0 + 1 + 2 + 3);
    }
    {
      // no_init: the program overwrites everything it reads afterwards.
      sycl::host_accessor h(b, sycl::range<1>(4), sycl::id<1>(50), sycl::write_only, sycl::no_init);
      for (int i = 0; i < 4; ++i) h[i] = 5000 + i;
    }
  }
  CHECK(data[99] == 99 && data[100] == -1 && data[107] == -8 && data[108] == 108);
  CHECK(data[50] == 5000 && data[53] == 5003 && data[54] == 54);

  sycl::buffer<int, 2> m{sycl::range<2>(4, 5)};
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(m, h, sycl::write_only);
    h.parallel_for(sycl::range<2>(4, 5),
                   [=](sycl::id<2> i) { a[i] = static_cast<int>(i[0] * 10 + i[1]); });
  });
  {
    sycl::host_accessor h(m);
    CHECK(h[3][4] == 34 && h[sycl::id<2>(2, 1)] == 21);
    h[1][1] = -11;
  }
  {
    // (A second host accessor of the buffer waits for the first one's destruction.)
    sycl::host_accessor part(m, sycl::range<2>(2, 2), sycl::id<2>(1, 1), sycl::read_only);
    CHECK(part[0][0] == -11 && part[1][1] == 22);
    // Iteration over a 2-D region is row-major over the region only.
    std::vector<int> seen(part.begin(), part.end());
    CHECK((seen == std::vector<int>{-11, 12, 21, 22}));
  }
  sycl::buffer<int, 3> c{sycl::range<3>(2, 2, 2)};
  {
    sycl::host_accessor h(c, sycl::write_only);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 2; ++k) h[i][j][k] = i * 4 + j * 2 + k;
  }
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(c, h);
    h.parallel_for(sycl::range<3>(2, 2, 2),
                   [=](sycl::item<3> it) { a[it] += static_cast<int>(it.get_linear_id()); });
  });
  sycl::host_accessor h(c, sycl::read_only);
  CHECK(h[1][1][1] == 14 && h[0][1][0] == 4);
}
} // namespace

int main() {
  sycl::queue q;
  test_sees_kernel_results(q);
  test_blocks_later_commands(q);
  test_ranges_and_dims(q);
  if (g_failures) {
    std::printf("host_accessor: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("host_accessor: PASSED\n");
  return 0;
}
