// A kernel that calls a SYCL_EXTERNAL function defined in another translation unit.
#include "kernel_entry.hpp"

SYCL_EXTERNAL int twice(int x);

class twice_kernel;

void run_twice(int* data) {
  kernel_entry<twice_kernel>([=] { data[0] = twice(data[0]); });
}
