#include "thread_pool.hpp"

#include "host_config.hpp"

#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
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
// The lane a thread starts in: 0 for launching threads, the worker's number for pool threads.
thread_local std::size_t tl_lane = 0;

} // namespace

bool on_pool_thread() noexcept {
  return tl_on_pool_thread;
}

void job::work(std::size_t first) noexcept {
  for (std::size_t k = 0; k < m_lane_count; ++k) {
    lane& l = m_lanes[(first + k) % m_lane_count];
    while (l.next.load(std::memory_order_relaxed) < l.end) {
      if (m_failed.load(std::memory_order_relaxed)) return;
      std::size_t begin = l.next.fetch_add(m_chunk, std::memory_order_relaxed);
      if (begin >= l.end) break;
      std::size_t end = l.end - begin > m_chunk ? begin + m_chunk : l.end;
      try {
        m_body(m_context, begin, end);
      } catch (...) {
        fail(std::current_exception());
        return;
      }
    }
  }
  m_drained.store(true, std::memory_order_relaxed);
}

void job::fail(std::exception_ptr error) noexcept {
  bool expected = false;
  if (m_failed.compare_exchange_strong(expected, true, std::memory_order_acq_rel))
    m_error = std::move(error);
  m_drained.store(true, std::memory_order_relaxed); // no new chunks start
}

thread_pool& thread_pool::instance() {
  // Leaked on purpose: a launch from a static destructor must still find the object; the threads
  // are joined by the atexit handler, which runs before the statics constructed earlier die.
  static thread_pool* pool = [] {
    auto* p = new thread_pool();
    std::atexit([] { instance().shutdown(); });
    // A forked child has only the forking thread: its launches run alone, and its exit must not
    // wait for pool threads that exist only in the parent.
    pthread_atfork(nullptr, nullptr, [] {
      thread_pool& self = instance();
      self.m_forked = true;
      self.m_stopping.store(true, std::memory_order_relaxed);
    });
    return p;
  }();
  return *pool;
}

thread_pool::thread_pool()
    : m_lane_count(std::min(config().threads, max_lanes)), m_spin_ns(config().spin_ns) {
  for (slot& s : m_slots) s.m_lanes = std::make_unique<job::lane[]>(m_lane_count);
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
  tl_lane = (index + 1) % m_lane_count;
  char name[16];
  std::snprintf(name, sizeof(name), "syclone-host%zu", index + 1);
  pthread_setname_np(pthread_self(), name);
  for (;;) {
    // Read the epoch before looking for work: a job published after the look bumps it, so the
    // wait below cannot miss it.
    std::uint32_t epoch = m_epoch.load(std::memory_order_acquire);
    if (m_stopping.load(std::memory_order_acquire)) return;
    slot* s = nullptr;
    if (job* j = join_job(s)) {
      // Wake-ups cascade: the launcher wakes one sleeper, each thread that finds work left
      // wakes the next, so no thread spends long in the kernel on behalf of the others.
      if (j->wants_more() && m_sleepers.load(std::memory_order_seq_cst) > 0) futex_wake(m_epoch, 1);
      j->work(tl_lane);
      leave(s->m_lanes[tl_lane]);
      continue;
    }
    auto changed = [&] { return m_epoch.load(std::memory_order_relaxed) != epoch; };
    if (spin_until(changed, m_spin_ns)) continue;
    m_sleepers.fetch_add(1, std::memory_order_seq_cst);
    futex_wait(m_epoch, epoch);
    m_sleepers.fetch_sub(1, std::memory_order_relaxed);
  }
}

job* thread_pool::join_job(slot*& joined) noexcept {
  std::uint64_t occupied = m_occupied.load(std::memory_order_acquire);
  while (occupied) {
    slot& s = m_slots[std::countr_zero(occupied)];
    occupied &= occupied - 1;
    // A look without counting (the job itself may not be read uncounted: it may be gone).
    if (!s.m_job.load(std::memory_order_relaxed)) continue;
    // Counted first, then the job re-read (both seq_cst, pairing with unpublish()): if it is
    // still there, the launcher will wait for this thread.
    job::lane& mine = s.m_lanes[tl_lane];
    mine.users.fetch_add(1, std::memory_order_seq_cst);
    job* j = s.m_job.load(std::memory_order_seq_cst);
    if (j && !j->drained() && j->admit()) {
      joined = &s;
      return j;
    }
    leave(mine);
  }
  return nullptr;
}

thread_pool::slot* thread_pool::publish(job& j) noexcept {
  std::uint64_t occupied = m_occupied.load(std::memory_order_relaxed);
  std::size_t index;
  do {
    if (occupied == ~std::uint64_t(0)) return nullptr;
    index = static_cast<std::size_t>(std::countr_one(occupied));
  } while (!m_occupied.compare_exchange_weak(occupied, occupied | (std::uint64_t(1) << index),
                                             std::memory_order_acq_rel));
  slot& s = m_slots[index];
  // Lane k holds units [begin + k * rest / lanes, begin + (k + 1) * rest / lanes).
  std::size_t rest = j.m_end - j.m_begin;
  std::size_t lanes = std::min(m_lane_count, j.chunks());
  if (j.m_max_joiners != job::no_limit) lanes = std::min(lanes, j.m_max_joiners + 1);
  std::size_t share = rest / lanes, extra = rest % lanes, at = j.m_begin;
  for (std::size_t k = 0; k < lanes; ++k) {
    std::size_t n = share + (k < extra ? 1 : 0);
    s.m_lanes[k].next.store(at, std::memory_order_relaxed);
    s.m_lanes[k].end = at + n;
    at += n;
  }
  j.m_lanes = s.m_lanes.get();
  j.m_lane_count = lanes;
  s.m_job.store(&j, std::memory_order_seq_cst);
  m_epoch.fetch_add(1, std::memory_order_seq_cst);
  if (j.m_wake && m_sleepers.load(std::memory_order_seq_cst) > 0) futex_wake(m_epoch, 1);
  return &s;
}

void thread_pool::unpublish(slot& s) noexcept {
  s.m_job.store(nullptr, std::memory_order_seq_cst);
  constexpr std::uint32_t count_mask = ~waiting_bit;
  for (std::size_t k = 0; k < m_lane_count; ++k) {
    std::atomic<std::uint32_t>& users = s.m_lanes[k].users;
    auto idle = [&] { return (users.load(std::memory_order_seq_cst) & count_mask) == 0; };
    if (spin_until(idle, m_spin_ns)) continue;
    for (;;) {
      std::uint32_t n = users.load(std::memory_order_seq_cst);
      if ((n & count_mask) == 0) break;
      if (!(n & waiting_bit)) {
        if (!users.compare_exchange_weak(n, n | waiting_bit, std::memory_order_seq_cst)) continue;
        n |= waiting_bit;
      }
      futex_wait(users, n);
    }
    users.fetch_and(count_mask, std::memory_order_relaxed);
  }
  auto index = static_cast<std::size_t>(&s - m_slots);
  m_occupied.fetch_and(~(std::uint64_t(1) << index), std::memory_order_release);
}

void thread_pool::leave(job::lane& l) noexcept {
  std::uint32_t old = l.users.fetch_sub(1, std::memory_order_seq_cst);
  if (old == (waiting_bit | 1)) futex_wake(l.users, 1);
}

void thread_pool::run(job& j) {
  if (j.m_begin >= j.m_end) return;
  if (j.chunks() == 1 || j.m_max_joiners == 0 || m_workers.empty() ||
      m_stopping.load(std::memory_order_relaxed)) {
    j.m_body(j.m_context, j.m_begin, j.m_end);
    return;
  }
  slot* s = publish(j);
  if (!s) {
    j.m_body(j.m_context, j.m_begin, j.m_end); // every slot taken: run alone
    return;
  }
  j.work(tl_lane % j.m_lane_count);
  unpublish(*s);
  if (j.m_failed.load(std::memory_order_acquire)) std::rethrow_exception(j.m_error);
}

void thread_pool::shutdown() noexcept {
  if (m_forked) return;
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
