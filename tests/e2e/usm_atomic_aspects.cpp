// SYCL 2020 4.6.4.3: a device reports aspect::usm_atomic_host_allocations /
// usm_atomic_shared_allocations only if the host and a running kernel can work on the same
// allocation concurrently with atomics. For each such allocation kind the device claims, a
// kernel spins until the host sets a flag after submit returned, then both add to one counter,
// for 4- and 8-byte integers and for double, with memory_scope::device (what the CTS's
// usm_atomic_access uses) and memory_scope::system. The host paces its adds so that they
// interleave with the kernel's, with the CTS's counts and pacing (with 3000 adds 5 us apart the
// H100's .gpu-scope atomics lost none, with these about 2 %). A lost update fails; a device
// that claims the aspect without a concurrently running kernel hangs here, and a watchdog fails
// the test.
#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {
// Iterations of the host's loops so far (the watchdog's sign of progress).
std::atomic<long> g_progress{0};
constexpr int repetitions = 15000;

template <typename T, sycl::memory_scope Scope>
bool concurrent_counter(sycl::queue& q, sycl::usm::alloc kind, const char* what) {
  int* flag = static_cast<int*>(sycl::malloc(sizeof(int), q, kind));
  T* counter = static_cast<T*>(sycl::malloc(sizeof(T), q, kind));
  *flag = 0;
  *counter = 0;
  using flag_ref = sycl::atomic_ref<int, sycl::memory_order::seq_cst, Scope,
                                    sycl::access::address_space::global_space>;
  using ref = sycl::atomic_ref<T, sycl::memory_order::seq_cst, Scope,
                               sycl::access::address_space::global_space>;
  q.single_task([=] {
    flag_ref f(*flag);
    while (f.load() == 0) {
    }
    ref c(*counter);
    for (int i = 0; i < repetitions; ++i) c.fetch_add(T(1));
  });
  flag_ref(*flag).fetch_add(1);
  for (int i = 0; i < repetitions; ++i) {
    g_progress.fetch_add(1, std::memory_order_relaxed);
    ref(*counter).fetch_add(T(1));
    auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
    while (std::chrono::steady_clock::now() < until) std::this_thread::yield();
  }
  q.wait();
  T got = *counter;
  bool ok = got == T(2 * repetitions);
  std::printf("%s %-6s %-7s %-6s: %s (%.0f of %d)\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(),
              kind == sycl::usm::alloc::host ? "host" : "shared",
              Scope == sycl::memory_scope::device ? "device" : "system", what,
              ok ? "ok" : "LOST UPDATES", static_cast<double>(got), 2 * repetitions);
  sycl::free(flag, q);
  sycl::free(counter, q);
  return ok;
}

int all_forms(sycl::queue& q, sycl::usm::alloc kind) {
  using sycl::memory_scope;
  int failures = 0;
  failures += !concurrent_counter<int, memory_scope::device>(q, kind, "int");
  failures += !concurrent_counter<int, memory_scope::system>(q, kind, "int");
  if (q.get_device().has(sycl::aspect::atomic64)) {
    failures += !concurrent_counter<std::int64_t, memory_scope::device>(q, kind, "int64");
    failures += !concurrent_counter<std::int64_t, memory_scope::system>(q, kind, "int64");
    failures += !concurrent_counter<std::uint64_t, memory_scope::device>(q, kind, "uint64");
    if (q.get_device().has(sycl::aspect::fp64)) {
      failures += !concurrent_counter<double, memory_scope::device>(q, kind, "double");
      failures += !concurrent_counter<double, memory_scope::system>(q, kind, "double");
    }
  }
  return failures;
}
} // namespace

int main() {
  std::atomic<bool> done{false};
  // A hang (a kernel that never sees the host's flag: q.wait() never returns) shows as 60 s
  // without progress; a loaded machine only makes the host's loop slower (the watchdog once
  // counted 60 s in all, which a 2-core CI machine under load exceeded).
  std::thread watchdog([&] {
    long last = -1;
    for (int idle = 0; idle < 600 && !done; ++idle) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const long now = g_progress.load(std::memory_order_relaxed);
      if (now != last) idle = 0;
      last = now;
    }
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
      failures += all_forms(q, sycl::usm::alloc::host);
    }
    if (d.has(sycl::aspect::usm_atomic_shared_allocations)) {
      ++checked;
      failures += all_forms(q, sycl::usm::alloc::shared);
    }
  }
  done = true;
  watchdog.join();
  if (failures) {
    std::printf("usm_atomic_aspects: %d failure(s)\n", failures);
    return 1;
  }
  std::printf("usm_atomic_aspects: PASSED (%d device/allocation pairs claim the aspect)\n",
              checked);
  return 0;
}
