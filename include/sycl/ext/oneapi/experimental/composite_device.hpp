// sycl_ext_oneapi_composite_device: devices made of other devices (a card of several tiles) and
// the queries that relate them. syclone's devices are each one NVIDIA GPU or the host CPU, none
// made of others: there are no composite devices, no device has aspect::ext_oneapi_is_component,
// and info::device::composite_device throws errc::invalid as the extension says for a device that
// is not a component.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/device.hpp>

#include <vector>

#define SYCL_EXT_ONEAPI_COMPOSITE_DEVICE 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

// The composite devices of every platform.
SYCLONE_EXPORT std::vector<device> get_composite_devices();

namespace info::device {
// The devices a composite device is made of (empty for any other device).
struct component_devices {
  using return_type = std::vector<sycl::device>;
};
// The composite device a component device belongs to.
struct composite_device {
  using return_type = sycl::device;
};
} // namespace info::device

} // namespace ext::oneapi::experimental
SYCLONE_END_NAMESPACE
