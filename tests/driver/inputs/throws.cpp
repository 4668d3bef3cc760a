// A kernel that throws: SYCL 2020 5.4 keeps exceptions out of device code.
#include "kernel_entry.hpp"

class throwing_kernel;

void run_throwing(int* data) {
  kernel_entry<throwing_kernel>([=] {
    if (data[0] < 0) throw data[0];
  });
}
