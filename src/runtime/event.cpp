// SYCL 2020 4.6.6. Events.
#include "event_impl.hpp"
#include "queue_impl.hpp"

#include <chrono>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

std::uint64_t now_ns() noexcept {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

event_impl::event_impl(bool profiling) : m_profiling(profiling) {
  if (profiling) m_submit = now_ns();
}

std::shared_ptr<event_impl> event_impl::completed() {
  auto e = std::make_shared<event_impl>(false);
  e->m_status.store(info::event_command_status::complete, std::memory_order_release);
  return e;
}

void event_impl::set_running() {
  if (m_profiling) m_start = now_ns();
  m_status.store(info::event_command_status::running, std::memory_order_release);
}

void event_impl::set_complete() {
  std::vector<std::function<void()>> continuations;
  std::vector<std::function<void(bool)>> enqueued;
  {
    std::lock_guard lock(m_mutex);
    if (m_status.load(std::memory_order_relaxed) == info::event_command_status::complete) return;
    // Under the lock: a second thread completing the event (a waiter and the backend's
    // notification) returns only after the release, so no waiter returns before it.
    m_keep.reset();
    if (m_profiling) {
      std::uint64_t start = 0, end = 0;
      if (m_native && m_native->profile(start, end)) {
        m_start = start;
        m_end = end;
      } else {
        m_end = now_ns();
        if (!m_start) m_start = m_end;
      }
    }
    m_status.store(info::event_command_status::complete, std::memory_order_release);
    continuations.swap(m_continuations);
    enqueued.swap(m_enqueued_continuations);
    m_first_dep.reset(); // completed events must not keep their history alive
    m_deps.clear();
    m_previous.reset();
  }
  m_status.notify_all(); // waiters blocked in wait()
  for (auto& c : enqueued) c(false);
  for (auto& c : continuations) c();
}

bool event_impl::is_complete() noexcept {
  if (status() == info::event_command_status::complete) return true;
  syclone::runtime::native_event* n = m_native_ptr.load(std::memory_order_acquire);
  if (n && n->query()) {
    // A failure is reported by whoever waits for or was notified of the operation.
    set_complete();
    return true;
  }
  return false;
}

void erase_completed(std::vector<std::shared_ptr<event_impl>>& events) {
  for (auto it = events.rbegin(); it != events.rend(); ++it) (*it)->is_complete();
  std::erase_if(events,
                [](const auto& e) { return e->status() == info::event_command_status::complete; });
}

void erase_superseded(std::vector<std::shared_ptr<event_impl>>& events) {
  // The newest operation of each stream among the events (a queue has at most 16 streams).
  struct newest {
    const syclone::runtime::stream* stream;
    std::uint64_t order;
  };
  newest found[16];
  std::size_t streams = 0;
  for (const auto& e : events) {
    const std::uint64_t order = e->stream_order();
    if (order == 0) continue;
    const auto* s = e->stream();
    std::size_t i = 0;
    while (i < streams && found[i].stream != s) ++i;
    if (i == streams) {
      if (streams == std::size(found)) continue; // a stream beyond the table: its events stay
      found[streams++] = {s, order};
    } else if (order > found[i].order) {
      found[i].order = order;
    }
  }
  std::erase_if(events, [&](const auto& e) {
    if (e->status() == info::event_command_status::complete) return true;
    const std::uint64_t order = e->stream_order();
    if (order == 0 || e->keeps()) return false;
    const auto* s = e->stream();
    for (std::size_t i = 0; i < streams; ++i)
      if (found[i].stream == s) return order < found[i].order;
    return false;
  });
}

void event_impl::set_native(std::shared_ptr<syclone::runtime::native_event> native) {
  bool notify;
  std::vector<std::function<void(bool)>> enqueued;
  {
    std::lock_guard lock(m_mutex);
    if (status() == info::event_command_status::complete || m_native) return;
    m_native = native;
    m_native_ptr.store(m_native.get(), std::memory_order_release);
    m_order.store(native->stream_order(), std::memory_order_release);
    notify = !m_notify_requested && (!m_continuations.empty() || m_waiters > 0);
    if (notify) m_notify_requested = true;
    enqueued.swap(m_enqueued_continuations);
  }
  if (notify) request_notify(native);
  for (auto& c : enqueued) c(true);
}

bool event_impl::on_enqueued(std::function<void(bool)> fn) {
  std::lock_guard lock(m_mutex);
  if (status() == info::event_command_status::complete || m_native) return false;
  m_enqueued_continuations.push_back(std::move(fn));
  return true;
}

std::shared_ptr<syclone::runtime::native_event> event_impl::native() const {
  if (!m_native_ptr.load(std::memory_order_acquire)) return nullptr;
  return m_native; // never changes once published
}

void event_impl::request_notify(const std::shared_ptr<syclone::runtime::native_event>& native) {
  // Strong: commands waiting for this event hang off its continuations, and nothing else may
  // own the event any more (the user dropped it, the queue moved on), so the notification keeps
  // it alive until it completes and runs them.
  native->notify([self = shared_from_this()](std::exception_ptr error) {
    if (error)
      if (auto q = self->queue()) q->report_async(error);
    self->set_complete();
  });
}

bool event_impl::wait_native() {
  syclone::runtime::native_event* n = m_native_ptr.load(std::memory_order_acquire);
  if (!n) return false;
  try {
    n->wait();
  } catch (...) {
    if (auto q = queue()) q->report_async(std::current_exception());
  }
  set_complete();
  return true;
}

void event_impl::wait() {
  if (status() == info::event_command_status::complete) return;
  // The backend's wait returns at once for an operation already done, so asking it first
  // (is_complete) would only add a driver call to every submit -> wait round trip.
  if (wait_native()) return;
  // A command that is ready but that no worker took yet runs on this thread, which would only
  // block otherwise (scheduler.cpp).
  if (run_queued(*this)) {
    if (status() == info::event_command_status::complete || wait_native()) return;
  }
  // A command running on a worker often completes within microseconds: poll a while before
  // sleeping, so that completing it costs that worker no wake-up system call.
  if (!m_native_ptr.load(std::memory_order_acquire) && spin_until_complete()) return;
  {
    std::unique_lock lock(m_mutex);
    if (m_status.load(std::memory_order_acquire) == info::event_command_status::complete) return;
    // The command may have reached the device meanwhile: set_native asks for a notification
    // only for waiters registered before it (under this lock), so wait on the operation itself.
    if (m_native) {
      lock.unlock();
      wait_native();
      return;
    }
    ++m_waiters;
  }
  // The command may still be waiting for its dependencies; once it runs on an asynchronous
  // backend, set_native asks for a notification because a waiter is registered. set_complete
  // wakes the waiters of the status.
  for (auto s = m_status.load(std::memory_order_acquire); s != info::event_command_status::complete;
       s = m_status.load(std::memory_order_acquire))
    m_status.wait(s, std::memory_order_acquire);
  std::lock_guard lock(m_mutex);
  --m_waiters;
}

void event_impl::keep_until_complete(std::shared_ptr<const void> keep) {
  std::unique_lock lock(m_mutex);
  if (status() == info::event_command_status::complete) {
    lock.unlock();
    keep.reset();
    return;
  }
  m_keep = std::move(keep);
  m_keeps.store(m_keep != nullptr, std::memory_order_release);
}

bool event_impl::spin_until_complete() const {
  constexpr auto spin = std::chrono::microseconds(20);
  const auto deadline = std::chrono::steady_clock::now() + spin;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (status() == info::event_command_status::complete) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
  }
}

bool event_impl::on_complete(std::function<void()> fn) {
  std::shared_ptr<syclone::runtime::native_event> n;
  {
    std::lock_guard lock(m_mutex);
    if (status() == info::event_command_status::complete) return false;
    m_continuations.push_back(std::move(fn));
    if (m_native && !m_notify_requested) {
      m_notify_requested = true;
      n = m_native;
    }
  }
  if (n) request_notify(n);
  return true;
}

std::vector<std::shared_ptr<event_impl>> event_impl::dependencies() const {
  std::lock_guard lock(m_mutex);
  std::vector<std::shared_ptr<event_impl>> out;
  if (auto e = m_first_dep.lock()) out.push_back(std::move(e));
  for (const auto& w : m_deps)
    if (auto e = w.lock()) out.push_back(std::move(e));
  if (auto e = m_previous.lock()) out.push_back(std::move(e));
  return out;
}
void event_impl::set_dependencies(const std::vector<std::shared_ptr<event_impl>>& deps,
                                  const std::shared_ptr<event_impl>& previous) {
  // No lock (issue 16): called before the command is scheduled, so nothing completes the event
  // yet, and nothing else reads these until the user holds the event (event_impl.hpp).
  if (!deps.empty()) m_first_dep = deps.front();
  if (deps.size() > 1) m_deps.assign(deps.begin() + 1, deps.end());
  m_previous = previous;
}

} // namespace detail

// SYCL 2020 4.6.6.1: "constructed as though it was created from a default-constructed queue",
// so its backend is that of the device default_selector_v picks (found once per process).
event::event() : m_impl(detail::event_impl::completed()) {
  static const backend default_backend = device(default_selector_v).get_backend();
  m_impl->backend = default_backend;
}
backend event::get_backend() const noexcept {
  return m_impl->backend;
}
std::vector<event> event::get_wait_list() {
  std::vector<event> out;
  for (auto& d : m_impl->dependencies()) out.push_back(event(d));
  return out;
}
void event::wait() {
  m_impl->wait();
}
void event::wait(const std::vector<event>& events) {
  for (const auto& e : events) e.m_impl->wait();
}
void event::wait_and_throw() {
  wait();
  if (auto q = m_impl->queue()) q->throw_asynchronous();
}
void event::wait_and_throw(const std::vector<event>& events) {
  for (const auto& e : events) const_cast<event&>(e).wait_and_throw();
}

template <>
SYCLONE_EXPORT info::event_command_status
event::get_info<info::event::command_execution_status>() const {
  // A command on an asynchronous backend completes on the device: ask it, since nothing may have
  // waited for this event itself (a later command that depended on it was waited for instead).
  if (m_impl->is_complete()) return info::event_command_status::complete;
  return m_impl->status();
}

namespace {
void check_profiling(const detail::event_impl& e) {
  if (!e.profiling())
    detail::throw_error(errc::invalid,
                        "event::get_profiling_info: the event's queue was not created with "
                        "property::queue::enable_profiling");
}
} // namespace

template <>
SYCLONE_EXPORT std::uint64_t
event::get_profiling_info<info::event_profiling::command_submit>() const {
  check_profiling(*m_impl);
  return m_impl->submit_time();
}
template <>
SYCLONE_EXPORT std::uint64_t
event::get_profiling_info<info::event_profiling::command_start>() const {
  check_profiling(*m_impl);
  m_impl->wait();
  return m_impl->start_time();
}
template <>
SYCLONE_EXPORT std::uint64_t event::get_profiling_info<info::event_profiling::command_end>() const {
  check_profiling(*m_impl);
  m_impl->wait();
  return m_impl->end_time();
}

SYCLONE_END_NAMESPACE
