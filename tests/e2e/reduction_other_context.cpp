// A reduction into memory of another context than the queue's (Celerity allocates in one context
// and reduces on queues of another) on the host device, which writes any host memory: host USM of
// a second context, and plain host memory. SYCLONE_E2E_HOST_ONLY (a GPU needs USM it can reach).
#include <sycl/sycl.hpp>

#include <cstdio>

int main() {
  sycl::device dev = sycl::device::get_devices().front();
  if (dev.get_backend() != sycl::backend::syclone_host) {
    std::printf("skipped: the first device is no host device\n");
    return 0;
  }
  sycl::context alloc_ctx(dev), queue_ctx(dev);
  sycl::queue q(queue_ctx, dev);
  int* usm = sycl::malloc_host<int>(1, alloc_ctx);
  static int plain = 0;
  constexpr int n = 1000;
  q.parallel_for(
       sycl::range<1>(n),
       sycl::reduction(usm, sycl::plus<int>(), sycl::property::reduction::initialize_to_identity{}),
       [=](sycl::id<1> i, auto& sum) { sum += int(i[0]); })
      .wait();
  q.parallel_for(sycl::range<1>(n), sycl::reduction(&plain, 7, sycl::maximum<int>()),
                 [=](sycl::id<1> i, auto& m) { m.combine(int(i[0]) % 97); })
      .wait();
  bool ok = *usm == n * (n - 1) / 2 && plain == 96;
  std::printf("sum %d (want %d), max %d (want 96)\n", *usm, n * (n - 1) / 2, plain);
  sycl::free(usm, alloc_ctx);
  if (!ok) return 1;
  std::printf("reduction_other_context: all checks passed\n");
  return 0;
}
