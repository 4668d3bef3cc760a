// sycl_khr_queue_empty_query and sycl_khr_queue_flush (issue 30): queue::khr_empty reports whether
// every command submitted to the queue has completed, for in-order and out-of-order queues, with a
// host task holding back a kernel that depends on it; queue::khr_flush lets a program spin on an
// event's status without ever calling wait (the extension's own example), also behind a host task
// that the host releases after the flush.
#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <future>

#ifndef SYCL_KHR_QUEUE_EMPTY_QUERY
#error "SYCL_KHR_QUEUE_EMPTY_QUERY is not defined"
#endif
#ifndef SYCL_KHR_QUEUE_FLUSH
#error "SYCL_KHR_QUEUE_FLUSH is not defined"
#endif

static int failures = 0;
#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAIL line %d: %s\n", __LINE__, #cond);                                          \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

// Spins until `e` completes, or gives up after a minute (a hang would be the failure).
bool spin_until_complete(const sycl::event& e) {
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (e.get_info<sycl::info::event::command_execution_status>() !=
         sycl::info::event_command_status::complete)
    if (std::chrono::steady_clock::now() > until) return false;
  return true;
}

void empty_query(sycl::queue q) {
  EXPECT(q.khr_empty());
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  sycl::event held = q.submit([&](sycl::handler& h) { h.host_task([=] { released.wait(); }); });
  EXPECT(!q.khr_empty());
  int* value = sycl::malloc_shared<int>(1, q);
  *value = 0;
  sycl::event after = q.single_task(held, [=] { *value = 42; });
  EXPECT(!q.khr_empty());
  EXPECT(*value == 0);
  release.set_value();
  after.wait();
  EXPECT(*value == 42);
  EXPECT(q.khr_empty());
  // Empty again after many commands, without a queue::wait.
  for (int i = 0; i < 50; ++i) q.single_task([=] { *value += 1; });
  q.single_task([=] { *value += 1; }).wait();
  q.wait();
  EXPECT(q.khr_empty());
  EXPECT(*value == 42 + 51);
  sycl::free(value, q);
}

void flush(sycl::queue q) {
  int* value = sycl::malloc_shared<int>(1, q);
  *value = 0;
  sycl::event e = q.single_task([=] { *value = 7; });
  q.khr_flush();
  EXPECT(spin_until_complete(e));
  EXPECT(*value == 7);
  // A host task the host releases after the flush, and a kernel behind it.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  sycl::event held = q.submit([&](sycl::handler& h) { h.host_task([=] { released.wait(); }); });
  sycl::event next = q.single_task(held, [=] { *value = 8; });
  q.khr_flush();
  release.set_value();
  EXPECT(spin_until_complete(next));
  EXPECT(*value == 8);
  EXPECT(q.khr_empty());
  sycl::free(value, q);
}

int main() {
  sycl::queue q;
  sycl::queue ordered{sycl::property::queue::in_order()};
  empty_query(q);
  empty_query(ordered);
  flush(q);
  flush(ordered);
  std::printf("khr_queue_queries: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
