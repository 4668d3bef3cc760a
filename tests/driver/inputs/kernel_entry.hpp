// The kernel entry mechanism of include/sycl/detail/kernel_launch.hpp, on its own: the driver
// tests need kernels, not the runtime's API.
#pragma once

#include <sycl/detail/config.hpp>

template <typename Name, typename Kernel>
[[clang::sycl_kernel_entry_point(Name)]] void kernel_entry(Kernel kernel) {
  kernel();
}
