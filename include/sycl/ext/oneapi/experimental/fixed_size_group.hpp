// sycl_ext_oneapi_non_uniform_groups "Fixed-size-groups": a sub-group cut into groups of
// PartitionSize consecutive work-items (a power of two, at most the sub-group's size, which it
// should divide: a partial last sub-group's last group holds the work-items that exist).
#pragma once

#include <sycl/ext/oneapi/experimental/non_uniform_groups.hpp>

#include <cstddef>

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

template <std::size_t PartitionSize, typename ParentGroup>
class fixed_size_group : public sycl::detail::non_uniform_group_base {
  static_assert(PartitionSize > 0 && (PartitionSize & (PartitionSize - 1)) == 0,
                "fixed_size_group: PartitionSize must be a positive power of two");
  static_assert(PartitionSize <= 32,
                "fixed_size_group: PartitionSize must not exceed the sub-group size (at most 32 "
                "on every syclone device)");

public:
  static constexpr memory_scope fence_scope = ParentGroup::fence_scope;

private:
  friend struct sycl::detail::nug_access;
  explicit fixed_size_group(const sycl::detail::nug_info& info) : non_uniform_group_base(info) {}
};

// No synchronization: each work-item knows its partition from its lane.
template <std::size_t PartitionSize, typename Group>
std::enable_if_t<std::is_same_v<std::decay_t<Group>, sycl::sub_group>,
                 fixed_size_group<PartitionSize, std::decay_t<Group>>>
get_fixed_size_group(Group group) {
  const sycl::detail::sg_info& sg = group.info();
  constexpr std::uint32_t size = static_cast<std::uint32_t>(PartitionSize);
  constexpr std::uint32_t lanes = size >= 32 ? ~0u : (1u << size) - 1u;
  std::uint32_t first = sg.lane & ~(size - 1u);
  sycl::detail::nug_info info{sg, (lanes << first) & sycl::detail::sub_group_lanes(sg.size),
                              sg.lane / size, (sg.size + size - 1u) / size, true};
  return sycl::detail::nug_access::make<fixed_size_group<PartitionSize, std::decay_t<Group>>>(info);
}

template <std::size_t PartitionSize, typename ParentGroup>
struct is_user_constructed_group<fixed_size_group<PartitionSize, ParentGroup>> : std::true_type {};

} // namespace ext::oneapi::experimental

template <std::size_t PartitionSize, typename ParentGroup>
struct is_group<ext::oneapi::experimental::fixed_size_group<PartitionSize, ParentGroup>>
    : std::true_type {};

namespace detail {
template <std::size_t PartitionSize, typename ParentGroup>
struct is_non_uniform_group<ext::oneapi::experimental::fixed_size_group<PartitionSize, ParentGroup>>
    : std::true_type {};
} // namespace detail
SYCLONE_END_NAMESPACE
