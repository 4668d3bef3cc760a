// A reduction into USM of another context of the queue's platform, as Celerity does on GPUs: it
// allocates device memory in a context of its own per device and reduces on queues of the
// default context. Device, shared and host USM of the second context are written by the kernel
// (on the GPU too: every context of a device is its primary context there); memory that is no
// USM at all still throws errc::invalid on a GPU, which cannot write it.
#include <sycl/sycl.hpp>

#include <cstdio>

static int failures = 0;
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                  \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

int main() {
  sycl::queue q; // the default context, as Celerity's device queues
  sycl::device dev = q.get_device();
  sycl::context alloc_ctx(dev); // as Celerity's per-device context
  sycl::queue alloc_q(alloc_ctx, dev);
  constexpr int n = 100000;
  constexpr long long want = static_cast<long long>(n) * (n - 1) / 2;
  auto sum_into = [&](long long* p) {
    q.parallel_for(sycl::range<1>(n),
                   sycl::reduction(p, sycl::plus<long long>(),
                                   sycl::property::reduction::initialize_to_identity{}),
                   [=](sycl::id<1> i, auto& s) { s += static_cast<long long>(i[0]); })
        .wait_and_throw();
  };

  long long* d = sycl::malloc_device<long long>(1, dev, alloc_ctx);
  sum_into(d);
  long long got = 0;
  alloc_q.memcpy(&got, d, sizeof got).wait();
  std::printf("device USM of another context: %lld (want %lld)\n", got, want);
  CHECK(got == want);

  long long* s = sycl::malloc_shared<long long>(1, dev, alloc_ctx);
  sum_into(s);
  std::printf("shared USM of another context: %lld\n", *s);
  CHECK(*s == want);

  long long* h = sycl::malloc_host<long long>(1, alloc_ctx);
  sum_into(h);
  std::printf("host USM of another context: %lld\n", *h);
  CHECK(*h == want);

  if (dev.is_gpu()) {
    static long long plain = 0;
    try {
      sum_into(&plain);
      std::printf("FAIL: a reduction into plain host memory on a GPU did not throw\n");
      ++failures;
    } catch (const sycl::exception& e) {
      CHECK(e.code() == sycl::errc::invalid);
    }
    // The queue still works after the error.
    sum_into(d);
    got = 0;
    alloc_q.memcpy(&got, d, sizeof got).wait();
    CHECK(got == want);
  }

  sycl::free(d, alloc_ctx);
  sycl::free(s, alloc_ctx);
  sycl::free(h, alloc_ctx);
  if (failures) return 1;
  std::printf("reduction_usm_of_other_context: all checks passed\n");
  return 0;
}
