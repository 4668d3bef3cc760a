// sycl_ext_oneapi_device_global's instances (include/sycl/ext/oneapi/experimental/
// device_global.hpp): one per device and variable. The host device's are copies of the host
// object's bytes, found by address; a GPU's are USM shared allocations, found by the variable's
// symbol, which the runtime reads from the program's symbol tables (the JIT names variables by
// symbol, the host knows only their addresses).
#pragma once

#include <sycl/detail/config.hpp>

#include <cstddef>
#include <string>

namespace syclone::runtime {
class device;

// The device of the host kernel the calling thread runs (the host executor sets it while a kernel
// runs on the thread): whose instance __syclone_device_global answers.
struct host_device_scope {
  const void* saved;
  explicit host_device_scope(const void* device) noexcept;
  ~host_device_scope();
};

// The instance on GPU device `d` of the device_global variable whose symbol is `name` (`bytes`
// long, as the device code says), made from the host object's bytes on first use; called when a
// module that uses it is loaded. Throws sycl::exception (errc::feature_not_supported) when the
// program's symbol tables do not have it, errc::invalid when the symbol is shorter than `bytes`.
SYCLONE_EXPORT void* device_global_instance(device& d, const std::string& name, std::size_t bytes);

} // namespace syclone::runtime
