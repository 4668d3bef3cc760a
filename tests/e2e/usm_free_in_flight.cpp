// sycl::free while commands that use the memory have not run yet (issue 30; the CTS's
// oneapi_enqueue_barrier frees a USM flag array that kernels behind a barrier still write): the
// memory goes back only once the commands submitted to the context's queues before the free
// completed (on a GPU too: the driver's free waits for work on the device, not for commands the
// runtime still holds back; compute-sanitizer saw the held kernel write freed memory). A kernel
// held back by a host task writes and reads its allocation after the program freed it; the results
// are right, and under AddressSanitizer (the suite's asan run) no use after free is reported.
// A host task that frees memory of its own context does not wait for itself.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <future>

int main() {
  sycl::queue q;
  constexpr int n = 1000;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  sycl::event held = q.submit([&](sycl::handler& h) { h.host_task([=] { released.wait(); }); });
  int* scratch = sycl::malloc_device<int>(n, q);
  long* sum = sycl::malloc_shared<long>(1, q);
  *sum = 0;
  sycl::event writes =
      q.parallel_for(sycl::range<1>{n}, held, [=](sycl::id<1> i) { scratch[i] = int(i) * 3; });
  sycl::event adds = q.single_task(writes, [=] {
    long s = 0;
    for (int i = 0; i < n; ++i) s += scratch[i];
    *sum = s;
  });
  sycl::free(scratch, q); // both kernels still wait for the host task
  EXPECT(sycl::get_pointer_type(scratch, q.get_context()) == sycl::usm::alloc::unknown);
  release.set_value();
  adds.wait();
  EXPECT(*sum == 3L * n * (n - 1) / 2);

  // Freed from a host task of the same queue: given back once that host task completed.
  int* more = sycl::malloc_shared<int>(16, q);
  more[0] = 4;
  q.submit([&](sycl::handler& h) {
     h.host_task([=] {
       int v = more[0];
       sycl::free(more, q);
       *sum = v;
     });
   }).wait();
  EXPECT(*sum == 4);
  sycl::free(sum, q);
  if (failures == 0) std::printf("usm_free_in_flight: all checks passed\n");
  return failures;
}
