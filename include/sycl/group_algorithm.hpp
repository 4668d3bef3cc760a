// SYCL 2020 4.17.3. Group functions and 4.17.4. Group algorithms library, for work-groups
// (group<D>) and sub-groups (sub_group). The per-target primitives live in
// detail/device/{host,nvptx}_group.hpp; this header builds the public functions from them.
#pragma once

#include <sycl/detail/device/target.hpp>
#include <sycl/detail/group_types.hpp>
#include <sycl/functional.hpp>
#include <sycl/known_identity.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/sub_group.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

// The oneAPI extension these functions came from (now SYCL 2020 core), for code that tests it.
#define SYCL_EXT_ONEAPI_GROUP_ALGORITHMS 1

SYCLONE_BEGIN_NAMESPACE

template <>
struct is_group<sub_group> : std::true_type {};

// SYCL 2020 4.17.3.1. group_barrier for sub-groups: only the sub-group's work-items wait.
inline void group_barrier(sub_group g, memory_scope = sub_group::fence_scope) {
  detail::dev::sub_group_barrier(g.info());
}

// sycl_ext_oneapi_non_uniform_groups: only the group's members wait for each other.
template <typename Group>
std::enable_if_t<detail::is_non_uniform_group_v<Group>>
group_barrier(Group g, memory_scope = Group::fence_scope) {
  detail::dev::nug_barrier(g.info());
}

namespace detail {
template <typename G>
inline constexpr bool is_sycl_group_v = is_group_v<std::decay_t<G>>;
template <typename G>
inline constexpr bool is_sub_group_v = std::is_same_v<std::decay_t<G>, sub_group>;
// The groups of sycl_ext_oneapi_non_uniform_groups (ext/oneapi/experimental/*_group.hpp), which
// the group functions reach through their nug_info.
template <typename G>
inline constexpr bool is_nug_v = is_non_uniform_group_v<std::decay_t<G>>;
// Groups whose work-items shuffle values among themselves (SYCL 2020 4.17.3.3-5: sub-groups;
// the extension adds its groups).
template <typename G>
inline constexpr bool is_shuffle_group_v = is_sub_group_v<G> || is_nug_v<G>;

template <int D>
SYCLONE_INLINE wg_info wg_of(const group<D>& g) {
  return {static_cast<std::uint32_t>(g.get_local_linear_id()),
          static_cast<std::uint32_t>(g.get_local_linear_range())};
}

// One entry point per operation for both kinds of group.
template <typename T>
SYCLONE_INLINE T broadcast(const sub_group& g, T x, std::uint32_t src) {
  return dev::sub_group_shuffle(g.info(), x, src);
}
template <int D, typename T>
SYCLONE_INLINE T broadcast(const group<D>& g, T x, std::uint32_t src) {
  return dev::work_group_broadcast(wg_of(g), x, src);
}
template <typename T, typename Op>
SYCLONE_INLINE T reduce(const sub_group& g, T x, Op op) {
  return dev::sub_group_reduce(g.info(), x, op);
}
template <int D, typename T, typename Op>
SYCLONE_INLINE T reduce(const group<D>& g, T x, Op op) {
  return dev::work_group_reduce(wg_of(g), x, op);
}
template <bool Exclusive, typename T, typename Op>
SYCLONE_INLINE opt<T> scan(const sub_group& g, T x, Op op) {
  return dev::sub_group_scan<Exclusive>(g.info(), x, op);
}
template <bool Exclusive, int D, typename T, typename Op>
SYCLONE_INLINE opt<T> scan(const group<D>& g, T x, Op op) {
  return dev::work_group_scan<Exclusive>(wg_of(g), x, op);
}
SYCLONE_INLINE bool any(const sub_group& g, bool p) {
  return dev::sub_group_any(g.info(), p);
}
template <int D>
SYCLONE_INLINE bool any(const group<D>& g, bool p) {
  return dev::work_group_any(wg_of(g), p);
}
SYCLONE_INLINE bool all(const sub_group& g, bool p) {
  return dev::sub_group_all(g.info(), p);
}
template <int D>
SYCLONE_INLINE bool all(const group<D>& g, bool p) {
  return dev::work_group_all(wg_of(g), p);
}

template <typename G, typename T, std::enable_if_t<is_nug_v<G>, int> = 0>
SYCLONE_INLINE T broadcast(const G& g, T x, std::uint32_t src) {
  return dev::nug_shuffle(g.info(), x, src);
}
template <typename G, typename T, typename Op, std::enable_if_t<is_nug_v<G>, int> = 0>
SYCLONE_INLINE T reduce(const G& g, T x, Op op) {
  return dev::nug_reduce(g.info(), x, op);
}
template <bool Exclusive, typename G, typename T, typename Op,
          std::enable_if_t<is_nug_v<G>, int> = 0>
SYCLONE_INLINE opt<T> scan(const G& g, T x, Op op) {
  return dev::nug_scan<Exclusive>(g.info(), x, op);
}
template <typename G, std::enable_if_t<is_nug_v<G>, int> = 0>
SYCLONE_INLINE bool any(const G& g, bool p) {
  return dev::nug_any(g.info(), p);
}
template <typename G, std::enable_if_t<is_nug_v<G>, int> = 0>
SYCLONE_INLINE bool all(const G& g, bool p) {
  return dev::nug_all(g.info(), p);
}

// Shuffles: the local ids of sub-groups are lanes; those of the extension's groups are the
// members' ranks.
template <typename T>
SYCLONE_INLINE T shift_left(const sub_group& g, T x, std::uint32_t delta) {
  return dev::sub_group_shuffle_down(g.info(), x, delta);
}
template <typename T>
SYCLONE_INLINE T shift_right(const sub_group& g, T x, std::uint32_t delta) {
  return dev::sub_group_shuffle_up(g.info(), x, delta);
}
template <typename T>
SYCLONE_INLINE T permute_xor(const sub_group& g, T x, std::uint32_t mask) {
  return dev::sub_group_shuffle_xor(g.info(), x, mask);
}
template <typename T>
SYCLONE_INLINE T select(const sub_group& g, T x, std::uint32_t src) {
  return dev::sub_group_shuffle(g.info(), x, src);
}
template <typename G, typename T, std::enable_if_t<is_nug_v<G>, int> = 0>
SYCLONE_INLINE T shift_left(const G& g, T x, std::uint32_t delta) {
  return dev::nug_shuffle_down(g.info(), x, delta);
}
template <typename G, typename T, std::enable_if_t<is_nug_v<G>, int> = 0>
SYCLONE_INLINE T shift_right(const G& g, T x, std::uint32_t delta) {
  return dev::nug_shuffle_up(g.info(), x, delta);
}
template <typename G, typename T, std::enable_if_t<is_nug_v<G>, int> = 0>
SYCLONE_INLINE T permute_xor(const G& g, T x, std::uint32_t mask) {
  return dev::nug_shuffle_xor(g.info(), x, mask);
}
template <typename G, typename T, std::enable_if_t<is_nug_v<G>, int> = 0>
SYCLONE_INLINE T select(const G& g, T x, std::uint32_t src) {
  return dev::nug_shuffle(g.info(), x, src);
}

template <typename Group>
SYCLONE_INLINE std::size_t linear_local(const Group& g) {
  return g.get_local_linear_id();
}
template <typename Group>
SYCLONE_INLINE std::size_t linear_range(const Group& g) {
  return g.get_local_linear_range();
}

template <typename Ptr>
using pointee_t = std::remove_cv_t<typename std::iterator_traits<Ptr>::value_type>;

template <typename Ptr>
inline constexpr bool is_joint_pointer_v = std::is_pointer_v<Ptr>;

// The work-items of `g` take the elements of [first, last) in turns (element i goes to local
// linear id i % group size) and combine their shares.
template <typename T, typename Group, typename Ptr, typename Op>
SYCLONE_INLINE opt<T> joint_partial(const Group& g, Ptr first, Ptr last, Op op) {
  std::size_t n = static_cast<std::size_t>(last - first);
  std::size_t step = linear_range(g);
  opt<T> acc{T{}, false};
  opt_op<Op> combine{op};
  for (std::size_t i = linear_local(g); i < n; i += step)
    acc = combine(acc, opt<T>{static_cast<T>(first[i]), true});
  return acc;
}

template <bool Exclusive, typename Group, typename InPtr, typename OutPtr, typename T, typename Op>
OutPtr joint_scan(const Group& g, InPtr first, InPtr last, OutPtr result, opt<T> carry, Op op) {
  std::size_t n = static_cast<std::size_t>(last - first);
  std::size_t size = linear_range(g), lid = linear_local(g);
  opt_op<Op> combine{op};
  for (std::size_t base = 0; base < n; base += size) {
    std::size_t i = base + lid;
    opt<T> v = i < n ? opt<T>{static_cast<T>(first[i]), true} : opt<T>{T{}, false};
    opt<T> inclusive = scan<false>(g, v, combine).value;
    if constexpr (Exclusive) {
      opt<opt<T>> before = scan<true>(g, v, combine);
      opt<T> exclusive = before.has ? before.value : opt<T>{T{}, false};
      if (i < n) result[i] = combine(carry, exclusive).value;
    } else {
      if (i < n) result[i] = combine(carry, inclusive).value;
    }
    std::size_t last_in_chunk = (n - base < size ? n - base : size) - 1;
    opt<T> chunk = broadcast(g, inclusive, static_cast<std::uint32_t>(last_in_chunk));
    carry = combine(carry, chunk);
  }
  return result + n;
}
} // namespace detail

// SYCL 2020 4.17.3.2. group_broadcast: the value of the work-item with the given local id
// (default: the leader, local id 0).
template <typename Group, typename T>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_group_value_v<T>, T>
group_broadcast(Group g, T x) {
  return detail::broadcast(g, x, 0);
}
template <typename Group, typename T>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_group_value_v<T>, T>
group_broadcast(Group g, T x, typename Group::linear_id_type local_linear_id) {
  return detail::broadcast(g, x, static_cast<std::uint32_t>(local_linear_id));
}
template <typename Group, typename T>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_group_value_v<T>, T>
group_broadcast(Group g, T x, typename Group::id_type local_id) {
  return detail::broadcast(
      g, x, static_cast<std::uint32_t>(detail::linearize(local_id, g.get_local_range())));
}

// SYCL 2020 4.17.3.3-4.17.3.5. Sub-group shuffles (and, sycl_ext_oneapi_non_uniform_groups, the
// same over its groups' local ids).
template <typename Group, typename T>
std::enable_if_t<detail::is_shuffle_group_v<Group> && detail::is_group_value_v<T>, T>
shift_group_left(Group g, T x, typename Group::linear_id_type delta = 1) {
  return detail::shift_left(g, x, static_cast<std::uint32_t>(delta));
}
template <typename Group, typename T>
std::enable_if_t<detail::is_shuffle_group_v<Group> && detail::is_group_value_v<T>, T>
shift_group_right(Group g, T x, typename Group::linear_id_type delta = 1) {
  return detail::shift_right(g, x, static_cast<std::uint32_t>(delta));
}
template <typename Group, typename T>
std::enable_if_t<detail::is_shuffle_group_v<Group> && detail::is_group_value_v<T>, T>
permute_group_by_xor(Group g, T x, typename Group::linear_id_type mask) {
  return detail::permute_xor(g, x, static_cast<std::uint32_t>(mask));
}
template <typename Group, typename T>
std::enable_if_t<detail::is_shuffle_group_v<Group> && detail::is_group_value_v<T>, T>
select_from_group(Group g, T x, typename Group::id_type remote_local_id) {
  return detail::select(g, x, static_cast<std::uint32_t>(remote_local_id[0]));
}

// SYCL 2020 4.17.4.1. any_of, all_of, none_of.
template <typename Group>
std::enable_if_t<detail::is_sycl_group_v<Group>, bool> any_of_group(Group g, bool pred) {
  return detail::any(g, pred);
}
template <typename Group, typename T, typename Predicate>
std::enable_if_t<detail::is_sycl_group_v<Group>, bool> any_of_group(Group g, T x, Predicate pred) {
  return detail::any(g, static_cast<bool>(pred(x)));
}
template <typename Group>
std::enable_if_t<detail::is_sycl_group_v<Group>, bool> all_of_group(Group g, bool pred) {
  return detail::all(g, pred);
}
template <typename Group, typename T, typename Predicate>
std::enable_if_t<detail::is_sycl_group_v<Group>, bool> all_of_group(Group g, T x, Predicate pred) {
  return detail::all(g, static_cast<bool>(pred(x)));
}
template <typename Group>
std::enable_if_t<detail::is_sycl_group_v<Group>, bool> none_of_group(Group g, bool pred) {
  return !detail::any(g, pred);
}
template <typename Group, typename T, typename Predicate>
std::enable_if_t<detail::is_sycl_group_v<Group>, bool> none_of_group(Group g, T x, Predicate pred) {
  return !detail::any(g, static_cast<bool>(pred(x)));
}

template <typename Group, typename Ptr, typename Predicate>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_joint_pointer_v<Ptr>, bool>
joint_any_of(Group g, Ptr first, Ptr last, Predicate pred) {
  bool found = false;
  std::size_t n = static_cast<std::size_t>(last - first), step = detail::linear_range(g);
  for (std::size_t i = detail::linear_local(g); i < n && !found; i += step)
    found = static_cast<bool>(pred(first[i]));
  return detail::any(g, found);
}
template <typename Group, typename Ptr, typename Predicate>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_joint_pointer_v<Ptr>, bool>
joint_all_of(Group g, Ptr first, Ptr last, Predicate pred) {
  bool all = true;
  std::size_t n = static_cast<std::size_t>(last - first), step = detail::linear_range(g);
  for (std::size_t i = detail::linear_local(g); i < n && all; i += step)
    all = static_cast<bool>(pred(first[i]));
  return detail::all(g, all);
}
template <typename Group, typename Ptr, typename Predicate>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_joint_pointer_v<Ptr>, bool>
joint_none_of(Group g, Ptr first, Ptr last, Predicate pred) {
  return !joint_any_of(g, first, last, pred);
}

// SYCL 2020 4.17.4.3. reduce.
template <typename Group, typename T, typename BinaryOperation>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_group_value_v<T>, T>
reduce_over_group(Group g, T x, BinaryOperation binary_op) {
  return detail::reduce(g, x, binary_op);
}
template <typename Group, typename V, typename T, typename BinaryOperation>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_group_value_v<T>, T>
reduce_over_group(Group g, V x, T init, BinaryOperation binary_op) {
  return binary_op(init, detail::reduce(g, static_cast<T>(x), binary_op));
}
template <typename Group, typename Ptr, typename BinaryOperation>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_joint_pointer_v<Ptr>,
                 detail::pointee_t<Ptr>>
joint_reduce(Group g, Ptr first, Ptr last, BinaryOperation binary_op) {
  using T = detail::pointee_t<Ptr>;
  detail::opt_op<BinaryOperation> combine{binary_op};
  return detail::reduce(g, detail::joint_partial<T>(g, first, last, binary_op), combine).value;
}
template <typename Group, typename Ptr, typename T, typename BinaryOperation>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_joint_pointer_v<Ptr>, T>
joint_reduce(Group g, Ptr first, Ptr last, T init, BinaryOperation binary_op) {
  detail::opt_op<BinaryOperation> combine{binary_op};
  detail::opt<T> all =
      detail::reduce(g, detail::joint_partial<T>(g, first, last, binary_op), combine);
  return combine(detail::opt<T>{init, true}, all).value;
}

// SYCL 2020 4.17.4.4. exclusive_scan. Without an init value the first work-item gets the
// operation's identity (SYCL 2020 4.17.2 known_identity).
template <typename Group, typename T, typename BinaryOperation>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_group_value_v<T>, T>
exclusive_scan_over_group(Group g, T x, BinaryOperation binary_op) {
  static_assert(has_known_identity_v<BinaryOperation, T>,
                "exclusive_scan_over_group without an init value needs an operation with a "
                "known identity (sycl::plus, multiplies, minimum, maximum, bit_*, logical_*)");
  detail::opt<T> r = detail::scan<true>(g, x, binary_op);
  return r.has ? r.value : known_identity_v<BinaryOperation, T>;
}
template <typename Group, typename V, typename T, typename BinaryOperation>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_group_value_v<T>, T>
exclusive_scan_over_group(Group g, V x, T init, BinaryOperation binary_op) {
  detail::opt<T> r = detail::scan<true>(g, static_cast<T>(x), binary_op);
  return r.has ? static_cast<T>(binary_op(init, r.value)) : init;
}
template <typename Group, typename InPtr, typename OutPtr, typename BinaryOperation>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_joint_pointer_v<InPtr> &&
                     detail::is_joint_pointer_v<OutPtr>,
                 OutPtr>
joint_exclusive_scan(Group g, InPtr first, InPtr last, OutPtr result, BinaryOperation binary_op) {
  using T = detail::pointee_t<OutPtr>;
  static_assert(has_known_identity_v<BinaryOperation, T>,
                "joint_exclusive_scan without an init value needs an operation with a known "
                "identity (sycl::plus, multiplies, minimum, maximum, bit_*, logical_*)");
  return detail::joint_scan<true>(g, first, last, result,
                                  detail::opt<T>{known_identity_v<BinaryOperation, T>, true},
                                  binary_op);
}
template <typename Group, typename InPtr, typename OutPtr, typename T, typename BinaryOperation>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_joint_pointer_v<InPtr> &&
                     detail::is_joint_pointer_v<OutPtr>,
                 OutPtr>
joint_exclusive_scan(Group g, InPtr first, InPtr last, OutPtr result, T init,
                     BinaryOperation binary_op) {
  return detail::joint_scan<true>(g, first, last, result, detail::opt<T>{init, true}, binary_op);
}

// SYCL 2020 4.17.4.5. inclusive_scan.
template <typename Group, typename T, typename BinaryOperation>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_group_value_v<T>, T>
inclusive_scan_over_group(Group g, T x, BinaryOperation binary_op) {
  return detail::scan<false>(g, x, binary_op).value;
}
template <typename Group, typename V, typename BinaryOperation, typename T>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_group_value_v<T>, T>
inclusive_scan_over_group(Group g, V x, BinaryOperation binary_op, T init) {
  return binary_op(init, detail::scan<false>(g, static_cast<T>(x), binary_op).value);
}
template <typename Group, typename InPtr, typename OutPtr, typename BinaryOperation>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_joint_pointer_v<InPtr> &&
                     detail::is_joint_pointer_v<OutPtr>,
                 OutPtr>
joint_inclusive_scan(Group g, InPtr first, InPtr last, OutPtr result, BinaryOperation binary_op) {
  using T = detail::pointee_t<OutPtr>;
  return detail::joint_scan<false>(g, first, last, result, detail::opt<T>{T{}, false}, binary_op);
}
template <typename Group, typename InPtr, typename OutPtr, typename BinaryOperation, typename T>
std::enable_if_t<detail::is_sycl_group_v<Group> && detail::is_joint_pointer_v<InPtr> &&
                     detail::is_joint_pointer_v<OutPtr>,
                 OutPtr>
joint_inclusive_scan(Group g, InPtr first, InPtr last, OutPtr result, BinaryOperation binary_op,
                     T init) {
  return detail::joint_scan<false>(g, first, last, result, detail::opt<T>{init, true}, binary_op);
}

SYCLONE_END_NAMESPACE
