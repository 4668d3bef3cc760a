// sycl_ext_oneapi_auto_local_range: auto_range<D>() as an nd_range's local range asks the
// implementation to choose the work-group size. It is a range of zeros (no work-group of zero
// work-items exists); parallel_for picks, for the queue's device, a size that divides the global
// range (handler.hpp, src/runtime/kernel_attributes.cpp choose_auto_local_range).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/range.hpp>

#define SYCL_EXT_ONEAPI_AUTO_LOCAL_RANGE 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

template <int Dimensions>
range<Dimensions> auto_range() {
  static_assert(1 <= Dimensions && Dimensions <= 3, "auto_range has 1, 2 or 3 dimensions");
  if constexpr (Dimensions == 1)
    return range<1>(0);
  else if constexpr (Dimensions == 2)
    return range<2>(0, 0);
  else
    return range<3>(0, 0, 0);
}

} // namespace ext::oneapi::experimental
SYCLONE_END_NAMESPACE
