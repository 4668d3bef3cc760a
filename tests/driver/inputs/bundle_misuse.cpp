// Uses of kernel bundles SYCL 2020 makes unavailable, each a compile error (driver_test.sh
// spec_constants): -DUSE_INPUT passes an input bundle to handler::use_kernel_bundle, -DSET_EXE
// sets a specialization constant on an executable bundle, -DGET_KERNEL_INPUT asks an input
// bundle for a kernel.
#include <sycl/sycl.hpp>

class misuse_kernel;
constexpr sycl::specialization_id<int> value(1);

void misuse(sycl::queue& q) {
  auto input = sycl::get_kernel_bundle<sycl::bundle_state::input>(q.get_context());
#ifdef USE_INPUT
  q.submit([&](sycl::handler& h) {
    h.use_kernel_bundle(input);
    h.single_task<misuse_kernel>([] {});
  });
#endif
#ifdef SET_EXE
  auto exe = sycl::build(input);
  exe.set_specialization_constant<value>(2);
#endif
#ifdef GET_KERNEL_INPUT
  (void)input.get_kernel(sycl::get_kernel_id<misuse_kernel>());
#endif
}
