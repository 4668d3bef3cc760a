// The SYCL_EXTERNAL function spec_kernels.cpp's external_kernel calls; it reads `third`.
#include "spec_ids.hpp"

SYCL_EXTERNAL int external_read(const sycl::kernel_handler& kh) {
  return kh.get_specialization_constant<third>();
}
