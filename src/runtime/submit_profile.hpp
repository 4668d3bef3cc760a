// SYCLONE_SUBMIT_PROFILE=1: where the submitting thread's time goes, per submission (issue 16).
// Each phase of queue::submit, of the scheduler and of a backend's launch adds its time here;
// at exit the mean per submission is printed to stderr. Off (the default), a phase costs one
// test of a constant.
#pragma once

#include <sycl/detail/config.hpp>

#include <chrono>
#include <cstdint>

namespace syclone::runtime {

enum class submit_phase : int {
  command_group, // handler, the user's command group function (accessors, requirements)
  checks,        // kernel bundle, sub-group size, nd_range limits, the backend's kernel lookup
  command,       // the command's event
  buffer_deps,   // of the command: buffer dependencies (accessor bookkeeping)
  queue_books,   // of the command: the queue's bookkeeping (last event, outstanding events)
  dependencies,  // the scheduler's dependency analysis, continuations
  execute,       // running the command, less the backend's operation (buffer data moves)
  backend,       // the backend's operation as a whole (stream::run_kernel, copy, fill)
  driver_launch, // of which the driver's launch call (cuLaunchKernel)
  driver_record, // of which recording the operation's completion event (cuEventRecord)
  completion,    // after the backend's operation: the event's native handle, releasing captures
  // On a CUDA stream's launch thread (src/backends/cuda/launch_thread.hpp), per launch it made:
  thread_launch, // the driver's launch call
  thread_record, // recording the completion event (when the event is still held)
  thread_finish, // handing the event over and releasing it
  count
};

SYCLONE_EXPORT bool submit_profiling() noexcept;
SYCLONE_EXPORT void submit_profile_add(submit_phase phase, std::uint64_t ns) noexcept;
// Counts one submission (the mean's denominator).
SYCLONE_EXPORT void submit_profile_count() noexcept;

inline std::uint64_t profile_now() noexcept {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

// Adds the time since the previous mark (or construction) to a phase.
class submit_timer {
public:
  submit_timer() : m_on(submit_profiling()), m_last(m_on ? profile_now() : 0) {}
  void mark(submit_phase p) noexcept {
    if (!m_on) return;
    std::uint64_t now = profile_now();
    submit_profile_add(p, now - m_last);
    m_last = now;
  }
  bool on() const noexcept { return m_on; }

private:
  bool m_on;
  std::uint64_t m_last;
};

} // namespace syclone::runtime
