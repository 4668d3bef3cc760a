// The kernels of the host program (SYCL 2020 4.11.5 get_kernel_ids: "all kernels defined in the
// application"). Device images list the kernels compiled for a GPU target, but a program built
// with -fsycl-targets=host has none, and the host device runs every kernel from the host program
// itself. So each kernel the program submits also registers its name before main: handler
// odr-uses host_kernel<Name>::registration, a static member whose constructor runs with the
// other static initializers of the module (and whose destructor runs at exit or dlclose).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/kernel_launch.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

class SYCLONE_EXPORT host_kernel_registration {
public:
  explicit host_kernel_registration(const char* name);
  ~host_kernel_registration();
  host_kernel_registration(const host_kernel_registration&) = delete;
  host_kernel_registration& operator=(const host_kernel_registration&) = delete;

private:
  const char* m_name;
};

template <typename Name>
struct host_kernel {
  static inline host_kernel_registration registration{kernel_name<Name>()};
};

} // namespace detail
SYCLONE_END_NAMESPACE
