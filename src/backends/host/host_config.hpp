// The host device's settings, read from the environment once (the first launch) and fixed for
// the process, except the schedule, which unit tests replace through set_schedule().
#pragma once

#include "host_executor.hpp"

#include <cstddef>
#include <cstdint>

namespace syclone::host {

struct host_config {
  // SYCLONE_HOST_THREADS: threads that run kernels, the launching thread included. Default: the
  // CPUs this process may run on (sched_getaffinity), at most hardware_concurrency().
  std::size_t threads;
  // SYCLONE_HOST_STACK_SIZE: bytes per work-item fiber stack ("256K", "1M", or bytes). Work-items
  // of nd_range kernels run on these stacks, so deep recursion or large arrays in a kernel need
  // more; default 256 KiB. Only touched pages cost memory.
  std::size_t stack_size;
  // SYCLONE_HOST_SPIN_US: how long an idle pool thread polls for new work before it sleeps in the
  // kernel; polling makes back-to-back launches start without a wake-up system call.
  std::uint64_t spin_ns;
};

const host_config& config() noexcept;

} // namespace syclone::host
