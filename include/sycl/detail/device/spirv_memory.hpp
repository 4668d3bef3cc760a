// SPIR-V: multi_ptr address spaces and prefetch (seed 000; DESIGN.md "Target mapping").
// Included by spirv.hpp.
//
// LLVM's SPIR-V backend can attach no cache level to a prefetch and cannot emit
// OpSubgroupBlockPrefetchINTEL, so prefetches are calls to two marker functions that the link
// step's post-pass replaces (a contract with src/spirv; keep the names and signatures):
//   __syclone_spirv_prefetch(p, bytes, cache_level, non_temporal)
//       one work-item prefetches [p, p + bytes): OpenCL.std prefetch decorated with
//       CacheControlLoadINTEL (SPV_INTEL_cache_controls) for the level; non_temporal 1 asks for
//       InvalidateAfterRead.
//   __syclone_spirv_block_prefetch(p, bytes_per_invocation, cache_level, non_temporal)
//       called by every work-item of a sub-group with the same p and a constant
//       bytes_per_invocation, a power of two in 1..64: OpSubgroupBlockPrefetchINTEL (seed 003,
//       SPV_INTEL_subgroup_buffer_prefetch), which prefetches bytes_per_invocation times
//       SubgroupSize bytes from p.
// cache_level is 1..4 for SYCL's L1..L4 (seed 000 "Cache levels"). p is a CrossWorkgroup
// (global) pointer: a generic pointer is first cast with OpGenericCastToPtrExplicit, which gives
// null for local and private memory, and such a prefetch does nothing (a prefetch is only a hint
// and must never fault).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/address_space.hpp>

#include <cstddef>
#include <cstdint>

__attribute__((opencl_global)) void* __spirv_GenericCastToPtrExplicit_ToGlobal(const void* p,
                                                                               int storage_class);
__attribute__((opencl_local)) void* __spirv_GenericCastToPtrExplicit_ToLocal(const void* p,
                                                                             int storage_class);
__attribute__((opencl_private)) void* __spirv_GenericCastToPtrExplicit_ToPrivate(const void* p,
                                                                                 int storage_class);
extern "C" void __syclone_spirv_prefetch(const __attribute__((opencl_global)) char* p,
                                         std::size_t bytes, int cache_level, int non_temporal);
extern "C" void __syclone_spirv_block_prefetch(const __attribute__((opencl_global)) char* p,
                                               std::uint32_t bytes_per_invocation, int cache_level,
                                               int non_temporal);

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
// SPIR-V storage classes of the explicit generic casts.
inline constexpr int spirv_storage_workgroup = 4;
inline constexpr int spirv_storage_cross_workgroup = 5;
inline constexpr int spirv_storage_function = 7;

SYCLONE_INLINE bool in_address_space(const void* p, int space) {
  switch (space) {
  case 0:
  case 2:
    return __spirv_GenericCastToPtrExplicit_ToGlobal(p, spirv_storage_cross_workgroup);
  case 1:
    return __spirv_GenericCastToPtrExplicit_ToLocal(p, spirv_storage_workgroup);
  case 3:
    return __spirv_GenericCastToPtrExplicit_ToPrivate(p, spirv_storage_function);
  default:
    return true;
  }
}

// The cache lines of Intel GPUs: the unit one work-item of a work-group prefetch covers.
inline constexpr std::uintptr_t prefetch_line_bytes = 64;
// The most bytes per invocation one OpSubgroupBlockPrefetchINTEL is sure to prefetch.
inline constexpr std::uint32_t block_prefetch_max_bytes = 64;
using global_byte = __attribute__((opencl_global)) const char;

template <bool KnownGlobal>
SYCLONE_INLINE global_byte* prefetch_global(const void* p) {
  if constexpr (KnownGlobal)
    return (global_byte*)p;
  else
    return (global_byte*)__spirv_GenericCastToPtrExplicit_ToGlobal(p,
                                                                   spirv_storage_cross_workgroup);
}

// sycl_ext_oneapi_prefetch prefetch(): `Level` is cache_level's value (L1 0 ... L4 3).
template <int Level, bool NonTemporal, bool KnownGlobal>
SYCLONE_INLINE void prefetch(const void* p, std::size_t bytes) {
  if (bytes == 0) return;
  if (global_byte* g = prefetch_global<KnownGlobal>(p))
    __syclone_spirv_prefetch(g, bytes, Level + 1, NonTemporal);
}

// One OpSubgroupBlockPrefetchINTEL of `n` bytes per invocation: the post-pass needs the size
// as a constant, so every power of two gets its own call with a literal.
template <int Level, bool NonTemporal>
SYCLONE_INLINE void block_prefetch(global_byte* g, std::uint32_t n) {
  constexpr int l = Level + 1, nt = NonTemporal;
  switch (n) {
  case 1:
    __syclone_spirv_block_prefetch(g, 1, l, nt);
    break;
  case 2:
    __syclone_spirv_block_prefetch(g, 2, l, nt);
    break;
  case 4:
    __syclone_spirv_block_prefetch(g, 4, l, nt);
    break;
  case 8:
    __syclone_spirv_block_prefetch(g, 8, l, nt);
    break;
  case 16:
    __syclone_spirv_block_prefetch(g, 16, l, nt);
    break;
  case 32:
    __syclone_spirv_block_prefetch(g, 32, l, nt);
    break;
  default:
    __syclone_spirv_block_prefetch(g, 64, l, nt);
    break;
  }
}

// joint_prefetch(): [p, p + bytes) prefetched by the `size` work-items of a group, this one
// having index `id`. A sub-group (`SubGroup`) whose share per invocation is a power of two up to
// 64 bytes, or a multiple of 64, issues block prefetches together; p and bytes are the same on
// every work-item (seed 000 "Group prefetch functions"), so both the null check of the cast and
// the choice are uniform over the sub-group, as OpSubgroupBlockPrefetchINTEL requires. Other
// ranges, and work-groups, deal the 64-byte lines over the work-items.
template <int Level, bool NonTemporal, bool KnownGlobal, bool SubGroup = false>
SYCLONE_INLINE void joint_prefetch(const void* p, std::size_t bytes, std::size_t id,
                                   std::size_t size) {
  if (bytes == 0) return;
  global_byte* g = prefetch_global<KnownGlobal>(p);
  if (!g) return;
  if constexpr (SubGroup) {
    // The device's sub-group size: the block prefetch covers SubgroupSize invocations.
    std::size_t n = __spirv_BuiltInSubgroupSize();
    if (bytes % n == 0) {
      std::size_t per = bytes / n;
      if ((per & (per - 1)) == 0 && per <= block_prefetch_max_bytes) {
        block_prefetch<Level, NonTemporal>(g, static_cast<std::uint32_t>(per));
        return;
      }
      if (per % block_prefetch_max_bytes == 0) {
        std::size_t step = block_prefetch_max_bytes * n;
        for (std::size_t offset = 0; offset < bytes; offset += step)
          block_prefetch<Level, NonTemporal>(g + offset, block_prefetch_max_bytes);
        return;
      }
    }
  }
  auto a = reinterpret_cast<std::uintptr_t>(g);
  std::uintptr_t last = (a + bytes - 1) / prefetch_line_bytes;
  for (std::uintptr_t line = a / prefetch_line_bytes + id; line <= last; line += size) {
    std::uintptr_t first = line * prefetch_line_bytes;
    global_byte* from = g + (first > a ? first - a : 0);
    std::uintptr_t end =
        first + prefetch_line_bytes < a + bytes ? first + prefetch_line_bytes : a + bytes;
    __syclone_spirv_prefetch(from, end - reinterpret_cast<std::uintptr_t>(from), Level + 1,
                             NonTemporal);
  }
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE
