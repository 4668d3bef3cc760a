// A SYCL_EXTERNAL function compiled for sub-group size 8 (sub_group_sizes_test.sh).
#include <sycl/sycl.hpp>

SYCL_EXTERNAL [[intel::sub_group_size(8)]] int twice(int x) {
  return 2 * x;
}
