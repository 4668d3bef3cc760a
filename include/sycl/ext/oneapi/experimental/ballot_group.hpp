// sycl_ext_oneapi_non_uniform_groups "Ballot-groups": the work-items of a sub-group whose
// predicate has the caller's value. Two groups: index 1 holds the work-items whose predicate was
// true, index 0 those whose predicate was false (either may be empty, never the caller's).
#pragma once

#include <sycl/ext/oneapi/experimental/non_uniform_groups.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

template <typename ParentGroup>
class ballot_group : public sycl::detail::non_uniform_group_base {
public:
  static constexpr memory_scope fence_scope = ParentGroup::fence_scope;

private:
  friend struct sycl::detail::nug_access;
  explicit ballot_group(const sycl::detail::nug_info& info) : non_uniform_group_base(info) {}
};

// Every work-item of `group` calls it, in converged control flow (the extension's precondition):
// it synchronizes the sub-group, which exchanges the predicates (NVIDIA: one match.any.sync).
template <typename Group>
std::enable_if_t<std::is_same_v<std::decay_t<Group>, sycl::sub_group>,
                 ballot_group<std::decay_t<Group>>>
get_ballot_group(Group group, bool predicate) {
  const sycl::detail::sg_info& sg = group.info();
  sycl::detail::nug_info info{sg, sycl::detail::dev::nug_ballot_mask(sg, predicate),
                              predicate ? 1u : 0u, 2u, false};
  return sycl::detail::nug_access::make<ballot_group<std::decay_t<Group>>>(info);
}

template <typename ParentGroup>
struct is_user_constructed_group<ballot_group<ParentGroup>> : std::true_type {};

} // namespace ext::oneapi::experimental

template <typename ParentGroup>
struct is_group<ext::oneapi::experimental::ballot_group<ParentGroup>> : std::true_type {};

namespace detail {
template <typename ParentGroup>
struct is_non_uniform_group<ext::oneapi::experimental::ballot_group<ParentGroup>> : std::true_type {
};
} // namespace detail
SYCLONE_END_NAMESPACE
