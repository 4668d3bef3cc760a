// Host CPU: multi_ptr address spaces and the prefetch instructions of sycl_ext_oneapi_prefetch
// (seed 000; DESIGN.md "Target mapping": prefetcht0/t1/t2 per 64-byte line, prefetchnta for the
// nontemporal hint). Included by host.hpp; the GPU targets have the same functions in
// nvptx_memory.hpp and spirv_memory.hpp.
#pragma once

#include <sycl/detail/config.hpp>

#include <cstddef>
#include <cstdint>

// The SYCL address space the host device's runtime finds `p` in (0 global, 1 local, 3 private;
// -1 in host code outside kernels, which has none).
extern "C" SYCLONE_EXPORT int __syclone_host_address_space(const void* p) noexcept;

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
// The host has one address space: a decorated type is the type itself.
template <typename T, int Space>
struct decorated {
  using type = T;
};
template <typename T>
struct undecorated {
  using type = T;
};
// Whether `p` points into SYCL address space `space` (address_space_cast's run-time check):
// the runtime knows the running work-group's local memory and the work-item's private memory
// (its stack, or the compiled loops' storage for it); all else is global memory. Constant
// memory is global memory here; everything is in the generic space.
inline bool in_address_space(const void* p, int space) {
  if (space == 4) return true;
  int actual = __syclone_host_address_space(p);
  if (actual < 0) return true; // host code, outside kernels: no address spaces
  return space == 2 ? actual == 0 : actual == space;
}

// Cache lines of x86-64 and AArch64 cores.
inline constexpr std::uintptr_t prefetch_line_bytes = 64;

// __builtin_prefetch's locality: 3 prefetcht0 (all levels), 2 prefetcht1 (L2 and out),
// 1 prefetcht2 (L3 and out), 0 prefetchnta (close to the core, no pollution of the outer levels).
// `Level` is cache_level's value (L1 0 ... L4 3); L4, which CPUs rarely have, is taken as L3.
template <int Level, bool NonTemporal>
inline constexpr int prefetch_locality = NonTemporal  ? 0
                                         : Level == 0 ? 3
                                         : Level == 1 ? 2
                                                      : 1;

// The lines holding bytes [p, p + bytes), every `stride`-th starting with the `first`-th: one
// work-item's share of a range prefetched by a group. Counted in line indices, so that one object
// that fits a line (bytes 1, or sizeof(T) at T's alignment) folds to a single prefetch.
template <int Level, bool NonTemporal>
inline void prefetch_lines(const void* p, std::size_t bytes, std::size_t first,
                           std::size_t stride) {
  if (bytes == 0) return;
  auto a = reinterpret_cast<std::uintptr_t>(p);
  std::uintptr_t last = (a + bytes - 1) / prefetch_line_bytes;
  for (std::uintptr_t line = a / prefetch_line_bytes + first; line <= last; line += stride)
    __builtin_prefetch(reinterpret_cast<const void*>(line * prefetch_line_bytes), 0,
                       prefetch_locality<Level, NonTemporal>);
}

// sycl_ext_oneapi_prefetch prefetch(): every line of [p, p + bytes). `KnownGlobal` (the pointer's
// type says global memory) matters only to GPU targets.
template <int Level, bool NonTemporal, bool KnownGlobal>
inline void prefetch(const void* p, std::size_t bytes) {
  prefetch_lines<Level, NonTemporal>(p, bytes, 0, 1);
}

// joint_prefetch(): the lines of [p, p + bytes) dealt round-robin over the `size` work-items of
// the group; this one has index `id`. Sub-groups (`SubGroup`) share lines the same way.
template <int Level, bool NonTemporal, bool KnownGlobal, bool SubGroup = false>
inline void joint_prefetch(const void* p, std::size_t bytes, std::size_t id, std::size_t size) {
  prefetch_lines<Level, NonTemporal>(p, bytes, id, size);
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE
