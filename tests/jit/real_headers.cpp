// Device code written with the real SYCL headers (sycl::specialization_id, kernel_handler,
// handler::parallel_for), compiled by `syclone++ -fsycl-device-only` as a program's device code
// is: seed 002's STREAM triad trio and its trip count example. jit_test JITs the kernels and
// checks that a specialization constant becomes a literal (folded, loop unrolled). Never run.
#include <sycl/sycl.hpp>

#include <cstddef>

class TriadVariable;
class TriadSpec;
class TriadLiteral;
class TripCount;

constexpr sycl::specialization_id<int> trip_sc(1);
constexpr sycl::specialization_id<int> nx_sc;

void triad_variable(sycl::queue& q, const float* A0, const float* B0, float* C0,
                    std::size_t array_size, int inner_loop_size, float scalar) {
  q.submit([&](sycl::handler& h) {
    h.parallel_for<TriadVariable>(array_size / 2, [=](auto idx) {
      auto runtime_trip_count_const = inner_loop_size;
      auto accum = 0;
      for (int j = 0; j < runtime_trip_count_const; j++) {
        auto multiplier = scalar * j;
        accum = accum + A0[idx] + B0[idx] * multiplier;
      }
      C0[idx] = accum;
    });
  });
}

void triad_spec(sycl::queue& q, const float* A0, const float* B0, float* C0, std::size_t array_size,
                int inner_loop_size, float scalar) {
  q.submit([&](sycl::handler& h) {
    h.set_specialization_constant<trip_sc>(inner_loop_size);
    h.parallel_for<TriadSpec>(array_size / 2, [=](auto idx, sycl::kernel_handler kh) {
      auto runtime_trip_count_const = kh.get_specialization_constant<trip_sc>();
      auto accum = 0;
      for (int j = 0; j < runtime_trip_count_const; j++) {
        auto multiplier = scalar * j;
        accum = accum + A0[idx] + B0[idx] * multiplier;
      }
      C0[idx] = accum;
    });
  });
}

void triad_literal(sycl::queue& q, const float* A0, const float* B0, float* C0,
                   std::size_t array_size, float scalar) {
  q.submit([&](sycl::handler& h) {
    h.parallel_for<TriadLiteral>(array_size / 2, [=](auto idx) {
      int runtime_trip_count_const = 10;
      auto accum = 0;
      for (int j = 0; j < runtime_trip_count_const; j++) {
        auto multiplier = scalar * j;
        accum = accum + A0[idx] + B0[idx] * multiplier;
      }
      C0[idx] = accum;
    });
  });
}

void trip_count(sycl::queue& q, float* out, int nx) {
  q.submit([&](sycl::handler& h) {
    h.set_specialization_constant<nx_sc>(nx);
    h.single_task<TripCount>([=](sycl::kernel_handler kh) {
      int runtime_const_trip_count = kh.get_specialization_constant<nx_sc>();
      int accum = 0;
      for (int i = 0; i < runtime_const_trip_count; i++) accum = accum + i;
      out[0] = accum;
    });
  });
}
