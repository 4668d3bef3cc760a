// sycl_ext_oneapi_prefetch (seed 000), "Group prefetch functions": the sub-group example, as
// written. Each sub-group walks data[0, M) in strides of its size and prefetches, together, the
// elements it reads 100 positions later; `foo` adds every element it is given to a sum, which is
// checked: the prefetches are hints and must not change it.
#include <sycl/sycl.hpp>

#include <cstdio>

namespace syclex = sycl::ext::oneapi::experimental;

int main() {
  sycl::queue q;
  constexpr int M = 1024; // a multiple of every sub-group size
  const sycl::range<1> N{4096}, L{128};
  int* data = sycl::malloc_shared<int>(M + 100 + 64, q);
  for (int k = 0; k < M + 100 + 64; ++k) data[k] = k;
  unsigned long long* sum = sycl::malloc_shared<unsigned long long>(1, q);
  unsigned* sub_group_size = sycl::malloc_shared<unsigned>(1, q);
  *sum = 0;
  auto foo = [=](sycl::sub_group sg, int x) {
    sycl::atomic_ref<unsigned long long, sycl::memory_order::relaxed, sycl::memory_scope::device>(
        *sum)
        .fetch_add(static_cast<unsigned long long>(x));
    if (sg.leader())
      sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::device>(
          *sub_group_size)
          .store(static_cast<unsigned>(sg.get_max_local_range()[0]));
  };

  q.parallel_for(sycl::nd_range{N, L}, [=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    for (int j = sg.get_local_id(); j < M; j += sg.get_max_local_range()) {
      syclex::joint_prefetch(sg, &data[j + 100], sg.get_max_local_range(),
                             syclex::properties{syclex::prefetch_hint_L3});
      foo(sg, data[j]);
    }
  });
  q.wait();

  // Every sub-group (of `sub_group_size` work-items) adds each of data[0, M) once.
  unsigned long long sub_groups = N[0] / *sub_group_size;
  unsigned long long expected = sub_groups * M * (M - 1) / 2;
  bool ok = *sum == expected;
  std::printf("sub-groups of %u: sum %llu (expected %llu): %s\n", *sub_group_size, *sum, expected,
              ok ? "passed" : "FAILED");
  sycl::free(sub_group_size, q);
  sycl::free(sum, q);
  sycl::free(data, q);
  return ok ? 0 : 1;
}
