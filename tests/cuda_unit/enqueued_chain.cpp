// Issue 28, load: a GPU command whose dependency is not on a device stream yet must follow it
// onto the stream as soon as it is there, not wait for it to complete on the device. Before the
// fix, 16 threads on one in-order queue made 12 thousand submissions a second where one thread
// made 229 thousand: each command found the previous one (another thread's, an instant before)
// not yet on the stream, waited for its completion, and every later one then chained to device
// completions.
//
// Here the first kernel of an in-order queue waits for a host task (on another queue) that
// sleeps 200 ms, and 19 more kernels follow it. Against the fake driver, each operation keeps
// the device busy for 150 ms: chained to completions, the 20 launches take at least 19 x 150 ms
// = 2.85 s after the host task; following onto the stream, they are all made right after it.
// The test wants them within 1.5 s.
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace {
struct nothing {
  int* p;
  void operator()() const {
    if (p) *p = 1;
  }
};
} // namespace

int main() {
  sycl::queue q(sycl::gpu_selector_v, sycl::property::queue::in_order());
  sycl::queue other(q.get_device());
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto launches = lib ? reinterpret_cast<int (*)()>(dlsym(lib, "fake_cuda_launches")) : nullptr;
  auto set_latency =
      lib ? reinterpret_cast<void (*)(long)>(dlsym(lib, "fake_cuda_set_latency_us")) : nullptr;
  if (!launches || !set_latency) {
    std::printf("FAILED: needs the fake CUDA driver (tests/cuda_unit/fake_cuda.cpp)\n");
    return 1;
  }
  // JIT and load the kernel first, so that the chain costs only launches.
  q.single_task<class k_nothing>(nothing{nullptr}).wait();
  set_latency(150'000);
  const int before = launches();
  auto gate = other.submit([&](sycl::handler& h) {
    h.host_task([] { std::this_thread::sleep_for(std::chrono::milliseconds(200)); });
  });
  q.submit([&](sycl::handler& h) {
    h.depends_on(gate);
    h.single_task<class k_nothing>(nothing{nullptr});
  });
  for (int i = 1; i < 20; ++i) q.single_task<class k_nothing>(nothing{nullptr});
  const auto start = std::chrono::steady_clock::now();
  gate.wait();
  while (launches() - before < 20 &&
         std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1500))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const int made = launches() - before;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  set_latency(0);
  q.wait();
  if (made < 20) {
    std::printf("FAILED: %d of 20 launches made %.2f s after the host task they wait for (each "
                "kernel waited for the previous one to complete on the device)\n",
                made, s);
    return 1;
  }
  std::printf("enqueued_chain: 20 launches made %.3f s after the host task\n", s);
  return 0;
}
