// Prefetch on the GPU (sycl_ext_oneapi_prefetch, seed 000; multi_ptr::prefetch, seed 001): when it
// pays and what it costs. Native CUDA baseline with the same PTX: cuda_prefetch_native.cu.
//
//   tile   seed 001's tile reduction as written, without and with its multi_ptr::prefetch, and
//          with an L2 hint instead.
//   walk   a latency-bound kernel: one sub-group (warp) per compute unit walks its part of an
//          array, each load's address depending on the previous result (as in pointer chasing;
//          the data makes the dependency zero, so the addresses are predictable). Without
//          prefetch every load waits for memory; prefetching `distance` lines ahead (L1, L2, or
//          one sub-group bulk prefetch) keeps that many lines in flight.
//   triad  STREAM triad at full occupancy: the hardware already hides latency, so a prefetch can
//          only cost (one of the work-item's own element, or of the element `distance` ahead).
//
// One line per measurement: bench=<b> impl=syclone variant=<v> ms=<best> gbps=<GB/s>, the time
// being the best of `reps` runs from profiling events, GB/s counting the bytes the kernel reads
// and writes. Every variant's result is checked against the variant without prefetch.
// Usage: cuda_prefetch [log2 elements = 26] [reps = 20] [walk distance in lines = 32]
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace syclex = sycl::ext::oneapi::experimental;

namespace {
int g_failures = 0;

double kernel_seconds(const sycl::event& e) {
  return double(e.get_profiling_info<sycl::info::event_profiling::command_end>() -
                e.get_profiling_info<sycl::info::event_profiling::command_start>()) *
         1e-9;
}

template <typename Submit>
double best_of(int reps, Submit submit) {
  submit().wait(); // JIT and first touch
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    sycl::event e = submit();
    e.wait();
    best = std::min(best, kernel_seconds(e));
  }
  return best;
}

void report(const char* bench, const char* variant, double seconds, double bytes) {
  std::printf("bench=%s impl=syclone variant=%s ms=%.4f gbps=%.1f\n", bench, variant, seconds * 1e3,
              bytes / seconds * 1e-9);
}

void compare(const char* bench, const char* variant, const std::vector<float>& got,
             const std::vector<float>& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i])))) {
      std::printf("bench=%s variant=%s: result %zu is %g, not %g\n", bench, variant, i,
                  double(got[i]), double(want[i]));
      ++g_failures;
      return;
    }
}

// Seed 001, as written apart from the size and the prefetch variant.
constexpr int TILE_SIZE = 8;
enum class tile_prefetch { none, multi_ptr, l2 };

template <tile_prefetch P>
sycl::event tile(sycl::queue& q, float* data, float* data2, int N) {
  return q.submit([&](sycl::handler& h) {
    h.parallel_for(
        sycl::nd_range(sycl::range{std::size_t(N) / TILE_SIZE / 4}, sycl::range{1024}),
        [=](sycl::nd_item<1> it) {
          float tile[TILE_SIZE];
          int i = it.get_global_linear_id();
          using global_ptr = sycl::multi_ptr<float, sycl::access::address_space::global_space>;
          for (int t = 0; t < 4; ++t) {
            for (int j = 0; j < TILE_SIZE; ++j) tile[j] = data2[i * TILE_SIZE * 4 + t * 4 + j];
            if (t < 3) {
              float* next = &data2[i * TILE_SIZE * 4 + (t + 1) * 4];
              if constexpr (P == tile_prefetch::multi_ptr)
                global_ptr(next).prefetch(TILE_SIZE);
              else if constexpr (P == tile_prefetch::l2)
                syclex::prefetch(next, TILE_SIZE, syclex::properties{syclex::prefetch_hint_L2});
            }
            float dx = 0.0f;
            for (int j = 0; j < TILE_SIZE; ++j) {
              dx += 1.0f / sqrtf(tile[j]);
              data[i * 4 + t] = dx;
            }
          }
        });
  });
}

void run_tile(sycl::queue& q, int N, int reps) {
  float* data = sycl::malloc_device<float>(N / TILE_SIZE, q);
  float* data2 = sycl::malloc_device<float>(N, q);
  q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { data2[i] = float(i[0] + 1); }).wait();
  // Reads: every 128-byte line of data2 holds one work-item's 20 elements; writes: data.
  const double bytes = double(N) * 4 + double(N / TILE_SIZE) * 4;
  std::vector<float> want(N / TILE_SIZE), got(N / TILE_SIZE);
  auto measure = [&](const char* name, auto submit) {
    q.fill(data, 0.0f, N / TILE_SIZE).wait();
    report("tile", name, best_of(reps, submit), bytes);
    q.memcpy(got.data(), data, got.size() * sizeof(float)).wait();
  };
  measure("none", [&] { return tile<tile_prefetch::none>(q, data, data2, N); });
  want = got;
  measure("multi_ptr_L1", [&] { return tile<tile_prefetch::multi_ptr>(q, data, data2, N); });
  compare("tile", "multi_ptr_L1", got, want);
  measure("L2", [&] { return tile<tile_prefetch::l2>(q, data, data2, N); });
  compare("tile", "L2", got, want);
  sycl::free(data, q);
  sycl::free(data2, q);
}

enum class walk_prefetch { none, l1, l2, joint_l2 };

template <walk_prefetch P>
sycl::event walk(sycl::queue& q, const float* a, float* out, std::size_t groups,
                 std::size_t per_group, int distance, int mask) {
  return q.parallel_for(sycl::nd_range<1>(groups * 32, 32), [=](sycl::nd_item<1> it) {
    const std::size_t lines = per_group / 32;
    const float* base = a + it.get_group(0) * per_group;
    const std::size_t lane = it.get_local_id(0);
    float acc = 0.0f;
    for (std::size_t k = 0; k < lines; ++k) {
      if constexpr (P != walk_prefetch::none) {
        if (k + distance < lines) {
          const float* ahead = base + (k + distance) * 32;
          if constexpr (P == walk_prefetch::l1)
            syclex::prefetch(ahead + lane, syclex::properties{syclex::prefetch_hint_L1});
          else if constexpr (P == walk_prefetch::l2)
            syclex::prefetch(ahead + lane, syclex::properties{syclex::prefetch_hint_L2});
          else
            syclex::joint_prefetch(it.get_sub_group(), ahead, 32,
                                   syclex::properties{syclex::prefetch_hint_L2});
        }
      }
      // The address depends on the previous result (mask is 0 at run time).
      float x = base[k * 32 + lane + (static_cast<int>(acc) & mask)];
      acc = acc * 0.5f + x;
    }
    out[it.get_global_id(0)] = acc;
  });
}

void run_walk(sycl::queue& q, std::size_t n, int reps, int distance) {
  const std::size_t groups = q.get_device().get_info<sycl::info::device::max_compute_units>();
  const std::size_t per_group = n / groups / 32 * 32;
  float* a = sycl::malloc_device<float>(groups * per_group, q);
  float* out = sycl::malloc_device<float>(groups * 32, q);
  q.parallel_for(sycl::range<1>(groups * per_group), [=](sycl::id<1> i) {
     a[i] = float(i[0] % 7);
   }).wait();
  const double bytes = double(groups * per_group) * 4;
  std::vector<float> want(groups * 32), got(groups * 32);
  auto measure = [&](const char* name, auto submit) {
    report("walk", name, best_of(reps, submit), bytes);
    q.memcpy(got.data(), out, got.size() * sizeof(float)).wait();
  };
  measure("none", [&] { return walk<walk_prefetch::none>(q, a, out, groups, per_group, 0, 0); });
  want = got;
  measure("L1", [&] { return walk<walk_prefetch::l1>(q, a, out, groups, per_group, distance, 0); });
  compare("walk", "L1", got, want);
  measure("L2", [&] { return walk<walk_prefetch::l2>(q, a, out, groups, per_group, distance, 0); });
  compare("walk", "L2", got, want);
  measure("joint_L2",
          [&] { return walk<walk_prefetch::joint_l2>(q, a, out, groups, per_group, distance, 0); });
  compare("walk", "joint_L2", got, want);
  std::printf("walk: %zu work-groups of 32, %zu lines each, distance %d lines\n", groups,
              per_group / 32, distance);
  sycl::free(a, q);
  sycl::free(out, q);
}

enum class triad_prefetch { none, own_l1, ahead_l2 };

template <triad_prefetch P>
sycl::event triad(sycl::queue& q, float* a, const float* b, const float* c, std::size_t n) {
  constexpr std::size_t ahead = 1 << 14;
  return q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> id) {
    std::size_t i = id[0];
    if constexpr (P == triad_prefetch::own_l1) {
      syclex::prefetch(&b[i], syclex::properties{syclex::prefetch_hint_L1});
      syclex::prefetch(&c[i], syclex::properties{syclex::prefetch_hint_L1});
    } else if constexpr (P == triad_prefetch::ahead_l2) {
      if (i + ahead < n) {
        syclex::prefetch(&b[i + ahead], syclex::properties{syclex::prefetch_hint_L2});
        syclex::prefetch(&c[i + ahead], syclex::properties{syclex::prefetch_hint_L2});
      }
    }
    a[i] = b[i] + 3.0f * c[i];
  });
}

void run_triad(sycl::queue& q, std::size_t n, int reps) {
  float* a = sycl::malloc_device<float>(n, q);
  float* b = sycl::malloc_device<float>(n, q);
  float* c = sycl::malloc_device<float>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
     a[i] = 0.0f;
     b[i] = float(i[0] % 13);
     c[i] = float(i[0] % 5);
   }).wait();
  const double bytes = 3.0 * double(n) * 4;
  std::vector<float> want(n), got(n);
  auto measure = [&](const char* name, auto submit) {
    report("triad", name, best_of(reps, submit), bytes);
    q.memcpy(got.data(), a, n * sizeof(float)).wait();
  };
  measure("none", [&] { return triad<triad_prefetch::none>(q, a, b, c, n); });
  want = got;
  measure("own_L1", [&] { return triad<triad_prefetch::own_l1>(q, a, b, c, n); });
  compare("triad", "own_L1", got, want);
  measure("ahead_L2", [&] { return triad<triad_prefetch::ahead_l2>(q, a, b, c, n); });
  compare("triad", "ahead_L2", got, want);
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
}
} // namespace

int main(int argc, char** argv) {
  int log2n = argc > 1 ? std::atoi(argv[1]) : 26;
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  int distance = argc > 3 ? std::atoi(argv[3]) : 32;
  sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::enable_profiling{}};
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  const std::size_t n = std::size_t(1) << log2n;
  run_tile(q, int(n), reps);
  run_walk(q, n, reps, distance);
  run_triad(q, n, reps);
  if (g_failures) std::printf("FAILED: %d prefetch variants changed a result\n", g_failures);
  return g_failures ? 1 : 0;
}
