#include "thread_pool.hpp"

#include "host_config.hpp"

#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>

namespace syclone::host {
namespace {

// The futex word is the atomic's object representation (std::atomic<uint32_t> is lock-free and
// has the size of uint32_t). Private futexes: the pool never shares memory across processes.
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
}

// Waking an address whose object is gone is harmless: the kernel only hashes the address, and
// every wait here re-checks its condition.
void futex_wake(std::atomic<std::uint32_t>& word, int count) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, count, nullptr,
          nullptr, 0);
}

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls until done() or spin_ns passed; true when done() became true.
template <typename Done>
bool spin_until(Done done, std::uint64_t spin_ns) noexcept {
  if (done()) return true;
  if (spin_ns == 0) return false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(spin_ns);
  for (;;) {
    for (int i = 0; i < 32; ++i) {
      cpu_relax();
      if (done()) return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
  }
}

thread_local bool tl_on_pool_thread = false;

} // namespace

bool on_pool_thread() noexcept {
  return tl_on_pool_thread;
}

void job::work() noexcept {
  for (;;) {
    std::size_t begin = m_next.fetch_add(m_chunk, std::memory_order_relaxed);
    if (begin >= m_count) return;
    std::size_t end = m_count - begin > m_chunk ? begin + m_chunk : m_count;
    try {
      m_body(m_context, begin, end);
    } catch (...) {
      fail(std::current_exception());
      return;
    }
  }
}

void job::fail(std::exception_ptr error) noexcept {
  bool expected = false;
  if (m_failed.compare_exchange_strong(expected, true, std::memory_order_acq_rel))
    m_error = std::move(error);
  // No new chunks: claims from here on land at or past m_count.
  m_next.store(m_count, std::memory_order_relaxed);
}

thread_pool& thread_pool::instance() {
  // Leaked on purpose: a launch from a static destructor must still find the object; the threads
  // are joined by the atexit handler, which runs before the statics constructed earlier die.
  static thread_pool* pool = [] {
    auto* p = new thread_pool();
    std::atexit([] { instance().shutdown(); });
    return p;
  }();
  return *pool;
}

thread_pool::thread_pool() : m_spin_ns(config().spin_ns) {
  start_workers(config().threads - 1);
}

void thread_pool::start_workers(std::size_t count) {
  // Workers block asynchronous signals, so a handler the program installs runs on its own threads.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  m_workers.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    try {
      m_workers.emplace_back([this, i] { worker_main(i); });
    } catch (const std::system_error& e) {
      std::fprintf(stderr, "syclone: host device runs with %zu threads instead of %zu: %s\n",
                   m_workers.size() + 1, count + 1, e.what());
      break;
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void thread_pool::worker_main(std::size_t index) {
  tl_on_pool_thread = true;
  char name[16];
  std::snprintf(name, sizeof(name), "syclone-host%zu", index + 1);
  pthread_setname_np(pthread_self(), name);
  for (;;) {
    // Read the epoch before looking for work: a job published after the look bumps it, so the
    // wait below cannot miss it.
    std::uint32_t epoch = m_epoch.load(std::memory_order_acquire);
    if (m_stopping.load(std::memory_order_acquire)) return;
    if (job* j = join_job()) {
      j->work();
      leave_job(*j);
      continue;
    }
    auto changed = [&] { return m_epoch.load(std::memory_order_relaxed) != epoch; };
    if (spin_until(changed, m_spin_ns)) continue;
    m_sleepers.fetch_add(1, std::memory_order_seq_cst);
    futex_wait(m_epoch, epoch);
    m_sleepers.fetch_sub(1, std::memory_order_relaxed);
  }
}

job* thread_pool::join_job() noexcept {
  std::lock_guard lock(m_mutex);
  for (job* j = m_jobs; j; j = j->m_next_job) {
    if (j->has_unclaimed()) {
      j->m_users.fetch_add(1, std::memory_order_relaxed);
      return j;
    }
  }
  return nullptr;
}

void thread_pool::publish(job& j) noexcept {
  {
    std::lock_guard lock(m_mutex);
    // Appended: jobs are served first come, first served.
    job** tail = &m_jobs;
    job* prev = nullptr;
    while (*tail) {
      prev = *tail;
      tail = &(*tail)->m_next_job;
    }
    *tail = &j;
    j.m_prev = prev;
    j.m_next_job = nullptr;
    j.m_listed = true;
  }
  m_epoch.fetch_add(1, std::memory_order_seq_cst);
  if (m_sleepers.load(std::memory_order_seq_cst) > 0) {
    std::size_t helpers = std::min(j.chunks() - 1, m_workers.size());
    futex_wake(m_epoch, static_cast<int>(std::min<std::size_t>(helpers, INT_MAX)));
  }
}

void thread_pool::unpublish(job& j) noexcept {
  std::lock_guard lock(m_mutex);
  if (!j.m_listed) return;
  if (j.m_prev)
    j.m_prev->m_next_job = j.m_next_job;
  else
    m_jobs = j.m_next_job;
  if (j.m_next_job) j.m_next_job->m_prev = j.m_prev;
  j.m_listed = false;
}

void thread_pool::leave_job(job& j) noexcept {
  // After this decrement j may be gone (its launcher returns); only its address is used below.
  std::uint32_t old = j.m_users.fetch_sub(1, std::memory_order_acq_rel);
  if (old == (job::waiting_bit | 1)) futex_wake(j.m_users, 1);
}

void thread_pool::wait_users(job& j) noexcept {
  constexpr std::uint32_t count_mask = ~job::waiting_bit;
  auto idle = [&] { return (j.m_users.load(std::memory_order_acquire) & count_mask) == 0; };
  if (spin_until(idle, config().spin_ns)) return;
  for (;;) {
    std::uint32_t users = j.m_users.load(std::memory_order_acquire);
    if ((users & count_mask) == 0) return;
    if (!(users & job::waiting_bit)) {
      if (!j.m_users.compare_exchange_weak(users, users | job::waiting_bit,
                                           std::memory_order_acq_rel))
        continue;
      users |= job::waiting_bit;
    }
    futex_wait(j.m_users, users);
  }
}

void thread_pool::run(job& j) {
  if (j.m_count == 0) return;
  if (j.chunks() == 1 || m_workers.empty() || m_stopping.load(std::memory_order_relaxed)) {
    // Small launches stay on the caller: no other thread's cache is touched, nothing is woken.
    j.m_body(j.m_context, 0, j.m_count);
    return;
  }
  publish(j);
  j.work();
  unpublish(j);
  wait_users(j);
  if (j.m_failed.load(std::memory_order_acquire)) std::rethrow_exception(j.m_error);
}

void thread_pool::shutdown() noexcept {
  m_stopping.store(true, std::memory_order_seq_cst);
  m_epoch.fetch_add(1, std::memory_order_seq_cst);
  futex_wake(m_epoch, INT_MAX);
  for (std::thread& t : m_workers) {
    if (!t.joinable()) continue;
    // exit() called by a kernel on a pool thread: that thread cannot join itself.
    if (t.get_id() == std::this_thread::get_id())
      t.detach();
    else
      t.join();
  }
}

} // namespace syclone::host
