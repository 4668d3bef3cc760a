// SPIR-V: multi_ptr address spaces and prefetch (seed 000). Every prefetch is an OpenCL.std
// prefetch of global memory, which LLVM's SPIR-V backend emits for __spirv_ocl_prefetch; the
// SPIR-V target issue attaches the cache level (CacheControlLoadINTEL) and turns sub-group
// prefetches into OpSubgroupBlockPrefetchINTEL in its post-pass (DESIGN.md "Target mapping").
// Included by spirv.hpp.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/address_space.hpp>

#include <cstddef>
#include <cstdint>

void __spirv_ocl_prefetch(const __attribute__((opencl_global)) char* p, std::size_t num_elements);
__attribute__((opencl_global)) void* __spirv_GenericCastToPtrExplicit_ToGlobal(const void* p,
                                                                               int storage_class);
__attribute__((opencl_local)) void* __spirv_GenericCastToPtrExplicit_ToLocal(const void* p,
                                                                             int storage_class);
__attribute__((opencl_private)) void* __spirv_GenericCastToPtrExplicit_ToPrivate(const void* p,
                                                                                 int storage_class);

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

inline constexpr std::uintptr_t prefetch_line_bytes = 64;
using global_byte = __attribute__((opencl_global)) const char;

template <bool KnownGlobal>
SYCLONE_INLINE global_byte* prefetch_global(const void* p) {
  if constexpr (KnownGlobal)
    return (global_byte*)p;
  else
    return (global_byte*)__spirv_GenericCastToPtrExplicit_ToGlobal(p,
                                                                   spirv_storage_cross_workgroup);
}

template <int Level, bool NonTemporal, bool KnownGlobal>
SYCLONE_INLINE void prefetch(const void* p, std::size_t bytes) {
  if (global_byte* g = prefetch_global<KnownGlobal>(p)) __spirv_ocl_prefetch(g, bytes);
}

// A group's work-items share the lines of the range round-robin.
template <int Level, bool NonTemporal, bool KnownGlobal>
SYCLONE_INLINE void joint_prefetch(const void* p, std::size_t bytes, std::size_t id,
                                   std::size_t size) {
  global_byte* g = prefetch_global<KnownGlobal>(p);
  if (!g) return;
  if (bytes == 0) return;
  auto a = reinterpret_cast<std::uintptr_t>(p);
  std::uintptr_t last = (a + bytes - 1) / prefetch_line_bytes;
  for (std::uintptr_t line = a / prefetch_line_bytes + id; line <= last; line += size)
    __spirv_ocl_prefetch(g + (line * prefetch_line_bytes - a), prefetch_line_bytes);
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE
