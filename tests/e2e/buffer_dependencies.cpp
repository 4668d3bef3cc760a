// SYCL 2020 3.9.8 / 4.7.2 implicit dependencies between command groups that use the same buffer
// on an out-of-order queue: read-after-write, write-after-read and write-after-write are
// ordered (slow host tasks make a missing dependency visible), reads of the same buffer may run
// together, and long chains and fan-in/fan-out graphs compute the right values.
#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
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
constexpr int N = 32;

void test_raw(sycl::queue& q) {
  sycl::buffer<int> b{sycl::range<1>(N)};
  std::vector<int> out(N, 0);
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::write_only_host_task);
    h.host_task([=] {
      std::this_thread::sleep_for(30ms);
      for (int i = 0; i < N; ++i) a[i] = i + 100;
    });
  });
  q.submit([&](sycl::handler& h) {
     sycl::accessor a(b, h, sycl::read_only);
     h.copy(a, out.data());
   }).wait();
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && out[i] == i + 100;
  CHECK(ok);
}

void test_war(sycl::queue& q) {
  std::vector<int> init(N, 1), seen(N, 0);
  sycl::buffer<int> b(init.data(), sycl::range<1>(N));
  b.set_write_back(false);
  int* seen_ptr = seen.data();
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::read_only_host_task);
    h.host_task([=] {
      std::this_thread::sleep_for(30ms);
      for (int i = 0; i < N; ++i) seen_ptr[i] = a[i];
    });
  });
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] = 2; });
  });
  q.wait();
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && seen[i] == 1; // the reader saw the old values
  CHECK(ok);
  CHECK(b.get_host_access()[0] == 2);
}

void test_waw(sycl::queue& q) {
  sycl::buffer<int> b{sycl::range<1>(N)};
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::write_only_host_task);
    h.host_task([=] {
      std::this_thread::sleep_for(30ms);
      for (int i = 0; i < N; ++i) a[i] = 1;
    });
  });
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::write_only);
    h.fill(a, 2);
  });
  sycl::host_accessor h(b, sycl::read_only);
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && h[i] == 2;
  CHECK(ok);
}

void test_concurrent_reads(sycl::queue& q) {
  // Two readers of one buffer do not wait for each other: each waits until the other started.
  sycl::buffer<int> b{sycl::range<1>(N)};
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::write_only);
    h.fill(a, 4);
  });
  std::atomic<int> started{0};
  std::atomic<bool> both_ran_together{true};
  for (int r = 0; r < 2; ++r)
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::read_only_host_task);
      h.host_task([=, &started, &both_ran_together] {
        ++started;
        auto deadline = std::chrono::steady_clock::now() + 10s;
        while (started < 2 && std::chrono::steady_clock::now() < deadline)
          std::this_thread::sleep_for(1ms);
        if (started < 2 || a[0] != 4) both_ran_together = false;
      });
    });
  q.wait();
  CHECK(both_ran_together);
}

void test_chains(sycl::queue& q) {
  // 100 increments of one buffer, submitted without waiting.
  int value = 0;
  {
    sycl::buffer<int> b(&value, sycl::range<1>(1));
    for (int i = 0; i < 100; ++i)
      q.submit([&](sycl::handler& h) {
        sycl::accessor a(b, h);
        h.single_task([=] { a[0] = a[0] * 2 % 1000 + 1; });
      });
  }
  int expect = 0;
  for (int i = 0; i < 100; ++i) expect = expect * 2 % 1000 + 1;
  CHECK(value == expect);

  // Fan-out / fan-in: x -> (y, z) -> w.
  std::vector<int> w(N, 0);
  {
    sycl::buffer<int> x{sycl::range<1>(N)}, y{sycl::range<1>(N)}, z{sycl::range<1>(N)};
    sycl::buffer<int> wb(w.data(), sycl::range<1>(N));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(x, h, sycl::write_only);
      h.host_task([] { std::this_thread::sleep_for(10ms); });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(x, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]); });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor in(x, h, sycl::read_only);
      sycl::accessor out(y, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { out[i] = in[i] * 2; });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor in(x, h, sycl::read_only);
      sycl::accessor out(z, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { out[i] = in[i] * 3; });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(y, h, sycl::read_only);
      sycl::accessor b(z, h, sycl::read_only);
      sycl::accessor out(wb, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { out[i] = a[i] + b[i]; });
    });
    // x is written again: must wait for both readers.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(x, h, sycl::write_only);
      h.fill(a, -1);
    });
  }
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && w[i] == 5 * i;
  CHECK(ok);
}

void test_mixed_with_events(sycl::queue& q) {
  // A buffer dependency and an event dependency together.
  int* flag = sycl::malloc_shared<int>(1, q);
  *flag = 0;
  std::vector<int> out(N, 0);
  {
    sycl::buffer<int> b(out.data(), sycl::range<1>(N));
    sycl::event e = q.submit([&](sycl::handler& h) {
      h.host_task([=] {
        std::this_thread::sleep_for(20ms);
        *flag = 9;
      });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] = 1; });
    });
    q.submit([&](sycl::handler& h) {
      h.depends_on(e);
      sycl::accessor a(b, h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] += *flag; });
    });
  }
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && out[i] == 10;
  CHECK(ok);
  sycl::free(flag, q);
}
} // namespace

int main() {
  sycl::queue q;
  CHECK(!q.is_in_order());
  test_raw(q);
  test_war(q);
  test_waw(q);
  test_concurrent_reads(q);
  test_chains(q);
  test_mixed_with_events(q);
  if (g_failures) {
    std::printf("buffer_dependencies: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("buffer_dependencies: PASSED\n");
  return 0;
}
