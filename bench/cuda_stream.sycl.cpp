// STREAM triad a[i] = b[i] + s * c[i] through syclone on the GPU (device USM, range kernel),
// best of N runs timed with profiling events; GB/s counts the 3 arrays moved.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

template <typename T>
double run(sycl::queue& q, std::size_t n, int reps) {
  T* a = sycl::malloc_device<T>(n, q);
  T* b = sycl::malloc_device<T>(n, q);
  T* c = sycl::malloc_device<T>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
     a[i] = 0;
     b[i] = T(1);
     c[i] = T(2);
   }).wait();
  const T s = T(3);
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto e = q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = b[i] + s * c[i]; });
    e.wait();
    double ns = double(e.template get_profiling_info<sycl::info::event_profiling::command_end>() -
                       e.template get_profiling_info<sycl::info::event_profiling::command_start>());
    best = std::min(best, ns * 1e-9);
  }
  T check[2];
  q.memcpy(&check[0], a, sizeof(T)).wait();
  q.memcpy(&check[1], a + n - 1, sizeof(T)).wait();
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
  if (check[0] != T(7) || check[1] != T(7)) {
    std::printf("triad result wrong\n");
    std::exit(1);
  }
  return 3.0 * n * sizeof(T) / best / 1e9;
}

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 27);
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::enable_profiling{}};
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  std::printf("syclone triad fp32 n=%zu: %.1f GB/s\n", n, run<float>(q, n, reps));
  std::printf("syclone triad fp64 n=%zu: %.1f GB/s\n", n, run<double>(q, n, reps));
}
