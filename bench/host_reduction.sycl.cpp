// sycl::reduction on the host device: the sum of n doubles (USM, range kernel, plus with a known
// identity), best of N runs, against bench/host_reduction_omp.cpp (#pragma omp parallel for
// reduction(+)) on the same data size. Issue 14 goal: >= 0.9x OpenMP at n = 2^26.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 26);
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  double* a = sycl::malloc_shared<double>(n, q);
  double* sum = sycl::malloc_shared<double>(1, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = 1.0 + double(i[0] % 8); }).wait();
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    q.parallel_for(sycl::range<1>(n),
                   sycl::reduction(sum, sycl::plus<double>(),
                                   sycl::property::reduction::initialize_to_identity{}),
                   [=](sycl::id<1> i, auto& s) { s += a[i]; })
        .wait();
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  double expect = 0;
  for (std::size_t i = 0; i < n; ++i) expect += 1.0 + double(i % 8);
  if (std::fabs(*sum - expect) > 1e-9 * expect) {
    std::printf("sum wrong: %.17g, want %.17g\n", *sum, expect);
    return 1;
  }
  std::printf("syclone reduction sum fp64 n=%zu: %.3f ms, %.2f GB/s\n", n, best * 1e3,
              n * sizeof(double) / best / 1e9);
  sycl::free(a, q);
  sycl::free(sum, q);
}
