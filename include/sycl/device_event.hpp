// SYCL 2020 4.15.3 device_event: the event of an async_work_group_copy (group and nd_item).
// syclone's copies complete before async_work_group_copy returns (the work-items of the group
// share the elements and meet at a barrier), so wait() has nothing left to wait for.
#pragma once

#include <sycl/detail/config.hpp>

SYCLONE_BEGIN_NAMESPACE

class device_event {
public:
  device_event() = default;
  void wait() noexcept {}
};

SYCLONE_END_NAMESPACE
