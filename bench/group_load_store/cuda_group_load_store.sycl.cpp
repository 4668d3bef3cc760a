// sycl_ext_oneapi_group_load_store on the GPU: blocked load -> compute -> blocked store over a
// large float array, N items per work-item, work-groups of 256, against CUB's BlockLoad /
// BlockStore in cuda_group_load_store_cub.cu (run.sh runs both and prints the ratios).
//
// Variants, each one kernel per pass over the array (read n floats, write n floats):
//   work_group  group_load / group_store of the work-group, blocked (default placement):
//               syclone's coalesced accesses plus a warp exchange (nvptx_load_store.hpp);
//               CUB's counterpart: BLOCK_LOAD_WARP_TRANSPOSE / BLOCK_STORE_WARP_TRANSPOSE
//   sub_group   the same with each sub-group's chunk
//   striped     group_load / group_store with data_placement_striped (coalesced as it is:
//               the bound an exchange is measured against)
//   direct      no extension: each work-item reads and writes its own N elements (what a
//               blocked load is without coalescing; CUB's BLOCK_LOAD_DIRECT)
// The compute is three dependent FMAs per element: the kernel stays memory bound.
// Times: best of `reps` runs, profiling events. Output: one line per run,
//   result impl=syclone variant=<v> items=<N> ms=<best> gbps=<(read + write) / best>
// Usage: cuda_group_load_store [n = 2^28] [reps = 20]
// (Runs on the default device: SYCLONE_DEVICE_SELECTOR=cuda:gpu for the GPU, host:* for the
// host device.)
#include <sycl/ext/oneapi/experimental/group_load_store.hpp>
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace sx = sycl::ext::oneapi::experimental;

namespace {

constexpr std::size_t wg = 256;

// Exact in float for the inputs (multiples of 0.25 below 250), contracted to FMAs or not.
inline float compute(float x) {
  float y = x * 2.0f + 1.0f;
  y = y * 0.5f + 3.0f;
  return y * 4.0f - 2.0f;
}

enum class variant { work_group, sub_group, striped, direct };
const char* name_of(variant v) {
  switch (v) {
  case variant::work_group:
    return "work_group";
  case variant::sub_group:
    return "sub_group";
  case variant::striped:
    return "striped";
  default:
    return "direct";
  }
}

template <variant V, std::size_t N>
class pass;

template <variant V, std::size_t N>
sycl::event submit(sycl::queue& q, const float* in, float* out, std::size_t n) {
  const std::size_t items = n / N;
  return q.parallel_for<pass<V, N>>(sycl::nd_range<1>(items, wg), [=](sycl::nd_item<1> it) {
    float data[N];
    if constexpr (V == variant::work_group || V == variant::striped) {
      auto g = it.get_group();
      std::size_t offset = g.get_group_linear_id() * wg * N;
      if constexpr (V == variant::work_group) {
        sx::group_load(g, in + offset, sycl::span<float, N>(data));
      } else {
        sx::group_load(g, in + offset, sycl::span<float, N>(data),
                       sx::properties{sx::data_placement_striped});
      }
#pragma unroll
      for (std::size_t i = 0; i < N; ++i) data[i] = compute(data[i]);
      if constexpr (V == variant::work_group) {
        sx::group_store(g, sycl::span<float, N>(data), out + offset);
      } else {
        sx::group_store(g, sycl::span<float, N>(data), out + offset,
                        sx::properties{sx::data_placement_striped});
      }
    } else if constexpr (V == variant::sub_group) {
      auto sg = it.get_sub_group();
      std::size_t offset = (it.get_global_linear_id() - sg.get_local_linear_id()) * N;
      sx::group_load(sg, in + offset, sycl::span<float, N>(data));
#pragma unroll
      for (std::size_t i = 0; i < N; ++i) data[i] = compute(data[i]);
      sx::group_store(sg, sycl::span<float, N>(data), out + offset);
    } else {
      std::size_t offset = it.get_global_linear_id() * N;
#pragma unroll
      for (std::size_t i = 0; i < N; ++i) data[i] = compute(in[offset + i]);
#pragma unroll
      for (std::size_t i = 0; i < N; ++i) out[offset + i] = data[i];
    }
  });
}

template <variant V, std::size_t N>
int run(sycl::queue& q, const float* in, float* out, std::size_t n, int reps,
        const std::vector<float>& expected) {
  q.memset(out, 0, n * sizeof(float)).wait();
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    sycl::event e = submit<V, N>(q, in, out, n);
    e.wait();
    double ns = double(e.get_profiling_info<sycl::info::event_profiling::command_end>() -
                       e.get_profiling_info<sycl::info::event_profiling::command_start>());
    best = std::min(best, ns);
  }
  // Every variant computes out[i] = compute(in[i]): check a sample of elements.
  std::vector<float> got(expected.size());
  std::size_t stride = n / expected.size();
  for (std::size_t k = 0; k < expected.size(); ++k)
    q.memcpy(&got[k], out + k * stride + (k % 7), sizeof(float));
  q.wait();
  for (std::size_t k = 0; k < expected.size(); ++k)
    if (got[k] != expected[k]) {
      std::printf("%s items=%zu: element %zu is %g, expected %g\n", name_of(V), N,
                  k * stride + (k % 7), got[k], expected[k]);
      return 1;
    }
  std::printf("result impl=syclone variant=%s items=%zu ms=%.4f gbps=%.1f\n", name_of(V), N,
              best * 1e-6, 2.0 * double(n) * sizeof(float) / best);
  return 0;
}

template <std::size_t N>
int run_all(sycl::queue& q, const float* in, float* out, std::size_t n, int reps,
            const std::vector<float>& expected) {
  int status = 0;
  status |= run<variant::work_group, N>(q, in, out, n, reps, expected);
  status |= run<variant::sub_group, N>(q, in, out, n, reps, expected);
  status |= run<variant::striped, N>(q, in, out, n, reps, expected);
  status |= run<variant::direct, N>(q, in, out, n, reps, expected);
  return status;
}

} // namespace

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 28);
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  // Whole work-groups for every N.
  n = n / (wg * 16) * (wg * 16);
  sycl::queue q{sycl::default_selector_v, sycl::property::queue::enable_profiling{}};
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  std::printf("n=%zu floats, work-groups of %zu\n", n, wg);
  float* in = sycl::malloc_device<float>(n, q);
  float* out = sycl::malloc_device<float>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
     in[i] = float(std::size_t(i) % 1000) * 0.25f;
   }).wait();
  std::vector<float> expected(1000);
  std::size_t stride = n / expected.size();
  for (std::size_t k = 0; k < expected.size(); ++k)
    expected[k] = compute(float((k * stride + (k % 7)) % 1000) * 0.25f);
  int status = 0;
  status |= run_all<4>(q, in, out, n, reps, expected);
  status |= run_all<8>(q, in, out, n, reps, expected);
  status |= run_all<16>(q, in, out, n, reps, expected);
  sycl::free(in, q);
  sycl::free(out, q);
  return status;
}
