#include "host_executor.hpp"

#include "host_config.hpp"
#include "thread_pool.hpp"
#include "work_group.hpp"
#include "work_item_streams.hpp"

#include "../../runtime/device_global.hpp"

#include <sycl/exception.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace syclone::host {
namespace {

// Whether a launch is worth sharing with the pool is measured, not guessed from its size: the
// caller starts alone on a small piece, timing it; once the rest is estimated to take longer than
// share_threshold_ns it goes to the pool, otherwise the caller finishes alone. Cheap launches
// (an empty kernel, a few thousand light indices) thus never touch the pool, and expensive ones
// go parallel even with a handful of work-items or work-groups.
constexpr double share_threshold_ns = 10'000; // publishing and joining cost a few microseconds
// A piece shorter than this says little (a clock read costs ~20 ns, first touches of the data
// miss the caches): the caller keeps going in bigger pieces before judging.
constexpr double min_probe_ns = 1'000;
// Waking sleeping threads costs a system call per thread and several microseconds each; below
// this much work only threads still polling for work join.
constexpr double wake_threshold_ns = 50'000;
// Chunks: each thread should get several (load balance with uneven work), each long enough that
// claiming it (an atomic add contended by every thread) does not show.
constexpr std::size_t chunks_per_thread = 8;
constexpr double min_chunk_ns = 2'000;

// What a unit (an index, a work-group) of a kernel cost when it last ran, by kernel and shape:
// a launch of a kernel known to be expensive goes to the pool at once instead of first running a
// unit alone to time it. That probe costs little when units are many and light, but where a
// launch has about as many work-groups as threads, each long (BabelStream's CPU-sized Dot: one
// group per core), the caller's lone first group doubled the launch's time. Direct-mapped and
// racy on purpose: a lost or stale entry only costs one probe, or one sharing that a probe would
// have skipped.
class unit_costs {
public:
  // unit_ns of the kernel's last probe, or a negative value where there was none.
  static double lookup(std::uintptr_t key) noexcept {
    const entry& e = table()[slot(key)];
    return e.key.load(std::memory_order_acquire) == key ? e.unit_ns.load(std::memory_order_relaxed)
                                                        : -1.0;
  }
  static void remember(std::uintptr_t key, double unit_ns) noexcept {
    entry& e = table()[slot(key)];
    e.unit_ns.store(unit_ns, std::memory_order_relaxed);
    e.key.store(key, std::memory_order_release);
  }

private:
  struct entry {
    std::atomic<std::uintptr_t> key{0};
    std::atomic<double> unit_ns{0};
  };
  static constexpr std::size_t size = 256;
  static std::size_t slot(std::uintptr_t key) noexcept {
    return std::size_t((key * 0x9E3779B97F4A7C15ull) >> 56) % size;
  }
  static entry* table() noexcept {
    static entry entries[size];
    return entries;
  }
};

double now_ns() noexcept {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void share(job::body_fn body, const void* context, std::size_t begin, std::size_t end,
           double unit_ns, std::size_t max_threads) {
  thread_pool& pool = thread_pool::instance();
  std::size_t threads = pool.concurrency();
  if (max_threads) threads = std::min(threads, max_threads);
  std::size_t rest = end - begin;
  std::size_t chunk = rest / (threads * chunks_per_thread);
  chunk = std::max(chunk, static_cast<std::size_t>(min_chunk_ns / std::max(unit_ns, 1e-3)));
  chunk = std::min(chunk, (rest + threads - 1) / threads); // every thread gets a chunk
  job j(body, context, begin, end, std::max<std::size_t>(chunk, 1));
  j.wake_sleepers(unit_ns * double(rest) >= wake_threshold_ns);
  j.limit_threads(max_threads);
  pool.run(j);
}

// Runs units [0, count) of body, first `probe` of them (then more) on the caller, on at most
// max_threads threads (0: no limit). `kernel` names the kernel and the shape of its units (for
// unit_costs; 0: none).
void run_units(job::body_fn body, const void* context, std::size_t count, std::size_t probe,
               std::size_t max_threads, std::uintptr_t kernel) {
  if (count <= 1 || config().threads <= 1 || max_threads == 1) {
    body(context, 0, count);
    return;
  }
  if (double known = kernel ? unit_costs::lookup(kernel) : -1.0;
      known >= 0 && known * double(count) >= share_threshold_ns) {
    share(body, context, 0, count, known, max_threads);
    return;
  }
  std::size_t done = 0;
  std::size_t step = std::max<std::size_t>(probe, 1);
  double start = now_ns();
  for (;;) {
    std::size_t n = std::min(step, count - done);
    body(context, done, done + n);
    done += n;
    if (done == count) return;
    double elapsed = now_ns() - start;
    if (elapsed < min_probe_ns) {
      step *= 4;
      continue;
    }
    double unit_ns = elapsed / double(done);
    if (kernel) unit_costs::remember(kernel, unit_ns);
    double rest_ns = unit_ns * double(count - done);
    if (rest_ns >= share_threshold_ns) {
      share(body, context, done, count, unit_ns, max_threads);
      return;
    }
    if (rest_ns < share_threshold_ns / 2) {
      body(context, done, count);
      return;
    }
    step *= 2;
  }
}

// Marks the launch running on this thread as one that writes to a stream (or not), for the
// time of a chunk.
struct streams_scope {
  bool saved;
  explicit streams_scope(bool active) : saved(exchange_streams_active(active)) {}
  ~streams_scope() { exchange_streams_active(saved); }
};

void range_body(const void* context, std::size_t begin, std::size_t end) {
  const auto& launch = *static_cast<const range_launch*>(context);
  range_kernel_scope in_kernel(!launch.hierarchical);
  runtime::host_device_scope on_device(launch.device);
  if (!launch.work_item_streams) {
    launch.run_chunk(launch.kernel, begin, end);
    return;
  }
  // SYCL 2020 4.16: one work-item at a time, each with its own stream state.
  streams_scope scope(true);
  for (std::size_t i = begin; i < end; ++i) {
    begin_thread_work_item();
    launch.run_chunk(launch.kernel, i, i + 1);
  }
  begin_thread_work_item(); // the last one's open statement ends with it
}

struct nd_context {
  const nd_range_launch* launch;
  schedule_kind kind;
  std::uint64_t seed;
};

void nd_body(const void* context, std::size_t begin, std::size_t end) {
  const auto& c = *static_cast<const nd_context*>(context);
  runtime::host_device_scope on_device(c.launch->device);
  thread_state& state = thread_state::get();
  work_group_scheduler& scheduler = state.enter();
  struct leave_on_exit {
    thread_state& state;
    ~leave_on_exit() { state.leave(); }
  } leave{state};
  streams_scope scope(c.launch->work_item_streams);
  scheduler.begin(*c.launch, c.kind, c.seed);
  scheduler.run_groups(begin, end);
}

// sycl_ext_oneapi_root_group on the host: a launch with use_root_sync runs each work-group on
// a thread of its own, all at once, and group_barrier(root_group) is the work-group barrier, then
// this barrier between the work-groups' leaders, then the work-group barrier again. When a
// work-group fails (an exception from its kernel code), the barrier is broken: the leaders
// waiting in it and those arriving later throw instead of waiting for a work-group that will
// never come, and the launch rethrows the first failure.
class root_barrier {
public:
  explicit root_barrier(std::size_t count) : m_count(count) {}
  void arrive_and_wait() {
    std::unique_lock lock(m_mutex);
    if (m_broken) throw_broken();
    const std::uint64_t round = m_round;
    if (++m_arrived == m_count) {
      m_arrived = 0;
      ++m_round;
      m_changed.notify_all();
      return;
    }
    m_changed.wait(lock, [&] { return m_round != round || m_broken; });
    if (m_round == round) throw_broken();
  }
  void break_barrier() noexcept {
    std::lock_guard lock(m_mutex);
    m_broken = true;
    m_changed.notify_all();
  }

private:
  [[noreturn]] static void throw_broken() {
    sycl::detail::throw_error(sycl::errc::kernel,
                              "host device: group_barrier(root_group) cannot complete: another "
                              "work-group of the kernel stopped with an error");
  }
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::size_t m_count;
  std::size_t m_arrived = 0;
  std::uint64_t m_round = 0;
  bool m_broken = false;
};
thread_local root_barrier* t_root_barrier = nullptr;

struct root_barrier_scope {
  root_barrier* saved;
  explicit root_barrier_scope(root_barrier* b) : saved(std::exchange(t_root_barrier, b)) {}
  ~root_barrier_scope() { t_root_barrier = saved; }
};

void run_root_synchronized(const nd_context& context, std::size_t groups) {
  root_barrier barrier(groups);
  std::mutex failure_mutex;
  std::exception_ptr failure;
  auto run_group = [&](std::size_t g) noexcept {
    root_barrier_scope scope(&barrier);
    try {
      nd_body(&context, g, g + 1);
    } catch (...) {
      {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
      barrier.break_barrier();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(groups - 1);
  try {
    for (std::size_t g = 1; g < groups; ++g) threads.emplace_back(run_group, g);
  } catch (const std::system_error& e) {
    // The work-groups already started wait for the rest: release them.
    barrier.break_barrier();
    for (auto& t : threads) t.join();
    sycl::detail::throw_error(
        sycl::errc::nd_range,
        "host device: a use_root_sync launch needs a thread for each of its " +
            std::to_string(groups) + " work-groups, and starting one failed: " + e.what());
  }
  run_group(0);
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

// barrier() inside a range kernel is an error even when the launching thread is itself running a
// work-item: the range kernel must not see that work-item's work-group.
struct hide_work_group {
  work_group_scheduler* saved = work_group_scheduler::exchange_current(nullptr);
  ~hide_work_group() { work_group_scheduler::exchange_current(saved); }
};

} // namespace

void run(const range_launch& launch) {
  if (launch.count == 0) return;
  hide_work_group hide;
  // A first piece of up to 64 indices: enough to time a light kernel, little serial work if
  // every index is heavy.
  run_units(&range_body, &launch, launch.count, std::clamp<std::size_t>(launch.count / 32, 1, 64),
            launch.max_threads, reinterpret_cast<std::uintptr_t>(launch.run_chunk));
}

void run(const nd_range_launch& launch) {
  std::size_t items = 1;
  std::size_t groups = 1;
  for (int d = 0; d < 3; ++d) {
    items *= launch.local_range[d];
    groups *= launch.group_range[d];
  }
  if (items == 0 || groups == 0) return;
  if (items > std::numeric_limits<std::uint32_t>::max()) {
    sycl::detail::throw_error(sycl::errc::nd_range,
                              "host device: work-group of " + std::to_string(items) +
                                  " work-items is too large; use at most 2^32-1");
  }
  nd_context context{&launch, schedule(), schedule_seed()};
  if (launch.root_sync) {
    if (groups > max_root_sync_groups(launch.max_threads))
      sycl::detail::throw_error(
          sycl::errc::nd_range,
          "host device: a use_root_sync launch of " + std::to_string(groups) +
              " work-groups, more than the " +
              std::to_string(max_root_sync_groups(launch.max_threads)) +
              " that run at once (info::kernel_queue_specific::max_num_work_groups)");
    hide_work_group hide;
    run_root_synchronized(context, groups);
    return;
  }
  // (A work-group's cost depends on its size: the key has it.)
  std::uintptr_t kernel =
      reinterpret_cast<std::uintptr_t>(launch.run_item) ^ (items << 48) ^ (items >> 16);
  run_units(&nd_body, &context, groups, 1, launch.max_threads, kernel);
}

std::size_t concurrency() noexcept {
  return thread_pool::instance().concurrency();
}

std::size_t max_root_sync_groups(std::size_t max_threads) noexcept {
  const std::size_t threads = concurrency();
  return max_threads ? std::min(max_threads, threads) : threads;
}

} // namespace syclone::host

// (host_loops.hpp)
void __syclone_host_root_barrier() {
  syclone::host::root_barrier* b = syclone::host::t_root_barrier;
  if (!b)
    sycl::detail::throw_error(sycl::errc::invalid,
                              "group_barrier(root_group) in a kernel launched without the "
                              "use_root_sync property (sycl_ext_oneapi_root_group): pass "
                              "properties{use_root_sync} to parallel_for");
  b->arrive_and_wait();
}
