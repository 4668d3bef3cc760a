// SYCL 2020 4.9.1.8. sub_group class, with the members of seed 004 (SYCL_INTEL_sub_group):
// barrier() and the shuffles shuffle, shuffle_down, shuffle_up, shuffle_xor, and the seed's
// spellings get_linear_local_id / get_linear_group_id.
//
// A work-group's work-items, linearized with the last dimension fastest, form sub-groups of
// get_max_local_range() consecutive work-items; the last sub-group is smaller when that size
// does not divide the work-group size (seed 004 "Sub-group Queries").
#pragma once

#include <sycl/access.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/detail/group_types.hpp>
#include <sycl/id.hpp>
#include <sycl/range.hpp>

#include <cstdint>
#include <type_traits>

// seed 004 "Feature test macro".
#define SYCL_EXT_ONEAPI_SUB_GROUP 1

SYCLONE_BEGIN_NAMESPACE

template <int Dimensions>
class nd_item;

class sub_group {
public:
  using id_type = id<1>;
  using range_type = range<1>;
  using linear_id_type = std::uint32_t;
  static constexpr int dimensions = 1;
  static constexpr memory_scope fence_scope = memory_scope::sub_group;

  sub_group() = delete;

  // SYCL 2020 4.9.1.8.1 / seed 004 "Core Member Functions".
  id_type get_group_id() const { return id_type(m_info.id); }
  id_type get_local_id() const { return id_type(m_info.lane); }
  range_type get_local_range() const { return range_type(m_info.size); }
  range_type get_group_range() const { return range_type(m_info.count); }
  range_type get_max_local_range() const { return range_type(m_info.max_size); }
  // Every work-group of an nd-range has the same size, so the same number of sub-groups.
  range_type get_max_group_range() const { return range_type(m_info.count); }
  linear_id_type get_group_linear_id() const { return m_info.id; }
  linear_id_type get_local_linear_id() const { return m_info.lane; }
  linear_id_type get_group_linear_range() const { return m_info.count; }
  linear_id_type get_local_linear_range() const { return m_info.size; }
  linear_id_type get_linear_group_id() const { return m_info.id; }
  linear_id_type get_linear_local_id() const { return m_info.lane; }
  bool leader() const { return m_info.lane == 0; }

  // seed 004 "Synchronization Functions": a barrier of this sub-group's work-items only, with a
  // fence over all address spaces.
  void barrier() const { detail::dev::sub_group_barrier(m_info); }
  [[deprecated("use sycl::group_barrier(sub_group)")]] void barrier(access::fence_space) const {
    detail::dev::sub_group_barrier(m_info);
  }

  // seed 004 "Shuffles". Values of any trivially copyable type (scalars, vec, marray, structs).
  // A source outside the sub-group gives an undefined value, as the seed says.
  template <typename T>
  T shuffle(T x, id<1> local_id) const {
    static_assert(detail::is_group_value_v<T>, "sub_group::shuffle: T must be trivially copyable");
    return detail::dev::sub_group_shuffle(m_info, x, static_cast<std::uint32_t>(local_id[0]));
  }
  template <typename T>
  T shuffle_down(T x, std::uint32_t delta) const {
    static_assert(detail::is_group_value_v<T>,
                  "sub_group::shuffle_down: T must be trivially copyable");
    return detail::dev::sub_group_shuffle_down(m_info, x, delta);
  }
  template <typename T>
  T shuffle_up(T x, std::uint32_t delta) const {
    static_assert(detail::is_group_value_v<T>,
                  "sub_group::shuffle_up: T must be trivially copyable");
    return detail::dev::sub_group_shuffle_up(m_info, x, delta);
  }
  template <typename T>
  T shuffle_xor(T x, id<1> mask) const {
    static_assert(detail::is_group_value_v<T>,
                  "sub_group::shuffle_xor: T must be trivially copyable");
    return detail::dev::sub_group_shuffle_xor(m_info, x, static_cast<std::uint32_t>(mask[0]));
  }

  friend bool operator==(const sub_group& a, const sub_group& b) {
    return a.m_info.id == b.m_info.id && a.m_info.max_size == b.m_info.max_size &&
           a.m_info.count == b.m_info.count;
  }
  friend bool operator!=(const sub_group& a, const sub_group& b) { return !(a == b); }

  // Not part of the SYCL API: the position the group functions work with.
  const detail::sg_info& info() const { return m_info; }

private:
  template <int>
  friend class nd_item;
  explicit sub_group(const detail::sg_info& info) : m_info(info) {}

  detail::sg_info m_info;
};

namespace ext::oneapi {
// The name under which DPC++ first shipped the class (seed 004's sample header).
using sub_group = sycl::sub_group;
} // namespace ext::oneapi

SYCLONE_END_NAMESPACE
