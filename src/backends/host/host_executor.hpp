// The host CPU device's execution engine: a thread pool sized to the machine that runs range
// kernels as chunked tight loops and nd_range kernels work-group by work-group, with
// work-items as Boost.Context fibers once one of them reaches a barrier.
// The functions are exported from libsyclone.so (SYCLONE_EXPORT) so that the unit tests and the
// benchmarks can drive the engine without a queue.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/host_loops.hpp>

#include <cstddef>
#include <cstdint>

namespace syclone::host {

// A range kernel: run_chunk(kernel, begin, end) runs linear indices [begin, end) of the range
// in a tight loop that the host compiler inlined and vectorized (the loop lives in the header
// template, so the functor is visible to the optimizer).
struct range_launch {
  const void* kernel;
  void (*run_chunk)(const void* kernel, std::size_t begin, std::size_t end);
  std::size_t count; // number of linear indices
  // The kernel writes to a sycl::stream: run_chunk runs one index at a time, each work-item
  // starting with its own stream state (SYCL 2020 4.16).
  bool work_item_streams = false;
  // At most this many distinct threads run the launch, the launching thread included (the
  // compute units of a host sub-device); 0: the whole pool.
  std::size_t max_threads = 0;
  // A hierarchical kernel (one index per work-group): its work-group-scope variables, on the
  // thread's stack, are local memory in SYCL's terms, so address-space queries do not classify.
  bool hierarchical = false;
  // The device the launch runs on (its device_global instances; runtime/device_global.hpp).
  const void* device = nullptr;
};

// An nd_range kernel. group_range/local_range are in SYCL dimension order, unused dimensions 1.
// run_item runs one work-item given its group id and local id (3 entries each).
struct nd_range_launch {
  const void* kernel;
  void (*run_item)(const void* kernel, const std::size_t* group_id, const std::size_t* local_id);
  // A whole work-group as loops over its work-items (sycl/detail/device/host_loops.hpp), or
  // null. Returns why not where the host compile could not make the loops; run_item then runs.
  const char* (*run_group)(sycl::detail::host::group_frame* frame) = nullptr;
  const char* name = nullptr; // the kernel's name, for errors and the fallback report
  int dimensions;
  std::size_t group_range[3];
  std::size_t local_range[3];
  std::size_t local_memory_bytes; // per work-group, 64-byte aligned block
  // Work-items per sub-group (a power of two; seed 004): consecutive linear local ids form a
  // sub-group. 0 means 1.
  std::uint32_t sub_group_size;
  // The kernel writes to a sycl::stream (each work-item starts with its own stream state).
  bool work_item_streams = false;
  // As range_launch::max_threads.
  std::size_t max_threads = 0;
  // sycl_ext_oneapi_root_group's use_root_sync: every work-group on a thread of its own, all at
  // once, with the barrier group_barrier(root_group) waits in. At most max_root_sync_groups().
  bool root_sync = false;
  // As range_launch::device.
  const void* device = nullptr;
};

// Runs the launch to completion on the pool; the calling thread takes part. Thread-safe:
// several threads may launch at once (they share the pool).
// An exception thrown by a kernel stops further chunks / work-groups from starting (those
// already running finish, every work-item of a started work-group still runs) and the first one
// is rethrown here once every thread has left the launch.
SYCLONE_EXPORT void run(const range_launch& launch);
SYCLONE_EXPORT void run(const nd_range_launch& launch);

// Number of threads that execute kernels (the calling thread included).
SYCLONE_EXPORT std::size_t concurrency() noexcept;
// The most work-groups a use_root_sync launch may have (the compute units: one thread each).
SYCLONE_EXPORT std::size_t max_root_sync_groups(std::size_t max_threads) noexcept;

// Work-item schedule for nd_range kernels, from SYCLONE_HOST_SCHEDULE:
//   "in-order" (default) or "shuffle[:seed]" (work-items start and resume after barriers in a
//   pseudo-random order: tests use it to expose missing barriers).
enum class schedule_kind { in_order, shuffled };
SYCLONE_EXPORT schedule_kind schedule() noexcept;
// The seed of the shuffled schedule ("shuffle:<seed>", decimal or 0x-hex; plain "shuffle" is 0).
// A given seed gives the same orders in every run, whichever thread runs a work-group.
SYCLONE_EXPORT std::uint64_t schedule_seed() noexcept;
// Replaces the schedule read from SYCLONE_HOST_SCHEDULE for launches that start afterwards (unit
// tests run both schedules in one process).
SYCLONE_EXPORT void set_schedule(schedule_kind kind, std::uint64_t seed = 0) noexcept;

// How nd_range kernels run, from SYCLONE_HOST_KERNELS: "loops" (default: work-groups as the
// loops the work-item loop compiler made, fibers where it could not), "report" (the same, and
// each kernel that runs on fibers says why on stderr, once) or "fibers" (every work-item a
// fiber: the reference the loops are tested against).
enum class kernel_mode { loops, report, fibers };
SYCLONE_EXPORT kernel_mode kernel_mode_setting() noexcept;

} // namespace syclone::host
