// The Khronos registry extensions syclone has, and two oneAPI queries (issue 30).
// sycl_khr_queue_empty_query and sycl_khr_queue_flush: queue::khr_empty reports whether every
// command submitted to the queue has completed, for in-order and out-of-order queues, with a host
// task holding back a kernel that depends on it; queue::khr_flush lets a program spin on an event's
// status without ever calling wait (the extension's own example), also behind a host task that the
// host releases after the flush. sycl_khr_default_context: every queue constructed without a
// context uses the platform's default context, which holds its root devices.
// sycl_khr_max_work_group_queries: the limits, and an nd_range one work-group beyond a finite limit
// refused with errc::nd_range while one at the limit runs. sycl_ext_oneapi_queue_empty
// (queue::ext_oneapi_empty, checked with khr_empty) and sycl_ext_oneapi_num_compute_units (the
// device's max_compute_units, at least 1).
#include "expect.hpp"

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
#ifndef SYCL_KHR_DEFAULT_CONTEXT
#error "SYCL_KHR_DEFAULT_CONTEXT is not defined"
#endif
#ifndef SYCL_KHR_MAX_WORK_GROUP_QUERIES
#error "SYCL_KHR_MAX_WORK_GROUP_QUERIES is not defined"
#endif
#ifndef SYCL_EXT_ONEAPI_QUEUE_EMPTY
#error "SYCL_EXT_ONEAPI_QUEUE_EMPTY is not defined"
#endif
#ifndef SYCL_EXT_ONEAPI_NUM_COMPUTE_UNITS
#error "SYCL_EXT_ONEAPI_NUM_COMPUTE_UNITS is not defined"
#endif

// Spins until `e` completes, or gives up after a minute (a hang would be the failure).
bool spin_until_complete(const sycl::event& e) {
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (e.get_info<sycl::info::event::command_execution_status>() !=
         sycl::info::event_command_status::complete)
    if (std::chrono::steady_clock::now() > until) return false;
  return true;
}

void empty_query(sycl::queue q) {
  EXPECT(q.khr_empty() && q.ext_oneapi_empty());
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  sycl::event held = q.submit([&](sycl::handler& h) { h.host_task([=] { released.wait(); }); });
  EXPECT(!q.khr_empty() && !q.ext_oneapi_empty());
  int* value = sycl::malloc_shared<int>(1, q);
  *value = 0;
  sycl::event after = q.single_task(held, [=] { *value = 42; });
  EXPECT(!q.khr_empty() && !q.ext_oneapi_empty());
  EXPECT(*value == 0);
  release.set_value();
  after.wait();
  EXPECT(*value == 42);
  EXPECT(q.khr_empty() && q.ext_oneapi_empty());
  // Empty again after many commands (which an out-of-order queue may run at the same time: the
  // additions are atomic).
  auto add_one = [=] {
    sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> v(*value);
    v.fetch_add(1);
  };
  for (int i = 0; i < 50; ++i) q.single_task(add_one);
  q.single_task(add_one).wait();
  q.wait();
  EXPECT(q.khr_empty() && q.ext_oneapi_empty());
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
  EXPECT(q.khr_empty() && q.ext_oneapi_empty());
  sycl::free(value, q);
}

void default_context() {
  sycl::platform platform;
  sycl::context defaults = platform.khr_get_default_context();
  EXPECT(defaults == platform.ext_oneapi_get_default_context());
  EXPECT(defaults.get_devices() == platform.get_devices());
  sycl::device device;
  EXPECT(sycl::queue{}.get_context() == defaults);
  EXPECT(sycl::queue{device}.get_context() == defaults);
  EXPECT(sycl::queue{sycl::default_selector_v}.get_context() == defaults);
  EXPECT(sycl::queue(device, sycl::property::queue::in_order()).get_context() == defaults);
  sycl::context own;
  EXPECT(own != defaults);
  EXPECT(sycl::queue(own, device).get_context() == own);
}

void max_work_groups() {
  sycl::queue q;
  sycl::device d = q.get_device();
  sycl::range<3> r3 = d.get_info<sycl::khr::info::device::max_work_group_range<3>>();
  sycl::range<2> r2 = d.get_info<sycl::khr::info::device::max_work_group_range<2>>();
  sycl::range<1> r1 = d.get_info<sycl::khr::info::device::max_work_group_range<1>>();
  std::size_t total = d.get_info<sycl::khr::info::device::max_work_group_range_size>();
  std::size_t units = d.get_info<sycl::ext::oneapi::info::device::num_compute_units>();
  EXPECT(units >= 1 && units == d.get_info<sycl::info::device::max_compute_units>());
  EXPECT(r3[0] >= 1 && r3[1] >= 1 && r3[2] >= 1 && total >= 1);
  // Right-aligned: the last dimension's limit is the same in every form.
  EXPECT(r1[0] == r3[2] && r2[1] == r3[2] && r2[0] == r3[1]);
  EXPECT(total >= r1[0]);
  // A finite limit in the first of two dimensions (65535 on NVIDIA GPUs): one work-group of one
  // work-item beyond it is refused, at it the kernel runs.
  if (r2[0] < (std::size_t(1) << 20)) {
    unsigned* count = sycl::malloc_shared<unsigned>(1, q);
    *count = 0;
    q.parallel_for(sycl::nd_range<2>({r2[0], 1}, {1, 1}), [=](sycl::nd_item<2>) {
       sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::device> c(
           *count);
       c.fetch_add(1u);
     }).wait();
    EXPECT(*count == r2[0]);
    bool refused = false;
    try {
      q.parallel_for(sycl::nd_range<2>({r2[0] + 1, 1}, {1, 1}), [=](sycl::nd_item<2>) {});
      q.wait();
    } catch (const sycl::exception& e) {
      refused = e.code() == sycl::errc::nd_range;
    }
    EXPECT(refused);
    sycl::free(count, q);
  }
}

int main() {
  default_context();
  max_work_groups();
  sycl::queue q;
  sycl::queue ordered{sycl::property::queue::in_order()};
  empty_query(q);
  empty_query(ordered);
  flush(q);
  flush(ordered);
  std::printf("extension_queries: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
