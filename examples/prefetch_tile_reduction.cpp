// multi_ptr::prefetch (seed 001): the tile reduction, as written. Each work-item reduces 4 tiles
// and prefetches the next tile while it reduces the current one. The result is checked against
// the same computation on the host: a prefetch never changes it.
#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdio>

int main() {
  sycl::queue q;

  constexpr int N = 1024 * 1024;
  constexpr int TILE_SIZE = 8;
  float* data = sycl::malloc_shared<float>(N / TILE_SIZE, q);
  float* data2 = sycl::malloc_shared<float>(N, q);
  for (auto i = 0; i < N; ++i) data2[i] = static_cast<float>(i);
  auto e = q.submit([&](auto& h) {
    h.parallel_for(sycl::nd_range(sycl::range{N / TILE_SIZE / 4}, sycl::range{1024}),
                   [=](sycl::nd_item<1> it) {
                     float tile[TILE_SIZE];
                     int i = it.get_global_linear_id();
                     using global_ptr =
                         sycl::multi_ptr<float, sycl::access::address_space::global_space>;
                     for (int t = 0; t < 4; ++t) {
                       // load tile
                       for (int j = 0; j < TILE_SIZE; ++j) {
                         tile[j] = data2[i * TILE_SIZE * 4 + t * 4 + j];
                       }
                       // prefetch next tile
                       if (t < 3)
                         global_ptr(&data2[i * TILE_SIZE * 4 + (t + 1) * 4]).prefetch(TILE_SIZE);
                       // reduce
                       float dx = 0.0f;
                       for (int j = 0; j < TILE_SIZE; ++j) {
                         dx += 1.0f / sqrtf(tile[j]);
                         data[i * 4 + t] = dx;
                       }
                     }
                   });
  });
  e.wait();

  int wrong = 0;
  for (int i = 0; i < N / TILE_SIZE / 4; ++i)
    for (int t = 0; t < 4; ++t) {
      float dx = 0.0f;
      for (int j = 0; j < TILE_SIZE; ++j)
        dx += 1.0f / std::sqrt(static_cast<float>(i * TILE_SIZE * 4 + t * 4 + j));
      float got = data[i * 4 + t];
      if (!(got == dx || std::fabs(got - dx) <= 1e-6f * std::fabs(dx))) ++wrong;
    }
  std::printf("%s: %d of %d sums differ from the host's\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), wrong, N / TILE_SIZE);
  sycl::free(data, q);
  sycl::free(data2, q);
  return wrong == 0 ? 0 : 1;
}
