// A sum reduction over unified shared memory: each work-group reduces its part in local memory
// (a tree with group_barrier), then one atomic_ref add per work-group combines the partial
// sums. Data moves with queue::memcpy between host and device allocations.
#include <sycl/sycl.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  constexpr std::size_t n = 1 << 20, wg = 256;
  sycl::queue q;

  std::vector<std::int64_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::int64_t>(i % 1000) - 400;

  std::int64_t* data = sycl::malloc_device<std::int64_t>(n, q);
  std::int64_t* sum = sycl::malloc_shared<std::int64_t>(1, q);
  *sum = 0;
  sycl::event copied = q.memcpy(data, host.data(), n * sizeof(std::int64_t));

  q.submit([&](sycl::handler& h) {
     h.depends_on(copied);
     sycl::local_accessor<std::int64_t> scratch(sycl::range<1>(wg), h);
     h.parallel_for(
         sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(wg)), [=](sycl::nd_item<1> it) {
           std::size_t l = it.get_local_id(0);
           scratch[l] = data[it.get_global_id(0)];
           sycl::group_barrier(it.get_group());
           for (std::size_t stride = wg / 2; stride > 0; stride /= 2) {
             if (l < stride) scratch[l] += scratch[l + stride];
             sycl::group_barrier(it.get_group());
           }
           if (l == 0) {
             sycl::atomic_ref<std::int64_t, sycl::memory_order::relaxed, sycl::memory_scope::device>
                 total(*sum);
             total.fetch_add(scratch[0]);
           }
         });
   }).wait();

  std::int64_t want = 0;
  for (std::int64_t v : host) want += v;
  const std::int64_t got = *sum;
  sycl::free(data, q);
  sycl::free(sum, q);
  if (got != want) {
    std::printf("usm_reduction: FAILED (sum %lld, expected %lld)\n", static_cast<long long>(got),
                static_cast<long long>(want));
    return 1;
  }
  std::printf("usm_reduction: OK (sum of %zu elements = %lld)\n", n, static_cast<long long>(got));
  return 0;
}
