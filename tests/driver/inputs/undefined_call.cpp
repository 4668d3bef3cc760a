// A kernel that really calls a function no device code defines (not SYCL_EXTERNAL, defined only
// in host code of another unit): the device link fails naming the function, the kernel and the
// unit (issue 11), instead of an image the GPU cannot run.
#include <sycl/sycl.hpp>

int host_helper(int);

int main() {
  sycl::queue q;
  int* p = sycl::malloc_shared<int>(1, q);
  q.single_task<class calls_undefined>([=] { *p = host_helper(1); }).wait();
  int value = *p;
  sycl::free(p, q);
  return value == 2 ? 0 : 1;
}
