// Kernel launches of a busy stream, made by a thread of their own (issue 16).
//
// A cuLaunchKernel costs the calling thread ~2.9 us on the H100 machine (CUDA 13), and a
// back-to-back loop of launches is bound by that host time, not by the GPU. syclone's own work
// per submission (handler, command, dependencies, event: ~1 us) came on top of it. When kernels
// follow each other on a stream whose work has not completed, the submitting thread now hands
// the launch (function, shape, a copy of the kernel object) to this thread and returns; the two
// overlap, and the loop runs at the driver's pace (the same split measured natively first:
// bench/cuda_native_launch_thread.cu, results in bench/results/submission.md). A stream with
// nothing in flight (a submit followed by a wait) launches directly: the hand-off would only add
// its latency there.
//
// Order: each launch takes its stream ticket (stream_order.hpp) when it is handed over, and this
// thread makes the launches in ticket order; everything else the stream enqueues first waits
// until every handed-over launch was made (drain), so a thread's own operations stay in the
// order it submitted them. A launch's number is its ticket's, known at once: a numbered
// operation before it finished its enqueue before the ticket was taken, and another thread's
// enqueue still in flight then is left unnumbered by its own window.
//
// Memory: a launch handed over but not made yet is invisible to the driver, so a driver call that
// waits for the device's work (cuMemFree and cuMemFreeHost wait, as cudaFree does, and programs
// ported from CUDA free right after submitting) would not wait for it, and the kernel would run
// on freed memory. Before the backend frees memory it makes every launch handed over so far, on
// every stream of the process (drain_all; kernels may use another device's memory): the free
// then waits for them as it waits for launches made directly (issue 28).
//
// Completion: the launch's event (cuda_event) waits for the launch before asking the driver
// about it; its completion CUevent is recorded after the launch only if something still holds
// the event (a dropped event can never be asked). A launch the driver refuses fails its event
// and is reported by the stream's next submission or wait (stream_handle::launch_error).
#pragma once

#include "../../runtime/spin_lock.hpp"
#include "cuda_driver.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace syclone::cuda {

class cuda_event;
class event_pool;
class stream_handle;

class launch_thread {
public:
  // One kernel launch, as cuLaunchKernel takes it; the kernel object's bytes are copied.
  struct launch {
    CUfunction function;
    unsigned grid[3], block[3], shared_bytes;
    const void* object;
    std::size_t object_size;
    const std::string* description; // the kernel's "kernel `K` on <device>" (lives with it)
    bool prints;                    // kernel_function::prints: print_after_kernel follows it
  };

  launch_thread(std::shared_ptr<stream_handle> stream, event_pool& pool);
  ~launch_thread(); // makes what was handed over, then stops
  launch_thread(const launch_thread&) = delete;
  launch_thread& operator=(const launch_thread&) = delete;

  // Whether a kernel launch on the stream should be handed over now: launches are pending here
  // (order), or the stream has work in flight and this thread is awake. A stream with work in
  // flight while the thread sleeps launches directly and wakes it for the launches to come.
  bool should_take(bool stream_busy);
  // Hands `l` over with `event`, its event (cuda_event::mark_launch_pending), which this numbers
  // with the stream ticket it takes. Waits while the hand-over ring is full.
  void take(const launch& l, std::shared_ptr<cuda_event> event);
  // Returns once every launch handed over so far was made.
  void drain() const noexcept;
  // drain() on every launch thread of the process: what was handed over before the call is made
  // when it returns (later hand-overs are not waited for).
  static void drain_all() noexcept;
  bool idle() const noexcept {
    return m_made.load(std::memory_order_acquire) == m_taken.load(std::memory_order_acquire);
  }

private:
  static constexpr std::size_t ring_size = 256;
  static constexpr std::size_t inline_object = 256;
  struct slot {
    launch l;
    std::uint64_t ticket;
    std::shared_ptr<cuda_event> event;
    alignas(64) unsigned char bytes[inline_object];
    std::vector<unsigned char> large; // a kernel object beyond inline_object bytes
  };

  void start();
  void wake() noexcept;
  void loop();
  void make(slot& s);
  // Returns once the launches up to hand-over number `taken` were made.
  void drain_to(std::uint32_t taken) const noexcept;

  std::shared_ptr<stream_handle> m_stream;
  event_pool& m_pool;
  std::vector<slot> m_ring;
  runtime::spin_lock m_take_lock;         // orders hand-overs (ticket and slot together)
  std::atomic<std::uint32_t> m_taken{0};  // hand-overs so far
  std::atomic<std::uint32_t> m_made{0};   // launches made so far
  std::atomic<std::uint32_t> m_signal{0}; // bumped by hand-overs and stop; the thread sleeps on it
  std::atomic<bool> m_sleeping{false};
  std::atomic<bool> m_running{false}; // the thread was started
  std::atomic<bool> m_stop{false};
  std::once_flag m_started;
  std::thread m_thread;
};

} // namespace syclone::cuda
