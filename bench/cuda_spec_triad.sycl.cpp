// Seed 002's modified STREAM triad on the GPU (issue 5): the same kernel with its inner trip count
// as a runtime variable, as a specialization constant (set on the handler; the JIT folds it in)
// and as a literal constant, over 2^26 work-items, for inner trip counts 10 and 1000. Each time is
// the best of N runs, kernel start to end from profiling events; the first run of each kernel
// (its JIT) is not counted. bench/spec_triad_native.cu is the same trio in CUDA.
//
// Usage: cuda_spec_triad [work-items] [runs]
//        cuda_spec_triad --build <label> [trip count]
//   The second form times sycl::build of an input bundle holding the specialization-constant
//   kernel (the JIT and module load), then a second build with the same value in the same
//   process; bench/run_cuda.sh runs it with an empty disk cache and again with a warm one.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

class TriadVariable;
class TriadSpec;
template <std::size_t Trips>
class TriadLiteral;

constexpr sycl::specialization_id<std::size_t> trip_sc(1);

namespace {

struct arrays {
  const float* a;
  const float* b;
  float* c;
  std::size_t n;
  float scalar;
};

double kernel_ms(const sycl::event& e) {
  auto start = e.get_profiling_info<sycl::info::event_profiling::command_start>();
  auto end = e.get_profiling_info<sycl::info::event_profiling::command_end>();
  return double(end - start) * 1e-6;
}

// The best of `runs` after one unmeasured run.
template <typename Submit>
double best_ms(sycl::queue& q, int runs, Submit submit) {
  submit().wait();
  double best = std::numeric_limits<double>::max();
  for (int r = 0; r < runs; ++r) {
    sycl::event e = submit();
    e.wait();
    best = std::min(best, kernel_ms(e));
  }
  q.wait();
  return best;
}

// The kernel bodies are seed 002's.
sycl::event variable(sycl::queue& q, const arrays& x, std::size_t inner_loop_size) {
  const float* A0 = x.a;
  const float* B0 = x.b;
  float* C0 = x.c;
  float scalar = x.scalar;
  return q.submit([&](sycl::handler& h) {
    h.parallel_for<TriadVariable>(x.n, [=](auto idx) {
      auto runtime_trip_count_const = inner_loop_size;
      auto accum = 0;
      for (size_t j = 0; j < runtime_trip_count_const; j++) {
        auto multiplier = scalar * j;
        accum = accum + A0[idx] + B0[idx] * multiplier;
      }
      C0[idx] = accum;
    });
  });
}

void spec_in(sycl::handler& h, const arrays& x) {
  const float* A0 = x.a;
  const float* B0 = x.b;
  float* C0 = x.c;
  float scalar = x.scalar;
  h.parallel_for<TriadSpec>(x.n, [=](auto idx, sycl::kernel_handler kh) {
    auto runtime_trip_count_const = kh.get_specialization_constant<trip_sc>();
    auto accum = 0;
    for (size_t j = 0; j < runtime_trip_count_const; j++) {
      auto multiplier = scalar * j;
      accum = accum + A0[idx] + B0[idx] * multiplier;
    }
    C0[idx] = accum;
  });
}
sycl::event specialized(sycl::queue& q, const arrays& x, std::size_t inner_loop_size) {
  return q.submit([&](sycl::handler& h) {
    h.set_specialization_constant<trip_sc>(inner_loop_size);
    spec_in(h, x);
  });
}

template <std::size_t Trips>
sycl::event literal(sycl::queue& q, const arrays& x) {
  const float* A0 = x.a;
  const float* B0 = x.b;
  float* C0 = x.c;
  float scalar = x.scalar;
  return q.submit([&](sycl::handler& h) {
    h.parallel_for<TriadLiteral<Trips>>(x.n, [=](auto idx) {
      size_t runtime_trip_count_const = Trips;
      auto accum = 0;
      for (size_t j = 0; j < runtime_trip_count_const; j++) {
        auto multiplier = scalar * j;
        accum = accum + A0[idx] + B0[idx] * multiplier;
      }
      C0[idx] = accum;
    });
  });
}

// What every element must hold after `trips` trips (A0 = 1, B0 = 2).
float expected(float scalar, std::size_t trips) {
  auto accum = 0;
  for (std::size_t j = 0; j < trips; j++) {
    auto multiplier = scalar * j;
    accum = accum + 1.0f + 2.0f * multiplier;
  }
  return accum;
}

bool check(sycl::queue& q, const arrays& x, std::size_t trips, const char* what) {
  float got[2];
  q.memcpy(&got[0], x.c, sizeof(float));
  q.memcpy(&got[1], x.c + x.n - 1, sizeof(float));
  q.wait(); // an out-of-order queue: both copies, not only the second
  float want = expected(x.scalar, trips);
  if (got[0] == want && got[1] == want) return true;
  std::printf("spec_triad: %s with %zu trips computed %g, %g instead of %g\n", what, trips, got[0],
              got[1], want);
  return false;
}

template <std::size_t Trips>
bool trio(sycl::queue& q, const arrays& x, int runs) {
  bool ok = true;
  q.fill(x.c, -1.0f, x.n).wait();
  double v = best_ms(q, runs, [&] { return variable(q, x, Trips); });
  ok = check(q, x, Trips, "runtime variable") && ok;
  q.fill(x.c, -1.0f, x.n).wait();
  double s = best_ms(q, runs, [&] { return specialized(q, x, Trips); });
  ok = check(q, x, Trips, "specialization constant") && ok;
  q.fill(x.c, -1.0f, x.n).wait();
  double l = best_ms(q, runs, [&] { return literal<Trips>(q, x); });
  ok = check(q, x, Trips, "literal constant") && ok;
  std::printf("syclone spec_triad n=%zu trips=%zu runtime variable: %.4f ms\n", x.n, Trips, v);
  std::printf("syclone spec_triad n=%zu trips=%zu specialization constant: %.4f ms\n", x.n, Trips,
              s);
  std::printf("syclone spec_triad n=%zu trips=%zu literal constant: %.4f ms\n", x.n, Trips, l);
  std::printf("syclone spec_triad trips=%zu: variable/literal %.3f, spec/literal %.3f, "
              "variable/spec %.3f\n",
              Trips, v / l, s / l, v / s);
  return ok;
}

// sycl::build of the specialization-constant kernel for `trips`, twice.
int time_build(sycl::queue& q, const char* label, std::size_t trips) {
  auto id = sycl::get_kernel_id<TriadSpec>();
  auto input = sycl::get_kernel_bundle<sycl::bundle_state::input>(q.get_context(), {id});
  input.set_specialization_constant<trip_sc>(trips);
  auto t0 = std::chrono::steady_clock::now();
  auto exe = sycl::build(input);
  auto t1 = std::chrono::steady_clock::now();
  auto again = sycl::build(input);
  auto t2 = std::chrono::steady_clock::now();
  std::chrono::duration<double, std::milli> first = t1 - t0, second = t2 - t1;
  std::printf("syclone sycl::build trips=%zu (%s): %.2f ms\n", trips, label, first.count());
  std::printf("syclone sycl::build trips=%zu again in the same process: %.3f ms\n", trips,
              second.count());
  // The built kernel runs without compiling again.
  arrays x{};
  x.n = 1 << 20;
  x.scalar = 3.0f;
  float* a = sycl::malloc_device<float>(x.n, q);
  float* b = sycl::malloc_device<float>(x.n, q);
  x.c = sycl::malloc_device<float>(x.n, q);
  q.fill(a, 1.0f, x.n);
  q.fill(b, 2.0f, x.n).wait();
  x.a = a;
  x.b = b;
  auto t3 = std::chrono::steady_clock::now();
  q.submit([&](sycl::handler& h) {
     h.use_kernel_bundle(exe);
     spec_in(h, x);
   }).wait();
  auto t4 = std::chrono::steady_clock::now();
  std::chrono::duration<double, std::milli> run = t4 - t3;
  std::printf("syclone first submission with the built bundle (n=%zu): %.3f ms\n", x.n,
              run.count());
  bool ok = check(q, x, trips, "built bundle");
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(x.c, q);
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::enable_profiling{}};
  if (argc > 1 && std::strcmp(argv[1], "--build") == 0) {
    const char* label = argc > 2 ? argv[2] : "cold";
    std::size_t trips = argc > 3 ? std::strtoull(argv[3], nullptr, 0) : 1000;
    return time_build(q, label, trips);
  }
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 26);
  int runs = argc > 2 ? std::atoi(argv[2]) : 20;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  arrays x{};
  x.n = n;
  x.scalar = 3.0f;
  float* a = sycl::malloc_device<float>(n, q);
  float* b = sycl::malloc_device<float>(n, q);
  x.c = sycl::malloc_device<float>(n, q);
  if (!a || !b || !x.c) {
    std::printf("spec_triad: cannot allocate 3 x %zu floats\n", n);
    return 1;
  }
  q.fill(a, 1.0f, n);
  q.fill(b, 2.0f, n).wait();
  x.a = a;
  x.b = b;
  bool ok = trio<10>(q, x, runs);
  ok = trio<1000>(q, x, runs) && ok;
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(x.c, q);
  return ok ? 0 : 1;
}
