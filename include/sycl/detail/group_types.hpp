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

// A group of sycl_ext_oneapi_non_uniform_groups (ballot_group, fixed_size_group, tangle_group,
// opportunistic_group) as seen by one work-item: a subset of its sub-group, given by a mask of
// the sub-group's lanes (bit i for lane i; sub-groups have at most 32 work-items on every
// target). The members' local ids follow their lanes: the member with the k-th lowest lane has
// local id k.
struct nug_info {
  sg_info sg;                // the parent sub-group
  std::uint32_t mask;        // the members' lanes; always holds the calling work-item's
  std::uint32_t group_id;    // the group's index among the parent's groups of its kind
  std::uint32_t group_range; // how many groups of its kind the parent was split into
  bool contiguous;           // the members are consecutive lanes (fixed_size_group)
};

SYCLONE_INLINE std::uint32_t nug_size(const nug_info& g) {
  return static_cast<std::uint32_t>(__builtin_popcount(g.mask));
}
// The calling work-item's local id: the members on lanes below its own.
SYCLONE_INLINE std::uint32_t nug_local_id(const nug_info& g) {
  return static_cast<std::uint32_t>(__builtin_popcount(g.mask & ((1u << g.sg.lane) - 1u)));
}
// The lane of the member with local id k (k < nug_size): a binary search on the number of
// members below a lane, five popcounts whatever k is. Contiguous groups count from their first.
SYCLONE_INLINE std::uint32_t nug_lane_of(const nug_info& g, std::uint32_t k) {
  if (g.contiguous || k == 0) return static_cast<std::uint32_t>(__builtin_ctz(g.mask)) + k;
  std::uint32_t lane = 0;
  for (std::uint32_t step = 16; step > 0; step /= 2)
    if (static_cast<std::uint32_t>(__builtin_popcount(g.mask & ((1u << (lane + step)) - 1u))) <= k)
      lane += step;
  return lane;
}

// Whether G is one of the non-uniform group classes (each specializes this; the group functions
// of group_algorithm.hpp take them through nug_info).
template <typename G>
struct is_non_uniform_group : std::false_type {};
template <typename G>
inline constexpr bool is_non_uniform_group_v = is_non_uniform_group<std::remove_cv_t<G>>::value;

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
