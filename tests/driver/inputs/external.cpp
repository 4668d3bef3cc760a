// The SYCL_EXTERNAL function kernels.cpp calls.
#include <sycl/detail/config.hpp>

SYCL_EXTERNAL int twice(int x) {
  return 2 * x;
}
