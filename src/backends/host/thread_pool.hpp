// The host device's thread pool. A launch is a job: units [0, count) handed out in chunks through
// one atomic counter, so fast threads take more chunks than slow ones. The launching thread works
// on its own job; pool threads join while it has unclaimed chunks.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace syclone::host {

class job {
public:
  using body_fn = void (*)(const void* context, std::size_t begin, std::size_t end);

  job(body_fn body, const void* context, std::size_t count, std::size_t chunk) noexcept
      : m_body(body), m_context(context), m_count(count), m_chunk(chunk ? chunk : 1) {}
  job(const job&) = delete;
  job& operator=(const job&) = delete;

  std::size_t chunks() const noexcept { return (m_count + m_chunk - 1) / m_chunk; }

private:
  friend class thread_pool;

  // Claims and runs chunks until none is left; an exception stops the job (first one kept).
  void work() noexcept;
  bool has_unclaimed() const noexcept { return m_next.load(std::memory_order_relaxed) < m_count; }
  void fail(std::exception_ptr error) noexcept;

  static constexpr std::uint32_t waiting_bit = 1u << 31;

  body_fn m_body;
  const void* m_context;
  std::size_t m_count;
  std::size_t m_chunk;
  alignas(64) std::atomic<std::size_t> m_next{0};
  // Pool threads inside work() (they joined under the pool mutex while the job was listed), plus
  // waiting_bit once the launcher sleeps until they leave.
  alignas(64) std::atomic<std::uint32_t> m_users{0};
  std::atomic<bool> m_failed{false};
  std::exception_ptr m_error;
  job* m_prev = nullptr; // the pool's list of jobs with unclaimed chunks (pool mutex)
  job* m_next_job = nullptr;
  bool m_listed = false;
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
  thread_pool();
  void start_workers(std::size_t count);
  void worker_main(std::size_t index);
  job* join_job() noexcept; // a listed job with unclaimed chunks, its m_users incremented
  void publish(job& j) noexcept;
  void unpublish(job& j) noexcept;
  static void wait_users(job& j) noexcept;
  static void leave_job(job& j) noexcept;
  void shutdown() noexcept;

  std::mutex m_mutex;
  job* m_jobs = nullptr;
  // Bumped on every publish (and at shutdown); idle threads poll it, then futex-wait on it.
  alignas(64) std::atomic<std::uint32_t> m_epoch{0};
  std::atomic<std::uint32_t> m_sleepers{0};
  std::atomic<bool> m_stopping{false};
  std::uint64_t m_spin_ns;
  std::vector<std::thread> m_workers;
};

// True on the pool's own threads (launches from there still work: they share the pool).
bool on_pool_thread() noexcept;

} // namespace syclone::host
