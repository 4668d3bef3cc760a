// Sub-group and work-group primitives on NVIDIA GPUs (DESIGN.md "Target mapping": a sub-group
// is a warp of 32 lanes; shfl.sync, vote, bar.warp.sync, redux.sync where it wins).
//
// SYCL nd_range kernels launch with block = work-group (SYCL's last dimension = CUDA x), so the
// work-group's linear ids are the block's linear thread ids and a sub-group is a warp. Only the
// last warp of a work-group whose size is not a multiple of 32 is partial: its member mask holds
// just the lanes that exist, as every *.sync instruction requires.
// Included by nvptx.hpp only.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/nug_shuffle_algorithms.hpp>
#include <sycl/detail/group_types.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
template <typename T>
struct plus;
template <typename T>
struct minimum;
template <typename T>
struct maximum;
template <typename T>
struct bit_and;
template <typename T>
struct bit_or;
template <typename T>
struct bit_xor;

namespace detail::dev {

inline constexpr std::uint32_t warp_size = 32;

SYCLONE_INLINE constexpr std::uint32_t sub_group_max_size() noexcept {
  return warp_size;
}

// The calling work-item's sub-group: consecutive linear local ids (seed 004).
SYCLONE_INLINE sg_info this_sub_group(std::uint32_t local_linear_id, std::uint32_t group_size) {
  return make_sg_info(local_linear_id, group_size, sub_group_max_size());
}

SYCLONE_INLINE std::uint32_t member_mask(const sg_info& sg) {
  return sg.size >= warp_size ? 0xffffffffu : (1u << sg.size) - 1u;
}

SYCLONE_INLINE void sub_group_barrier(const sg_info& sg) {
  __nvvm_bar_warp_sync(member_mask(sg));
}

// A value as 32-bit words, each moved by one shfl.sync.
template <typename T>
struct words {
  static constexpr std::size_t count = (sizeof(T) + 3) / 4;
  std::uint32_t w[count];
};
template <typename T, typename Shuffle>
SYCLONE_INLINE T shuffle_words(T x, Shuffle shfl) {
  if constexpr (sizeof(T) == 4 && std::is_trivially_copyable_v<T>) {
    return __builtin_bit_cast(T, static_cast<std::uint32_t>(shfl(__builtin_bit_cast(int, x))));
  } else {
    words<T> in{}, out;
    std::memcpy(in.w, &x, sizeof(T));
#pragma unroll
    for (std::size_t i = 0; i < words<T>::count; ++i)
      out.w[i] = static_cast<std::uint32_t>(shfl(static_cast<int>(in.w[i])));
    T r;
    std::memcpy(static_cast<void*>(&r), out.w, sizeof(T));
    return r;
  }
}

template <typename T>
SYCLONE_INLINE T sub_group_shuffle(const sg_info& sg, T x, std::uint32_t src) {
  std::uint32_t mask = member_mask(sg);
  return shuffle_words(x, [&](int w) { return __nvvm_shfl_sync_idx_i32(mask, w, src, 0x1f); });
}
template <typename T>
SYCLONE_INLINE T sub_group_shuffle_down(const sg_info& sg, T x, std::uint32_t delta) {
  std::uint32_t mask = member_mask(sg);
  return shuffle_words(x, [&](int w) { return __nvvm_shfl_sync_down_i32(mask, w, delta, 0x1f); });
}
template <typename T>
SYCLONE_INLINE T sub_group_shuffle_up(const sg_info& sg, T x, std::uint32_t delta) {
  std::uint32_t mask = member_mask(sg);
  return shuffle_words(x, [&](int w) { return __nvvm_shfl_sync_up_i32(mask, w, delta, 0); });
}
template <typename T>
SYCLONE_INLINE T sub_group_shuffle_xor(const sg_info& sg, T x, std::uint32_t lane_mask) {
  std::uint32_t mask = member_mask(sg);
  return shuffle_words(x,
                       [&](int w) { return __nvvm_shfl_sync_bfly_i32(mask, w, lane_mask, 0x1f); });
}

// redux.sync (sm_80+): one instruction for a sub-group reduction of 32-bit integers with +,
// min, max, &, |, ^. Elsewhere, or for other types, shuffles.
template <typename Op, template <typename> class Fn, typename T>
inline constexpr bool is_fn_v = std::is_same_v<Op, Fn<T>> || std::is_same_v<Op, Fn<void>>;

template <typename T, typename Op>
inline constexpr bool has_redux_v =
    std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) == 4 &&
    (is_fn_v<Op, plus, T> || is_fn_v<Op, minimum, T> || is_fn_v<Op, maximum, T> ||
     is_fn_v<Op, bit_and, T> || is_fn_v<Op, bit_or, T> || is_fn_v<Op, bit_xor, T>);

template <typename T, typename Op>
SYCLONE_INLINE T redux(T x, std::uint32_t mask) {
  std::uint32_t r, v = static_cast<std::uint32_t>(x);
  constexpr bool s = std::is_signed_v<T>;
  if constexpr (is_fn_v<Op, plus, T>)
    asm("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));
  else if constexpr (is_fn_v<Op, minimum, T> && s)
    asm("redux.sync.min.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));
  else if constexpr (is_fn_v<Op, minimum, T>)
    asm("redux.sync.min.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));
  else if constexpr (is_fn_v<Op, maximum, T> && s)
    asm("redux.sync.max.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));
  else if constexpr (is_fn_v<Op, maximum, T>)
    asm("redux.sync.max.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));
  else if constexpr (is_fn_v<Op, bit_and, T>)
    asm("redux.sync.and.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));
  else if constexpr (is_fn_v<Op, bit_or, T>)
    asm("redux.sync.or.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));
  else
    asm("redux.sync.xor.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));
  return static_cast<T>(r);
}

template <typename T, typename Op>
SYCLONE_INLINE T sub_group_reduce(const sg_info& sg, T x, Op op) {
  if constexpr (has_redux_v<T, Op>) {
    if (__nvvm_reflect("__CUDA_ARCH") >= 800) return redux<T, Op>(x, member_mask(sg));
  }
  if (sg.size == warp_size) {
    // Butterfly: every lane combines the same pairs (in mirrored order, which the commutative
    // SYCL function objects do not see), so all lanes hold the same result.
#pragma unroll
    for (std::uint32_t offset = warp_size / 2; offset > 0; offset /= 2)
      x = op(x, sub_group_shuffle_xor(sg, x, offset));
    return x;
  }
  // A partial warp: a tree towards lane 0 over the lanes that exist, then lane 0's value.
  for (std::uint32_t offset = 1; offset < sg.size; offset *= 2) {
    T y = sub_group_shuffle_down(sg, x, offset);
    if ((sg.lane & (2 * offset - 1)) == 0 && sg.lane + offset < sg.size) x = op(x, y);
  }
  return sub_group_shuffle(sg, x, 0);
}

template <bool Exclusive, typename T, typename Op>
SYCLONE_INLINE opt<T> sub_group_scan(const sg_info& sg, T x, Op op) {
  // Hillis-Steele: after the step with `offset`, lane i holds lanes max(0, i-2*offset+1)..i.
  for (std::uint32_t offset = 1; offset < sg.size; offset *= 2) {
    T y = sub_group_shuffle_up(sg, x, offset);
    if (sg.lane >= offset) x = op(y, x);
  }
  if constexpr (Exclusive) {
    T y = sub_group_shuffle_up(sg, x, 1);
    return {y, sg.lane != 0};
  } else {
    return {x, true};
  }
}

SYCLONE_INLINE bool sub_group_any(const sg_info& sg, bool p) {
  return __nvvm_vote_any_sync(member_mask(sg), p);
}
SYCLONE_INLINE bool sub_group_all(const sg_info& sg, bool p) {
  return __nvvm_vote_all_sync(member_mask(sg), p);
}
// sycl_ext_oneapi_sub_group_mask group_ballot: bit i for lane i (a sub-group is a warp's first
// lanes).
SYCLONE_INLINE std::uint64_t sub_group_ballot(const sg_info& sg, bool p) {
  return __nvvm_vote_ballot_sync(member_mask(sg), p);
}

// sycl_ext_oneapi_non_uniform_groups: a group is a set of lanes of the warp, and every *.sync
// instruction takes its member mask, so only the members take part (DESIGN.md "Phase 3":
// match.sync masks). Values move between members with shfl.sync.idx from the lane of a local
// id (nug_lane_of), votes are vote.sync, 32-bit integer reductions redux.sync (sm_80+).
//
// A ballot group's members are the lanes whose predicate equals the caller's: one match.any.sync
// (sm_70+) over the warp's lanes. A tangle (and an opportunistic group) is the set of lanes that
// execute together, which the warp reports with activemask.
SYCLONE_INLINE std::uint32_t nug_ballot_mask(const sg_info& sg, bool p) {
  if (__nvvm_reflect("__CUDA_ARCH") >= 700) {
    std::uint32_t same, value = p ? 1u : 0u;
    asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(same) : "r"(value), "r"(member_mask(sg)));
    return same;
  }
  std::uint32_t bits = __nvvm_vote_ballot_sync(member_mask(sg), p);
  return p ? bits : ~bits & member_mask(sg);
}
SYCLONE_INLINE std::uint32_t nug_converged_mask(const sg_info& sg) {
  std::uint32_t active;
  asm volatile("activemask.b32 %0;" : "=r"(active));
  return active & member_mask(sg);
}
SYCLONE_INLINE void nug_barrier(const nug_info& g) {
  __nvvm_bar_warp_sync(g.mask);
}
// The value of the member with local id `src` (x where there is none): every member reads some
// member's lane, as shfl.sync requires.
template <typename T>
SYCLONE_INLINE T nug_shuffle(const nug_info& g, T x, std::uint32_t src) {
  bool inside = src < nug_size(g);
  std::uint32_t lane = inside ? nug_lane_of(g, src) : g.sg.lane;
  return shuffle_words(x, [&](int w) { return __nvvm_shfl_sync_idx_i32(g.mask, w, lane, 0x1f); });
}
template <typename T>
SYCLONE_INLINE T nug_shuffle_down(const nug_info& g, T x, std::uint32_t delta) {
  std::uint32_t local = nug_local_id(g), to = local + delta;
  return nug_shuffle(g, x, to < local ? ~0u : to);
}
template <typename T>
SYCLONE_INLINE T nug_shuffle_up(const nug_info& g, T x, std::uint32_t delta) {
  std::uint32_t local = nug_local_id(g);
  return nug_shuffle(g, x, delta <= local ? local - delta : ~0u);
}
template <typename T>
SYCLONE_INLINE T nug_shuffle_xor(const nug_info& g, T x, std::uint32_t mask) {
  // A fixed_size_group is aligned to its size, a power of two: its lanes pair within it.
  if (g.contiguous && mask < nug_size(g) && (nug_size(g) & (nug_size(g) - 1)) == 0 &&
      (__builtin_ctz(g.mask) & (nug_size(g) - 1)) == 0)
    return shuffle_words(x,
                         [&](int w) { return __nvvm_shfl_sync_bfly_i32(g.mask, w, mask, 0x1f); });
  return nug_shuffle(g, x, nug_local_id(g) ^ mask);
}
template <typename T, typename Op>
SYCLONE_INLINE T nug_reduce(const nug_info& g, T x, Op op) {
  if constexpr (has_redux_v<T, Op>) {
    if (__nvvm_reflect("__CUDA_ARCH") >= 800) return redux<T, Op>(x, g.mask);
  }
  std::uint32_t size = nug_size(g), local = nug_local_id(g);
  if (g.contiguous && (size & (size - 1)) == 0 && (__builtin_ctz(g.mask) & (size - 1)) == 0) {
    // A full fixed_size_group: a butterfly within its lanes, as for a whole warp.
    for (std::uint32_t offset = size / 2; offset > 0; offset /= 2)
      x = op(x, shuffle_words(
                    x, [&](int w) { return __nvvm_shfl_sync_bfly_i32(g.mask, w, offset, 0x1f); }));
    return x;
  }
  return nug_reduce_tree(g, x, op);
}
template <bool Exclusive, typename T, typename Op>
SYCLONE_INLINE opt<T> nug_scan(const nug_info& g, T x, Op op) {
  return nug_scan_tree<Exclusive>(g, x, op);
}
SYCLONE_INLINE bool nug_any(const nug_info& g, bool p) {
  return __nvvm_vote_any_sync(g.mask, p);
}
SYCLONE_INLINE bool nug_all(const nug_info& g, bool p) {
  return __nvvm_vote_all_sync(g.mask, p);
}

// Work-groups: warps combine with shuffles, then exchange through a small static shared buffer
// per value size (a block of up to 1024 threads has up to 32 warps). Slots: [0, 32) warp
// results, [32] the reduction, [33, 65) scan prefixes, [65] a broadcast value. Every slot is
// written only after a barrier that all readers of its previous value passed, so operations
// may follow each other without extra barriers.
// Aligned for T (vec<double, 16> needs 128 bytes), at least to 16 bytes.
template <std::size_t Bytes, std::size_t Align>
alignas(Align) [[clang::loader_uninitialized]] inline
    __attribute__((address_space(3))) std::byte group_scratch[Bytes];

template <typename T>
SYCLONE_INLINE T* scratch_slots() {
  constexpr std::size_t align = alignof(T) > 16 ? alignof(T) : 16;
  return (T*)&group_scratch<66 * sizeof(T), align>[0];
}

SYCLONE_INLINE sg_info warp_of(const wg_info& wg) {
  return make_sg_info(wg.id, wg.size, warp_size);
}

template <typename T>
SYCLONE_INLINE T work_group_broadcast(const wg_info& wg, T x, std::uint32_t src) {
  T* slots = scratch_slots<T>();
  if (wg.id == src) slots[65] = x;
  __nvvm_barrier_sync(0);
  T r = slots[65];
  __nvvm_barrier_sync(0);
  return r;
}

template <typename T, typename Op>
SYCLONE_INLINE T work_group_reduce(const wg_info& wg, T x, Op op) {
  sg_info warp = warp_of(wg);
  T partial = sub_group_reduce(warp, x, op);
  if (warp.count == 1) return partial;
  T* slots = scratch_slots<T>();
  if (warp.lane == 0) slots[warp.id] = partial;
  __nvvm_barrier_sync(0);
  if (warp.id == 0) {
    sg_info first = make_sg_info(warp.lane, warp.count, warp_size);
    if (warp.lane < warp.count) {
      T total = sub_group_reduce(first, slots[warp.lane], op);
      if (warp.lane == 0) slots[32] = total;
    }
  }
  __nvvm_barrier_sync(0);
  return slots[32];
}

template <bool Exclusive, typename T, typename Op>
SYCLONE_INLINE opt<T> work_group_scan(const wg_info& wg, T x, Op op) {
  sg_info warp = warp_of(wg);
  opt<T> inclusive = sub_group_scan<false>(warp, x, op);
  opt<T> result = Exclusive ? opt<T>{sub_group_shuffle_up(warp, inclusive.value, 1), warp.lane != 0}
                            : inclusive;
  if (warp.count == 1) return result;
  T* slots = scratch_slots<T>();
  if (warp.lane == warp.size - 1) slots[warp.id] = inclusive.value;
  __nvvm_barrier_sync(0);
  if (warp.id == 0 && warp.lane < warp.count) {
    sg_info first = make_sg_info(warp.lane, warp.count, warp_size);
    // slots[33 + w]: the combination of warps 0..w-1 (w >= 1).
    opt<T> prefix = sub_group_scan<false>(first, slots[warp.lane], op);
    if (warp.lane + 1 < warp.count) slots[33 + warp.lane + 1] = prefix.value;
  }
  __nvvm_barrier_sync(0);
  if (warp.id == 0) return result;
  T before = slots[33 + warp.id];
  if (!result.has) return {before, true};
  return {static_cast<T>(op(before, result.value)), true};
}

SYCLONE_INLINE bool work_group_any(const wg_info&, bool p) {
  return __nvvm_bar0_or(p) != 0;
}
SYCLONE_INLINE bool work_group_all(const wg_info&, bool p) {
  return __nvvm_bar0_and(p) != 0;
}

} // namespace detail::dev
SYCLONE_END_NAMESPACE
