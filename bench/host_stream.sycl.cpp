// STREAM triad a[i] = b[i] + s * c[i] on the default device through a range parallel_for over
// USM, best of N runs; prints GB/s counting 3 arrays moved (the STREAM convention).
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

template <typename T>
double run(sycl::queue& q, std::size_t n, int reps) {
  T* a = sycl::malloc_shared<T>(n, q);
  T* b = sycl::malloc_shared<T>(n, q);
  T* c = sycl::malloc_shared<T>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
     a[i] = 0;
     b[i] = T(1);
     c[i] = T(2);
   }).wait();
  const T s = T(3);
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = b[i] + s * c[i]; }).wait();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  bool ok = a[0] == T(7) && a[n - 1] == T(7);
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
  if (!ok) {
    std::printf("triad result wrong\n");
    std::exit(1);
  }
  return 3.0 * n * sizeof(T) / best / 1e9;
}

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 25);
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  std::printf("syclone triad fp32 n=%zu: %.2f GB/s\n", n, run<float>(q, n, reps));
  std::printf("syclone triad fp64 n=%zu: %.2f GB/s\n", n, run<double>(q, n, reps));
}
