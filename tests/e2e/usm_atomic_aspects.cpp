// SYCL 2020 4.6.4.3: a device reports aspect::usm_atomic_host_allocations /
// usm_atomic_shared_allocations only if the host and a running kernel can work on the same
// allocation concurrently. For each such allocation kind the device claims, a kernel spins until
// the host sets a flag after submit returned, then both add to one counter with atomics. A
// device that claims the aspect without holding it hangs here: a watchdog fails the test.
#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {
constexpr int repetitions = 2000;

bool concurrent_counter(sycl::queue& q, sycl::usm::alloc kind) {
  int* flag = static_cast<int*>(sycl::malloc(sizeof(int), q, kind));
  int* counter = static_cast<int*>(sycl::malloc(sizeof(int), q, kind));
  *flag = 0;
  *counter = 0;
  using ref = sycl::atomic_ref<int, sycl::memory_order::seq_cst, sycl::memory_scope::system,
                               sycl::access::address_space::global_space>;
  q.single_task([=] {
    ref f(*flag);
    while (f.load() == 0) {
    }
    ref c(*counter);
    for (int i = 0; i < repetitions; ++i) c.fetch_add(1);
  });
  ref(*flag).store(1);
  for (int i = 0; i < repetitions; ++i) ref(*counter).fetch_add(1);
  q.wait();
  bool ok = *counter == 2 * repetitions;
  sycl::free(flag, q);
  sycl::free(counter, q);
  return ok;
}
} // namespace

int main() {
  std::atomic<bool> done{false};
  std::thread watchdog([&] {
    for (int i = 0; i < 300 && !done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!done) {
      std::printf("FAILED: a kernel waiting for the host never saw its flag: the device claims a "
                  "usm_atomic_* aspect it does not have\n");
      std::fflush(stdout);
      std::_Exit(1);
    }
  });
  int failures = 0, checked = 0;
  for (const sycl::device& d : sycl::device::get_devices()) {
    sycl::queue q(d);
    if (d.has(sycl::aspect::usm_atomic_host_allocations)) {
      ++checked;
      if (!concurrent_counter(q, sycl::usm::alloc::host)) ++failures;
    }
    if (d.has(sycl::aspect::usm_atomic_shared_allocations)) {
      ++checked;
      if (!concurrent_counter(q, sycl::usm::alloc::shared)) ++failures;
    }
  }
  done = true;
  watchdog.join();
  if (failures) {
    std::printf("usm_atomic_aspects: %d failure(s)\n", failures);
    return 1;
  }
  std::printf("usm_atomic_aspects: PASSED (%d device/allocation pairs claim the aspect)\n", checked);
  return 0;
}
