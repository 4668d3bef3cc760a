// Calls sg_external_lib.cpp's twice() from a kernel; the sizes of the kernel (KERNEL_SIZE) and
// of the declaration (DECLARATION: an attribute or nothing) vary per case of
// sub_group_sizes_test.sh.
#include <sycl/sycl.hpp>

#include <cstdio>

#ifndef KERNEL_SIZE
#define KERNEL_SIZE 8
#endif
#ifndef DECLARATION
#define DECLARATION [[intel::sub_group_size(8)]]
#endif

SYCL_EXTERNAL DECLARATION int twice(int x);

int main() {
  sycl::queue q;
  int* out = sycl::malloc_shared<int>(16, q);
  q.parallel_for(sycl::nd_range<1>(16, 16), [=] [[intel::sub_group_size(KERNEL_SIZE)]] (
                                                sycl::nd_item<1> it) {
     out[it.get_global_id(0)] = twice(int(it.get_sub_group().get_max_local_range()[0]));
   }).wait();
  std::printf("twice(sub-group size) = %d\n", out[0]);
  int result = out[0];
  sycl::free(out, q);
  return result == 2 * KERNEL_SIZE ? 0 : 1;
}
