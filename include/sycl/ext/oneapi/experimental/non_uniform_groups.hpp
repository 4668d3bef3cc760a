// sycl_ext_oneapi_non_uniform_groups (intel/llvm, experimental; the revision with ballot_group,
// fixed_size_group, tangle_group and opportunistic_group that the Khronos CTS tests): groups made
// of some work-items of a sub-group, usable in divergent control flow, and the traits that tell
// them from the groups of the execution model. The group functions and algorithms of
// <sycl/group_algorithm.hpp> take them (group_barrier, group_broadcast, select_from_group,
// shift_group_left/right, permute_group_by_xor, any/all/none_of_group and the joint forms,
// reduce_over_group, exclusive/inclusive_scan_over_group and the joint forms).
//
// A group is a mask of its sub-group's lanes (detail::nug_info); local ids follow the lanes. On
// NVIDIA GPUs every operation is a warp instruction with that member mask; on the host device,
// an exchange of the members only (host_group.hpp), run as fibers where the groups are used in
// divergent control flow (README "Sub-groups").
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/group_types.hpp>
#include <sycl/group_algorithm.hpp>
#include <sycl/id.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/range.hpp>
#include <sycl/sub_group.hpp>

#include <cstdint>
#include <type_traits>

#define SYCL_EXT_ONEAPI_NON_UNIFORM_GROUPS 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

// "Group Taxonomy": groups of the execution model (root_group of sycl_ext_oneapi_root_group,
// group, sub_group) ...
template <int Dimensions>
class root_group;
template <class T>
struct is_fixed_topology_group : std::false_type {};
template <int Dimensions>
struct is_fixed_topology_group<root_group<Dimensions>> : std::true_type {};
template <int Dimensions>
struct is_fixed_topology_group<sycl::group<Dimensions>> : std::true_type {};
template <>
struct is_fixed_topology_group<sycl::sub_group> : std::true_type {};
template <class T>
inline constexpr bool is_fixed_topology_group_v = is_fixed_topology_group<T>::value;

// ... and groups a program makes by partitioning one of them (the four classes below).
template <class T>
struct is_user_constructed_group : std::false_type {};
template <class T>
inline constexpr bool is_user_constructed_group_v = is_user_constructed_group<T>::value;

} // namespace ext::oneapi::experimental

namespace detail {
// What the four group classes have in common: the queries of a one-dimensional group, answered
// from the mask. A group is made only by the extension's functions (nug_access).
class non_uniform_group_base {
public:
  using id_type = id<1>;
  using range_type = range<1>;
  using linear_id_type = std::uint32_t;
  static constexpr int dimensions = 1;

  id_type get_group_id() const { return id_type(m_info.group_id); }
  id_type get_local_id() const { return id_type(nug_local_id(m_info)); }
  range_type get_group_range() const { return range_type(m_info.group_range); }
  range_type get_local_range() const { return range_type(nug_size(m_info)); }
  linear_id_type get_group_linear_id() const { return m_info.group_id; }
  linear_id_type get_local_linear_id() const { return nug_local_id(m_info); }
  linear_id_type get_group_linear_range() const { return m_info.group_range; }
  linear_id_type get_local_linear_range() const { return nug_size(m_info); }
  // The member with local id 0.
  bool leader() const { return nug_local_id(m_info) == 0; }

  // Not part of the SYCL API: what the group functions work with.
  const nug_info& info() const { return m_info; }

protected:
  explicit non_uniform_group_base(const nug_info& info) : m_info(info) {}

private:
  nug_info m_info;
};

struct nug_access {
  template <typename Group>
  static Group make(const nug_info& info) {
    return Group(info);
  }
};

// The lanes of a sub-group of `size` work-items.
SYCLONE_INLINE std::uint32_t sub_group_lanes(std::uint32_t size) {
  return size >= 32 ? ~0u : (1u << size) - 1u;
}
} // namespace detail

SYCLONE_END_NAMESPACE

#include <sycl/ext/oneapi/experimental/ballot_group.hpp>
#include <sycl/ext/oneapi/experimental/fixed_size_group.hpp>
#include <sycl/ext/oneapi/experimental/opportunistic_group.hpp>
#include <sycl/ext/oneapi/experimental/tangle_group.hpp>
