#include "cuda_event.hpp"

#include <sycl/exception.hpp>

#include <chrono>
#include <cmath>
#include <thread>
#include <utility>

namespace syclone::cuda {

std::uint64_t host_now_ns() noexcept {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

std::exception_ptr make_error(const char* call, CUresult result, const std::string& context) {
  try {
    throw_error(call, result, context);
  } catch (...) {
    return std::current_exception();
  }
}

// stream_handle

stream_handle::stream_handle(CUcontext context, unsigned flags,
                             std::shared_ptr<const context_life> life)
    : m_context(context), m_life(std::move(life)) {
  make_current(context);
  call(driver().stream_create, &m_stream, flags);
}

stream_handle::~stream_handle() {
  // Work still in the stream completes first; the driver releases the stream after it. Errors
  // (a driver already shut down at exit) leave nothing to clean up.
  if (m_owned && alive() && try_make_current(m_context) == CUDA_SUCCESS)
    invoke(driver().stream_destroy, m_stream);
}

void stream_handle::set_launch_error(std::exception_ptr error) {
  std::lock_guard lock(m_launch_error_mutex);
  if (!m_launch_error) m_launch_error = std::move(error);
  m_has_launch_error.store(true, std::memory_order_release);
}

void stream_handle::rethrow_launch_error_slow() {
  std::exception_ptr e;
  {
    std::lock_guard lock(m_launch_error_mutex);
    e = std::exchange(m_launch_error, nullptr);
    m_has_launch_error.store(false, std::memory_order_release);
  }
  if (e) std::rethrow_exception(e);
}

// event_pool

CUevent event_pool::acquire(const std::string* what) {
  if (m_life && !m_life->is_alive())
    sycl::detail::throw_error(sycl::errc::runtime,
                              "the device's CUDA context was reset after a fault: create a new "
                              "queue for the device");
  {
    std::lock_guard lock(m_mutex);
    if (!m_free.empty()) {
      CUevent e = m_free.back();
      m_free.pop_back();
      return e;
    }
  }
  CUevent e = nullptr;
  make_current(m_context);
  if (CUresult r =
          invoke(driver().event_create, &e, m_timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING);
      r != CUDA_SUCCESS)
    throw_error(driver().event_create.name, r, what ? *what : std::string());
  return e;
}

void event_pool::release(CUevent event) noexcept {
  if (m_life && !m_life->is_alive()) return; // the reset destroyed it
  {
    std::lock_guard lock(m_mutex);
    if (m_free.size() < max_pooled) {
      m_free.push_back(event);
      return;
    }
  }
  if (try_make_current(m_context) == CUDA_SUCCESS) invoke(driver().event_destroy, event);
}

// clock_calibration

bool clock_calibration::calibrate() {
  if (!m_stream) {
    m_stream = std::make_unique<stream_handle>(m_context, CU_STREAM_NON_BLOCKING, m_life);
    if (invoke(driver().event_create, &m_event, CU_EVENT_DEFAULT) != CUDA_SUCCESS) {
      m_event = nullptr;
      return false;
    }
  }
  // The event runs as soon as it is recorded on this idle stream: its GPU time lies between the
  // two host readings, whose midpoint is the estimate.
  std::uint64_t before = host_now_ns();
  if (invoke(driver().event_record, m_event, m_stream->get()) != CUDA_SUCCESS ||
      invoke(driver().event_synchronize, m_event) != CUDA_SUCCESS)
    return false;
  std::uint64_t after = host_now_ns();
  m_host_ns = static_cast<std::int64_t>(before + (after - before) / 2);
  return true;
}

bool clock_calibration::host_time(CUevent event, std::int64_t& ns) {
  std::lock_guard lock(m_mutex);
  if (m_life && !m_life->is_alive()) return false;
  make_current(m_context);
  if (!m_event && !calibrate()) return false;
  float ms = 0;
  if (invoke(driver().event_elapsed_time, &ms, m_event, event) != CUDA_SUCCESS) return false;
  if (std::fabs(ms) > 1000.0f &&
      static_cast<std::int64_t>(host_now_ns()) - m_host_ns > 1000000000) {
    if (calibrate() && invoke(driver().event_elapsed_time, &ms, m_event, event) != CUDA_SUCCESS)
      return false;
  }
  ns = m_host_ns + static_cast<std::int64_t>(std::llround(static_cast<double>(ms) * 1e6));
  return true;
}

// completion_dispatcher

void completion_dispatcher::watch(std::shared_ptr<cuda_event> event,
                                  std::function<void(std::exception_ptr)> fn) {
  {
    std::lock_guard lock(m_mutex);
    m_entries.push_back({std::move(event), std::move(fn)});
    m_wake = true;
    if (!m_started) {
      m_started = true;
      // Never joined: devices live as long as the process.
      std::thread([this] { loop(); }).detach();
    }
  }
  m_cv.notify_one();
}

void completion_dispatcher::loop() {
  using clock = std::chrono::steady_clock;
  try_make_current(m_context);
  std::unique_lock lock(m_mutex);
  auto spin_until = clock::now();
  auto sleep = first_sleep;
  for (;;) {
    if (m_entries.empty()) {
      m_cv.wait(lock, [&] { return m_wake; });
    } else if (!m_wake && clock::now() < spin_until) {
      lock.unlock();
      std::this_thread::yield();
      lock.lock();
    } else if (!m_wake) {
      m_cv.wait_for(lock, sleep, [&] { return m_wake; });
      sleep = std::min(sleep * 2, longest_sleep);
    }
    if (m_wake) {
      spin_until = clock::now() + spin_time;
      sleep = first_sleep;
      m_wake = false;
    }
    std::vector<entry> pending;
    pending.swap(m_entries);
    lock.unlock();

    std::vector<entry> finished, waiting;
    for (auto& e : pending) (e.event->query() ? finished : waiting).push_back(std::move(e));
    for (auto& e : finished) e.fn(e.event->error());
    finished.clear();

    lock.lock();
    for (auto& e : waiting) m_entries.push_back(std::move(e));
  }
}

// cuda_event

cuda_event::cuda_event(event_services& services, std::shared_ptr<stream_handle> stream,
                       CUevent start, CUevent end, std::uint64_t enqueued_ns, operation_name what,
                       std::uint64_t seq)
    : m_services(services), m_stream(std::move(stream)), m_start(start), m_end(end),
      m_end_recorded(end != nullptr), m_enqueued_ns(enqueued_ns), m_seq(seq),
      m_what(std::move(what)) {}

cuda_event::~cuda_event() {
  if (m_start) {
    m_services.timing_pool.release(m_start);
    m_services.timing_pool.release(m_end);
  } else if (m_end) {
    m_services.plain_pool.release(m_end);
  }
}

void cuda_event::record_end_locked() noexcept {
  if (m_end_recorded.load(std::memory_order_acquire)) return;
  if (fail_if_reset()) {
    m_end_recorded.store(true, std::memory_order_release);
    return;
  }
  CUevent e = nullptr;
  try {
    e = m_services.plain_pool.acquire(&m_what.text());
  } catch (...) {
    std::lock_guard lock(m_mutex);
    if (!m_error) m_error = std::current_exception();
    m_failed.store(true, std::memory_order_release);
    m_done.store(true, std::memory_order_release);
    m_end_recorded.store(true, std::memory_order_release);
    return;
  }
  CUresult r = try_make_current(m_services.context);
  if (r == CUDA_SUCCESS) r = invoke(driver().event_record, e, m_stream->get());
  if (r != CUDA_SUCCESS) {
    m_services.plain_pool.release(e);
    fail(driver().event_record.name, r);
  } else {
    m_end = e;
  }
  m_end_recorded.store(true, std::memory_order_release);
}

void cuda_event::launched(CUevent end) noexcept {
  m_end = end;
  m_end_recorded.store(true, std::memory_order_release);
  m_launch_pending.store(false, std::memory_order_release);
}

void cuda_event::launch_failed(std::exception_ptr error) noexcept {
  {
    std::lock_guard lock(m_mutex);
    if (!m_error) m_error = std::move(error);
    m_failed.store(true, std::memory_order_release);
  }
  m_done.store(true, std::memory_order_release);
  launched(nullptr);
}

CUevent cuda_event::end_event() noexcept {
  if (!m_stream->alive()) return nullptr;
  // A launch still with the launch thread: it comes within microseconds.
  for (int spins = 0; m_launch_pending.load(std::memory_order_acquire); ++spins) {
    if (spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield();
    }
  }
  if (!m_end_recorded.load(std::memory_order_acquire)) {
    std::lock_guard lock(m_stream->mutex);
    record_end_locked();
    if (m_stream->unrecorded.lock().get() == this) m_stream->unrecorded.reset();
  }
  return m_end;
}

void cuda_event::fail(const char* call, CUresult result) {
  std::lock_guard lock(m_mutex);
  if (!m_error) m_error = make_error(call, result, m_what.text());
  m_failed.store(true, std::memory_order_release);
  m_done.store(true, std::memory_order_release);
}

bool cuda_event::fail_if_reset() {
  if (m_stream->alive()) return false;
  std::lock_guard lock(m_mutex);
  if (!m_error)
    m_error = std::make_exception_ptr(sycl::exception(
        sycl::make_error_code(sycl::errc::runtime),
        m_what.text() + ": lost: the device's CUDA context was reset after a fault in "
                        "a kernel (reported before); submit the work again on a new queue"));
  m_failed.store(true, std::memory_order_release);
  m_done.store(true, std::memory_order_release);
  return true;
}

std::exception_ptr cuda_event::error() const {
  if (!m_failed.load(std::memory_order_acquire)) return nullptr;
  std::lock_guard lock(m_mutex);
  return m_error;
}

bool cuda_event::query() {
  if (m_done.load(std::memory_order_acquire)) return true;
  // A later operation of the stream completed (and so did this one, without an error: a failed
  // operation fails every later query of its context).
  if (m_seq != 0 && m_seq <= m_stream->completed.load(std::memory_order_acquire)) {
    m_done.store(true, std::memory_order_release);
    return true;
  }
  if (m_launch_pending.load(std::memory_order_acquire)) return false; // not even launched yet
  if (fail_if_reset()) return true;
  if (CUresult r = try_make_current(m_services.context); r != CUDA_SUCCESS) {
    fail(driver().ctx_set_current.name, r);
    return true;
  }
  CUevent end = end_event();
  if (!end) return true; // recording it failed: done, with that error
  CUresult r = invoke(driver().event_query, end);
  if (r == CUDA_SUCCESS) {
    m_done.store(true, std::memory_order_release);
    if (m_seq) m_stream->completed_through(m_seq);
    return true;
  }
  if (r == CUDA_ERROR_NOT_READY) return false;
  // The operation (or an earlier one of the context) failed: done, with that error.
  fail(driver().event_query.name, r);
  return true;
}

void cuda_event::wait() {
  // A later operation of the stream was seen complete (a host accessor's read-back behind the
  // kernel it reads): no driver call.
  if (!m_done.load(std::memory_order_acquire) && m_seq != 0 &&
      m_seq <= m_stream->completed.load(std::memory_order_acquire))
    m_done.store(true, std::memory_order_release);
  if (!m_done.load(std::memory_order_acquire) && !fail_if_reset()) {
    make_current(m_services.context);
    CUevent end = end_event();
    CUresult r = end ? invoke(driver().event_synchronize, end) : CUDA_SUCCESS;
    if (r == CUDA_SUCCESS) {
      m_done.store(true, std::memory_order_release);
      if (end && m_seq) m_stream->completed_through(m_seq);
    } else
      fail(driver().event_synchronize.name, r);
  }
  if (auto e = error()) std::rethrow_exception(e);
  m_stream->rethrow_launch_error();
}

void cuda_event::notify(std::function<void(std::exception_ptr)> fn) {
  if (query()) {
    fn(error());
    return;
  }
  m_services.dispatcher.watch(shared_from_this(), std::move(fn));
}

bool cuda_event::profile(std::uint64_t& start_ns, std::uint64_t& end_ns) {
  if (!m_start || !query() || error() || !m_stream->alive()) return false;
  std::int64_t start = 0;
  float ms = 0;
  if (!m_services.clock.host_time(m_start, start)) return false;
  if (invoke(driver().event_elapsed_time, &ms, m_start, m_end) != CUDA_SUCCESS) return false;
  // An operation cannot start before it was enqueued; the calibration's error can say so.
  auto s = std::max<std::int64_t>(start, static_cast<std::int64_t>(m_enqueued_ns));
  start_ns = static_cast<std::uint64_t>(s);
  end_ns = start_ns + static_cast<std::uint64_t>(std::llround(std::max(0.0f, ms) * 1e6));
  return true;
}

} // namespace syclone::cuda
