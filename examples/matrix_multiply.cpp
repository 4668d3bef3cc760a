// Tiled matrix multiplication C = A * B with an nd_range kernel: each work-group stages one
// tile of A and one of B in local memory (local_accessor) per step, with group_barrier between
// loading and using a tile. The result is checked against a plain host multiplication.
#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  constexpr std::size_t M = 128, K = 96, N = 160, TILE = 16;
  static_assert(M % TILE == 0 && K % TILE == 0 && N % TILE == 0, "sizes must be tile multiples");

  std::vector<float> a(M * K), b(K * N), c(M * N, 0.0f);
  for (std::size_t i = 0; i < M * K; ++i) a[i] = static_cast<float>(i % 7) - 3.0f;
  for (std::size_t i = 0; i < K * N; ++i) b[i] = static_cast<float>(i % 5) * 0.5f;

  sycl::queue q;
  {
    sycl::buffer<float, 2> ba(a.data(), sycl::range<2>(M, K));
    sycl::buffer<float, 2> bb(b.data(), sycl::range<2>(K, N));
    sycl::buffer<float, 2> bc(c.data(), sycl::range<2>(M, N));
    q.submit([&](sycl::handler& h) {
      sycl::accessor A(ba, h, sycl::read_only);
      sycl::accessor B(bb, h, sycl::read_only);
      sycl::accessor C(bc, h, sycl::write_only, sycl::no_init);
      sycl::local_accessor<float, 2> tile_a(sycl::range<2>(TILE, TILE), h);
      sycl::local_accessor<float, 2> tile_b(sycl::range<2>(TILE, TILE), h);
      h.parallel_for(sycl::nd_range<2>(sycl::range<2>(M, N), sycl::range<2>(TILE, TILE)),
                     [=](sycl::nd_item<2> it) {
                       std::size_t row = it.get_global_id(0), col = it.get_global_id(1);
                       std::size_t lr = it.get_local_id(0), lc = it.get_local_id(1);
                       float sum = 0.0f;
                       for (std::size_t k0 = 0; k0 < K; k0 += TILE) {
                         tile_a[lr][lc] = A[row][k0 + lc];
                         tile_b[lr][lc] = B[k0 + lr][col];
                         sycl::group_barrier(it.get_group());
                         for (std::size_t k = 0; k < TILE; ++k)
                           sum += tile_a[lr][k] * tile_b[k][lc];
                         sycl::group_barrier(it.get_group());
                       }
                       C[row][col] = sum;
                     });
    });
  }

  std::size_t wrong = 0;
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      float want = 0.0f;
      for (std::size_t k = 0; k < K; ++k) want += a[i * K + k] * b[k * N + j];
      if (std::fabs(c[i * N + j] - want) > 1e-3f * (1.0f + std::fabs(want))) ++wrong;
    }
  if (wrong) {
    std::printf("matrix_multiply: FAILED (%zu of %zu elements wrong)\n", wrong, M * N);
    return 1;
  }
  std::printf("matrix_multiply: OK (%zux%zu * %zux%zu in %zux%zu tiles on %s)\n", M, K, K, N, TILE,
              TILE, q.get_device().get_info<sycl::info::device::name>().c_str());
  return 0;
}
