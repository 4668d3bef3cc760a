// SYCL 2020 4.10 host tasks: with and without an interop_handle, host_task accessors
// (target::host_task), ordering with kernels through buffers and through events (depends_on),
// and a blocked host task not blocking the submitting thread.
#include <sycl/sycl.hpp>

#include <atomic>
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

void test_plain_and_interop(sycl::queue& q) {
  std::atomic<int> ran{0};
  q.submit([&](sycl::handler& h) { h.host_task([&ran] { ran += 1; }); }).wait();
  CHECK(ran == 1);

  bool device_ok = false, context_ok = false, backend_ok = false;
  q.submit([&](sycl::handler& h) {
     h.host_task([&, dev = q.get_device(), ctx = q.get_context()](sycl::interop_handle ih) {
       device_ok = ih.get_device() == dev;
       context_ok = ih.get_context() == ctx;
       backend_ok = ih.get_backend() == dev.get_backend();
     });
   }).wait();
  CHECK(device_ok && context_ok && backend_ok);

  // A host task on the calling thread's data: it runs on another thread, and it is done when
  // its event is.
  std::thread::id caller = std::this_thread::get_id(), runner;
  q.submit([&](sycl::handler& h) {
     h.host_task([&] { runner = std::this_thread::get_id(); });
   }).wait();
  CHECK(runner != std::thread::id());
  (void)caller;
}

void test_host_task_accessors(sycl::queue& q) {
  constexpr int n = 64;
  std::vector<int> data(n, 1);
  {
    sycl::buffer<int> b(data.data(), sycl::range<1>(n));
    // kernel -> host task -> kernel through one buffer.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]); });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::read_write_host_task);
      static_assert(
          std::is_same_v<decltype(a), sycl::accessor<int, 1, sycl::access_mode::read_write,
                                                     sycl::target::host_task>>);
      h.host_task([=] {
        std::this_thread::sleep_for(20ms); // the next kernel must wait for this
        for (int i = 0; i < n; ++i) a[i] = a[i] * 100;
      });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 1; });
    });
    // A read-only host task accessor and a write-only one on a second buffer.
    sycl::buffer<int> sum{sycl::range<1>(1)};
    q.submit([&](sycl::handler& h) {
      sycl::accessor in(b, h, sycl::read_only_host_task);
      sycl::accessor out(sum, h, sycl::write_only_host_task);
      h.host_task([=] { out[0] = std::accumulate(in.begin(), in.end(), 0); });
    });
    sycl::host_accessor s(sum, sycl::read_only);
    CHECK(s[0] == n * (n - 1) / 2 * 100 + n);
  }
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && data[i] == i * 100 + 1;
  CHECK(ok);
}

void test_event_dependencies(sycl::queue& q) {
  int* p = sycl::malloc_shared<int>(3, q);
  p[0] = p[1] = p[2] = 0;
  sycl::event k = q.single_task([=] { p[0] = 10; });
  sycl::event ht = q.submit([&](sycl::handler& h) {
    h.depends_on(k);
    h.host_task([=] {
      std::this_thread::sleep_for(10ms);
      p[1] = p[0] + 1;
    });
  });
  sycl::event k2 = q.submit([&](sycl::handler& h) {
    h.depends_on(ht);
    h.single_task([=] { p[2] = p[1] * 2; });
  });
  k2.wait();
  CHECK(p[0] == 10 && p[1] == 11 && p[2] == 22);

  // depends_on a list of host tasks.
  std::vector<sycl::event> tasks;
  std::atomic<int> finished{0};
  for (int i = 0; i < 4; ++i)
    tasks.push_back(q.submit([&](sycl::handler& h) {
      h.host_task([=, &finished] {
        std::this_thread::sleep_for(std::chrono::milliseconds(5 * i));
        if (++finished == 4) p[0] += 4; // the last one to finish adds all four
      });
    }));
  q.submit([&](sycl::handler& h) {
     h.depends_on(tasks);
     h.single_task([=] { p[1] = p[0]; });
   }).wait();
  CHECK(p[1] == 14);
  sycl::free(p, q);
}

void test_nonblocking_submit(sycl::queue& q) {
  std::atomic<bool> release{false};
  std::atomic<bool> done{false};
  auto t0 = std::chrono::steady_clock::now();
  sycl::event e = q.submit([&](sycl::handler& h) {
    h.host_task([&] {
      while (!release) std::this_thread::sleep_for(1ms);
      done = true;
    });
  });
  // submit returned while the host task waits for us.
  CHECK(!done);
  CHECK(std::chrono::steady_clock::now() - t0 < 5s);
  release = true;
  e.wait();
  CHECK(done);
}
} // namespace

int main() {
  sycl::queue q;
  test_plain_and_interop(q);
  test_host_task_accessors(q);
  test_event_dependencies(q);
  test_nonblocking_submit(q);
  sycl::queue in_order{sycl::property::queue::in_order{}};
  test_host_task_accessors(in_order);
  test_nonblocking_submit(in_order);
  if (g_failures) {
    std::printf("host_task: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("host_task: PASSED\n");
  return 0;
}
