// SYCL kernels calling CUDA __device__ functions of functions.cu with the native pointers of
// their accessors (get_native<backend::cuda>, the CTS's kernel function interoperability): a
// buffer accessor's elements updated by the function, and a work-group's local memory summed by
// it; the results are checked against the host's arithmetic. Runs on the host device and on an
// NVIDIA GPU.
#include <sycl/sycl.hpp>

#include "functions.hpp"

#include <cstdio>
#include <type_traits>
#include <vector>

int main() {
  sycl::queue q;
  constexpr int n = 32, groups = 4, local = 64;
  std::vector<int> data(n), sums(groups, -1);
  for (int i = 0; i < n; ++i) data[i] = 5 * i - 7;
  {
    sycl::buffer<int> b(data.data(), sycl::range<1>(n));
    sycl::buffer<int> s(sums.data(), sycl::range<1>(groups));
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(b, h, sycl::read_write);
      h.single_task([=] {
        int* p = sycl::get_native<sycl::backend::cuda>(acc);
        static_assert(std::is_same_v<decltype(p), int*>);
        add_squares(p, n);
      });
    });
    q.submit([&](sycl::handler& h) {
      sycl::local_accessor<int, 1> tile(sycl::range<1>(local), h);
      sycl::accessor out(s, h, sycl::write_only);
      h.parallel_for(sycl::nd_range<1>(groups * local, local), [=](sycl::nd_item<1> it) {
        int l = static_cast<int>(it.get_local_id(0));
        tile[l] = static_cast<int>(it.get_group(0)) * 1000 + l;
        sycl::group_barrier(it.get_group());
        if (l == 0)
          out[it.get_group(0)] = sum_of(sycl::get_native<sycl::backend::cuda>(tile), local);
      });
    });
  }
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    int want = 5 * i - 7 + i * i + 1;
    if (data[i] != want) {
      std::printf("FAILED data[%d] = %d, want %d\n", i, data[i], want);
      ++failures;
    }
  }
  for (int g = 0; g < groups; ++g) {
    int want = g * 1000 * local + local * (local - 1) / 2;
    if (sums[g] != want) {
      std::printf("FAILED sums[%d] = %d, want %d\n", g, sums[g], want);
      ++failures;
    }
  }
  if (failures) return 1;
  std::printf("cuda_interop_device_function: OK on %s\n",
              q.get_device().get_info<sycl::info::device::name>().c_str());
  return 0;
}
