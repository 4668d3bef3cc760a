// SYCLONE_E2E_ARGS: -std=c++20
// SYCL 2020 4.6.5.2 queue shortcuts: single_task, parallel_for (range, integer count,
// nd_range), memcpy, memset, fill and copy, each without dependencies, with one event and with
// a vector of events; and 4.6.5.1 submit with a secondary queue. Built as C++20.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <numeric>
#include <span>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

constexpr int N = 256;

void test_usm_shortcuts(sycl::queue& q) {
  int* a = sycl::malloc_device<int>(N, q);
  int* b = sycl::malloc_device<int>(N, q);
  int* c = sycl::malloc_shared<int>(N, q);
  int* d = sycl::malloc_host<int>(N, q);

  // No dependencies: each waited for explicitly.
  q.fill(a, 7, N).wait();
  q.memset(b, 0, N * sizeof(int)).wait();
  q.single_task([=] { c[0] = 1; }).wait();
  CHECK(c[0] == 1);
  q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { c[i] = a[i] + b[i]; }).wait();
  CHECK(c[0] == 7 && c[N - 1] == 7);
  q.memcpy(d, c, N * sizeof(int)).wait();
  CHECK(d[N / 2] == 7);
  q.copy(c, d, N).wait();
  CHECK(d[N - 1] == 7);

  // One event: a dependency chain through every shortcut.
  sycl::event e1 = q.fill(a, 3, N);
  sycl::event e2 = q.parallel_for(sycl::range<1>(N), e1, [=](sycl::id<1> i) { a[i] += i; });
  sycl::event e3 = q.memset(b, 0xff, N * sizeof(int), e2); // every int is -1
  sycl::event e4 = q.parallel_for(N, e3, [=](sycl::item<1> it) { b[it] += a[it] * 2; });
  sycl::event e5 = q.single_task(e4, [=] { b[0] = 1000; });
  sycl::event e6 = q.memcpy(c, b, N * sizeof(int), e5);
  sycl::event e7 = q.fill(d, -1, N, e6);
  sycl::event e8 = q.copy(c, d, N / 2, e7);
  e8.wait();
  CHECK(c[0] == 1000);
  for (int i = 1; i < N; ++i)
    if (c[i] != -1 + (3 + i) * 2) {
      std::printf("FAILED: c[%d] = %d, expected %d\n", i, c[i], -1 + (3 + i) * 2);
      ++g_failures;
      break;
    }
  CHECK(d[0] == 1000 && d[N / 2 - 1] == c[N / 2 - 1] && d[N / 2] == -1 && d[N - 1] == -1);

  // A vector of events: fan-in of independent commands.
  sycl::event f1 = q.fill(a, 2, N);
  sycl::event f2 = q.fill(b, 5, N);
  std::vector<sycl::event> both{f1, f2};
  sycl::event k =
      q.parallel_for(sycl::range<1>(N), both, [=](sycl::id<1> i) { c[i] = a[i] * b[i]; });
  sycl::event s = q.single_task(std::vector<sycl::event>{k}, [=] { c[0] += 1; });
  sycl::event m = q.memset(a, 0, N * sizeof(int), std::vector<sycl::event>{s});
  sycl::event f = q.fill(b, 9, N, std::vector<sycl::event>{m});
  sycl::event cp = q.memcpy(d, a, N * sizeof(int), std::vector<sycl::event>{f});
  sycl::event cp2 = q.copy(b, d + N / 2, N / 2, std::vector<sycl::event>{cp});
  cp2.wait();
  CHECK(c[0] == 11 && c[1] == 10 && c[N - 1] == 10);
  CHECK(d[0] == 0 && d[N / 2 - 1] == 0 && d[N / 2] == 9 && d[N - 1] == 9);

  // parallel_for over an nd_range, with and without dependencies.
  sycl::event nd = q.parallel_for(
      sycl::nd_range<1>(sycl::range<1>(N), sycl::range<1>(32)),
      [=](sycl::nd_item<1> it) { c[it.get_global_id(0)] = static_cast<int>(it.get_group(0)); });
  q.parallel_for(sycl::nd_range<2>(sycl::range<2>(4, N / 4), sycl::range<2>(2, 8)), nd,
                 [=](sycl::nd_item<2> it) {
                   c[it.get_global_linear_id()] += static_cast<int>(it.get_local_linear_id());
                 })
      .wait();
  CHECK(c[0] == 0 && c[31] == 0 + (31 % (N / 4)) % 8);
  // Element 70: 1D group 2; 2D position (1, 6): local id (1, 6) in a 2x8 group -> linear 14.
  CHECK(c[70] == 2 + 14);

  // Shortcuts accept spans' data too (C++20 sanity: std::span over USM).
  std::span<int> view(c, N);
  q.fill(view.data(), 4, view.size()).wait();
  CHECK(std::accumulate(view.begin(), view.end(), 0) == 4 * N);

  // Zero-sized operations complete and touch nothing.
  q.memcpy(d, c, 0).wait();
  q.memset(d, 0, 0).wait();
  q.fill(d, 1, 0).wait();
  q.parallel_for(sycl::range<1>(0), [=](sycl::id<1>) { d[0] = 12345; }).wait();
  CHECK(d[0] != 12345);

  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
  sycl::free(d, q);
}

void test_buffer_copy_shortcuts(sycl::queue& q) {
  std::vector<int> src(N), dst(N, 0);
  std::iota(src.begin(), src.end(), 100);
  sycl::buffer<int> buf{sycl::range<1>(N)};
  sycl::accessor<int, 1, sycl::access_mode::write, sycl::target::device,
                 sycl::access::placeholder::true_t>
      w(buf);
  q.copy(src.data(), w).wait();
  sycl::accessor<int, 1, sycl::access_mode::read, sycl::target::device,
                 sycl::access::placeholder::true_t>
      r(buf);
  q.copy(r, dst.data()).wait();
  CHECK(dst == src);
  auto shared = std::shared_ptr<int>(new int[N], std::default_delete<int[]>());
  q.copy(r, shared).wait();
  CHECK(shared.get()[0] == 100 && shared.get()[N - 1] == 100 + N - 1);
  for (int i = 0; i < N; ++i) shared.get()[i] = -i;
  q.copy(shared, w).wait();
  sycl::host_accessor h(buf, sycl::read_only);
  CHECK(h[0] == 0 && h[N - 1] == -(N - 1));
}

// The accessor-to-accessor copy, update_host and fill shortcuts; prefetch and mem_advise of
// const memory with event and event-list dependencies.
void test_more_shortcuts(sycl::queue& q) {
  std::vector<int> host(N, -1);
  {
    sycl::buffer<int> from{sycl::range<1>(N)};
    sycl::buffer<int> to(host.data(), sycl::range<1>(N));
    sycl::event filled = q.fill(sycl::accessor(from, sycl::write_only), 42);
    filled.wait();
    q.copy(sycl::accessor(from, sycl::read_only), sycl::accessor(to, sycl::write_only)).wait();
    CHECK(host[0] == -1); // the buffer computes in its own copy until update_host
    q.update_host(sycl::accessor(to, sycl::read_only)).wait();
    CHECK(host[0] == 42 && host[N - 1] == 42);
  }
  const int* cptr = sycl::malloc_shared<int>(N, q);
  sycl::event p1 = q.prefetch(cptr, N * sizeof(int));
  sycl::event p2 = q.prefetch(cptr, N * sizeof(int), p1);
  sycl::event p3 = q.prefetch(cptr, N * sizeof(int), {p1, p2});
  sycl::event a1 = q.mem_advise(cptr, N * sizeof(int), 0, p3);
  sycl::event a2 = q.mem_advise(cptr, N * sizeof(int), 0, {p3, a1});
  a2.wait();
  CHECK(a2.get_info<sycl::info::event::command_execution_status>() ==
        sycl::info::event_command_status::complete);
  sycl::free(const_cast<int*>(cptr), q);
}

void test_secondary_queue(sycl::queue& q) {
  sycl::queue secondary;
  int* p = sycl::malloc_shared<int>(1, q);
  *p = 0;
  int runs = 0;
  // The primary accepts the command group: it runs once, on the primary.
  q.submit(
       [&](sycl::handler& h) {
         ++runs;
         h.single_task([=] { *p = 1; });
       },
       secondary)
      .wait();
  CHECK(runs == 1 && *p == 1);

  // The primary fails to take the command group (here: the group throws the first time it is
  // recorded); the secondary queue runs it.
  runs = 0;
  sycl::event e = q.submit(
      [&](sycl::handler& h) {
        if (++runs == 1)
          throw sycl::exception(sycl::make_error_code(sycl::errc::runtime), "primary refused");
        h.single_task([=] { *p = 2; });
      },
      secondary);
  e.wait();
  CHECK(runs == 2 && *p == 2);
  sycl::free(p, q);
}
} // namespace

int main() {
  sycl::queue q;
  test_usm_shortcuts(q);
  test_buffer_copy_shortcuts(q);
  test_more_shortcuts(q);
  test_secondary_queue(q);
  sycl::queue in_order{sycl::property::queue::in_order{}};
  test_usm_shortcuts(in_order);
  if (g_failures) {
    std::printf("queue_shortcuts: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("queue_shortcuts: PASSED\n");
  return 0;
}
