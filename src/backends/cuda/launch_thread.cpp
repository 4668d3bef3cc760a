#include "launch_thread.hpp"

#include "../../runtime/submit_profile.hpp"
#include "cuda_event.hpp"
#include "cuda_kernels.hpp"

#include <chrono>
#include <cstring>
#include <vector>

namespace syclone::cuda {

namespace {
void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// How long the thread keeps looking for work after its last launch before it sleeps: longer
// than the gap between two back-to-back submissions, short enough not to hold a core for long.
constexpr std::chrono::microseconds spin_time{200};

// Every launch thread of the process, for drain_all.
struct registry {
  std::mutex mutex;
  std::vector<launch_thread*> threads;
};
registry& launch_threads() {
  static auto* r = new registry(); // never destroyed: streams may outlive static destruction
  return *r;
}

std::string dims(const unsigned* v) {
  return "{" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) +
         "}";
}
} // namespace

launch_thread::launch_thread(std::shared_ptr<stream_handle> stream, event_pool& pool)
    : m_stream(std::move(stream)), m_pool(pool), m_ring(ring_size) {
  registry& r = launch_threads();
  std::lock_guard lock(r.mutex);
  r.threads.push_back(this);
}

launch_thread::~launch_thread() {
  // Made while still registered: a free on another thread meanwhile waits for them too.
  drain();
  {
    registry& r = launch_threads();
    std::lock_guard lock(r.mutex);
    std::erase(r.threads, this);
  }
  m_stop.store(true, std::memory_order_seq_cst);
  m_signal.fetch_add(1, std::memory_order_seq_cst);
  m_signal.notify_one();
  if (m_running.load(std::memory_order_acquire)) m_thread.join();
}

void launch_thread::start() {
  std::call_once(m_started, [this] {
    m_thread = std::thread([this] { loop(); });
    m_running.store(true, std::memory_order_release);
  });
}

void launch_thread::wake() noexcept {
  m_signal.fetch_add(1, std::memory_order_seq_cst);
  // One system call per sleep: the hand-overs that come while it wakes up find it awake.
  if (m_sleeping.exchange(false, std::memory_order_seq_cst)) m_signal.notify_one();
}

bool launch_thread::should_take(bool stream_busy) {
  if (!idle()) return true; // after launches still pending here, in order
  if (!stream_busy) return false;
  if (!m_running.load(std::memory_order_acquire)) {
    start(); // this launch goes directly; the thread is awake for the next ones
    return false;
  }
  if (!m_sleeping.load(std::memory_order_acquire)) return true;
  wake(); // this launch goes directly, the next ones find it awake
  return false;
}

void launch_thread::take(const launch& l, std::shared_ptr<cuda_event> event) {
  std::lock_guard lock(m_take_lock);
  const std::uint32_t t = m_taken.load(std::memory_order_relaxed);
  for (int spins = 0; t - m_made.load(std::memory_order_acquire) >= ring_size; ++spins) {
    if (spins < 64)
      pause();
    else
      std::this_thread::yield();
  }
  slot& s = m_ring[t % ring_size];
  s.l = l;
  if (l.object_size <= inline_object) {
    std::memcpy(s.bytes, l.object, l.object_size);
    s.l.object = s.bytes;
  } else {
    s.large.assign(static_cast<const unsigned char*>(l.object),
                   static_cast<const unsigned char*>(l.object) + l.object_size);
    s.l.object = s.large.data();
  }
  s.ticket = m_stream->tickets.begun.fetch_add(1, std::memory_order_seq_cst);
  event->set_stream_order(s.ticket + 1);
  s.event = std::move(event);
  m_taken.store(t + 1, std::memory_order_release);
  wake();
}

void launch_thread::drain_all() noexcept {
  registry& r = launch_threads();
  std::lock_guard lock(r.mutex);
  for (const launch_thread* t : r.threads) t->drain_to(t->m_taken.load(std::memory_order_acquire));
}

void launch_thread::drain_to(std::uint32_t taken) const noexcept {
  for (int spins = 0; static_cast<std::int32_t>(m_made.load(std::memory_order_acquire) - taken) < 0;
       ++spins) {
    if (spins < 256)
      pause();
    else
      std::this_thread::yield();
  }
}

void launch_thread::drain() const noexcept {
  drain_to(m_taken.load(std::memory_order_acquire));
}

void launch_thread::loop() {
  std::uint32_t next = 0;
  auto last_work = std::chrono::steady_clock::now();
  for (;;) {
    const std::uint32_t signal = m_signal.load(std::memory_order_seq_cst);
    if (next != m_taken.load(std::memory_order_acquire)) {
      make(m_ring[next % ring_size]);
      ++next;
      m_made.store(next, std::memory_order_release);
      last_work = std::chrono::steady_clock::now();
      continue;
    }
    if (m_stop.load(std::memory_order_acquire)) return;
    if (std::chrono::steady_clock::now() - last_work < spin_time) {
      pause();
      continue;
    }
    m_sleeping.store(true, std::memory_order_seq_cst);
    if (next == m_taken.load(std::memory_order_seq_cst) && !m_stop.load(std::memory_order_seq_cst))
      m_signal.wait(signal, std::memory_order_seq_cst);
    m_sleeping.store(false, std::memory_order_seq_cst);
    last_work = std::chrono::steady_clock::now();
  }
}

void launch_thread::make(slot& s) {
  stream_handle& h = *m_stream;
  const driver_api& d = driver();
  const launch& l = s.l;
  runtime::submit_timer timer; // SYCLONE_SUBMIT_PROFILE
  std::exception_ptr error;
  CUresult r = try_make_current(h.context());
  if (r != CUDA_SUCCESS) {
    error = make_error(d.ctx_set_current.name, r, *l.description);
  } else {
    void* params[] = {const_cast<void*>(l.object)};
    r = invoke(d.launch_kernel, l.function, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1],
               l.block[2], l.shared_bytes, h.get(), params, static_cast<void**>(nullptr));
    if (r == CUDA_SUCCESS && l.prints) print_after_kernel(h.get());
    if (r != CUDA_SUCCESS)
      error = make_error(d.launch_kernel.name, r,
                         *l.description + " with grid " + dims(l.grid) + ", block " +
                             dims(l.block) + " and " + std::to_string(l.shared_bytes) +
                             " bytes of local memory (launched by syclone's launch thread)");
  }
  timer.mark(runtime::submit_phase::thread_launch);
  // The completion event only if the event can still be asked about.
  CUevent end = nullptr;
  if (!error && s.event.use_count() > 1) {
    try {
      end = m_pool.acquire(l.description);
      r = invoke(d.event_record, end, h.get());
      if (r != CUDA_SUCCESS) {
        m_pool.release(end);
        end = nullptr;
        error = make_error(d.event_record.name, r, *l.description);
      }
    } catch (...) {
      error = std::current_exception();
    }
  }
  timer.mark(runtime::submit_phase::thread_record);
  h.tickets.finished.fetch_add(1, std::memory_order_seq_cst);
  if (error) {
    if (s.event.use_count() == 1) h.set_launch_error(error);
    s.event->launch_failed(error);
  } else {
    s.event->launched(end);
  }
  s.event.reset();
  timer.mark(runtime::submit_phase::thread_finish);
}

} // namespace syclone::cuda
