// Kernels reading specialization constants directly, through a helper function, through a
// SYCL_EXTERNAL function of another translation unit (spec_external.cpp), and not at all: what
// syclone++ records per kernel in the image descriptor (driver_test.sh spec_constants).
#include "spec_ids.hpp"

class direct_kernel;
class helper_kernel;
class external_kernel;
class none_kernel;

SYCL_EXTERNAL int external_read(const sycl::kernel_handler& kh);

static int helper(const sycl::kernel_handler& kh) {
  return kh.get_specialization_constant<second>();
}

void submit_all(sycl::queue& q, int* out) {
  q.submit([&](sycl::handler& h) {
    h.single_task<direct_kernel>(
        [=](sycl::kernel_handler kh) { out[0] = kh.get_specialization_constant<first>(); });
  });
  q.submit([&](sycl::handler& h) {
    h.single_task<helper_kernel>([=](sycl::kernel_handler kh) {
      out[0] = helper(kh) + kh.get_specialization_constant<first>();
    });
  });
  q.submit([&](sycl::handler& h) {
    h.single_task<external_kernel>([=](sycl::kernel_handler kh) { out[0] = external_read(kh); });
  });
  q.submit([&](sycl::handler& h) { h.single_task<none_kernel>([=] { out[0] = 1; }); });
}
