// Completion of CUDA operations (runtime::native_event over a pair of CUevents), the services
// events share per device (an event pool, the thread that delivers notifications, the clock
// that maps GPU timestamps onto the host's steady_clock) and the CUstream they run on.
#pragma once

#include "../../runtime/backend.hpp"
#include "../../runtime/spin_lock.hpp"
#include "cuda_driver.hpp"
#include "stream_order.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace syclone::cuda {

// Host steady_clock time in nanoseconds (the scale of the runtime's profiling timestamps).
std::uint64_t host_now_ns() noexcept;

// An exception_ptr holding the sycl::exception a failed driver call throws.
std::exception_ptr make_error(const char* call, CUresult result, const std::string& context);

// The life of a device's context (issue 28): cuda_device::recover resets a context a kernel fault
// poisoned, after which no handle made in it (streams, events, modules) may reach the driver
// again: the driver may give the same addresses to the new context's objects. Every object that
// holds such handles holds this, and asks it before a driver call.
struct context_life {
  std::atomic<bool> alive{true};
  bool is_alive() const noexcept { return alive.load(std::memory_order_acquire); }
};

// A CUstream, destroyed when the last of the stream and its events lets go of it (events tell
// operations of their own stream by it, so its address must not be reused while they live).
class stream_handle {
public:
  stream_handle(CUcontext context, unsigned flags, std::shared_ptr<const context_life> life);
  // A stream the user created (make_queue): used, never destroyed.
  stream_handle(CUcontext context, CUstream adopted,
                std::shared_ptr<const context_life> life) noexcept
      : m_context(context), m_stream(adopted), m_owned(false), m_life(std::move(life)) {}
  ~stream_handle();
  stream_handle(const stream_handle&) = delete;
  stream_handle& operator=(const stream_handle&) = delete;
  CUstream get() const noexcept { return m_stream; }
  CUcontext context() const noexcept { return m_context; }
  // False once the context it was made in was reset: the handle must not be used.
  bool alive() const noexcept { return !m_life || m_life->is_alive(); }

  // Serializes what is enqueued on streams that profile (an operation between its two timing
  // events) or record completion events lazily (cuda_stream::submit, cuda_event::end_event).
  // Other streams enqueue without a lock (issue 16: no lock held across a driver call); the
  // driver itself keeps a stream's operations in the order its calls returned.
  std::mutex mutex;
  // SYCLONE_CUDA_LAZY_EVENTS: the stream's last operation, when its completion event is not
  // recorded yet (guarded by `mutex`): recorded before the next operation is enqueued if its
  // event still lives, on demand if someone asks first, never if nothing can ask any more.
  std::weak_ptr<class cuda_event> unrecorded;

  // Numbers the operations in stream order (stream_order.hpp). `completed` is the highest
  // number known to have completed: the stream runs its operations in order, so every numbered
  // operation at or below it completed too and its event answers without a driver call (a queue
  // that prunes its finished commands asks the newest first, and one cuEventQuery then answers
  // for all the older ones).
  stream_tickets tickets;
  std::atomic<std::uint64_t> completed{0};

  // A kernel launch the launch thread made and the driver refused, whose event nobody held any
  // more (launch_thread.hpp): the stream's next submission or wait throws it.
  void set_launch_error(std::exception_ptr error);
  void rethrow_launch_error() {
    if (m_has_launch_error.load(std::memory_order_acquire)) rethrow_launch_error_slow();
  }
  void completed_through(std::uint64_t seq) noexcept {
    std::uint64_t c = completed.load(std::memory_order_relaxed);
    while (c < seq && !completed.compare_exchange_weak(c, seq, std::memory_order_release,
                                                       std::memory_order_relaxed)) {
    }
  }

private:
  void rethrow_launch_error_slow();

  CUcontext m_context;
  CUstream m_stream = nullptr;
  bool m_owned = true;
  std::shared_ptr<const context_life> m_life;
  std::atomic<bool> m_has_launch_error{false};
  std::mutex m_launch_error_mutex;
  std::exception_ptr m_launch_error;
};

// Reuses CUevents of one kind: creating one costs a driver call, and every operation records
// one or two. Timing events cost more to record and to wait for (H200, CUDA 13: 0.7 us per
// record, 1.6 us per wait), so only streams that profile use them.
class event_pool {
public:
  event_pool(CUcontext context, bool timing, std::shared_ptr<const context_life> life)
      : m_context(context), m_timing(timing), m_life(std::move(life)) {}
  // `what` (may be null) names the operation the event is for, in an error's message.
  CUevent acquire(const std::string* what = nullptr);
  void release(CUevent event) noexcept;

private:
  static constexpr std::size_t max_pooled = 4096;
  CUcontext m_context;
  bool m_timing;
  std::shared_ptr<const context_life> m_life;
  runtime::spin_lock m_mutex; // a push or a pop under it, never a driver call
  std::vector<CUevent> m_free;
};

// Maps GPU event timestamps onto the host steady_clock: a calibration event recorded on an idle
// stream completes at a known host time, and cuEventElapsedTime gives any other event's time
// relative to it. The float milliseconds it returns lose precision with distance, so the
// calibration is renewed when an event lies more than a second away from it.
class clock_calibration {
public:
  clock_calibration(CUcontext context, std::shared_ptr<const context_life> life)
      : m_context(context), m_life(std::move(life)) {}
  // The host time of a completed timing event; false when the driver cannot tell.
  bool host_time(CUevent event, std::int64_t& ns);

private:
  bool calibrate();
  CUcontext m_context;
  std::shared_ptr<const context_life> m_life;
  std::mutex m_mutex;
  std::unique_ptr<stream_handle> m_stream;
  CUevent m_event = nullptr;
  std::int64_t m_host_ns = 0;
};

class cuda_event;

// What error messages call an operation ("kernel `K` on NVIDIA H100"). A kernel launch refers to
// the text its kernel_function built once (it lives as long as the device), so that a launch
// formats no string; copies and fills own theirs.
class operation_name {
public:
  explicit operation_name(std::string owned) : m_owned(std::move(owned)) {}
  // Refers to `text`, which must outlive every event named by it.
  static operation_name lasting(const std::string& text) {
    operation_name n{std::string()};
    n.m_lasting = &text;
    return n;
  }
  const std::string& text() const noexcept { return m_lasting ? *m_lasting : m_owned; }

private:
  std::string m_owned;
  const std::string* m_lasting = nullptr;
};

// Delivers native_event::notify callbacks from a helper thread, which may call the driver (the
// callbacks complete runtime events, and whatever that runs). The thread polls the pending events:
// without sleeping for a short while after a new one arrives (short operations report within
// microseconds), then with sleeps doubling up to a millisecond. Host functions
// (cuLaunchHostFunc) are not used: one stalls its stream until the driver's callback thread ran
// it (measured on an H200: 24 us per kernel + notification against 11 us with polling), and none
// runs once the context has failed.
class completion_dispatcher {
public:
  explicit completion_dispatcher(CUcontext context) : m_context(context) {}
  void watch(std::shared_ptr<cuda_event> event, std::function<void(std::exception_ptr)> fn);

private:
  struct entry {
    std::shared_ptr<cuda_event> event;
    std::function<void(std::exception_ptr)> fn;
  };
  void loop();

  static constexpr std::chrono::microseconds spin_time{50};
  static constexpr std::chrono::microseconds first_sleep{20};
  static constexpr std::chrono::microseconds longest_sleep{1000};

  CUcontext m_context;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::vector<entry> m_entries;
  bool m_wake = false;
  bool m_started = false;
};

// What the events of one device share.
struct event_services {
  event_services(CUcontext context, std::shared_ptr<const context_life> life)
      : context(context), life(life), timing_pool(context, true, life),
        plain_pool(context, false, life), clock(context, life), dispatcher(context) {}
  CUcontext context;
  std::shared_ptr<const context_life> life;
  event_pool timing_pool; // CU_EVENT_DEFAULT
  event_pool plain_pool;  // CU_EVENT_DISABLE_TIMING
  clock_calibration clock;
  completion_dispatcher dispatcher;
};

// One operation on a stream: an event recorded after it and, on streams that profile, a timing
// event recorded before it (both timing events then). `end` is null when its recording is left
// for later (stream_handle::unrecorded).
class cuda_event final : public runtime::native_event,
                         public std::enable_shared_from_this<cuda_event> {
public:
  // `start` is null without profiling (and `enqueued_ns` unused then). `what` names the
  // operation in error messages. `seq`: the operation's number on its stream
  // (enqueue_window::order; 0: not numbered).
  cuda_event(event_services& services, std::shared_ptr<stream_handle> stream, CUevent start,
             CUevent end, std::uint64_t enqueued_ns, operation_name what, std::uint64_t seq);
  ~cuda_event() override;

  bool query() override;
  void wait() override;
  void notify(std::function<void(std::exception_ptr)> fn) override;
  bool profile(std::uint64_t& start_ns, std::uint64_t& end_ns) override;

  // The completion event, recorded now if it was left for later (exactly after the operation:
  // no later operation of the stream was enqueued meanwhile); null when that failed (error()).
  CUevent end_event() noexcept;
  void* native_handle() const noexcept override {
    return const_cast<cuda_event*>(this)->end_event();
  }
  std::uint64_t stream_order() const noexcept override { return m_seq; }
  // A kernel launch handed to the stream's launch thread (launch_thread.hpp): before the event
  // is published, it waits for the launch, which sets its number on the stream and then calls
  // launched() with its recorded completion event (null: nothing can ask) or launch_failed().
  void mark_launch_pending() noexcept {
    m_launch_pending.store(true, std::memory_order_relaxed);
    m_end_recorded.store(false, std::memory_order_relaxed);
  }
  void set_stream_order(std::uint64_t seq) noexcept { m_seq = seq; }
  void launched(CUevent end) noexcept;
  void launch_failed(std::exception_ptr error) noexcept;
  // Records the completion event now; the caller holds the stream's mutex and enqueued nothing
  // after the operation.
  void record_end_locked() noexcept;
  const stream_handle* stream() const noexcept { return m_stream.get(); }
  CUcontext context() const noexcept { return m_services.context; }
  // The failure query() or wait() saw, or null.
  std::exception_ptr error() const;

private:
  void fail(const char* call, CUresult result);
  // Done, failed, when its context was reset (no driver call may name its handles any more).
  bool fail_if_reset();

  event_services& m_services;
  std::shared_ptr<stream_handle> m_stream;
  CUevent m_start, m_end;
  std::atomic<bool> m_end_recorded;
  std::uint64_t m_enqueued_ns;
  std::uint64_t m_seq;
  operation_name m_what;
  std::atomic<bool> m_done{false};
  std::atomic<bool> m_launch_pending{false};
  mutable std::mutex m_mutex;
  std::exception_ptr m_error;
  // Set (under m_mutex, after m_error) by the first failure: error() of an operation that did
  // not fail, the usual case, takes no lock.
  std::atomic<bool> m_failed{false};
};

} // namespace syclone::cuda
