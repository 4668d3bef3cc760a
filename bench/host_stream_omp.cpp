// The OpenMP baseline for host_stream.sycl.cpp: same triad, same sizes, first touch in parallel.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <omp.h>

template <typename T>
double run(std::size_t n, int reps) {
  T* a = static_cast<T*>(std::aligned_alloc(64, n * sizeof(T)));
  T* b = static_cast<T*>(std::aligned_alloc(64, n * sizeof(T)));
  T* c = static_cast<T*>(std::aligned_alloc(64, n * sizeof(T)));
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = 0;
    b[i] = T(1);
    c[i] = T(2);
  }
  const T s = T(3);
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  bool ok = a[0] == T(7) && a[n - 1] == T(7);
  std::free(a);
  std::free(b);
  std::free(c);
  if (!ok) std::exit(1);
  return 3.0 * n * sizeof(T) / best / 1e9;
}

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 25);
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  std::printf("openmp threads: %d\n", omp_get_max_threads());
  std::printf("openmp triad fp32 n=%zu: %.2f GB/s\n", n, run<float>(n, reps));
  std::printf("openmp triad fp64 n=%zu: %.2f GB/s\n", n, run<double>(n, reps));
}
