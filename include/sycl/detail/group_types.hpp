// What the per-target group primitives (include/sycl/detail/device/*.hpp) work on: a work-item's
// position in its sub-group and work-group, and an optional value for scans and joint
// algorithms, whose first work-items may have nothing to combine yet.
// SYCL 2020 4.9.1.8 (sub_group), 4.17.3 (group functions), 4.17.4 (group algorithms).
#pragma once

#include <sycl/detail/config.hpp>

#include <cstdint>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

// A sub-group as seen by one work-item. The work-group's work-items, linearized with the last
// dimension fastest, are cut into sub-groups of max_size consecutive work-items (seed 004
// "Sub-group Queries": ids in a sub-group follow the work-group's linear ids); the last one is
// partial (size < max_size) when max_size does not divide the work-group size.
struct sg_info {
  std::uint32_t id;       // sub-group index in the work-group
  std::uint32_t lane;     // work-item index in the sub-group
  std::uint32_t size;     // work-items in this sub-group
  std::uint32_t max_size; // the kernel's sub-group size
  std::uint32_t count;    // sub-groups in the work-group
};

SYCLONE_INLINE sg_info make_sg_info(std::uint32_t local_linear_id, std::uint32_t group_size,
                                    std::uint32_t max_size) {
  // Sub-group sizes are powers of two (seed 004 sub_group_sizes): a shift, not a division,
  // which on the host would run once per work-item.
  std::uint32_t shift = static_cast<std::uint32_t>(__builtin_ctz(max_size));
  std::uint32_t id = local_linear_id >> shift;
  std::uint32_t first = id << shift;
  std::uint32_t rest = group_size - first;
  return {id, local_linear_id - first, rest < max_size ? rest : max_size, max_size,
          (group_size + max_size - 1) >> shift};
}

// A work-group as seen by one work-item: its linear id and the number of work-items.
struct wg_info {
  std::uint32_t id;
  std::uint32_t size;
};

// A value that may be absent: an exclusive scan has nothing for the first work-item, a joint
// algorithm's work-item may get no element of a short range.
template <typename T>
struct opt {
  T value;
  bool has;
};

// Combines optional values with `op`; absent values are skipped.
template <typename Op>
struct opt_op {
  Op op;
  template <typename T>
  SYCLONE_INLINE opt<T> operator()(const opt<T>& a, const opt<T>& b) const {
    if (a.has && b.has) return {static_cast<T>(op(a.value, b.value)), true};
    return a.has ? a : b;
  }
};

// Values that group functions move between work-items: copied as bytes (SYCL 2020 4.17.3:
// "T must be a trivially copyable type").
template <typename T>
inline constexpr bool is_group_value_v = std::is_trivially_copyable_v<T>;

} // namespace detail
SYCLONE_END_NAMESPACE
