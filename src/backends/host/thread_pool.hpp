// The host device's thread pool. A launch is a job: units [begin, end) cut into one lane per
// thread. Each thread claims chunks of its own lane first (so the same thread touches the same
// data launch after launch, as with a static schedule) and then steals chunks from the other
// lanes (so uneven work still balances). The launching thread works on its own job; pool threads
// join while it has unclaimed chunks. Nothing takes a lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

namespace syclone::host {

class job {
public:
  using body_fn = void (*)(const void* context, std::size_t begin, std::size_t end);

  // Units [begin, end), claimed `chunk` units at a time.
  job(body_fn body, const void* context, std::size_t begin, std::size_t end,
      std::size_t chunk) noexcept
      : m_body(body), m_context(context), m_begin(begin), m_end(end), m_chunk(chunk ? chunk : 1) {}
  job(const job&) = delete;
  job& operator=(const job&) = delete;

  std::size_t chunks() const noexcept { return (m_end - m_begin + m_chunk - 1) / m_chunk; }
  // Whether sleeping pool threads are woken for this job (threads polling for work always join).
  void wake_sleepers(bool wake) noexcept { m_wake = wake; }
  // At most `threads` distinct threads run the job, the launching thread included (a host
  // sub-device's compute units, SYCL 2020 4.6.4.2); 0: every thread of the pool may join.
  void limit_threads(std::size_t threads) noexcept {
    m_max_joiners = threads ? threads - 1 : no_limit;
  }

private:
  friend class thread_pool;

  // A contiguous share of the units; its own cache line, so claims in one lane do not slow down
  // the others. `users` counts the pool threads of this lane inside the job (see slot).
  struct alignas(64) lane {
    std::atomic<std::size_t> next;
    std::size_t end;
    std::atomic<std::uint32_t> users{0}; // + waiting_bit while the launcher sleeps on it
  };

  // Runs chunks, lane `first` first, then the others, until none is left or one threw (the
  // first exception is kept).
  void work(std::size_t first) noexcept;
  bool drained() const noexcept { return m_drained.load(std::memory_order_relaxed); }
  // Admits one more pool thread into a job with a thread limit; false once the limit is reached.
  // Admissions are never given back, so the limit counts distinct threads over the whole job.
  bool admit() noexcept {
    return m_max_joiners == no_limit ||
           m_joiners.fetch_add(1, std::memory_order_relaxed) < m_max_joiners;
  }
  // Whether a thread that joined should wake another sleeper for this job.
  bool wants_more() const noexcept {
    return m_wake && !drained() &&
           (m_max_joiners == no_limit || m_joiners.load(std::memory_order_relaxed) < m_max_joiners);
  }
  void fail(std::exception_ptr error) noexcept;

  body_fn m_body;
  const void* m_context;
  std::size_t m_begin;
  std::size_t m_end;
  std::size_t m_chunk;
  bool m_wake = true;
  static constexpr std::size_t no_limit = ~std::size_t(0);
  std::size_t m_max_joiners = no_limit; // pool threads that may join besides the launcher
  std::atomic<std::size_t> m_joiners{0};
  lane* m_lanes = nullptr; // set when published (the slot's lanes)
  std::size_t m_lane_count = 0;
  // Set by a thread that found every lane empty (or on failure): joining is pointless.
  alignas(64) std::atomic<bool> m_drained{false};
  std::atomic<bool> m_failed{false};
  std::exception_ptr m_error;
};

class thread_pool {
public:
  // The process-wide pool, created on first use; its threads are joined at exit (atexit) and the
  // object itself is never destroyed, so launches from static destructors run on the caller.
  static thread_pool& instance();

  // Threads that execute kernels, the launching thread included.
  std::size_t concurrency() const noexcept { return m_workers.size() + 1; }

  // Runs every chunk of j, on the calling thread and on pool threads when j has more than one
  // chunk, and returns once all of them finished; rethrows the first exception of a chunk.
  void run(job& j);

private:
  // A published job. A pool thread counts itself in the users of its lane before it reads m_job
  // and leaves after its last chunk; the launcher clears m_job, then waits until every lane's
  // count dropped to zero, so no thread touches the job (on the launcher's stack) once run()
  // returns. Per-lane counts let threads join at once instead of queueing on one cache line.
  // The slot outlives every job, so the wake-up after the last decrement is on valid memory.
  struct slot {
    alignas(64) std::atomic<job*> m_job{nullptr};
    std::unique_ptr<job::lane[]> m_lanes; // the lanes of the slot's job
  };
  static constexpr std::uint32_t waiting_bit = 1u << 31;
  static constexpr std::size_t slot_count = 64; // launches in flight at once (more run alone)
  static constexpr std::size_t max_lanes = 64;  // threads beyond share lanes

  thread_pool();
  void start_workers(std::size_t count);
  void worker_main(std::size_t index);
  job* join_job(slot*& joined) noexcept; // a published job with unclaimed chunks, or null
  slot* publish(job& j) noexcept;        // null when every slot is taken
  void unpublish(slot& s) noexcept;      // returns once no pool thread uses the slot's job
  static void leave(job::lane& l) noexcept;
  void shutdown() noexcept;

  std::size_t m_lane_count;
  slot m_slots[slot_count];
  alignas(64) std::atomic<std::uint64_t> m_occupied{0}; // bit i: m_slots[i] belongs to a launch
  // Bumped on every publish (and at shutdown); idle threads poll it, then futex-wait on it.
  alignas(64) std::atomic<std::uint32_t> m_epoch{0};
  std::atomic<std::uint32_t> m_sleepers{0};
  std::atomic<bool> m_stopping{false};
  bool m_forked = false; // this process is a fork() child of the one that started the threads
  std::uint64_t m_spin_ns;
  std::vector<std::thread> m_workers;
};

// True on the pool's own threads (launches from there still work: they share the pool).
bool on_pool_thread() noexcept;

} // namespace syclone::host
