// The contract between host device code, the work-item loop compiler (tools/syclone-host-loops,
// a pass syclone++ loads into every host compile) and the host runtime (src/backends/host).
//
// An nd_range kernel's host entry run_group(frame) runs one whole work-group. Written as
//   return __syclone_host_work_group_loops(&work_item, frame, required_sub_group_size);
// it reaches the runtime's definition of that function, which runs nothing and answers why (the
// compile did not run the pass); the runtime then runs the work-group's work-items as fibers.
// The pass replaces the call with a function of its own that runs work_item's body for every
// work-item of the group in loops, split at each work-group barrier, and returns null; or, where
// it cannot, with the reason as a string constant.
//
// The device builtins that kernel code reaches on the host call the extern "C" functions below:
// the pass finds barriers and group state by these names, and the runtime defines them for the
// fiber path (DESIGN.md "Phase 3", issue 29).
#pragma once

#include <sycl/detail/config.hpp>

#include <cstddef>
#include <cstdint>

SYCLONE_BEGIN_NAMESPACE
namespace detail::host {

// One work-group being run by compiled loops. The pass reads the fields at these offsets (see
// the static_asserts below and tools/syclone-host-loops/frame.hpp).
struct group_frame {
  const void* object;         //  0: the kernel object
  std::size_t group[3];       //  8: the group id, SYCL dimension order
  std::size_t loop_range[3];  // 32: the local range right-aligned: the last SYCL dimension is
                              //     loop_range[2] (1-D {1, 1, L0}, 2-D {1, L0, L1})
  std::byte* local_memory;    // 56: the work-group's local memory
  std::byte* scratch;         // 64: the work-group's scratch for group algorithms
  std::uint64_t sub_group;    // 72: the launch's sub-group size
  std::byte* storage;         // 80: per-work-item storage of values live across barriers
  std::uint64_t storage_size; // 88: its size in bytes
  void* runtime;              // 96: the runtime's state of the work-group
  std::byte* exchange;        // 104: two sets of exchange_set bytes for sub-group functions
  std::uint64_t exchange_set; // 112: bytes per set (256 per work-item)
};

// A work-item's body as the loop compiler sees it: ids right-aligned as in loop_range.
using work_item_fn = void (*)(const void* object, const std::size_t* group, std::size_t a,
                              std::size_t b, std::size_t c);

} // namespace detail::host
SYCLONE_END_NAMESPACE

extern "C" {
// Runs the work-group of `frame` (after the pass) or answers why it cannot (before it).
// sub_group: a constant, the sub-group size the kernel's launch properties require (0 when they
// require none; sycl::detail::sub_group_size_primary or _automatic for a named size).
SYCLONE_EXPORT const char* __syclone_host_work_group_loops(sycl::detail::host::work_item_fn body,
                                                           sycl::detail::host::group_frame* frame,
                                                           std::uint32_t sub_group);
// Called by the compiled loops once per work-group: at least `bytes` of 64-byte aligned storage.
SYCLONE_EXPORT std::byte* __syclone_host_loop_storage(sycl::detail::host::group_frame* frame,
                                                      std::size_t bytes);
// Called by the compiled loops when the work-items of a group left a region for different
// barriers (`first`, `second` describe two of them); the group stops there.
SYCLONE_EXPORT void __syclone_host_divergent_barrier(sycl::detail::host::group_frame* frame,
                                                     const char* first, const char* second);

// Device builtins (host.hpp, host_group.hpp). On the fiber path these suspend and resume
// work-items; the compiled loops never call them (the pass lowers them) except from code the
// pass could not see, where a barrier is an error that names the cause. Barriers are convergent:
// the optimizer must not duplicate a call into several paths (which would be different barriers
// to the loop compiler) nor make it depend on more conditions, as for GPU barriers. Not
// noduplicate: with it, clang 22 -O2/-O3 copied the barriers of an unrolled tree reduction into
// both paths of each `if (l < s)` (seen in bench/host_group_kernels), which keeps such a kernel
// on fibers.
#define SYCLONE_HOST_CONVERGENT __attribute__((convergent))
SYCLONE_EXPORT SYCLONE_HOST_CONVERGENT void __syclone_host_barrier();
// sycl_ext_oneapi_root_group: called by one work-item of each work-group (between two
// work-group barriers); returns when every work-group of the launch called it.
SYCLONE_EXPORT void __syclone_host_root_barrier();
SYCLONE_EXPORT std::byte* __syclone_host_local_memory() noexcept;
SYCLONE_EXPORT std::byte* __syclone_host_work_group_scratch();
SYCLONE_EXPORT std::uint32_t __syclone_host_sub_group_size() noexcept;
// The sub-group size where the compiled loops run each sub-group as one vector (their lane loop;
// every sub-group of the work-group is then full), else 0: on fibers and in the general loops.
SYCLONE_EXPORT std::uint32_t __syclone_host_vector_lanes() noexcept __attribute__((const));
// The sub-group index and lane of the calling work-item, whose local linear id is the argument
// (the compiled loops answer from their own loop variables and ignore it).
SYCLONE_EXPORT std::uint32_t __syclone_host_sub_group_index(std::uint32_t local_linear_id) noexcept
    __attribute__((const));
SYCLONE_EXPORT std::uint32_t __syclone_host_sub_group_lane(std::uint32_t local_linear_id) noexcept
    __attribute__((const));
SYCLONE_EXPORT SYCLONE_HOST_CONVERGENT void
__syclone_host_sub_group_barrier(std::uint32_t sub_group);
// The calling work-item of an nd_range kernel (sycl_khr_work_item_queries): its kernel object,
// its group id (SYCL order) and its local id in dimension `which` of the right-aligned local
// range (the last SYCL dimension is 2). The compiled loops answer from their own variables; the
// runtime's definitions answer for fibers, and throw elsewhere.
SYCLONE_EXPORT const void* __syclone_host_work_item_object();
SYCLONE_EXPORT const std::size_t* __syclone_host_work_item_group();
SYCLONE_EXPORT std::size_t __syclone_host_work_item_local(std::uint32_t which);
// sycl_ext_oneapi_local_memory: `bytes` for the calling group_local_memory call. The host
// compile's pass plugin replaces each call by a thread-local variable of its own; the runtime's
// definition only says that the compile did not run it (errc::feature_not_supported).
SYCLONE_EXPORT void* __syclone_host_group_local_memory(std::size_t bytes, std::size_t alignment);
// sycl_ext_oneapi_work_group_static: the storage of the work_group_static variable `object` for
// the calling work-group, which the same pass plugin gives each variable (thread-local); the
// runtime's definition only says that the compile did not run it.
SYCLONE_EXPORT void* __syclone_host_work_group_static(const void* object, std::size_t bytes,
                                                      std::size_t alignment);
SYCLONE_EXPORT SYCLONE_HOST_CONVERGENT const std::byte*
__syclone_host_sub_group_exchange(std::uint32_t sub_group, std::uint32_t lane, const void* value,
                                  std::size_t bytes);
// sycl_ext_oneapi_non_uniform_groups: the exchange and the barrier of the sub-group's lanes in
// `mask` only (a group of work-items of the sub-group; the others do not wait). The exchange's
// result holds the members' values at their lanes' slots. The compiled loops, which run only
// where the whole work-group reaches the call, lower them as the sub-group's exchange and barrier
// (every lane then calls them, each with its own group's mask).
SYCLONE_EXPORT SYCLONE_HOST_CONVERGENT const std::byte*
__syclone_host_sub_group_masked_exchange(std::uint32_t sub_group, std::uint32_t lane,
                                         std::uint32_t mask, const void* value, std::size_t bytes);
SYCLONE_EXPORT SYCLONE_HOST_CONVERGENT void
__syclone_host_sub_group_masked_barrier(std::uint32_t sub_group, std::uint32_t lane,
                                        std::uint32_t mask);
// The lanes of the sub-group (of `size` work-items) that reach this call together: on fibers,
// those waiting at this same call (this call site) once no work-item of the work-group can go
// on otherwise; in the compiled loops, which run only where the whole work-group reaches it,
// every lane of the sub-group. tangle_group and opportunistic_group are made from it.
// (nomerge: two such calls in the branches of an `if` stay two calls, two tangles.)
SYCLONE_EXPORT SYCLONE_HOST_CONVERGENT __attribute__((nomerge)) std::uint32_t
__syclone_host_sub_group_converged(std::uint32_t sub_group, std::uint32_t lane, std::uint32_t size);
}

static_assert(offsetof(sycl::detail::host::group_frame, group) == 8);
static_assert(offsetof(sycl::detail::host::group_frame, loop_range) == 32);
static_assert(offsetof(sycl::detail::host::group_frame, local_memory) == 56);
static_assert(offsetof(sycl::detail::host::group_frame, scratch) == 64);
static_assert(offsetof(sycl::detail::host::group_frame, sub_group) == 72);
static_assert(offsetof(sycl::detail::host::group_frame, storage) == 80);
static_assert(offsetof(sycl::detail::host::group_frame, runtime) == 96);
static_assert(offsetof(sycl::detail::host::group_frame, exchange) == 104);
static_assert(offsetof(sycl::detail::host::group_frame, exchange_set) == 112);
static_assert(sizeof(sycl::detail::host::group_frame) == 120);
