// Sum of 2^28 floats (1 GiB) on the GPU through syclone's sub-group and work-group reductions
// (seed 004 / SYCL 2020 reduce_over_group), against cub::DeviceReduce::Sum in
// cuda_subgroup_cub.cu. Each work-item sums float4 loads in a grid-stride loop, the group reduces
// the partial sums (sub-group: warp shuffles; work-group: shuffles, shared memory, barriers) and
// its leader adds the result to the total atomically. Best of N runs timed with profiling events.
// Usage: cuda_subgroup_reduce [n] [reps] [work-items per SM]
// One wave of work-groups: 1024 work-items per SM by default, which every register count up to
// 64 lets reside at once (a second, partial wave would idle most SMs at the end); each has four
// 16-byte loads in flight, 64 KiB per SM, more than the bandwidth-latency product needs.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using total_ref = sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device,
                                   sycl::access::address_space::global_space>;

template <bool WorkGroup>
class reduce_kernel;

template <bool WorkGroup>
double run(sycl::queue& q, const float* in, float* total, std::size_t n, int reps,
           std::size_t groups, std::size_t group_size, float expected) {
  const std::size_t vectors = n / 4;
  const std::size_t items = groups * group_size;
  double best = 1e30;
  float result = 0;
  for (int r = 0; r < reps; ++r) {
    q.memset(total, 0, sizeof(float)).wait();
    auto e = q.parallel_for<reduce_kernel<WorkGroup>>(
        sycl::nd_range<1>(items, group_size), [=](sycl::nd_item<1> it) {
          const auto* v = reinterpret_cast<const sycl::float4*>(in);
          sycl::float4 acc(0.0f), acc2(0.0f);
          // Four 16-byte loads in flight per work-item before their sums are needed.
          std::size_t i = it.get_global_id(0);
          for (; i + 3 * items < vectors; i += 4 * items) {
            sycl::float4 a = v[i], b = v[i + items], c = v[i + 2 * items], d = v[i + 3 * items];
            acc += a + b;
            acc2 += c + d;
          }
          for (; i < vectors; i += items) {
            sycl::float4 a = v[i];
            acc += a;
          }
          acc += acc2;
          float sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
          // The remainder when n is not a multiple of 4.
          std::size_t tail = vectors * 4 + it.get_global_id(0);
          if (tail < n) sum += in[tail];
          if constexpr (WorkGroup) {
            float group_sum = sycl::reduce_over_group(it.get_group(), sum, sycl::plus<>());
            if (it.get_group().leader()) total_ref(*total).fetch_add(group_sum);
          } else {
            sycl::sub_group sg = it.get_sub_group();
            float sg_sum = sycl::reduce_over_group(sg, sum, sycl::plus<>());
            if (sg.leader()) total_ref(*total).fetch_add(sg_sum);
          }
        });
    e.wait();
    double ns = double(e.template get_profiling_info<sycl::info::event_profiling::command_end>() -
                       e.template get_profiling_info<sycl::info::event_profiling::command_start>());
    best = std::min(best, ns);
    q.memcpy(&result, total, sizeof(float)).wait();
    if (std::fabs(result - expected) > 1e-3f * expected) {
      std::printf("%s reduce: wrong sum %.1f, expected %.1f\n",
                  WorkGroup ? "work-group" : "sub-group", result, expected);
      std::exit(1);
    }
  }
  return best;
}

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 28);
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  std::size_t per_sm = argc > 3 ? std::strtoull(argv[3], nullptr, 0) : 1024;
  sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::enable_profiling{}};
  sycl::device d = q.get_device();
  std::printf("device: %s\n", d.get_info<sycl::info::device::name>().c_str());
  float* in = sycl::malloc_device<float>(n, q);
  float* total = sycl::malloc_device<float>(1, q);
  // Values whose partial sums are exact in float: 0.5, 1, 1.5, 2 repeating.
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { in[i] = 0.5f * float(i % 4 + 1); }).wait();
  float expected = 0;
  for (std::size_t i = 0; i < n % 4; ++i) expected += 0.5f * float(i + 1);
  expected += float(n / 4) * 5.0f;
  const std::size_t sms = d.get_info<sycl::info::device::max_compute_units>();
  const double gb = double(n) * sizeof(float) / 1e9;
  for (std::size_t group_size : {256, 512, 1024}) {
    std::size_t groups = sms * std::max<std::size_t>(1, per_sm / group_size);
    double sg = run<false>(q, in, total, n, reps, groups, group_size, expected);
    double wg = run<true>(q, in, total, n, reps, groups, group_size, expected);
    std::printf("syclone sub-group reduce n=%zu work-group %zu: %.3f ms, %.1f GB/s\n", n,
                group_size, sg * 1e-6, gb / (sg * 1e-9));
    std::printf("syclone work-group reduce n=%zu work-group %zu: %.3f ms, %.1f GB/s\n", n,
                group_size, wg * 1e-6, gb / (wg * 1e-9));
  }
  sycl::free(in, q);
  sycl::free(total, q);
}
