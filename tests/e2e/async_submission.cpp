// SYCL 2020 3.6: submission does not block, so a kernel may wait for what the host does after
// submit returns. Kernels spin on a USM flag (system-scope atomics, on memory whose aspect says
// the host and the device may access it atomically at once) that the host sets only once
// submit returned; also through an in-order queue with a second kernel behind the first, and a
// host task waiting for a flag. A runtime that runs a kernel on the submitting thread deadlocks
// here: a watchdog then fails the program instead of letting it hang.
#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

using flag_ref = sycl::atomic_ref<int, sycl::memory_order::acq_rel, sycl::memory_scope::system,
                                  sycl::access::address_space::global_space>;

std::atomic<const char*> g_stage{"start"};

// The kernel waits for the flag the host raises after submit returned, then writes 42.
class spinner;
class follower;

void spin_on(sycl::queue& q, int* flag, int* out, const char* what) {
  auto spin = [=] {
    flag_ref f(flag[0]);
    while (f.load(sycl::memory_order::acquire) == 0) {
    }
    out[0] = 42;
  };
  auto follow = [=] { out[1] = out[0] + 1; };
  // Both kernels run once first: a GPU driver loads a kernel's module only while no kernel of the
  // context runs, which would block the second submission behind the spinning kernel.
  flag[0] = 1;
  q.single_task<spinner>(spin).wait();
  q.single_task<follower>(follow).wait();
  g_stage = what;
  flag[0] = 0;
  out[0] = 0;
  out[1] = 0;
  sycl::event e = q.single_task<spinner>(spin);
  // In order, a second kernel queues behind the spinning one and sees its result.
  sycl::event e2;
  if (q.is_in_order()) e2 = q.single_task<follower>(follow);
  flag_ref(flag[0]).store(1, sycl::memory_order::release);
  e.wait();
  e2.wait();
  CHECK(out[0] == 42);
  if (q.is_in_order()) CHECK(out[1] == 43);
}

void test_usm(sycl::queue& q) {
  const sycl::device dev = q.get_device();
  if (dev.has(sycl::aspect::usm_atomic_host_allocations)) {
    int* flag = sycl::malloc_host<int>(1, q);
    int* out = sycl::malloc_host<int>(2, q);
    spin_on(q, flag, out, q.is_in_order() ? "host USM, in-order queue" : "host USM");
    sycl::free(flag, q);
    sycl::free(out, q);
  }
  if (dev.has(sycl::aspect::usm_atomic_shared_allocations)) {
    int* flag = sycl::malloc_shared<int>(1, q);
    int* out = sycl::malloc_shared<int>(2, q);
    spin_on(q, flag, out, q.is_in_order() ? "shared USM, in-order queue" : "shared USM");
    sycl::free(flag, q);
    sycl::free(out, q);
  }
}

// A host task waiting for the host: it runs on another thread than the submitting one.
void test_host_task(sycl::queue& q) {
  g_stage = "host task";
  std::atomic<int> flag{0};
  int seen = 0;
  sycl::event e = q.submit([&](sycl::handler& h) {
    h.host_task([&] {
      while (flag.load() == 0) std::this_thread::yield();
      seen = 7;
    });
  });
  flag.store(1);
  e.wait();
  CHECK(seen == 7);
}

} // namespace

int main() {
  // A pass takes milliseconds; a runtime that blocks the submitting thread never returns.
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::seconds(30));
    std::printf("FAILED: still waiting after 30 s in \"%s\": submit blocked until the kernel or "
                "host task ran (SYCL 2020 3.6: submission must not block)\n",
                g_stage.load());
    std::fflush(stdout);
    std::_Exit(1);
  }).detach();

  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  test_usm(q);
  sycl::queue in_order{q.get_device(), sycl::property::queue::in_order{}};
  test_usm(in_order);
  test_host_task(q);
  test_host_task(in_order);
  if (g_failures) return 1;
  std::printf("async_submission: all checks passed\n");
}
