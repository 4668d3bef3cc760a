// sycl_khr_work_item_queries: the calling work-item's nd_item, group and sub-group, from any
// function a nd_range kernel calls. GPU targets read the hardware's ids and ranges (and the
// offset each nd_range kernel leaves in shared memory, nvptx.hpp); the host device asks for the
// running work-item's kernel object, group id and local id, which the work-item loop compiler
// answers from its loops' own variables (and the fiber executor from the running fiber).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/kernel_launch.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/sub_group.hpp>

#define SYCL_KHR_WORK_ITEM_QUERIES 1

SYCLONE_BEGIN_NAMESPACE
namespace detail {
// The calling work-item's nd_item (its offset only where `WithOffset`).
template <int D, bool WithOffset = true>
nd_item<D> current_nd_item() {
  id<D> group, local, offset;
  range<D> local_range, group_range;
  if constexpr (dev::is_host) {
    // The object starts with its nd_range_header (kernel_launch.hpp).
    const auto& header = *static_cast<const nd_range_header<D>*>(__syclone_host_work_item_object());
    const std::size_t* group_id = __syclone_host_work_item_group();
    for (int d = 0; d < D; ++d) {
      group[d] = group_id[d];
      local[d] = __syclone_host_work_item_local(std::uint32_t(3 - D + d));
    }
    local_range = header.m_local;
    group_range = header.m_groups;
    if constexpr (WithOffset) offset = header.m_offset;
  } else {
    for (int d = 0; d < D; ++d) {
      int h = hw_dim<D>(d);
      group[d] = dev::group_id(h);
      local[d] = dev::local_id(h);
      local_range[d] = dev::local_range(h);
      group_range[d] = dev::group_range(h);
      if constexpr (WithOffset) offset[d] = dev::nd_offset[d];
    }
  }
  return nd_item_access::make(group, local, local_range, group_range, offset);
}
} // namespace detail

namespace khr {

template <int Dimensions>
sycl::nd_item<Dimensions> this_nd_item() {
  static_assert(1 <= Dimensions && Dimensions <= 3, "nd_items have 1, 2 or 3 dimensions");
  return detail::current_nd_item<Dimensions>();
}

template <int Dimensions>
sycl::group<Dimensions> this_group() {
  static_assert(1 <= Dimensions && Dimensions <= 3, "groups have 1, 2 or 3 dimensions");
  return detail::current_nd_item<Dimensions, false>().get_group();
}

inline sycl::sub_group this_sub_group() {
  if constexpr (detail::dev::is_host) {
    // m_dimensions is at the start of every nd_range_header.
    switch (*static_cast<const std::size_t*>(__syclone_host_work_item_object())) {
    case 1:
      return detail::current_nd_item<1, false>().get_sub_group();
    case 2:
      return detail::current_nd_item<2, false>().get_sub_group();
    default:
      return detail::current_nd_item<3, false>().get_sub_group();
    }
  } else {
    // Unused hardware dimensions have id 0 and size 1: the 3-dimensional form fits every kernel.
    return detail::current_nd_item<3, false>().get_sub_group();
  }
}

} // namespace khr
SYCLONE_END_NAMESPACE
