// sycl_khr_max_work_group_queries: how many work-groups an nd_range kernel may have, in each
// dimension and in total, on a device (device::get_info). On NVIDIA GPUs the grid's limits (the
// last SYCL dimension is CUDA's x); on the host device any count a size_t holds.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/range.hpp>

#include <cstddef>

#define SYCL_KHR_MAX_WORK_GROUP_QUERIES 1

SYCLONE_BEGIN_NAMESPACE
namespace khr::info::device {

template <int Dimensions = 3>
struct max_work_group_range {
  static_assert(Dimensions >= 1 && Dimensions <= 3,
                "khr::info::device::max_work_group_range: Dimensions is 1, 2 or 3");
  using return_type = range<Dimensions>;
};

struct max_work_group_range_size {
  using return_type = std::size_t;
};

} // namespace khr::info::device
SYCLONE_END_NAMESPACE
