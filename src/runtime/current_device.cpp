// sycl_ext_oneapi_current_device (include/sycl/ext/oneapi/experimental/current_device.hpp).
#include <sycl/device_selector.hpp>
#include <sycl/ext/oneapi/experimental/current_device.hpp>

#include <optional>

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental::this_thread {
namespace {
thread_local std::optional<device> t_current;
} // namespace

device get_current_device() {
  if (t_current) return *t_current;
  return device(default_selector_v);
}

void set_current_device(device dev) {
  t_current = std::move(dev);
}

} // namespace ext::oneapi::experimental::this_thread
SYCLONE_END_NAMESPACE
