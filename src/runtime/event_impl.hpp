// event_impl: the completion state of one command (SYCL 2020 4.6.6).
#pragma once

#include "backend.hpp"
#include "spin_lock.hpp"

#include <sycl/event.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

std::uint64_t now_ns() noexcept;

class event_impl;
// Removes the events that completed from `events`, asking the newest first: a backend whose
// streams run in order (CUDA) then answers for the older operations of a stream without a
// driver call each, once a newer one of it completed.
void erase_completed(std::vector<std::shared_ptr<event_impl>>& events);
// Removes from `events`, without asking any backend, those that completed and those a newer
// event of the list stands for: an operation of a backend stream that numbers its operations
// (native_event::stream_order), older than another of the list on the same stream, completes
// before it, so waiting for every event of the list still waits for everything it waited for
// before. Events that release something when they complete (keep_until_complete: a
// sycl::stream's output) stay, since waiting for them means waiting for that too.
void erase_superseded(std::vector<std::shared_ptr<event_impl>>& events);
// Runs the command of `ev` on the calling thread when it is ready but no worker took it yet;
// false otherwise (src/runtime/scheduler.cpp).
bool run_queued(const event_impl& ev);

class event_impl : public std::enable_shared_from_this<event_impl> {
public:
  // A user-visible event for a command; `profiling` enables the profiling queries.
  explicit event_impl(bool profiling = false);
  // Events of host accessors: the data is already on the host, so other host accessors of
  // the same buffer need not wait for them (only device commands do).
  bool host_access = false;
  // The backend of the queue that submitted the command (SYCL 2020 4.6.6 get_backend).
  sycl::backend backend = sycl::backend::syclone_host;
  static std::shared_ptr<event_impl> completed();

  info::event_command_status status() const noexcept {
    return m_status.load(std::memory_order_acquire);
  }
  // Also completes the event when its native event reports completion.
  bool is_complete() noexcept;
  void set_running();
  // Marks the command done and runs the continuations registered with on_complete; later
  // calls do nothing.
  void set_complete();
  void wait();
  // The backend's handle of the operation (null for operations done when they returned). Set
  // once, and kept until the event is destroyed: get_native answers it after completion too,
  // and releasing it (a CUevent back to its pool) is no work for the thread that waited.
  void set_native(std::shared_ptr<syclone::runtime::native_event> native);
  std::shared_ptr<syclone::runtime::native_event> native() const;
  // Runs fn when the event completes; returns false (and does not run fn) if it already has.
  bool on_complete(std::function<void()> fn);
  // Runs fn(true) once the command is on its device stream (set_native, after set_stream: a
  // command of the same stream enqueued after that is ordered after it), or fn(false) when it
  // completes first (a command with no native operation; possibly on a backend's notification
  // thread). Returns false (and does not run fn) if either happened already.
  bool on_enqueued(std::function<void(bool)> fn);
  // Holds `keep` until the event completes and releases it before the event reads complete
  // (a sycl::stream prints its output when released: SYCL 2020 4.16, the output is there once
  // the command completed, for every waiter). Released at once if the event already completed.
  void keep_until_complete(std::shared_ptr<const void> keep);
  // The native event's stream_order, once set_native gave it one (0 otherwise).
  std::uint64_t stream_order() const noexcept { return m_order.load(std::memory_order_acquire); }
  // Whether keep_until_complete gave the event something to release when it completes.
  bool keeps() const noexcept { return m_keeps.load(std::memory_order_acquire); }

  // The stream the command ran on, once it ran on one (the scheduler keeps a command on the
  // stream of a command it depends on, where stream order is the dependency).
  void set_stream(const syclone::runtime::stream* s) noexcept {
    m_stream.store(s, std::memory_order_release);
  }
  const syclone::runtime::stream* stream() const noexcept {
    return m_stream.load(std::memory_order_acquire);
  }

  bool profiling() const noexcept { return m_profiling; }
  std::uint64_t submit_time() const { return m_submit; }
  std::uint64_t start_time() const { return m_start; }
  std::uint64_t end_time() const { return m_end; }
  void set_submit_time(std::uint64_t t) { m_submit = t; }

  // The queue that submitted the command: wait_and_throw delivers its asynchronous errors.
  void set_queue(std::weak_ptr<queue_impl> q) { m_queue = std::move(q); }
  std::shared_ptr<queue_impl> queue() const { return m_queue.lock(); }
  std::vector<std::shared_ptr<event_impl>> dependencies() const;
  // SYCL 2020 4.6.6 get_wait_list: the command's dependencies, and `previous`, the command before
  // it on an in-order queue (may be null). Held apart so that an in-order queue's submission
  // allocates nothing here. Takes no lock: call it before the command is scheduled (nothing
  // completes the event before), from the submitting thread, before the user gets the event.
  void set_dependencies(const std::vector<std::shared_ptr<event_impl>>& deps,
                        const std::shared_ptr<event_impl>& previous);

private:
  // Polls the status for a few microseconds; true once complete.
  bool spin_until_complete() const;
  // Waits for the native event, if there is one yet; false otherwise.
  bool wait_native();
  void request_notify(const std::shared_ptr<syclone::runtime::native_event>& native);
  std::atomic<info::event_command_status> m_status{info::event_command_status::submitted};
  bool m_profiling;
  std::atomic<const syclone::runtime::stream*> m_stream{nullptr};
  std::atomic<std::uint64_t> m_order{0};
  std::atomic<bool> m_keeps{false};
  std::uint64_t m_submit = 0, m_start = 0, m_end = 0;
  std::weak_ptr<queue_impl> m_queue;
  // Written once, under m_mutex, before m_native_ptr publishes it; read without a lock after.
  std::shared_ptr<syclone::runtime::native_event> m_native;
  std::atomic<syclone::runtime::native_event*> m_native_ptr{nullptr};
  bool m_notify_requested = false;
  int m_waiters = 0;
  // Short sections (a few stores, a push): one atomic exchange each (issue 16). Completing the
  // event also releases what keep_until_complete holds under it, and a waiter sleeps on
  // m_status itself (C++20 atomic wait), not on this lock.
  mutable syclone::runtime::spin_lock m_mutex;
  std::vector<std::function<void()>> m_continuations;
  std::vector<std::function<void(bool)>> m_enqueued_continuations;
  std::shared_ptr<const void> m_keep;
  // Weak: a long in-order chain of events must not own its whole history (nor destroy it
  // recursively).
  // The first dependency apart, so that a command with one (a buffer's last writer) allocates
  // nothing here.
  std::weak_ptr<event_impl> m_first_dep;
  std::vector<std::weak_ptr<event_impl>> m_deps; // the others
  std::weak_ptr<event_impl> m_previous;
};

} // namespace detail
SYCLONE_END_NAMESPACE
