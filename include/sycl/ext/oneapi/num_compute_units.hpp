// sycl_ext_oneapi_num_compute_units: the device's compute units, each running whole work-groups
// (device::get_info). syclone's are the streaming multiprocessors of an NVIDIA GPU and the worker
// threads of the host device, which runs each work-group on one thread.
#pragma once

#include <sycl/detail/config.hpp>

#include <cstddef>

#define SYCL_EXT_ONEAPI_NUM_COMPUTE_UNITS 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::info::device {

struct num_compute_units {
  using return_type = std::size_t;
};

} // namespace ext::oneapi::info::device
SYCLONE_END_NAMESPACE
