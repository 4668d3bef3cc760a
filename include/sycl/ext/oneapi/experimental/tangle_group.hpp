// sycl_ext_oneapi_non_uniform_groups "Tangle-groups": the work-items of a sub-group that reach
// the call in converged control flow (a tangle). One group (index 0 of 1). NVIDIA GPUs: the lanes
// activemask reports. Host device: the work-items of the sub-group that reach this same call
// together (on fibers, those waiting at it once no work-item of the work-group can go on
// otherwise; in the compiled loops, which run only where the whole work-group reaches it, the
// whole sub-group).
#pragma once

#include <sycl/ext/oneapi/experimental/non_uniform_groups.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

template <typename ParentGroup>
class tangle_group : public sycl::detail::non_uniform_group_base {
public:
  static constexpr memory_scope fence_scope = ParentGroup::fence_scope;

private:
  friend struct sycl::detail::nug_access;
  explicit tangle_group(const sycl::detail::nug_info& info) : non_uniform_group_base(info) {}
};

// Always inlined: each call is a call site of its own, which tells the host's tangles apart.
template <typename Group>
SYCLONE_INLINE std::enable_if_t<std::is_same_v<std::decay_t<Group>, sycl::sub_group>,
                                tangle_group<std::decay_t<Group>>>
get_tangle_group(Group group) {
  const sycl::detail::sg_info& sg = group.info();
  sycl::detail::nug_info info{sg, sycl::detail::dev::nug_converged_mask(sg), 0u, 1u, false};
  return sycl::detail::nug_access::make<tangle_group<std::decay_t<Group>>>(info);
}

template <typename ParentGroup>
struct is_user_constructed_group<tangle_group<ParentGroup>> : std::true_type {};

} // namespace ext::oneapi::experimental

template <typename ParentGroup>
struct is_group<ext::oneapi::experimental::tangle_group<ParentGroup>> : std::true_type {};

namespace detail {
template <typename ParentGroup>
struct is_non_uniform_group<ext::oneapi::experimental::tangle_group<ParentGroup>> : std::true_type {
};
} // namespace detail
SYCLONE_END_NAMESPACE
