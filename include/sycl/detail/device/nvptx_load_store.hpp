// sycl_ext_oneapi_group_load_store on NVIDIA GPUs: blocked loads and stores of contiguous memory
// as coalesced accesses and an exchange inside each warp (the striped placement is coalesced as
// it is, and the extension's public header does it for every target).
//
// In the blocked placement work-item i of a group owns elements [i*N, i*N + N). A warp of a
// work-group (32 consecutive linear ids) then owns 32*N consecutive elements, so a work-group
// is its warps, each loading its own chunk like a sub-group. Where each work-item's block is V
// bytes, the chunk is read as U-byte units (U = 16, 8 or 4, V/U = M units per work-item, M a
// power of two up to 32, K = log2 M): the warp's i-th access reads units [32i, 32i + 32), all 32
// lanes together, U bytes each (512 contiguous bytes for U = 16, as CUB's BLOCK_LOAD_VECTORIZE
// and WARP_TRANSPOSE get), and K butterfly steps of shfl.sync put every unit where the blocked
// placement wants it. No shared memory: the work-group's size is known only at launch, and
// static shared memory sized for the largest one would cost every launch occupancy.
//
// The permutation. A unit's index g has 5 + K bits. Read striped, unit g sits in lane g mod 32,
// register g / 32; blocked, in lane g / M, register g mod M. Step t (t < K) swaps register bit t
// with lane bit 5 - K + t between lane pairs (shfl.sync.bfly with that bit): each lane sends one
// of each pair of registers whose bit t differ and keeps the other, M/2 unit shuffles. Working
// back from the blocked placement through the K steps, register i must first hold units
// [32i, 32i + 32) with lane L holding unit 32i + p(L), where p takes g's low K bits from L's
// high K bits and g's bits K..4 from L's low 5 - K bits: a permutation of the lanes of each
// access, which leaves it contiguous. A store runs the same steps (each is its own inverse, and
// they commute) before the same accesses. M = 1 is the vectorized direct access (p(L) = L).
//
// The alignment of the units is checked at run time (one test for the warp: every lane has the
// same chunk); a chunk not aligned to the best unit takes the largest unit T's alignment
// guarantees, else each work-item's own accesses. So does a partial warp (the last sub-group of
// a work-group whose size is not a multiple of 32): *.sync instructions need the lanes of the
// mask to exist, and its chunk is shorter.
// Included by target.hpp only.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/nvptx.hpp>
#include <sycl/detail/group_types.hpp>

#include <cstddef>
#include <cstdint>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
namespace warp_exchange {

using u32x2 = std::uint32_t __attribute__((ext_vector_type(2)));
using u32x4 = std::uint32_t __attribute__((ext_vector_type(4)));

template <std::size_t U>
struct unit;
template <>
struct unit<4> {
  using type = std::uint32_t;
};
template <>
struct unit<8> {
  using type = u32x2;
};
template <>
struct unit<16> {
  using type = u32x4;
};
template <std::size_t U>
using unit_t = typename unit<U>::type;

SYCLONE_INLINE std::uint32_t shuffle_xor(std::uint32_t v, std::uint32_t bit) {
  return static_cast<std::uint32_t>(
      __nvvm_shfl_sync_bfly_i32(0xffffffffu, static_cast<int>(v), static_cast<int>(bit), 0x1f));
}
SYCLONE_INLINE u32x2 shuffle_xor(u32x2 v, std::uint32_t bit) {
  return u32x2{shuffle_xor(v.x, bit), shuffle_xor(v.y, bit)};
}
SYCLONE_INLINE u32x4 shuffle_xor(u32x4 v, std::uint32_t bit) {
  return u32x4{shuffle_xor(v.x, bit), shuffle_xor(v.y, bit), shuffle_xor(v.z, bit),
               shuffle_xor(v.w, bit)};
}

constexpr std::uint32_t log2(std::size_t m) {
  std::uint32_t k = 0;
  while ((std::size_t(1) << k) < m) ++k;
  return k;
}
constexpr bool fits(std::size_t bytes, std::size_t u) {
  if (bytes % u != 0) return false;
  std::size_t m = bytes / u;
  return m >= 1 && m <= warp_size && (m & (m - 1)) == 0;
}
// The largest unit for blocks of `bytes` (0: none); `limit`: the largest unit allowed.
constexpr std::size_t unit_for(std::size_t bytes, std::size_t limit) {
  for (std::size_t u = 16; u >= 4; u /= 2)
    if (u <= limit && fits(bytes, u)) return u;
  return 0;
}

// The lane whose unit lane L reads in each access (see the top of the file).
template <std::uint32_t K>
SYCLONE_INLINE std::uint32_t source_of(std::uint32_t lane) {
  constexpr std::uint32_t low = 5 - K;
  return (lane >> low) | ((lane & ((1u << low) - 1u)) << K);
}

// The K swap steps, the same for loads and stores.
template <std::size_t M, typename Unit>
SYCLONE_INLINE void swap_steps(Unit (&r)[M], std::uint32_t lane) {
  constexpr std::uint32_t K = log2(M);
#pragma unroll
  for (std::uint32_t t = 0; t < K; ++t) {
    const std::uint32_t bit = 1u << (5 - K + t);
    const bool high = (lane & bit) != 0;
#pragma unroll
    for (std::size_t i0 = 0; i0 < M; ++i0) {
      if (i0 & (std::size_t(1) << t)) continue;
      const std::size_t i1 = i0 | (std::size_t(1) << t);
      // The lane with the bit set gives its register i0 and takes its partner's i1 there; the
      // other gives i1 and takes the partner's i0 into i1. Selects, no branches.
      Unit send = high ? r[i0] : r[i1];
      Unit got = shuffle_xor(send, bit);
      r[i0] = high ? got : r[i0];
      r[i1] = high ? r[i1] : got;
    }
  }
}

template <std::size_t U, std::size_t Bytes>
SYCLONE_INLINE void load_units(const void* chunk, void* out, std::uint32_t lane) {
  constexpr std::size_t M = Bytes / U;
  using Unit = unit_t<U>;
  const Unit* units = static_cast<const Unit*>(chunk);
  const std::uint32_t p = source_of<log2(M)>(lane);
  Unit r[M];
#pragma unroll
  for (std::size_t i = 0; i < M; ++i) r[i] = units[i * warp_size + p];
  swap_steps<M>(r, lane);
  __builtin_memcpy(out, r, Bytes);
}

template <std::size_t U, std::size_t Bytes>
SYCLONE_INLINE void store_units(const void* in, void* chunk, std::uint32_t lane) {
  constexpr std::size_t M = Bytes / U;
  using Unit = unit_t<U>;
  Unit* units = static_cast<Unit*>(chunk);
  const std::uint32_t p = source_of<log2(M)>(lane);
  Unit r[M];
  __builtin_memcpy(r, in, Bytes);
  swap_steps<M>(r, lane);
#pragma unroll
  for (std::size_t i = 0; i < M; ++i) units[i * warp_size + p] = r[i];
}

// The units for blocks of N elements of T: the best one where the chunk is aligned for it, the
// one T's alignment guarantees otherwise (0: none).
template <std::size_t N, typename T>
inline constexpr std::size_t best_unit = unit_for(N * sizeof(T), 16);
template <std::size_t N, typename T>
inline constexpr std::size_t safe_unit = unit_for(N * sizeof(T), alignof(T));

// A full warp's blocked load of its chunk; false where it must load element by element.
template <std::size_t N, typename T>
SYCLONE_INLINE bool load_blocked(const T* chunk, T* out, std::uint32_t lane) {
  constexpr std::size_t best = best_unit<N, T>, safe = safe_unit<N, T>;
  if constexpr (best != 0) {
    if (best == safe || reinterpret_cast<std::uintptr_t>(chunk) % best == 0) {
      load_units<best, N * sizeof(T)>(chunk, out, lane);
      return true;
    }
  }
  if constexpr (safe != 0 && safe != best) {
    load_units<safe, N * sizeof(T)>(chunk, out, lane);
    return true;
  }
  return false;
}
template <std::size_t N, typename T>
SYCLONE_INLINE bool store_blocked(const T* in, T* chunk, std::uint32_t lane) {
  constexpr std::size_t best = best_unit<N, T>, safe = safe_unit<N, T>;
  if constexpr (best != 0) {
    if (best == safe || reinterpret_cast<std::uintptr_t>(chunk) % best == 0) {
      store_units<best, N * sizeof(T)>(in, chunk, lane);
      return true;
    }
  }
  if constexpr (safe != 0 && safe != best) {
    store_units<safe, N * sizeof(T)>(in, chunk, lane);
    return true;
  }
  return false;
}
} // namespace warp_exchange

// out[i] = base[id * N + i] for the work-group's work-item `wg.id` (N > 1).
template <std::size_t N, typename T>
SYCLONE_INLINE void group_load_blocked(const wg_info& wg, const T* base, T* out) {
  sg_info warp = warp_of(wg);
  if (warp.size == warp_size &&
      warp_exchange::load_blocked<N>(base + std::size_t(warp.id) * warp_size * N, out, warp.lane))
    return;
#pragma unroll
  for (std::size_t i = 0; i < N; ++i) out[i] = base[std::size_t(wg.id) * N + i];
}
// The same for a sub-group; Full: the caller asserts that the sub-group is full.
template <std::size_t N, bool Full, typename T>
SYCLONE_INLINE void group_load_blocked(const sg_info& sg, const T* base, T* out) {
  if ((Full || sg.size == warp_size) && warp_exchange::load_blocked<N>(base, out, sg.lane)) return;
#pragma unroll
  for (std::size_t i = 0; i < N; ++i) out[i] = base[std::size_t(sg.lane) * N + i];
}
// base[id * N + i] = in[i].
template <std::size_t N, typename T>
SYCLONE_INLINE void group_store_blocked(const wg_info& wg, const T* in, T* base) {
  sg_info warp = warp_of(wg);
  if (warp.size == warp_size &&
      warp_exchange::store_blocked<N>(in, base + std::size_t(warp.id) * warp_size * N, warp.lane))
    return;
#pragma unroll
  for (std::size_t i = 0; i < N; ++i) base[std::size_t(wg.id) * N + i] = in[i];
}
template <std::size_t N, bool Full, typename T>
SYCLONE_INLINE void group_store_blocked(const sg_info& sg, const T* in, T* base) {
  if ((Full || sg.size == warp_size) && warp_exchange::store_blocked<N>(in, base, sg.lane)) return;
#pragma unroll
  for (std::size_t i = 0; i < N; ++i) base[std::size_t(sg.lane) * N + i] = in[i];
}

} // namespace detail::dev
SYCLONE_END_NAMESPACE
