// The OpenMP baseline for host_reduction.sycl.cpp: same sum, same size, first touch in parallel.
// clang++-22 -O3 -march=native -fopenmp bench/host_reduction_omp.cpp
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <omp.h>

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 26);
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  std::printf("openmp threads: %d\n", omp_get_max_threads());
  double* a = static_cast<double*>(std::aligned_alloc(64, n * sizeof(double)));
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) a[i] = 1.0 + double(i % 8);
  double best = 1e30, sum = 0;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (std::size_t i = 0; i < n; ++i) s += a[i];
    sum = s;
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  double expect = 0;
  for (std::size_t i = 0; i < n; ++i) expect += 1.0 + double(i % 8);
  if (std::fabs(sum - expect) > 1e-9 * expect) return 1;
  std::printf("openmp reduction sum fp64 n=%zu: %.3f ms, %.2f GB/s\n", n, best * 1e3,
              n * sizeof(double) / best / 1e9);
  std::free(a);
}
