// syclone on the GPU: empty kernel submit->complete round trip, back-to-back submission cost
// per kernel, and JIT time (cold with the disk cache disabled, and from the disk cache).
#include <sycl/sycl.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>

using clk = std::chrono::steady_clock;
static double us_since(clk::time_point t0) {
  return std::chrono::duration<double, std::micro>(clk::now() - t0).count();
}

int main() {
  sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order{}};
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  auto t0 = clk::now();
  q.single_task<class first_kernel>([] {}).wait();
  std::printf("first submission (JIT + module load + launch): %.0f us\n", us_since(t0));

  for (int i = 0; i < 1000; ++i) q.single_task<class empty>([] {}).wait();
  const int trips = 20000;
  t0 = clk::now();
  for (int i = 0; i < trips; ++i) q.single_task<class empty>([] {}).wait();
  std::printf("empty kernel submit->wait round trip: %.2f us\n", us_since(t0) / trips);

  q.wait();
  const int burst = 20000;
  t0 = clk::now();
  for (int i = 0; i < burst; ++i) q.single_task<class empty>([] {});
  double issue = us_since(t0) / burst;
  q.wait();
  std::printf("back-to-back submission: %.2f us per kernel (issue), %.2f us per kernel (total)\n",
              issue, us_since(t0) / burst);
}
