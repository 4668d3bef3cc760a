// Issue 28: memory freed right after the kernels that use it were submitted, without a wait, as
// programs ported from CUDA do (cudaFree waits for the device; so does cuMemFree, on which
// sycl::free sits). Kernels still held by syclone's launch thread (src/backends/cuda/
// launch_thread.hpp) when sycl::free came were launched after the memory was gone: every later
// operation failed with CUDA_ERROR_ILLEGAL_ADDRESS. Here each run allocates, submits a few hundred
// kernels back to back on an in-order queue, has a last kernel store a checksum into memory that
// lives on, and frees at once; the checksums and the absence of errors are checked at the end.
//
// Against the fake driver (tests/cuda_unit/fake_cuda.cpp, FAKE_CUDA_LAUNCH_US makes each launch
// cost the host as a real one does) the fake runs the kernels and a launch touching freed memory
// is an illegal address; on a GPU the GPU says so.
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {
struct add_one {
  unsigned* p;
  std::size_t n;
  void operator()(sycl::item<1> it) const { p[it.get_id(0)] += 1; }
};
struct checksum {
  const unsigned* p;
  unsigned* out;
  std::size_t n;
  void operator()(sycl::item<1> it) const {
    if (it.get_id(0) == 0) *out = p[0] + p[n - 1];
  }
};

using object_add = sycl::detail::range_kernel<1, add_one>;
using object_sum = sycl::detail::range_kernel<1, checksum>;
int (*g_live)(const void*, std::size_t) = nullptr;

// The fake driver's host implementation of the two kernels, which checks their memory is live.
int emulate(const char* name, const void* object, const unsigned*, const unsigned*, unsigned) {
  if (std::strstr(name, "add_one")) {
    const auto& o = *static_cast<const object_add*>(object);
    if (!g_live(o.m_f.p, o.m_f.n * sizeof(unsigned))) return 700; // CUDA_ERROR_ILLEGAL_ADDRESS
    object_add::run_range(object, 0, o.m_range[0]);
  } else if (std::strstr(name, "checksum")) {
    const auto& o = *static_cast<const object_sum*>(object);
    if (!g_live(o.m_f.p, o.m_f.n * sizeof(unsigned)) || !g_live(o.m_f.out, sizeof(unsigned)))
      return 700;
    object_sum::run_range(object, 0, o.m_range[0]);
  }
  return 0;
}
} // namespace

int main() {
  std::string errors;
  sycl::queue q(
      sycl::gpu_selector_v,
      [&](sycl::exception_list l) {
        for (auto& e : l) try {
            std::rethrow_exception(e);
          } catch (const sycl::exception& x) {
            if (errors.size() < 2000) errors += std::string(x.what()) + "\n";
          }
      },
      sycl::property::queue::in_order());
  if (void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
    using set_t =
        void (*)(int (*)(const char*, const void*, const unsigned*, const unsigned*, unsigned));
    auto set = reinterpret_cast<set_t>(dlsym(lib, "fake_cuda_set_kernel_emulator"));
    g_live =
        reinterpret_cast<int (*)(const void*, std::size_t)>(dlsym(lib, "fake_cuda_live_range"));
    if (set && g_live) set(&emulate);
  }
  constexpr int runs = 6, kernels = 300;
  constexpr std::size_t n = 65536;
  unsigned* sums = sycl::malloc_shared<unsigned>(runs, q);
  for (int r = 0; r < runs; ++r) {
    unsigned* d = sycl::malloc_device<unsigned>(n, q);
    if (!d) {
      std::printf("FAILED: run %d: malloc_device returned null (the device failed before)\n", r);
      break;
    }
    q.fill(d, 0u, n);
    for (int k = 0; k < kernels; ++k)
      q.parallel_for<class k_add_one>(sycl::range<1>(n), add_one{d, n});
    q.parallel_for<class k_checksum>(sycl::range<1>(1), checksum{d, sums + r, n});
    sycl::free(d, q); // no wait: free waits for the device, as cudaFree does
  }
  try {
    q.wait_and_throw();
  } catch (const sycl::exception& e) {
    errors += e.what();
  }
  int failures = 0;
  for (int r = 0; r < runs; ++r)
    if (sums[r] != 2 * kernels) {
      std::printf("FAILED: run %d checksum %u, expected %d\n", r, sums[r], 2 * kernels);
      ++failures;
    }
  if (!errors.empty()) {
    std::printf("FAILED: asynchronous errors:\n%s", errors.c_str());
    ++failures;
  }
  sycl::free(sums, q);
  if (failures) return 1;
  std::printf("free_in_flight: passed on %s\n",
              q.get_device().get_info<sycl::info::device::name>().c_str());
  return 0;
}
