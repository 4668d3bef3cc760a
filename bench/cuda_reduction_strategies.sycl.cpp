// The GPU reduction's two ways of combining the work-groups' results (issue 14: "one atomic or
// a second pass per work-group, whichever is faster, measured"), chosen per submission by
// SYCLONE_REDUCTION_STRATEGY (read when the command group is submitted):
// - last-group: each work-group stores its result, the last one (an atomic counter tells)
//   combines them all and writes the variable;
// - atomic: each work-group adds its result into one accumulator with an atomic, the last one
//   writes the variable.
// For each: BabelStream's Dot (sum of a[i] * b[i], doubles, initialize_to_identity) at 2^25
// and 2^28 elements and a 2^28-float sum, with the result in malloc_device memory, in
// malloc_shared memory, and in malloc_shared memory advised to stay mapped for the device
// (SYCLONE_REDUCTION_SHARED_ADVICE, default on); kernel time from profiling events, and the wall
// time of BabelStream's pattern (submit, wait, read the result on the host: the shared result's
// page moves between host and device each time), best of N. Usage: cuda_reduction_strategies [reps]
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

struct timing {
  double kernel_ms; // profiling: command_start .. command_end
  double wall_ms;   // submit .. wait .. read of the result on the host
};

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::enable_profiling{}};
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  int status = 0;
  const char* strategies[] = {"last-group", "atomic"};
  for (std::size_t n : {std::size_t(1) << 25, std::size_t(1) << 28}) {
    double* a = sycl::malloc_device<double>(n, q);
    double* b = sycl::malloc_device<double>(n, q);
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
       a[i] = 0.1;
       b[i] = 0.2;
     }).wait();
    double expect = 0.1 * 0.2 * double(n);
    // The result: device memory, shared memory migrating between host and device, shared
    // memory the device keeps mapped (reduction.cpp's advice, the default).
    for (int where = 0; where < 3; ++where) {
      bool shared = where > 0;
      setenv("SYCLONE_REDUCTION_SHARED_ADVICE", where == 1 ? "0" : "1", 1);
      const char* label = where == 0 ? "device" : where == 1 ? "shared" : "shared+advice";
      double host = 0;
      for (const char* strategy : strategies) {
        setenv("SYCLONE_REDUCTION_STRATEGY", strategy, 1);
        // A fresh allocation for each: the advice, once given, stays with the memory.
        double* sum =
            shared ? sycl::malloc_shared<double>(1, q) : sycl::malloc_device<double>(1, q);
        timing t{1e30, 1e30};
        for (int r = 0; r < reps; ++r) {
          auto start = std::chrono::steady_clock::now();
          sycl::event e =
              q.parallel_for(sycl::range<1>(n),
                             sycl::reduction(sum, sycl::plus<double>(),
                                             sycl::property::reduction::initialize_to_identity{}),
                             [=](sycl::id<1> i, auto& s) { s += a[i] * b[i]; });
          e.wait();
          if (shared)
            host = *sum; // BabelStream's read of the result
          else
            q.memcpy(&host, sum, sizeof(double)).wait();
          auto end = std::chrono::steady_clock::now();
          t.wall_ms =
              std::min(t.wall_ms, std::chrono::duration<double, std::milli>(end - start).count());
          double ns = double(e.get_profiling_info<sycl::info::event_profiling::command_end>() -
                             e.get_profiling_info<sycl::info::event_profiling::command_start>());
          t.kernel_ms = std::min(t.kernel_ms, ns * 1e-6);
        }
        if (std::fabs(host - expect) > 1e-8 * expect) {
          std::printf("dot wrong (%s): %.17g, want %.17g\n", strategy, host, expect);
          status = 1;
        }
        std::printf("dot fp64 n=%zu %-13s result, %-10s kernel %.4f ms (%.1f GB/s), "
                    "submit+wait+read %.4f ms\n",
                    n, label, strategy, t.kernel_ms,
                    2.0 * n * sizeof(double) / (t.kernel_ms * 1e-3) / 1e9, t.wall_ms);
        sycl::free(sum, q);
      }
    }
    sycl::free(a, q);
    sycl::free(b, q);
  }
  {
    std::size_t n = std::size_t(1) << 28;
    float* a = sycl::malloc_device<float>(n, q);
    float* sum = sycl::malloc_device<float>(1, q);
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = 1.0f; }).wait();
    for (const char* strategy : strategies) {
      setenv("SYCLONE_REDUCTION_STRATEGY", strategy, 1);
      double best = 1e30;
      for (int r = 0; r < reps; ++r) {
        sycl::event e =
            q.parallel_for(sycl::range<1>(n),
                           sycl::reduction(sum, sycl::plus<float>(),
                                           sycl::property::reduction::initialize_to_identity{}),
                           [=](sycl::id<1> i, auto& s) { s += a[i]; });
        e.wait();
        double ns = double(e.get_profiling_info<sycl::info::event_profiling::command_end>() -
                           e.get_profiling_info<sycl::info::event_profiling::command_start>());
        best = std::min(best, ns * 1e-6);
      }
      float host = 0;
      q.memcpy(&host, sum, sizeof(float)).wait();
      if (std::fabs(host - float(n)) > 1e-3f * float(n)) {
        std::printf("sum wrong (%s): %g\n", strategy, host);
        status = 1;
      }
      std::printf("sum fp32 n=%zu %-10s kernel %.4f ms (%.1f GB/s)\n", n, strategy, best,
                  n * sizeof(float) / (best * 1e-3) / 1e9);
    }
    sycl::free(a, q);
    sycl::free(sum, q);
  }
  return status;
}
