// Prefetch on the host CPU device (sycl_ext_oneapi_prefetch, seed 000; multi_ptr::prefetch, seed
// 001): when it pays and what it costs.
//
//   tile    seed 001's tile reduction as written, without and with its multi_ptr::prefetch, and
//           with an L2 hint instead (prefetcht0 / prefetcht1).
//   gather  each work-item sums `per_item` elements of a large array at random indices
//           (out[i] = sum data[idx[i * per_item + k]]). The loads are independent, so the core's
//           out-of-order window already overlaps their cache misses: prefetching the element
//           `distance` indices ahead only adds instructions.
//   chase   the same walk made latency-bound: each load's address also depends on the previous
//           result (as in pointer chasing; the data makes the dependency zero, so the addresses
//           are the predictable idx[k]). Without prefetch the misses are serialized; prefetching
//           `distance` indices ahead overlaps them.
//   triad   STREAM triad, which the hardware prefetchers already stream: a prefetch of each
//           work-item's own elements, or of elements far ahead, can only cost.
//
// One line per measurement: bench=<b> impl=syclone-host variant=<v> ms=<best> gbps=<GB/s>, the
// time being the best of `reps` runs (wall clock of submit + wait), GB/s counting the bytes the
// kernel reads and writes. Every variant's result is checked against the one without prefetch.
// Usage: host_prefetch [log2 elements = 25] [reps = 10] [gather distance = 16]
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace syclex = sycl::ext::oneapi::experimental;

namespace {
int g_failures = 0;

template <typename Submit>
double best_of(int reps, Submit submit) {
  submit().wait();
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    submit().wait();
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

void report(const char* bench, const char* variant, double seconds, double bytes) {
  std::printf("bench=%s impl=syclone-host variant=%s ms=%.4f gbps=%.2f\n", bench, variant,
              seconds * 1e3, bytes / seconds * 1e-9);
}

template <typename T>
void compare(const char* bench, const char* variant, const T* got, const std::vector<T>& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(got[i] == want[i])) {
      std::printf("bench=%s variant=%s: result %zu differs\n", bench, variant, i);
      ++g_failures;
      return;
    }
}

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
  float* data = sycl::malloc_shared<float>(N / TILE_SIZE, q);
  float* data2 = sycl::malloc_shared<float>(N, q);
  q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { data2[i] = float(i[0] + 1); }).wait();
  const double bytes = double(N) * 4 + double(N / TILE_SIZE) * 4;
  std::vector<float> want;
  report("tile", "none",
         best_of(reps, [&] { return tile<tile_prefetch::none>(q, data, data2, N); }), bytes);
  want.assign(data, data + N / TILE_SIZE);
  report("tile", "multi_ptr_L1",
         best_of(reps, [&] { return tile<tile_prefetch::multi_ptr>(q, data, data2, N); }), bytes);
  compare("tile", "multi_ptr_L1", data, want);
  report("tile", "L2", best_of(reps, [&] { return tile<tile_prefetch::l2>(q, data, data2, N); }),
         bytes);
  compare("tile", "L2", data, want);
  sycl::free(data, q);
  sycl::free(data2, q);
}

enum class gather_prefetch { none, l1, l2, l1_nt };

// Dependent: each address also depends on the previous sum (mask is 0 at run time).
template <gather_prefetch P, bool Dependent>
sycl::event gather(sycl::queue& q, const float* data, const std::uint32_t* idx, float* out,
                   std::size_t items, std::size_t per_item, std::size_t distance, int mask) {
  return q.parallel_for(sycl::range<1>(items), [=](sycl::id<1> id) {
    const std::uint32_t* mine = idx + id[0] * per_item;
    float acc = 0.0f;
    for (std::size_t k = 0; k < per_item; ++k) {
      if constexpr (P != gather_prefetch::none) {
        if (k + distance < per_item) {
          const float* ahead = &data[mine[k + distance]];
          if constexpr (P == gather_prefetch::l1)
            syclex::prefetch(ahead, syclex::properties{syclex::prefetch_hint_L1});
          else if constexpr (P == gather_prefetch::l2)
            syclex::prefetch(ahead, syclex::properties{syclex::prefetch_hint_L2});
          else
            syclex::prefetch(ahead, syclex::properties{syclex::prefetch_hint_L1_nt});
        }
      }
      if constexpr (Dependent)
        acc += data[mine[k] + (static_cast<int>(acc) & mask)];
      else
        acc += data[mine[k]];
    }
    out[id[0]] = acc;
  });
}

template <bool Dependent>
void run_gather(sycl::queue& q, std::size_t n, int reps, std::size_t distance) {
  const char* bench = Dependent ? "chase" : "gather";
  const std::size_t per_item = 256, items = n / (Dependent ? 64 : 4) / per_item;
  float* data = sycl::malloc_shared<float>(n, q);
  std::uint32_t* idx = sycl::malloc_shared<std::uint32_t>(items * per_item, q);
  float* out = sycl::malloc_shared<float>(items, q);
  std::uint64_t state = 88172645463325252ull;
  for (std::size_t i = 0; i < n; ++i) data[i] = float(i % 11);
  for (std::size_t i = 0; i < items * per_item; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    idx[i] = std::uint32_t(state % n);
  }
  // Indices read, one 64-byte line per element gathered, results written.
  const double bytes = double(items * per_item) * (4 + 64) + double(items) * 4;
  std::vector<float> want;
  auto measure = [&](const char* name, auto submit) {
    report(bench, name, best_of(reps, submit), bytes);
  };
  measure("none", [&] {
    return gather<gather_prefetch::none, Dependent>(q, data, idx, out, items, per_item, distance,
                                                    0);
  });
  want.assign(out, out + items);
  measure("L1", [&] {
    return gather<gather_prefetch::l1, Dependent>(q, data, idx, out, items, per_item, distance, 0);
  });
  compare(bench, "L1", out, want);
  measure("L2", [&] {
    return gather<gather_prefetch::l2, Dependent>(q, data, idx, out, items, per_item, distance, 0);
  });
  compare(bench, "L2", out, want);
  measure("L1_nt", [&] {
    return gather<gather_prefetch::l1_nt, Dependent>(q, data, idx, out, items, per_item, distance,
                                                     0);
  });
  compare(bench, "L1_nt", out, want);
  std::printf("%s: %zu work-items x %zu random elements of %zu, distance %zu\n", bench, items,
              per_item, n, distance);
  sycl::free(data, q);
  sycl::free(idx, q);
  sycl::free(out, q);
}

enum class triad_prefetch { none, own_l1, ahead_l2 };

template <triad_prefetch P>
sycl::event triad(sycl::queue& q, float* a, const float* b, const float* c, std::size_t n) {
  constexpr std::size_t ahead = 1 << 10;
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
  float* a = sycl::malloc_shared<float>(n, q);
  float* b = sycl::malloc_shared<float>(n, q);
  float* c = sycl::malloc_shared<float>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
     a[i] = 0.0f;
     b[i] = float(i[0] % 13);
     c[i] = float(i[0] % 5);
   }).wait();
  const double bytes = 3.0 * double(n) * 4;
  std::vector<float> want;
  report("triad", "none", best_of(reps, [&] { return triad<triad_prefetch::none>(q, a, b, c, n); }),
         bytes);
  want.assign(a, a + n);
  report("triad", "own_L1",
         best_of(reps, [&] { return triad<triad_prefetch::own_l1>(q, a, b, c, n); }), bytes);
  compare("triad", "own_L1", a, want);
  report("triad", "ahead_L2",
         best_of(reps, [&] { return triad<triad_prefetch::ahead_l2>(q, a, b, c, n); }), bytes);
  compare("triad", "ahead_L2", a, want);
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
}
} // namespace

int main(int argc, char** argv) {
  int log2n = argc > 1 ? std::atoi(argv[1]) : 25;
  int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  std::size_t distance = argc > 3 ? std::strtoull(argv[3], nullptr, 0) : 16;
  sycl::queue q{sycl::cpu_selector_v}; // also on the GPU machine, whose default is the GPU
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  const std::size_t n = std::size_t(1) << log2n;
  run_tile(q, int(n), reps);
  run_gather<false>(q, n, reps, distance);
  run_gather<true>(q, n, reps, distance);
  run_triad(q, n, reps);
  if (g_failures) std::printf("FAILED: %d prefetch variants changed a result\n", g_failures);
  return g_failures ? 1 : 0;
}
