// sycl_ext_oneapi_non_uniform_groups "Opportunistic-groups": the work-items of the calling
// work-item's sub-group that call get_opportunistic_group together (simultaneously), whichever
// control flow brought them there; any subset is allowed, each call may give another. One group
// (index 0 of 1), fence scope sub_group. Found as tangle_group's members are (tangle_group.hpp):
// activemask on NVIDIA GPUs, the work-items at the same call on the host device.
#pragma once

#include <sycl/ext/oneapi/experimental/non_uniform_groups.hpp>
#include <sycl/khr/work_item_queries.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

class opportunistic_group : public sycl::detail::non_uniform_group_base {
public:
  static constexpr memory_scope fence_scope = memory_scope::sub_group;

private:
  friend struct sycl::detail::nug_access;
  explicit opportunistic_group(const sycl::detail::nug_info& info) : non_uniform_group_base(info) {}
};

namespace this_kernel {
// From any function an nd_range kernel calls (its sub-group from sycl_khr_work_item_queries).
// Always inlined: each call is a call site of its own (tangle_group.hpp).
SYCLONE_INLINE opportunistic_group get_opportunistic_group() {
  sycl::sub_group group = khr::this_sub_group();
  const sycl::detail::sg_info& sg = group.info();
  sycl::detail::nug_info info{sg, sycl::detail::dev::nug_converged_mask(sg), 0u, 1u, false};
  return sycl::detail::nug_access::make<opportunistic_group>(info);
}
} // namespace this_kernel

template <>
struct is_user_constructed_group<opportunistic_group> : std::true_type {};

} // namespace ext::oneapi::experimental

template <>
struct is_group<ext::oneapi::experimental::opportunistic_group> : std::true_type {};

namespace detail {
template <>
struct is_non_uniform_group<ext::oneapi::experimental::opportunistic_group> : std::true_type {};
} // namespace detail
SYCLONE_END_NAMESPACE
