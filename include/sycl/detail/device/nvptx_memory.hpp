// NVIDIA GPUs: multi_ptr address spaces and the prefetch instructions of sycl_ext_oneapi_prefetch
// (seed 000; DESIGN.md "Target mapping"). Included by nvptx.hpp.
//
// LLVM's NVPTX backend drops llvm.prefetch without a trace, and accepts its llvm.nvvm.prefetch.*
// intrinsics only on sm_90 with PTX 8.0, so the instructions are written as inline PTX and chosen
// by __nvvm_reflect("__CUDA_ARCH"), which the JIT resolves for the device's architecture before
// instruction selection:
//   L1                 prefetch.global.L1
//   L2                 prefetch.global.L2
//   L3, L4             prefetch.global.L2::evict_last (sm_80+): the outermost cache NVIDIA GPUs
//                      have, holding the data longer
//   any level, _nt     sm_90: cp.async.bulk.prefetch.L2 with an L2::evict_first cache policy;
//                      sm_80: prefetch.global.L2::evict_normal (no evict-first prefetch exists)
//   joint_prefetch     sm_90, an L2-level hint: one cp.async.bulk.prefetch.L2 for the whole range
//                      widened to 16-byte boundaries (the instruction's alignment; the same
//                      128-byte lines), issued by the group's first work-item, as native code
//                      writes it: no test of the address in the loop around it; otherwise the
//                      128-byte lines dealt over the work-items.
// A prefetch of a generic pointer first checks that it points to global memory (isspacep.global)
// and does nothing otherwise: local and private memory have no cache to fill, and a prefetch must
// never fault.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/address_space.hpp>

#include <cstddef>
#include <cstdint>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
// Whether `p` points into SYCL address space `space` (access::address_space's value).
SYCLONE_INLINE bool in_address_space(const void* p, int space) {
  switch (space) {
  case 0: // global
  case 2: // constant: constant buffers are global memory here
    return __nvvm_isspacep_global(p);
  case 1:
    return __nvvm_isspacep_shared(p);
  case 3:
    return __nvvm_isspacep_local(p);
  default:
    return true;
  }
}

// The architecture the JIT compiles for, e.g. 900 for sm_90.
SYCLONE_INLINE int cuda_arch() {
  return __nvvm_reflect("__CUDA_ARCH");
}

// L1 and L2 lines are 128 bytes on every architecture since sm_20.
inline constexpr std::uint64_t prefetch_line_bytes = 128;
// The largest range one cp.async.bulk.prefetch is given (its size operand is 32 bits).
inline constexpr std::uint64_t bulk_prefetch_max_bytes = std::uint64_t(1) << 30;

// The global-state-space address of a generic pointer to global memory (cvta.to.global).
SYCLONE_INLINE std::uint64_t global_address(const void* p) {
  using global_byte = __attribute__((opencl_global)) const char;
  return reinterpret_cast<std::uint64_t>((global_byte*)p);
}

// L2 cache policies for .L2::cache_hint (a pure computation: not volatile, so LLVM hoists it).
SYCLONE_INLINE std::uint64_t l2_policy_evict_first() {
  std::uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
SYCLONE_INLINE std::uint64_t l2_policy_evict_last() {
  std::uint64_t policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

// sm_90: [a, a + bytes) into L2, under `policy` or none; `a` 16-byte aligned, `bytes` a nonzero
// multiple of 16.
SYCLONE_INLINE void bulk_prefetch_l2(std::uint64_t a, std::uint64_t bytes, std::uint64_t policy) {
  for (; bytes > bulk_prefetch_max_bytes;
       a += bulk_prefetch_max_bytes, bytes -= bulk_prefetch_max_bytes)
    asm volatile("cp.async.bulk.prefetch.L2.global.L2::cache_hint [%0], %1, %2;" ::"l"(a),
                 "r"(static_cast<std::uint32_t>(bulk_prefetch_max_bytes)), "l"(policy));
  asm volatile("cp.async.bulk.prefetch.L2.global.L2::cache_hint [%0], %1, %2;" ::"l"(a),
               "r"(static_cast<std::uint32_t>(bytes)), "l"(policy));
}
SYCLONE_INLINE void bulk_prefetch_l2(std::uint64_t a, std::uint64_t bytes) {
  for (; bytes > bulk_prefetch_max_bytes;
       a += bulk_prefetch_max_bytes, bytes -= bulk_prefetch_max_bytes)
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(a),
                 "r"(static_cast<std::uint32_t>(bulk_prefetch_max_bytes)));
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(a),
               "r"(static_cast<std::uint32_t>(bytes)));
}

// The line at global address `line` (128-byte aligned) into the cache the hint names.
template <int Level, bool NonTemporal>
SYCLONE_INLINE void prefetch_line(std::uint64_t line) {
  if constexpr (NonTemporal) {
    if (cuda_arch() >= 900)
      asm volatile("cp.async.bulk.prefetch.L2.global.L2::cache_hint [%0], 128, %1;" ::"l"(line),
                   "l"(l2_policy_evict_first()));
    else if (cuda_arch() >= 800)
      asm volatile("prefetch.global.L2::evict_normal [%0];" ::"l"(line));
    else
      asm volatile("prefetch.global.L2 [%0];" ::"l"(line));
  } else if constexpr (Level == 0) {
    asm volatile("prefetch.global.L1 [%0];" ::"l"(line));
  } else if constexpr (Level == 1) {
    asm volatile("prefetch.global.L2 [%0];" ::"l"(line));
  } else {
    if (cuda_arch() >= 800)
      asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(line));
    else
      asm volatile("prefetch.global.L2 [%0];" ::"l"(line));
  }
}

// The lines holding global bytes [a, a + bytes), every `stride`-th starting with the `first`-th.
// Counted in line indices, so that one object that fits a line (bytes 1, or sizeof(T) at T's
// alignment) folds to a single prefetch.
template <int Level, bool NonTemporal>
SYCLONE_INLINE void prefetch_lines(std::uint64_t a, std::uint64_t bytes, std::uint64_t first,
                                   std::uint64_t stride) {
  if (bytes == 0) return;
  std::uint64_t last = (a + bytes - 1) / prefetch_line_bytes;
  for (std::uint64_t line = a / prefetch_line_bytes + first; line <= last; line += stride)
    prefetch_line<Level, NonTemporal>(line * prefetch_line_bytes);
}

// sycl_ext_oneapi_prefetch prefetch(): every line of [p, p + bytes). `KnownGlobal`: the pointer's
// type (a global multi_ptr, an accessor) says it points to global memory.
template <int Level, bool NonTemporal, bool KnownGlobal>
SYCLONE_INLINE void prefetch(const void* p, std::size_t bytes) {
  if constexpr (!KnownGlobal)
    if (!__nvvm_isspacep_global(p)) return;
  prefetch_lines<Level, NonTemporal>(global_address(p), bytes, 0, 1);
}

// joint_prefetch(): [p, p + bytes) prefetched by the `size` work-items of a group, this one
// having index `id`; sub-groups (`SubGroup`) and work-groups alike.
template <int Level, bool NonTemporal, bool KnownGlobal, bool SubGroup = false>
SYCLONE_INLINE void joint_prefetch(const void* p, std::size_t bytes, std::size_t id,
                                   std::size_t size) {
  if (bytes == 0) return;
  if constexpr (!KnownGlobal)
    if (!__nvvm_isspacep_global(p)) return;
  std::uint64_t a = global_address(p);
  // The bulk prefetch fills L2 only, so an L1 hint keeps the per-line L1 prefetches.
  if constexpr (Level > 0 || NonTemporal) {
    if (cuda_arch() >= 900) {
      if (id != 0) return;
      // Widened to 16-byte boundaries, the range still lies in the lines it touched (a line
      // never crosses a page, so nothing unmapped is named) and a prefetch never faults.
      const std::uint64_t start = a & ~std::uint64_t(15);
      const std::uint64_t size = (a + bytes - start + 15) & ~std::uint64_t(15);
      // A range known small (the usual constant count) takes no loop over 1 GiB pieces.
      if (bytes <= bulk_prefetch_max_bytes - 16) __builtin_assume(size <= bulk_prefetch_max_bytes);
      if constexpr (NonTemporal)
        bulk_prefetch_l2(start, size, l2_policy_evict_first());
      else if constexpr (Level >= 2)
        bulk_prefetch_l2(start, size, l2_policy_evict_last());
      else
        bulk_prefetch_l2(start, size);
      return;
    }
  }
  prefetch_lines<Level, NonTemporal>(a, bytes, id, size);
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE
