// The CUDA backend's launch thread (src/backends/cuda/launch_thread.hpp) against the fake
// libcuda.so.1 (tests/cuda_unit/fake_cuda.cpp), which logs each launch and copy with its calling
// thread. Kernels submitted back-to-back while the stream is busy are launched by another thread
// than the submitting one, in submission order, and a copy submitted after them follows them;
// a kernel submitted after a wait (nothing in flight) is launched by the submitting thread; a
// launch the driver refuses on the launch thread is reported, naming the kernel, and the queue
// stays usable.
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <functional>
#include <string>
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

template <typename Fn>
Fn* hook(const char* name) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto* fn = lib ? reinterpret_cast<Fn*>(dlsym(lib, name)) : nullptr;
  if (!fn) {
    std::printf("FAILED: the fake driver has no %s\n", name);
    ++g_failures;
  }
  return fn;
}

struct op {
  char kind;
  unsigned tag;
  std::size_t thread;
};
std::vector<op> ops() {
  auto* get = hook<int(char*, unsigned*, std::size_t*, int)>("fake_cuda_ops");
  std::vector<char> kinds(4096);
  std::vector<unsigned> tags(4096);
  std::vector<std::size_t> threads(4096);
  int n = get ? get(kinds.data(), tags.data(), threads.data(), 4096) : 0;
  std::vector<op> out;
  for (int i = 0; i < n; ++i) out.push_back({kinds[i], tags[i], threads[i]});
  return out;
}

// A kernel object whose first word the fake logs.
struct tagged {
  unsigned tag;
  int* out;
  void operator()() const { out[0] = static_cast<int>(tag); }
};
class tagged_name;
} // namespace

int main() {
  sycl::queue q;
  try {
    q = sycl::queue(
        sycl::gpu_selector_v,
        [](sycl::exception_list errors) {
          for (auto& e : errors) std::rethrow_exception(e);
        },
        sycl::property::queue::in_order());
  } catch (const sycl::exception& e) {
    std::printf("FAILED: no fake GPU: %s\n", e.what());
    return 1;
  }
  auto* param_size = hook<void(std::size_t)>("fake_cuda_set_param_size");
  auto* log_ops = hook<void(int)>("fake_cuda_log_ops");
  auto* set_latency = hook<void(long)>("fake_cuda_set_latency_us");
  auto* fail_launches = hook<void(int)>("fake_cuda_fail_launches");
  if (!param_size || !log_ops || !set_latency || !fail_launches) return 1;
  int* out = sycl::malloc_device<int>(1, q);
  int host = 0;
  const std::size_t me = std::hash<std::thread::id>()(std::this_thread::get_id());
  param_size(sizeof(unsigned));

  // Back-to-back kernels on a busy stream (each keeps it busy for 200 us), then a copy.
  set_latency(200);
  log_ops(1);
  constexpr unsigned kernels = 300;
  for (unsigned i = 0; i < kernels; ++i) q.single_task<tagged_name>(tagged{i, out});
  q.memcpy(&host, out, sizeof(int));
  q.wait();
  std::vector<op> seen = ops();
  CHECK(seen.size() == kernels + 1);
  bool in_order = seen.size() == kernels + 1;
  unsigned by_other_thread = 0;
  for (unsigned i = 0; in_order && i < kernels; ++i) {
    in_order = seen[i].kind == 'k' && seen[i].tag == i;
    if (seen[i].thread != me) ++by_other_thread;
  }
  CHECK(in_order);
  CHECK(!seen.empty() && seen.back().kind == 'c' && seen.back().thread == me);
  // The first launch found the stream idle and the launch thread not yet started.
  CHECK(!seen.empty() && seen[0].thread == me);
  CHECK(by_other_thread >= kernels / 2);
  std::printf("%u of %u launches made by the launch thread\n", by_other_thread, kernels);

  // Nothing in flight: the submitting thread launches.
  set_latency(0);
  log_ops(1);
  q.single_task<tagged_name>(tagged{7, out}).wait();
  seen = ops();
  CHECK(seen.size() == 1 && seen[0].thread == me && seen[0].tag == 7);

  // A launch the driver refuses on the launch thread: reported (asynchronously, as SYCL 2020
  // 4.13 reports a command that fails after submit returned), naming the kernel; the queue goes
  // on.
  set_latency(200);
  for (unsigned i = 0; i < 50; ++i) q.single_task<tagged_name>(tagged{i, out});
  fail_launches(1);
  for (unsigned i = 0; i < 20; ++i) q.single_task<tagged_name>(tagged{100 + i, out});
  std::string error;
  try {
    q.wait_and_throw();
    q.single_task<tagged_name>(tagged{0, out}).wait_and_throw();
  } catch (const sycl::exception& e) {
    error = e.what();
  }
  CHECK(error.find("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES") != std::string::npos);
  CHECK(error.find("tagged_name") != std::string::npos);
  CHECK(error.find("launch thread") != std::string::npos);
  if (!error.empty()) std::printf("reported: %s\n", error.c_str());
  set_latency(0);
  log_ops(1);
  bool usable = true;
  try {
    q.single_task<tagged_name>(tagged{9, out}).wait();
  } catch (const sycl::exception& e) {
    usable = false;
    std::printf("after the failure: %s\n", e.what());
  }
  CHECK(usable);
  seen = ops();
  CHECK(seen.size() == 1 && seen[0].tag == 9);
  log_ops(0);

  sycl::free(out, q);
  if (g_failures) {
    std::printf("fake_launch_thread: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("fake_launch_thread: PASSED\n");
  return 0;
}
