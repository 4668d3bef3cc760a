// Sub-groups on the host device (seed 004): elements per second of a sub-group reduction and of
// a shuffle-heavy kernel, for each sub-group size the host device supports, with a plain
// nd_range copy as reference. Work-items are fibers; a sub-group operation is one exchange
// through scratch memory and a sub-group barrier (src/backends/host/work_group.cpp).
// Usage: host_subgroup [n] [reps]   (SYCLONE_HOST_THREADS sets the threads)
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace syclex = sycl::ext::oneapi::experimental;

constexpr std::size_t work_group = 256;

template <typename Launch>
double best_seconds(sycl::queue& q, int reps, Launch launch) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    launch();
    q.wait();
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

template <std::uint32_t S>
class reduce_kernel;
template <std::uint32_t S>
class shuffle_kernel;

template <std::uint32_t S>
void run(sycl::queue& q, const float* in, float* out, std::size_t n, int reps) {
  if (S != 0) {
    auto sizes = q.get_device().get_info<sycl::info::device::sub_group_sizes>();
    if (std::find(sizes.begin(), sizes.end(), S) == sizes.end()) return;
  }
  sycl::nd_range<1> range(n, work_group);
  auto props = [] {
    if constexpr (S == 0)
      return syclex::properties{syclex::sub_group_size_primary};
    else
      return syclex::properties{syclex::sub_group_size<S>};
  }();
  std::uint32_t size = 0;
  double reduce = best_seconds(q, reps, [&] {
    q.parallel_for<reduce_kernel<S>>(range, props, [=](sycl::nd_item<1> it) {
      sycl::sub_group sg = it.get_sub_group();
      float sum = sycl::reduce_over_group(sg, in[it.get_global_id(0)], sycl::plus<>());
      if (sg.leader()) out[it.get_global_id(0)] = sum;
    });
  });
  std::uint32_t* seen = sycl::malloc_shared<std::uint32_t>(1, q);
  double shuffle = best_seconds(q, reps, [&] {
    q.parallel_for<shuffle_kernel<S>>(range, props, [=](sycl::nd_item<1> it) {
      sycl::sub_group sg = it.get_sub_group();
      std::uint32_t lanes = sg.get_max_local_range()[0];
      float x = in[it.get_global_id(0)];
      // A butterfly all-reduce, then neighbour exchanges: log2(size) + 2 shuffles.
      for (std::uint32_t m = 1; m < lanes; m *= 2) x += sycl::permute_group_by_xor(sg, x, m);
      x += sycl::shift_group_left(sg, x) + sycl::shift_group_right(sg, x);
      out[it.get_global_id(0)] = x;
      if (it.get_global_id(0) == 0) *seen = lanes;
    });
  });
  size = *seen;
  sycl::free(seen, q);
  int shuffles = 2;
  for (std::uint32_t m = 1; m < size; m *= 2) ++shuffles;
  std::printf("host sub-group size %2u%s: reduce %.1f M elements/s, shuffle-heavy (%d shuffles "
              "per work-item) %.1f M elements/s\n",
              size, S == 0 ? " (primary)" : "", n / reduce / 1e6, shuffles, n / shuffle / 1e6);
}

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 24);
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  n = (n + work_group - 1) / work_group * work_group;
  sycl::queue q{sycl::cpu_selector_v};
  std::printf("device: %s, %zu elements, work-groups of %zu\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), n, work_group);
  float* in = sycl::malloc_shared<float>(n, q);
  float* out = sycl::malloc_shared<float>(n, q);
  for (std::size_t i = 0; i < n; ++i) in[i] = float(i % 7);
  double copy = best_seconds(q, reps, [&] {
    q.parallel_for(sycl::nd_range<1>(n, work_group), [=](sycl::nd_item<1> it) {
      out[it.get_global_id(0)] = in[it.get_global_id(0)] * 2.0f;
    });
  });
  std::printf("host nd_range copy (no sub-group operation): %.1f M elements/s\n", n / copy / 1e6);
  run<0>(q, in, out, n, reps);
  run<1>(q, in, out, n, reps);
  run<4>(q, in, out, n, reps);
  run<8>(q, in, out, n, reps);
  run<16>(q, in, out, n, reps);
  run<32>(q, in, out, n, reps);
  sycl::free(in, q);
  sycl::free(out, q);
}
