// SYCL 2020 4.6.5 queue properties: in_order (commands run one after another without explicit
// dependencies), out-of-order (independent commands do not wait for each other), and
// enable_profiling (4.6.6 event profiling: command_submit <= command_start <= command_end;
// without the property the query throws errc::invalid).
#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

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

using namespace std::chrono_literals;

void test_in_order() {
  sycl::queue q{sycl::property::queue::in_order{}};
  CHECK(q.is_in_order());
  CHECK(q.has_property<sycl::property::queue::in_order>());
  CHECK(!q.has_property<sycl::property::queue::enable_profiling>());
  (void)q.get_property<sycl::property::queue::in_order>();
  EXPECT_ERRC(sycl::errc::invalid, "has_property",
              q.get_property<sycl::property::queue::enable_profiling>());

  int* p = sycl::malloc_shared<int>(4, q);
  p[0] = p[1] = p[2] = p[3] = 0;
  // A slow host task first; the following kernels name no dependency, yet must see its result.
  q.submit([&](sycl::handler& h) {
    h.host_task([=] {
      std::this_thread::sleep_for(50ms);
      p[0] = 5;
    });
  });
  q.single_task([=] { p[1] = p[0] * 10; });
  q.parallel_for(sycl::range<1>(1), [=](sycl::id<1>) { p[2] = p[1] + 1; });
  q.submit([&](sycl::handler& h) { h.host_task([=] { p[3] = p[2] * 2; }); });
  q.wait();
  CHECK(p[0] == 5 && p[1] == 50 && p[2] == 51 && p[3] == 102);

  // A chain of many small kernels runs in submission order.
  p[0] = 0;
  for (int i = 1; i <= 200; ++i) q.single_task([=] { p[0] = p[0] * 3 % 1000003 + i; });
  q.wait();
  long expect = 0;
  for (int i = 1; i <= 200; ++i) expect = expect * 3 % 1000003 + i;
  CHECK(p[0] == expect);
  sycl::free(p, q);
}

void test_out_of_order() {
  sycl::queue q;
  CHECK(!q.is_in_order());
  CHECK(!q.has_property<sycl::property::queue::in_order>());
  int* p = sycl::malloc_shared<int>(2, q);
  p[0] = p[1] = 0;
  // A blocked host task must not hold back an independent kernel of an out-of-order queue.
  std::atomic<bool> release{false};
  sycl::event blocked = q.submit([&](sycl::handler& h) {
    h.host_task([&release, p] {
      for (int i = 0; i < 1000 && !release.load(); ++i) std::this_thread::sleep_for(10ms);
      p[0] = 1;
    });
  });
  sycl::event independent = q.single_task([=] { p[1] = 2; });
  independent.wait();
  CHECK(p[1] == 2);
  CHECK(blocked.get_info<sycl::info::event::command_execution_status>() !=
        sycl::info::event_command_status::complete);
  release = true;
  // Explicit dependencies order an out-of-order queue.
  sycl::event after = q.submit([&](sycl::handler& h) {
    h.depends_on(blocked);
    h.single_task([=] { p[1] = p[0] + 40; });
  });
  after.wait();
  CHECK(p[0] == 1 && p[1] == 41);
  q.wait();
  sycl::free(p, q);
}

void test_profiling() {
  sycl::queue q{sycl::property::queue::enable_profiling{}};
  CHECK(q.has_property<sycl::property::queue::enable_profiling>());
  CHECK(!q.is_in_order());
  sycl::event e =
      q.submit([&](sycl::handler& h) { h.host_task([] { std::this_thread::sleep_for(20ms); }); });
  std::uint64_t submit = e.get_profiling_info<sycl::info::event_profiling::command_submit>();
  std::uint64_t start = e.get_profiling_info<sycl::info::event_profiling::command_start>();
  std::uint64_t end = e.get_profiling_info<sycl::info::event_profiling::command_end>();
  CHECK(submit > 0);
  CHECK(submit <= start);
  CHECK(start <= end);
  CHECK(end - start >= 15'000'000); // the host task slept 20 ms
  CHECK(e.get_info<sycl::info::event::command_execution_status>() ==
        sycl::info::event_command_status::complete);

  // A kernel and a copy are profiled too; a later command starts after an earlier one ended
  // when it depends on it.
  int* p = sycl::malloc_device<int>(1024, q);
  sycl::event k = q.parallel_for(sycl::range<1>(1024), [=](sycl::id<1> i) { p[i] = 1; });
  std::vector<int> host(1024);
  sycl::event c = q.memcpy(host.data(), p, 1024 * sizeof(int), k);
  c.wait();
  auto k_end = k.get_profiling_info<sycl::info::event_profiling::command_end>();
  auto c_start = c.get_profiling_info<sycl::info::event_profiling::command_start>();
  auto c_submit = c.get_profiling_info<sycl::info::event_profiling::command_submit>();
  CHECK(k.get_profiling_info<sycl::info::event_profiling::command_start>() <= k_end);
  CHECK(c_submit <= c_start);
  CHECK(k_end <= c_start);
  CHECK(host[0] == 1 && host[1023] == 1);
  sycl::free(p, q);

  // Both properties together.
  sycl::queue both{sycl::property_list{sycl::property::queue::in_order{},
                                       sycl::property::queue::enable_profiling{}}};
  CHECK(both.is_in_order() && both.has_property<sycl::property::queue::enable_profiling>());
  sycl::event b1 = both.single_task([] {});
  sycl::event b2 = both.single_task([] {});
  b2.wait();
  CHECK(b1.get_profiling_info<sycl::info::event_profiling::command_end>() <=
        b2.get_profiling_info<sycl::info::event_profiling::command_start>());

  // Without enable_profiling the queries are errors.
  sycl::queue plain;
  sycl::event pe = plain.single_task([] {});
  pe.wait();
  EXPECT_ERRC(sycl::errc::invalid, "enable_profiling",
              pe.get_profiling_info<sycl::info::event_profiling::command_start>());
  EXPECT_ERRC(sycl::errc::invalid, "enable_profiling",
              pe.get_profiling_info<sycl::info::event_profiling::command_submit>());
  EXPECT_ERRC(sycl::errc::invalid, "enable_profiling",
              pe.get_profiling_info<sycl::info::event_profiling::command_end>());
  // The queue still works after the failed queries.
  int* v = sycl::malloc_shared<int>(1, plain);
  plain.single_task([=] { *v = 3; }).wait();
  CHECK(*v == 3);
  sycl::free(v, plain);
}
} // namespace

int main() {
  test_in_order();
  test_out_of_order();
  test_profiling();
  if (g_failures) {
    std::printf("queue_order_profiling: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("queue_order_profiling: PASSED\n");
  return 0;
}
