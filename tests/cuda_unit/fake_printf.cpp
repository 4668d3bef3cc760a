// sycl::ext::oneapi::experimental::printf on the CUDA backend without a GPU: this program, built
// by syclone++ with nvptx64 device code, runs against the fake libcuda.so.1
// (tests/cuda_unit/fake_cuda.cpp). The fake runs no kernel, so nothing is printed; what is
// checked is the path to the output: the JIT compiles printf to a call of CUDA's vprintf with
// the format and the packed arguments, and every launch of a printing kernel, made directly or
// by a stream's launch thread, is followed on its stream by a stream callback, before which the
// driver prints the kernel's output (fake_cuda_printf_unprinted counts launches without one).
// Kernels that do not print get no callback.
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>

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
    std::printf("FAILED: the fake driver has no %s (LD_LIBRARY_PATH?)\n", name);
    ++g_failures;
  }
  return fn;
}
int printing_launches() {
  auto* f = hook<int()>("fake_cuda_printing_launches");
  return f ? f() : -1;
}
int unprinted() {
  auto* f = hook<int()>("fake_cuda_printf_unprinted");
  return f ? f() : -1;
}
int callbacks() {
  auto* f = hook<int()>("fake_cuda_stream_callbacks");
  return f ? f() : -1;
}
std::string last_ptx() {
  auto* f = hook<void(char*, std::size_t)>("fake_cuda_last_ptx");
  std::string ptx(1 << 20, '\0');
  if (f) f(ptx.data(), ptx.size());
  ptx.resize(std::strlen(ptx.c_str()));
  return ptx;
}
int launches() {
  auto* f = hook<int()>("fake_cuda_launches");
  return f ? f() : -1;
}

static const __SYCL_CONSTANT_AS char format[] = "work-item %d of %d: %f\n";
} // namespace

int main() {
  sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order()};
  CHECK(q.get_device().get_backend() == sycl::backend::ext_oneapi_cuda);

  // A printing kernel: vprintf in its PTX, the format string in it, a callback after the launch.
  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) {
     sycl::ext::oneapi::experimental::printf(format, int(i[0]), 64, 0.5f * float(i[0]));
   }).wait();
  std::string ptx = last_ptx();
  CHECK(ptx.find(") vprintf") != std::string::npos);
  // "work-item" as the bytes of the format string's initializer.
  CHECK(ptx.find("119, 111, 114, 107, 45, 105, 116, 101, 109") != std::string::npos);
  CHECK(printing_launches() == 1);
  CHECK(unprinted() == 0);
  CHECK(callbacks() == 1);

  // A kernel that does not print: no callback.
  int* data = sycl::malloc_device<int>(64, q);
  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { data[i] = int(i[0]); }).wait();
  CHECK(last_ptx().find("vprintf") == std::string::npos);
  CHECK(printing_launches() == 1);
  CHECK(callbacks() == 1);

  // Back-to-back launches with work in flight (FAKE_CUDA_LATENCY_US): the stream's launch thread
  // makes some of them; each printing one still gets its callback, the others none.
  const int before = launches();
  for (int round = 0; round < 50; ++round) {
    q.single_task([=] { sycl::ext::oneapi::experimental::printf("round %d\n", round); });
    q.single_task([=] { data[0] = round; });
  }
  q.wait();
  CHECK(launches() - before == 100);
  CHECK(printing_launches() == 51);
  CHECK(unprinted() == 0);
  CHECK(callbacks() == 51);
  sycl::free(data, q);

  if (g_failures == 0) std::printf("ok\n");
  return g_failures;
}
