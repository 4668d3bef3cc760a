// sycl::reduction on the GPU, timed with profiling events, best of N: BabelStream's Dot
// (sum of a[i] * b[i], doubles, initialize_to_identity, USM device memory) at 2^25 and 2^28
// elements, and the sum of 2^28 floats (issue 14: >= 1.0x cub::DeviceReduce::Sum, measured by
// bench/cuda_reduction_cub.cu in the same run).
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

template <typename F>
double best_ms(sycl::queue& q, int reps, F submit) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    sycl::event e = submit();
    e.wait();
    double ns = double(e.get_profiling_info<sycl::info::event_profiling::command_end>() -
                       e.get_profiling_info<sycl::info::event_profiling::command_start>());
    best = std::min(best, ns * 1e-6);
  }
  return best;
}

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::enable_profiling{}};
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  int status = 0;
  for (std::size_t n : {std::size_t(1) << 25, std::size_t(1) << 28}) {
    double* a = sycl::malloc_device<double>(n, q);
    double* b = sycl::malloc_device<double>(n, q);
    double* sum = sycl::malloc_shared<double>(1, q);
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
       a[i] = 0.1;
       b[i] = 0.2;
     }).wait();
    double ms = best_ms(q, reps, [&] {
      return q.parallel_for(sycl::range<1>(n),
                            sycl::reduction(sum, sycl::plus<double>(),
                                            sycl::property::reduction::initialize_to_identity{}),
                            [=](sycl::id<1> i, auto& s) { s += a[i] * b[i]; });
    });
    double expect = 0.1 * 0.2 * double(n);
    if (std::fabs(*sum - expect) > 1e-8 * expect) {
      std::printf("dot wrong: %.17g, want %.17g\n", *sum, expect);
      status = 1;
    }
    std::printf("syclone dot fp64 n=%zu: %.4f ms, %.1f GB/s\n", n, ms,
                2.0 * n * sizeof(double) / (ms * 1e-3) / 1e9);
    sycl::free(a, q);
    sycl::free(b, q);
    sycl::free(sum, q);
  }
  {
    std::size_t n = std::size_t(1) << 28;
    float* a = sycl::malloc_device<float>(n, q);
    float* sum = sycl::malloc_shared<float>(1, q);
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = 1.0f; }).wait();
    double ms = best_ms(q, reps, [&] {
      return q.parallel_for(sycl::range<1>(n),
                            sycl::reduction(sum, sycl::plus<float>(),
                                            sycl::property::reduction::initialize_to_identity{}),
                            [=](sycl::id<1> i, auto& s) { s += a[i]; });
    });
    if (std::fabs(*sum - float(n)) > 1e-3f * float(n)) {
      std::printf("sum wrong: %g\n", *sum);
      status = 1;
    }
    std::printf("syclone reduction sum fp32 n=%zu: %.4f ms, %.1f GB/s\n", n, ms,
                n * sizeof(float) / (ms * 1e-3) / 1e9);
    sycl::free(a, q);
    sycl::free(sum, q);
  }
  return status;
}
