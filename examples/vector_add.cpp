// The minimal syclone program (README.md): add two vectors on the default device through
// buffers, then check the result on the host.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main() {
  constexpr std::size_t n = 1024;
  sycl::queue q;
  std::vector<float> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 2.0f * static_cast<float>(i);
  }
  {
    sycl::buffer<float> ba(a), bb(b);
    q.submit([&](sycl::handler& h) {
      sycl::accessor x(ba, h, sycl::read_write);
      sycl::accessor y(bb, h, sycl::read_only);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] += y[i]; });
    });
  } // the buffer writes back here

  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != 3.0f * static_cast<float>(i)) ++wrong;
  const std::string device = q.get_device().get_info<sycl::info::device::name>();
  if (wrong) {
    std::printf("vector_add: FAILED (%zu of %zu elements wrong) on %s\n", wrong, n, device.c_str());
    return 1;
  }
  std::printf("vector_add: OK on %s (a[1] = %g)\n", device.c_str(), a[1]);
  return 0;
}
