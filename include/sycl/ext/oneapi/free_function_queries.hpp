// sycl_ext_oneapi_free_function_queries: oneAPI's names for the calling work-item's nd_item,
// group and sub-group (the same answers as sycl_khr_work_item_queries, work_item_queries.hpp),
// and the experimental names it deprecates for them. The deprecated this_id and this_item of
// range kernels are not provided: a range kernel's work-item has no place the runtime could
// answer from, and a wrong answer would be worse than a compile error.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/khr/work_item_queries.hpp>

#define SYCL_EXT_ONEAPI_FREE_FUNCTION_QUERIES 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi {
namespace this_work_item {

template <int Dimensions>
nd_item<Dimensions> get_nd_item() {
  return khr::this_nd_item<Dimensions>();
}
template <int Dimensions>
group<Dimensions> get_work_group() {
  return khr::this_group<Dimensions>();
}
inline sub_group get_sub_group() {
  return khr::this_sub_group();
}

} // namespace this_work_item

namespace experimental {
template <int Dimensions>
[[deprecated("use sycl::ext::oneapi::this_work_item::get_nd_item")]] nd_item<Dimensions>
this_nd_item() {
  return khr::this_nd_item<Dimensions>();
}
template <int Dimensions>
[[deprecated("use sycl::ext::oneapi::this_work_item::get_work_group")]] group<Dimensions>
this_group() {
  return khr::this_group<Dimensions>();
}
[[deprecated("use sycl::ext::oneapi::this_work_item::get_sub_group")]] inline sub_group
this_sub_group() {
  return khr::this_sub_group();
}
} // namespace experimental

} // namespace ext::oneapi
SYCLONE_END_NAMESPACE
