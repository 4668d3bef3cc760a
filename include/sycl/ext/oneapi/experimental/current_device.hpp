// sycl_ext_oneapi_current_device: a current device per host thread. Until a thread sets one, its
// current device is the one the default selector chooses (asked again on each call, so that a
// thread that never sets one follows SYCLONE_DEVICE_SELECTOR like a default-constructed queue).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/device.hpp>

#define SYCL_EXT_ONEAPI_CURRENT_DEVICE 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental::this_thread {

SYCLONE_EXPORT device get_current_device();
SYCLONE_EXPORT void set_current_device(device dev);

} // namespace ext::oneapi::experimental::this_thread
SYCLONE_END_NAMESPACE
