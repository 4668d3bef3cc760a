// The OpenMP forms of host_group_kernels.sycl.cpp, written the obvious way: per-group sums of
// 256 floats, a naive and a blocked transpose, a 3-point stencil.
// Build: clang++-22 -O3 -march=native -fopenmp host_group_kernels_omp.cpp
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename F>
double best_ms(int reps, F f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(
        best,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

int main(int argc, char** argv) {
  int log2n = argc > 1 ? std::atoi(argv[1]) : 20;
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const long n = 1L << log2n, side = 1L << (log2n / 2), wg = 256;
  std::vector<float> in(n), out(n), sums(n / wg);
  for (long i = 0; i < n; ++i) in[i] = float(i % 7);
  float *a = in.data(), *o = out.data(), *s = sums.data();
  std::printf("openmp threads: %d, n = 2^%d floats\n", omp_get_max_threads(), log2n);
  auto report = [](const char* name, double ms) { std::printf("%-44s %9.3f ms\n", name, ms); };
  report("openmp copy", best_ms(reps, [&] {
#pragma omp parallel for
           for (long i = 0; i < n; ++i) o[i] = a[i];
         }));
  // The grid-stride copy's access pattern: 16 x 256 "work-items", thread t copying chunks of 256
  // at t * 256 + k * 4096 (what each work-group of the SYCL kernel copies).
  report("openmp copy, grid-stride chunks (16 x 256)", best_ms(reps, [&] {
#pragma omp parallel for schedule(static, 1)
           for (long t = 0; t < 16; ++t)
             for (long base = t * wg; base < n; base += 16 * wg)
               for (long i = base; i < base + wg && i < n; ++i) o[i] = a[i];
         }));
  report("openmp per-group sum", best_ms(reps, [&] {
#pragma omp parallel for
           for (long g = 0; g < n / wg; ++g) {
             float t = 0;
             for (long i = 0; i < wg; ++i) t += a[g * wg + i];
             s[g] = t;
           }
         }));
  report("openmp transpose, naive", best_ms(reps, [&] {
#pragma omp parallel for
           for (long y = 0; y < side; ++y)
             for (long x = 0; x < side; ++x) o[x * side + y] = a[y * side + x];
         }));
  report("openmp transpose, 16x16 blocks", best_ms(reps, [&] {
#pragma omp parallel for collapse(2)
           for (long by = 0; by < side; by += 16)
             for (long bx = 0; bx < side; bx += 16)
               for (long y = by; y < by + 16; ++y)
                 for (long x = bx; x < bx + 16; ++x) o[x * side + y] = a[y * side + x];
         }));
  report("openmp 3-point stencil", best_ms(reps, [&] {
#pragma omp parallel for
           for (long i = 0; i < n; ++i) {
             float l = i > 0 ? a[i - 1] : 0.0f, r = i + 1 < n ? a[i + 1] : 0.0f;
             o[i] = 0.25f * l + 0.5f * a[i] + 0.25f * r;
           }
         }));
  return 0;
}
