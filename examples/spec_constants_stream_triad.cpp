// Seed 002 (specialization constants), "Modified STREAM Triad": the same kernel with its inner
// trip count as a runtime variable, as a specialization constant and as a literal constant, each
// timed with profiling events, best of several runs. The three kernel submissions are the seed's
// snippets as written; the seed leaves out the rest (arrays, inputs, the loop of runs, the
// report), completed here. As in the seed, the literal kernel always runs 10 trips, so compare
// it with the others at an inner trip count of 10 (the default).
//
// Usage: spec_constants_stream_triad [array_size] [inner_loop_size] [iterations]
//   the seed's run: spec_constants_stream_triad 134217728 10
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <vector>

class non_specialized_kernel;
class specialized_kernel;
class regular_constant_kernel;

// The inner trip count as a specialization constant.
constexpr sycl::specialization_id<std::size_t> trip_sc;

using cl_ulong = std::uint64_t;

int main(int argc, char* argv[]) {
  std::size_t array_size = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (1u << 22);
  std::size_t inner_loop_size = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 10;
  int iterations = argc > 3 ? std::atoi(argv[3]) : 5;
  if (array_size < 2 || inner_loop_size == 0 || iterations < 1) {
    std::cerr << "usage: " << argv[0] << " [array_size >= 2] [inner_loop_size >= 1] [iterations]\n";
    return 2;
  }

  sycl::queue q{sycl::property::queue::enable_profiling{}};
  std::cout << "Running on " << q.get_device().get_info<sycl::info::device::name>() << "\n"
            << "Stream size: " << array_size << " elements, inner trip count: " << inner_loop_size
            << "\n";

  const float scalar = 3.0f;
  float* A0 = sycl::malloc_device<float>(array_size, q);
  float* B0 = sycl::malloc_device<float>(array_size, q);
  float* C0 = sycl::malloc_device<float>(array_size, q);
  if (!A0 || !B0 || !C0) {
    std::cerr << "cannot allocate 3 x " << array_size << " floats on the device\n";
    return 1;
  }
  q.fill(A0, 1.0f, array_size);
  q.fill(B0, 2.0f, array_size);
  q.fill(C0, 0.0f, array_size).wait();

  // What every variant must compute for element 0 (all elements are alike).
  float expected = 0;
  {
    auto accum = 0;
    for (std::size_t j = 0; j < std::min<std::size_t>(inner_loop_size, 10); j++) {
      auto multiplier = scalar * j;
      accum = accum + 1.0f + 2.0f * multiplier;
    }
    expected = accum;
  }
  float expected_variable = expected;
  if (inner_loop_size != 10) {
    auto accum = 0;
    for (std::size_t j = 0; j < inner_loop_size; j++) {
      auto multiplier = scalar * j;
      accum = accum + 1.0f + 2.0f * multiplier;
    }
    expected_variable = accum;
  }
  bool ok = true;
  auto check = [&](const char* what, float want) {
    float got[2] = {-1, -1};
    // The queue is out of order: wait for both copies, not only the second.
    q.memcpy(&got[0], C0, sizeof(float));
    q.memcpy(&got[1], C0 + array_size / 2 - 1, sizeof(float));
    q.wait();
    if (got[0] != want || got[1] != want) {
      std::cout << what << ": wrong result " << got[0] << ", " << got[1] << " (expected " << want
                << ")\n";
      ok = false;
    }
  };

  // Run with runtime variable.
  cl_ulong min_time_ns0 = std::numeric_limits<cl_ulong>::max();
  for (int i = 0; i < iterations; i++) {
    auto q0_event = q.submit([&](sycl::handler& h) {
      h.parallel_for<non_specialized_kernel>(array_size / 2, [=](auto idx) {
        // set trip count to runtime variable
        auto runtime_trip_count_const = inner_loop_size;
        auto accum = 0;
        for (size_t j = 0; j < runtime_trip_count_const; j++) {
          auto multiplier = scalar * j;
          accum = accum + A0[idx] + B0[idx] * multiplier;
        }
        C0[idx] = accum;
      });
    });
    q.wait();
    cl_ulong exec_time_ns0 =
        q0_event.get_profiling_info<sycl::info::event_profiling::command_end>() -
        q0_event.get_profiling_info<sycl::info::event_profiling::command_start>();
    std::cout << "Execution time (iteration " << i << ") [sec]: " << (double)exec_time_ns0 * 1.0E-9
              << "\n";
    min_time_ns0 = std::min(min_time_ns0, exec_time_ns0);
  }
  check("runtime variable", expected_variable);
  cl_ulong variable_ns = min_time_ns0;

  // Run with specialization constant.
  min_time_ns0 = std::numeric_limits<cl_ulong>::max();
  for (int i = 0; i < iterations; i++) {
    auto q0_event = q.submit([&](sycl::handler& h) {
      // set specialization constant using runtime variable
      h.set_specialization_constant<trip_sc>(inner_loop_size);
      h.parallel_for<specialized_kernel>(array_size / 2, [=](auto idx, sycl::kernel_handler kh) {
        // set trip count to the now known specialization constant
        auto runtime_trip_count_const = kh.get_specialization_constant<trip_sc>();
        auto accum = 0;
        for (size_t j = 0; j < runtime_trip_count_const; j++) {
          auto multiplier = scalar * j;
          accum = accum + A0[idx] + B0[idx] * multiplier;
        }
        C0[idx] = accum;
      });
    });
    q.wait();
    cl_ulong exec_time_ns0 =
        q0_event.get_profiling_info<sycl::info::event_profiling::command_end>() -
        q0_event.get_profiling_info<sycl::info::event_profiling::command_start>();
    std::cout << "Execution time (iteration " << i << ") [sec]: " << (double)exec_time_ns0 * 1.0E-9
              << "\n";
    min_time_ns0 = std::min(min_time_ns0, exec_time_ns0);
  }
  check("specialization constant", expected_variable);
  cl_ulong specialized_ns = min_time_ns0;

  // Run with constant value.
  min_time_ns0 = std::numeric_limits<cl_ulong>::max();
  for (int i = 0; i < iterations; i++) {
    auto q0_event = q.submit([&](sycl::handler& h) {
      h.parallel_for<regular_constant_kernel>(array_size / 2, [=](auto idx) {
        // set trip count to known regular constant
        size_t runtime_trip_count_const = 10;
        auto accum = 0;
        for (size_t j = 0; j < runtime_trip_count_const; j++) {
          auto multiplier = scalar * j;
          accum = accum + A0[idx] + B0[idx] * multiplier;
        }
        C0[idx] = accum;
      });
    });
    q.wait();
    cl_ulong exec_time_ns0 =
        q0_event.get_profiling_info<sycl::info::event_profiling::command_end>() -
        q0_event.get_profiling_info<sycl::info::event_profiling::command_start>();
    std::cout << "Execution time (iteration " << i << ") [sec]: " << (double)exec_time_ns0 * 1.0E-9
              << "\n";
    min_time_ns0 = std::min(min_time_ns0, exec_time_ns0);
  }
  check("constant value", expected);
  cl_ulong constant_ns = min_time_ns0;

  std::cout << "Run with runtime variable: Time in sec (fastest run): " << variable_ns * 1.0E-9
            << "\n"
            << "Run with specialization constant: Time in sec (fastest run): "
            << specialized_ns * 1.0E-9 << "\n"
            << "Run with constant value: Time in sec (fastest run): " << constant_ns * 1.0E-9
            << "\n";
  sycl::free(A0, q);
  sycl::free(B0, q);
  sycl::free(C0, q);
  return ok ? 0 : 1;
}
