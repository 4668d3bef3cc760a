// The access pattern of BabelStream v5.0's SYCL 1.2.1 Dot on a CPU, written with OpenMP (issue
// 29): BabelStream sizes that kernel for a CPU as max_compute_units work-groups of
// 2 * native_vector_width_double work-items, each work-item summing the elements
// global id, global id + global range, ... So each work-group (one per thread) reads `wg`
// consecutive doubles out of every `groups * wg`: the same work as the contiguous Dot, spread so
// that each thread touches a sliver of every block. This measures that pattern natively (one
// thread per group, each group's work-items as a loop), beside BabelStream's own OpenMP Dot (a
// contiguous reduction), to show what the pattern itself costs on the machine.
// Build: clang++-22 -O3 -march=x86-64-v3 -fopenmp bench/host_dot_pattern_omp.cpp
// Usage: host_dot_pattern_omp [log2n=25] [reps=100] [wg=4]   (prints MB/s as BabelStream does)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 25;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  const long wg = argc > 3 ? std::atol(argv[3]) : 4;
  const long n = 1L << log2n;
  const long groups = omp_get_max_threads(), global = groups * wg;
  std::vector<double> a(n), b(n), sums(groups);
#pragma omp parallel for
  for (long i = 0; i < n; ++i) {
    a[i] = 0.1;
    b[i] = 0.2;
  }
  const double* pa = a.data();
  const double* pb = b.data();
  double* ps = sums.data();
  auto best = [&](auto body) {
    double ms = 1e30;
    for (int r = 0; r < reps; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      body();
      ms = std::min(
          ms,
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return ms;
  };
  double total = 0;
  const double contiguous = best([&] {
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < n; ++i) s += pa[i] * pb[i];
    total = s;
  });
  const double expect = total;
  const double pattern = best([&] {
#pragma omp parallel for schedule(static, 1)
    for (long g = 0; g < groups; ++g) {
      std::vector<double> partial(wg, 0.0);
      for (long l = 0; l < wg; ++l)
        for (long i = g * wg + l; i < n; i += global) partial[l] += pa[i] * pb[i];
      double s = 0;
      for (double p : partial) s += p;
      ps[g] = s;
    }
    total = 0;
    for (long g = 0; g < groups; ++g) total += ps[g];
  });
  const double pattern_interleaved = best([&] {
#pragma omp parallel for schedule(static, 1)
    for (long g = 0; g < groups; ++g) {
      std::vector<double> partial(wg, 0.0);
      for (long base = g * wg; base < n; base += global)
        for (long l = 0; l < wg && base + l < n; ++l) partial[l] += pa[base + l] * pb[base + l];
      double s = 0;
      for (double p : partial) s += p;
      ps[g] = s;
    }
    total = 0;
    for (long g = 0; g < groups; ++g) total += ps[g];
  });
  const double mb = 2.0 * double(n) * sizeof(double) * 1e-6;
  std::printf("threads %ld, n = 2^%d doubles, work-groups of %ld, result %s\n", groups, log2n, wg,
              std::abs(total - expect) <= 1e-6 * expect ? "ok" : "WRONG");
  std::printf("openmp dot, contiguous reduction               %10.1f MB/s\n",
              mb / contiguous * 1e3);
  std::printf("openmp dot, SYCL 1.2.1 pattern, work-item after work-item %10.1f MB/s\n",
              mb / pattern * 1e3);
  std::printf("openmp dot, SYCL 1.2.1 pattern, work-items interleaved    %10.1f MB/s\n",
              mb / pattern_interleaved * 1e3);
  return 0;
}
