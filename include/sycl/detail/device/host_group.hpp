// Sub-group and work-group primitives on the host CPU device (DESIGN.md "Target mapping":
// several sub-group sizes, shuffles across fibers). Work-items are fibers of one thread
// (src/backends/host/work_group.cpp): a value moves between them through scratch memory of the
// work-group and a barrier that suspends only the work-items that must wait. A sub-group
// operation is one exchange (write own slot, sub-group barrier, read any slot); a work-group
// operation writes, waits, lets the first work-item combine, and waits again.
// Included by host.hpp only.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/host_loops.hpp>
#include <sycl/detail/group_types.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
namespace detail::host {
// The most bytes one work-item hands to one exchange; larger values are not supported by the
// host device's group functions (static_assert below).
inline constexpr std::size_t exchange_bytes = 256;

} // namespace detail::host

namespace detail::dev {

SYCLONE_INLINE std::uint32_t sub_group_max_size() noexcept {
  return __syclone_host_sub_group_size();
}

// The calling work-item's sub-group: consecutive linear local ids (seed 004). Its index and
// lane come from builtins the work-item loop compiler answers from its loops (where a sub-group
// is one vector, the lane is the vector's element), so that slot addresses stay affine.
SYCLONE_INLINE sg_info this_sub_group(std::uint32_t local_linear_id, std::uint32_t group_size) {
  std::uint32_t max_size = sub_group_max_size();
  std::uint32_t shift = static_cast<std::uint32_t>(__builtin_ctz(max_size));
  std::uint32_t id = __syclone_host_sub_group_index(local_linear_id);
  std::uint32_t rest = group_size - (id << shift);
  // Where a sub-group is one vector, the loops only run work-groups of full sub-groups. (Both
  // sizes computed, then chosen: no branch, so the loop compiler computes the size again after
  // a barrier instead of keeping it per work-item.)
  std::uint32_t vector = __syclone_host_vector_lanes();
  std::uint32_t last = rest < max_size ? rest : max_size;
  std::uint32_t size = vector ? vector : last;
  return {id, __syclone_host_sub_group_lane(local_linear_id), size, max_size,
          (group_size + max_size - 1) >> shift};
}

// Whether every bit pattern is a value of T: such values may be read from slots outside the
// sub-group (padding, other sub-groups) and then not used, without a test before the read (the
// loops make such reads vector loads). A bool or an enum read from arbitrary bytes is undefined
// behaviour (UBSan reports it), so those read only their own sub-group's slots.
template <typename T>
inline constexpr bool any_bits_valid =
    (std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_floating_point_v<T>;

template <typename T>
inline void host_check_size() {
  static_assert(sizeof(T) <= host::exchange_bytes,
                "group functions on the host device move values of at most 256 bytes; split "
                "larger values into several calls");
}

template <typename T>
SYCLONE_INLINE T load_slot(const std::byte* base, std::uint32_t index) {
  T r;
  std::memcpy(static_cast<void*>(&r), base + std::size_t(index) * sizeof(T), sizeof(T));
  return r;
}

// Every call exchanges, also in sub-groups of one work-item (where the scheduler answers at
// once): a shortcut on the sub-group size would be a branch before each call, which the
// optimizer merges across calls into paths the work-item loop compiler cannot tell apart from
// divergent ones (tools/syclone-host-loops).
inline void sub_group_barrier(const sg_info& sg) {
  __syclone_host_sub_group_barrier(sg.id);
}

// The value of lane `src` (every lane calls it; an out-of-range src returns x).
template <typename T>
inline T sub_group_shuffle(const sg_info& sg, T x, std::uint32_t src) {
  host_check_size<T>();
  const std::byte* base = __syclone_host_sub_group_exchange(sg.id, sg.lane, &x, sizeof(T));
  return src < sg.size ? load_slot<T>(base, src) : x;
}
// Shifts read the slot `delta` lanes away unconditionally and keep x where that lane is outside
// the sub-group: a read at an offset the same for all lanes, which the loops make one vector
// load. The exchange area has max_size slots of padding on each side (work_group.cpp), and the
// offset is clamped to max_size. (Not for types with invalid bit patterns: any_bits_valid.)
template <typename T>
inline T sub_group_shuffle_down(const sg_info& sg, T x, std::uint32_t delta) {
  host_check_size<T>();
  const std::byte* base = __syclone_host_sub_group_exchange(sg.id, sg.lane, &x, sizeof(T));
  std::uint32_t d = delta < sg.max_size ? delta : sg.max_size;
  bool inside = sg.lane + d < sg.size;
  if constexpr (!any_bits_valid<T>)
    if (!inside) return x;
  T other = load_slot<T>(base + std::size_t(d) * sizeof(T), sg.lane);
  return inside ? other : x;
}
template <typename T>
inline T sub_group_shuffle_up(const sg_info& sg, T x, std::uint32_t delta) {
  host_check_size<T>();
  const std::byte* base = __syclone_host_sub_group_exchange(sg.id, sg.lane, &x, sizeof(T));
  std::uint32_t d = delta < sg.max_size ? delta : sg.max_size;
  bool inside = d <= sg.lane;
  if constexpr (!any_bits_valid<T>)
    if (!inside) return x;
  T other = load_slot<T>(base - std::size_t(d) * sizeof(T), sg.lane);
  return inside ? other : x;
}
// A power-of-two mask m pairs lane l with l + m or l - m: two reads at uniform offsets and a
// choice per lane (two vector loads and a blend in the loops) instead of a read at l ^ m.
// (One exchange on every path: branches around exchanges look divergent to the loop compiler.)
template <typename T>
inline T sub_group_shuffle_xor(const sg_info& sg, T x, std::uint32_t mask) {
  host_check_size<T>();
  const std::byte* base = __syclone_host_sub_group_exchange(sg.id, sg.lane, &x, sizeof(T));
  std::uint32_t src = sg.lane ^ mask;
  if (any_bits_valid<T> && mask < sg.max_size && (mask & (mask - 1)) == 0) {
    // Both reads for every lane (the padding holds the slots outside the sub-group), then the
    // choice: no read depends on a lane's own test.
    T up = load_slot<T>(base + std::size_t(mask) * sizeof(T), sg.lane);
    T down = load_slot<T>(base - std::size_t(mask) * sizeof(T), sg.lane);
    T other = (sg.lane & mask) != 0 ? down : up;
    return src < sg.size ? other : x;
  }
  return src < sg.size ? load_slot<T>(base, src) : x;
}

// Combines the N slots of a full sub-group in a tree (halves, then quarters, ...): N - 1
// operations of depth log2(N), which become vector operations where the optimizer can make them
// (the order of a group reduction is unspecified, SYCL 2020 4.17.4.5).
template <std::uint32_t N, typename T, typename Op>
SYCLONE_INLINE T reduce_slots(const std::byte* base, Op& op) {
  T part[N / 2];
  for (std::uint32_t k = 0; k < N / 2; ++k)
    part[k] = op(load_slot<T>(base, k), load_slot<T>(base, k + N / 2));
  for (std::uint32_t w = N / 4; w > 0; w /= 2)
    for (std::uint32_t k = 0; k < w; ++k) part[k] = op(part[k], part[k + w]);
  return part[0];
}

// Lanes 0..end-1 of a full sub-group of N in order, read for every lane at the same slots and
// chosen per lane: straight code the loops run as vector code across the lanes. end >= 1.
template <std::uint32_t N, typename T, typename Op>
SYCLONE_INLINE T scan_slots(const std::byte* base, std::uint32_t end, Op& op) {
  T acc = load_slot<T>(base, 0);
  for (std::uint32_t i = 1; i < N; ++i) {
    T next = op(acc, load_slot<T>(base, i));
    acc = i < end ? next : acc;
  }
  return acc;
}

template <typename T, typename Op>
inline T sub_group_reduce(const sg_info& sg, T x, Op op) {
  host_check_size<T>();
  const std::byte* base = __syclone_host_sub_group_exchange(sg.id, sg.lane, &x, sizeof(T));
  // A sub-group as one vector: full, its size a constant of the loops.
  switch (__syclone_host_vector_lanes()) {
  case 4:
    return reduce_slots<4, T>(base, op);
  case 8:
    return reduce_slots<8, T>(base, op);
  case 16:
    return reduce_slots<16, T>(base, op);
  case 32:
    return reduce_slots<32, T>(base, op);
  default:
    break;
  }
  // Over max_size slots (the padding holds the rest), combining those of the sub-group: every
  // lane computes the same value from the same slots.
  T acc = load_slot<T>(base, 0);
  if constexpr (any_bits_valid<T>) {
    for (std::uint32_t i = 1; i < sg.max_size; ++i) {
      T v = load_slot<T>(base, i);
      if (i < sg.size) acc = op(acc, v);
    }
  } else {
    for (std::uint32_t i = 1; i < sg.size; ++i) acc = op(acc, load_slot<T>(base, i));
  }
  return acc;
}

// Inclusive (lanes 0..lane) or exclusive (lanes 0..lane-1, absent on lane 0) scan.
template <bool Exclusive, typename T, typename Op>
inline opt<T> sub_group_scan(const sg_info& sg, T x, Op op) {
  host_check_size<T>();
  const std::byte* base = __syclone_host_sub_group_exchange(sg.id, sg.lane, &x, sizeof(T));
  std::uint32_t end = Exclusive ? sg.lane : sg.lane + 1;
  if (end == 0) return {x, false};
  switch (__syclone_host_vector_lanes()) {
  case 4:
    return {scan_slots<4, T>(base, end, op), true};
  case 8:
    return {scan_slots<8, T>(base, end, op), true};
  case 16:
    return {scan_slots<16, T>(base, end, op), true};
  case 32:
    return {scan_slots<32, T>(base, end, op), true};
  default:
    break;
  }
  T acc = load_slot<T>(base, 0);
  for (std::uint32_t i = 1; i < end; ++i) acc = op(acc, load_slot<T>(base, i));
  return {acc, true};
}

// Votes read every slot of the sub-group without stopping early: the same reads for every lane.
inline bool sub_group_any(const sg_info& sg, bool p) {
  const std::byte* base = __syclone_host_sub_group_exchange(sg.id, sg.lane, &p, sizeof(bool));
  bool any = false;
  for (std::uint32_t i = 0; i < sg.size; ++i) any |= load_slot<bool>(base, i);
  return any;
}
inline bool sub_group_all(const sg_info& sg, bool p) {
  const std::byte* base = __syclone_host_sub_group_exchange(sg.id, sg.lane, &p, sizeof(bool));
  bool all = true;
  for (std::uint32_t i = 0; i < sg.size; ++i) all &= load_slot<bool>(base, i);
  return all;
}
// sycl_ext_oneapi_sub_group_mask group_ballot: bit i for lane i.
inline std::uint64_t sub_group_ballot(const sg_info& sg, bool p) {
  const std::byte* base = __syclone_host_sub_group_exchange(sg.id, sg.lane, &p, sizeof(bool));
  std::uint64_t bits = 0;
  for (std::uint32_t i = 0; i < sg.size; ++i) bits |= std::uint64_t(load_slot<bool>(base, i)) << i;
  return bits;
}

// sycl_ext_oneapi_non_uniform_groups: the groups' functions read the members' slots of one
// masked exchange (only the members wait for each other; the slots are the sub-group's lanes).
// Every member reads the same slots in the same order, so all get the same result.
SYCLONE_INLINE std::uint32_t nug_ballot_mask(const sg_info& sg, bool p) {
  std::uint32_t bits = static_cast<std::uint32_t>(sub_group_ballot(sg, p));
  std::uint32_t lanes = sg.size >= 32 ? ~0u : (1u << sg.size) - 1u;
  return p ? bits : ~bits & lanes;
}
SYCLONE_INLINE std::uint32_t nug_converged_mask(const sg_info& sg) {
  return __syclone_host_sub_group_converged(sg.id, sg.lane, sg.size);
}
inline void nug_barrier(const nug_info& g) {
  __syclone_host_sub_group_masked_barrier(g.sg.id, g.sg.lane, g.mask);
}
template <typename T>
SYCLONE_INLINE const std::byte* nug_exchange(const nug_info& g, const T& x) {
  host_check_size<T>();
  return __syclone_host_sub_group_masked_exchange(g.sg.id, g.sg.lane, g.mask, &x, sizeof(T));
}
// The value of the member with local id `src` (x where there is none).
template <typename T>
inline T nug_shuffle(const nug_info& g, T x, std::uint32_t src) {
  const std::byte* base = nug_exchange(g, x);
  return src < nug_size(g) ? load_slot<T>(base, nug_lane_of(g, src)) : x;
}
template <typename T>
inline T nug_shuffle_down(const nug_info& g, T x, std::uint32_t delta) {
  std::uint32_t to = nug_local_id(g) + delta;
  return nug_shuffle(g, x, to < nug_local_id(g) ? ~0u : to); // (an overflowing delta: none)
}
template <typename T>
inline T nug_shuffle_up(const nug_info& g, T x, std::uint32_t delta) {
  std::uint32_t local = nug_local_id(g);
  return nug_shuffle(g, x, delta <= local ? local - delta : ~0u);
}
template <typename T>
inline T nug_shuffle_xor(const nug_info& g, T x, std::uint32_t mask) {
  return nug_shuffle(g, x, nug_local_id(g) ^ mask);
}
template <typename T, typename Op>
inline T nug_reduce(const nug_info& g, T x, Op op) {
  const std::byte* base = nug_exchange(g, x);
  std::uint32_t rest = g.mask;
  T acc = load_slot<T>(base, static_cast<std::uint32_t>(__builtin_ctz(rest)));
  for (rest &= rest - 1; rest != 0; rest &= rest - 1)
    acc = op(acc, load_slot<T>(base, static_cast<std::uint32_t>(__builtin_ctz(rest))));
  return acc;
}
// Inclusive (members up to the caller) or exclusive (members before it; none for the first).
template <bool Exclusive, typename T, typename Op>
inline opt<T> nug_scan(const nug_info& g, T x, Op op) {
  const std::byte* base = nug_exchange(g, x);
  std::uint32_t below = (1u << g.sg.lane) - 1u;
  std::uint32_t rest = g.mask & (Exclusive ? below : (below << 1) | 1u);
  if (rest == 0) return {x, false};
  T acc = load_slot<T>(base, static_cast<std::uint32_t>(__builtin_ctz(rest)));
  for (rest &= rest - 1; rest != 0; rest &= rest - 1)
    acc = op(acc, load_slot<T>(base, static_cast<std::uint32_t>(__builtin_ctz(rest))));
  return {acc, true};
}
inline bool nug_any(const nug_info& g, bool p) {
  const std::byte* base = nug_exchange(g, p);
  bool any = false;
  for (std::uint32_t rest = g.mask; rest != 0; rest &= rest - 1)
    any |= load_slot<bool>(base, static_cast<std::uint32_t>(__builtin_ctz(rest)));
  return any;
}
inline bool nug_all(const nug_info& g, bool p) {
  const std::byte* base = nug_exchange(g, p);
  bool all = true;
  for (std::uint32_t rest = g.mask; rest != 0; rest &= rest - 1)
    all &= load_slot<bool>(base, static_cast<std::uint32_t>(__builtin_ctz(rest)));
  return all;
}

// Work-groups. The scratch holds the inputs (one slot per work-item, first half) and the
// results (second half). Inputs are written before the first barrier and read (by the first
// work-item) before the second; results are written between the barriers and read after the
// second. A work-item that races ahead into the next operation therefore only writes inputs
// nobody reads any more, and results are only rewritten once everyone arrived again.
template <typename T>
inline T work_group_broadcast(const wg_info& wg, T x, std::uint32_t src) {
  host_check_size<T>();
  std::byte* scratch = __syclone_host_work_group_scratch();
  std::byte* results = scratch + std::size_t(wg.size) * host::exchange_bytes;
  if (wg.id == src) std::memcpy(scratch, &x, sizeof(T));
  __syclone_host_barrier();
  if (wg.id == 0) std::memcpy(results, scratch, sizeof(T));
  __syclone_host_barrier();
  return load_slot<T>(results, 0);
}

template <typename T, typename Op>
inline T work_group_reduce(const wg_info& wg, T x, Op op) {
  host_check_size<T>();
  std::byte* scratch = __syclone_host_work_group_scratch();
  std::byte* results = scratch + std::size_t(wg.size) * host::exchange_bytes;
  std::memcpy(scratch + std::size_t(wg.id) * sizeof(T), &x, sizeof(T));
  __syclone_host_barrier();
  if (wg.id == 0) {
    // Eight running results side by side (one vector operation per step once the optimizer is
    // done), combined pairwise at the end: the order of a group reduction is unspecified
    // (SYCL 2020 4.17.4.5), and a single chain would wait for each operation in turn.
    constexpr std::uint32_t ways = 8;
    T acc = load_slot<T>(scratch, 0);
    std::uint32_t i = 1;
    if (wg.size >= 2 * ways) {
      T part[ways];
      for (std::uint32_t k = 0; k < ways; ++k) part[k] = load_slot<T>(scratch, k);
      for (i = ways; i + ways <= wg.size; i += ways)
        for (std::uint32_t k = 0; k < ways; ++k)
          part[k] = op(part[k], load_slot<T>(scratch, i + k));
      for (std::uint32_t w = ways / 2; w > 0; w /= 2)
        for (std::uint32_t k = 0; k < w; ++k) part[k] = op(part[k], part[k + w]);
      acc = part[0];
    }
    for (; i < wg.size; ++i) acc = op(acc, load_slot<T>(scratch, i));
    std::memcpy(results, &acc, sizeof(T));
  }
  __syclone_host_barrier();
  return load_slot<T>(results, 0);
}

template <bool Exclusive, typename T, typename Op>
inline opt<T> work_group_scan(const wg_info& wg, T x, Op op) {
  host_check_size<T>();
  std::byte* scratch = __syclone_host_work_group_scratch();
  std::byte* results = scratch + std::size_t(wg.size) * host::exchange_bytes;
  std::memcpy(scratch + std::size_t(wg.id) * sizeof(T), &x, sizeof(T));
  __syclone_host_barrier();
  if (wg.id == 0) {
    // results[i]: the inclusive scan up to i; an exclusive scan reads results[i - 1].
    T acc = load_slot<T>(scratch, 0);
    std::memcpy(results, &acc, sizeof(T));
    for (std::uint32_t i = 1; i < wg.size; ++i) {
      acc = op(acc, load_slot<T>(scratch, i));
      std::memcpy(results + std::size_t(i) * sizeof(T), &acc, sizeof(T));
    }
  }
  __syclone_host_barrier();
  if (Exclusive) {
    if (wg.id == 0) return {x, false};
    return {load_slot<T>(results, wg.id - 1), true};
  }
  return {load_slot<T>(results, wg.id), true};
}

inline bool work_group_any(const wg_info& wg, bool p) {
  return work_group_reduce(wg, p, [](bool a, bool b) { return a || b; });
}
inline bool work_group_all(const wg_info& wg, bool p) {
  return work_group_reduce(wg, p, [](bool a, bool b) { return a && b; });
}

} // namespace detail::dev
SYCLONE_END_NAMESPACE
