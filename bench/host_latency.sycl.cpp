// Host device costs: empty kernel submit->wait round trip, and the cost of one work-group
// barrier per work-item in an nd_range kernel (barrier kernel minus the same kernel without).
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

using clk = std::chrono::steady_clock;

static double seconds_since(clk::time_point t0) {
  return std::chrono::duration<double>(clk::now() - t0).count();
}

template <int Barriers>
double nd_kernel(sycl::queue& q, float* data, std::size_t n, std::size_t wg, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = clk::now();
    q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
       std::size_t i = it.get_global_id(0);
       float v = data[i];
       for (int b = 0; b < Barriers; ++b) {
         v += 1.0f;
         sycl::group_barrier(it.get_group());
       }
       if (Barriers == 0)
         for (int b = 0; b < 8; ++b) v += 1.0f;
       data[i] = v;
     }).wait();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 10;
  sycl::queue q{sycl::property::queue::in_order{}};
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());

  // Empty kernel round trip.
  for (int i = 0; i < 1000; ++i) q.single_task([] {}).wait();
  const int trips = 100000;
  auto t0 = clk::now();
  for (int i = 0; i < trips; ++i) q.single_task([] {}).wait();
  std::printf("empty single_task submit->wait: %.2f us\n", seconds_since(t0) / trips * 1e6);
  t0 = clk::now();
  for (int i = 0; i < trips; ++i) q.parallel_for(sycl::range<1>(1), [](sycl::id<1>) {}).wait();
  std::printf("empty parallel_for(1) submit->wait: %.2f us\n", seconds_since(t0) / trips * 1e6);

  // Barrier cost per work-item.
  const std::size_t n = std::size_t(1) << 20;
  float* data = sycl::malloc_shared<float>(n, q);
  for (std::size_t wg : {64, 256, 1024}) {
    double t_none = nd_kernel<0>(q, data, n, wg, reps);
    double t_bar = nd_kernel<8>(q, data, n, wg, reps);
    std::printf("nd_range wg=%4zu: no barrier %.2f ns/work-item, barrier cost %.2f ns per "
                "barrier per work-item\n",
                wg, t_none / n * 1e9, (t_bar - t_none) / (8.0 * n) * 1e9);
  }
  sycl::free(data, q);
}
