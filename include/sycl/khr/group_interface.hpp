// sycl_khr_group_interface: khr::work_group, khr::sub_group and khr::member_item, a shorter
// interface to the groups of an nd_range kernel (id(), linear_id(), range(), size(), and with
// C++23's <mdspan> the group's extents), with get_member_item and leader_of.
//
// The objects hold the sycl::group / sycl::sub_group they were made from and answer from it, so
// every target (the host's work-item loops and fibers, NVIDIA GPUs, SPIR-V) sees the same values
// the SYCL 2020 classes give. They are not groups for the group functions and algorithms
// (sycl::is_group_v stays false: SYCL 2020 4.17.2 admits only types with the members common to
// group and sub_group); their conversions give the sycl::group / sycl::sub_group those take.
#pragma once

#include <sycl/access.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/id.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/range.hpp>
#include <sycl/sub_group.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#if __cplusplus >= 202302L && __has_include(<mdspan>)
#include <mdspan>
#endif

#define SYCL_KHR_GROUP_INTERFACE 1

SYCLONE_BEGIN_NAMESPACE
namespace khr {
template <int Dimensions>
class work_group;
class sub_group;
template <typename ParentGroup>
class member_item;
} // namespace khr

namespace detail {
// The parents a member_item may have (sycl_khr_group_interface "get_member_item": Constraints).
template <typename T>
inline constexpr bool is_khr_parent_group_v = false;
template <int D>
inline constexpr bool is_khr_parent_group_v<khr::work_group<D>> = true;
template <>
inline constexpr bool is_khr_parent_group_v<khr::sub_group> = true;

// What leader_of takes: the parents and their member items.
template <typename T>
inline constexpr bool is_khr_member_item_v = false;
template <typename P>
inline constexpr bool is_khr_member_item_v<khr::member_item<P>> = true;

struct khr_group_access {
  template <typename ParentGroup>
  static khr::member_item<ParentGroup> make_member_item(const ParentGroup& g) noexcept {
    return khr::member_item<ParentGroup>(g);
  }
};

#if defined(__cpp_lib_mdspan)
// std::extents of `D` static extents of 1 (a member_item's extents_type).
template <typename Index, typename Seq>
struct unit_extents;
template <typename Index, std::size_t... I>
struct unit_extents<Index, std::index_sequence<I...>> {
  using type = std::extents<Index, (static_cast<void>(I), std::size_t{1})...>;
};
#endif
} // namespace detail

namespace khr {

// sycl_khr_group_interface "work_group class": the work-group of the calling work-item.
template <int Dimensions = 1>
class work_group {
  static_assert(1 <= Dimensions && Dimensions <= 3, "khr::work_group has 1, 2 or 3 dimensions");

public:
  using id_type = sycl::id<Dimensions>;
  using linear_id_type = std::size_t;
  using range_type = sycl::range<Dimensions>;
#if defined(__cpp_lib_mdspan)
  using extents_type = std::dextents<std::size_t, Dimensions>;
#endif
  using size_type = std::size_t;
  static constexpr int dimensions = Dimensions;
  static constexpr memory_scope fence_scope = memory_scope::work_group;

  work_group(const group<Dimensions>& g) noexcept : m_group(g) {}

  operator group<Dimensions>() const noexcept { return m_group; }

  // The work-group's position among the nd-range's work-groups.
  id_type id() const noexcept { return m_group.get_group_id(); }
  linear_id_type linear_id() const noexcept { return m_group.get_group_linear_id(); }
  range_type range() const noexcept { return m_group.get_group_range(); }

#if defined(__cpp_lib_mdspan)
  // The work-items of the work-group in each dimension.
  extents_type extents() const noexcept {
    return make_extents(std::make_index_sequence<Dimensions>{});
  }
  typename extents_type::index_type extent(typename extents_type::rank_type r) const noexcept {
    return m_group.get_local_range(static_cast<int>(r));
  }
  static constexpr typename extents_type::rank_type rank() noexcept { return extents_type::rank(); }
  static constexpr typename extents_type::rank_type rank_dynamic() noexcept {
    return extents_type::rank_dynamic();
  }
  static constexpr std::size_t static_extent(typename extents_type::rank_type r) noexcept {
    return extents_type::static_extent(r);
  }
#endif

  size_type size() const noexcept { return m_group.get_local_linear_range(); }

  // SYCL 2020 4.5.3 common by-value semantics: equal when they are the same work-group.
  friend bool operator==(const work_group& a, const work_group& b) noexcept {
    return a.m_group == b.m_group;
  }
  friend bool operator!=(const work_group& a, const work_group& b) noexcept { return !(a == b); }

private:
  template <typename>
  friend class member_item;

#if defined(__cpp_lib_mdspan)
  template <std::size_t... I>
  extents_type make_extents(std::index_sequence<I...>) const noexcept {
    return extents_type(m_group.get_local_range(static_cast<int>(I))...);
  }
#endif

  group<Dimensions> m_group;
};

// sycl_khr_group_interface "sub_group class": the sub-group of the calling work-item.
class sub_group {
public:
  using id_type = sycl::id<1>;
  using linear_id_type = std::uint32_t;
  using range_type = sycl::range<1>;
#if defined(__cpp_lib_mdspan)
  using extents_type = std::dextents<std::uint32_t, 1>;
#endif
  using size_type = std::uint32_t;
  static constexpr int dimensions = 1;
  static constexpr memory_scope fence_scope = memory_scope::sub_group;

  sub_group(const sycl::sub_group& sg) noexcept : m_sub_group(sg) {}

  operator sycl::sub_group() const noexcept { return m_sub_group; }

  // The sub-group's position among the sub-groups of its work-group.
  id_type id() const noexcept { return m_sub_group.get_group_id(); }
  linear_id_type linear_id() const noexcept { return m_sub_group.get_group_linear_id(); }
  range_type range() const noexcept { return m_sub_group.get_group_range(); }

#if defined(__cpp_lib_mdspan)
  extents_type extents() const noexcept { return extents_type(size()); }
  typename extents_type::index_type extent(typename extents_type::rank_type) const noexcept {
    return size();
  }
  static constexpr typename extents_type::rank_type rank() noexcept { return extents_type::rank(); }
  static constexpr typename extents_type::rank_type rank_dynamic() noexcept {
    return extents_type::rank_dynamic();
  }
  static constexpr std::size_t static_extent(typename extents_type::rank_type r) noexcept {
    return extents_type::static_extent(r);
  }
#endif

  // The work-items of this sub-group (the last one of a work-group may be partial) and the
  // kernel's sub-group size.
  size_type size() const noexcept { return m_sub_group.get_local_linear_range(); }
  size_type max_size() const noexcept {
    return static_cast<size_type>(m_sub_group.get_max_local_range()[0]);
  }

  friend bool operator==(const sub_group& a, const sub_group& b) noexcept {
    return a.m_sub_group == b.m_sub_group;
  }
  friend bool operator!=(const sub_group& a, const sub_group& b) noexcept { return !(a == b); }

private:
  template <typename>
  friend class member_item;

  sycl::sub_group m_sub_group;
};

// sycl_khr_group_interface "member_item class": the calling work-item as a member of its
// work-group or sub-group; only get_member_item makes one.
template <typename ParentGroup>
class member_item {
  static_assert(detail::is_khr_parent_group_v<ParentGroup>,
                "khr::member_item: ParentGroup is khr::work_group<D> or khr::sub_group");

public:
  using id_type = typename ParentGroup::id_type;
  using linear_id_type = typename ParentGroup::linear_id_type;
  using range_type = typename ParentGroup::range_type;
#if defined(__cpp_lib_mdspan)
  using extents_type =
      typename detail::unit_extents<typename ParentGroup::extents_type::index_type,
                                    std::make_index_sequence<ParentGroup::dimensions>>::type;
#endif
  using size_type = typename ParentGroup::size_type;
  static constexpr int dimensions = ParentGroup::dimensions;
  static constexpr memory_scope fence_scope = memory_scope::work_item;

  // The work-item's position in its parent group, whose work-items range() spans.
  id_type id() const noexcept { return legacy().get_local_id(); }
  linear_id_type linear_id() const noexcept { return legacy().get_local_linear_id(); }
  range_type range() const noexcept { return legacy().get_local_range(); }

#if defined(__cpp_lib_mdspan)
  constexpr extents_type extents() const noexcept { return extents_type(); }
  constexpr typename extents_type::index_type
  extent(typename extents_type::rank_type) const noexcept {
    return 1;
  }
  static constexpr typename extents_type::rank_type rank() noexcept { return extents_type::rank(); }
  static constexpr typename extents_type::rank_type rank_dynamic() noexcept {
    return extents_type::rank_dynamic();
  }
  static constexpr std::size_t static_extent(typename extents_type::rank_type r) noexcept {
    return extents_type::static_extent(r);
  }
#endif

  constexpr size_type size() const noexcept { return 1; }

  // Equal when they are the same work-item of the same parent group.
  friend bool operator==(const member_item& a, const member_item& b) noexcept {
    return a.m_parent == b.m_parent && a.linear_id() == b.linear_id();
  }
  friend bool operator!=(const member_item& a, const member_item& b) noexcept { return !(a == b); }

private:
  friend struct detail::khr_group_access;
  explicit member_item(const ParentGroup& parent) noexcept : m_parent(parent) {}

  // The SYCL 2020 object of the parent (its local ids are the calling work-item's).
  const auto& legacy() const noexcept {
    if constexpr (std::is_same_v<ParentGroup, sub_group>)
      return m_parent.m_sub_group;
    else
      return m_parent.m_group;
  }

  ParentGroup m_parent;
};

// sycl_khr_group_interface "get_member_item": the calling work-item within `g`.
template <typename Group>
std::enable_if_t<detail::is_khr_parent_group_v<Group>, member_item<Group>>
get_member_item(const Group& g) noexcept {
  return detail::khr_group_access::make_member_item(g);
}

// sycl_khr_group_interface "leader_of": the work-item with index 0 of the group; a member_item
// is a group of one work-item, which leads it.
template <typename Group>
std::enable_if_t<detail::is_khr_parent_group_v<Group> || detail::is_khr_member_item_v<Group>, bool>
leader_of(const Group& g) noexcept {
  if constexpr (detail::is_khr_member_item_v<Group>) {
    static_cast<void>(g);
    return true;
  } else {
    return get_member_item(g).linear_id() == 0;
  }
}

} // namespace khr
SYCLONE_END_NAMESPACE
