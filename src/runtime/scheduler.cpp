// Runs commands in dependency order, never blocking the submitting thread (SYCL 2020 3.6:
// submission is non-blocking; DESIGN.md "execution": kernels and host tasks run on worker
// threads). A command whose dependencies are complete when it is submitted is dispatched right
// away: an asynchronous backend (CUDA) enqueues it on the submitting thread, which only adds it
// to a device stream; a command that computes where it runs (a host-device kernel, copy or
// fill) and every host task go to a worker. Others are dispatched when their last dependency
// completes.
//
// Keeping the host round trip short: a thread that waits for an event whose command sits in the
// workers' queue, not yet taken, runs it itself (run_queued), so submit -> wait costs no thread
// wake-up; a worker that completes a command runs the first command this made ready itself, so
// a chain of kernels on an in-order queue runs on one worker without hand-offs. Under
// SYCLONE_HOST_SCHEDULE=shuffle[:seed] workers take ready commands in a pseudo-random order
// instead (tests use it to expose a dependency the runtime failed to record).
#include "queue_impl.hpp"
#include "submit_profile.hpp"

#include "../backends/host/host_config.hpp"
#include "../backends/host/host_executor.hpp"

#include <sycl/interop_handle.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

namespace {

// While a worker completes the command it took from the queue, the first command this makes
// ready goes here (the worker runs it next) rather than to the queue.
thread_local std::shared_ptr<command>* t_next = nullptr;

// A kernel that writes buffer reduction results to their host mirrors as well (reduction.cpp):
// each such buffer's host copy can be read from its mirror once the kernel completed. Not when
// another accessor of the command group also uses the buffer, or the launch has no work-item.
void note_mirrors(const command& cmd, const std::shared_ptr<syclone::runtime::native_event>& ev) {
  std::size_t items = 1;
  for (int d = 0; d < cmd.launch.dimensions; ++d) items *= cmd.launch.global[d];
  for (const auto& r : cmd.requirements)
    if (r.mirror && r.uses == 1 && items != 0) r.buffer->mirror_written(r.mirror, ev);
}

void execute(command& cmd, std::shared_ptr<command>* next) {
  using syclone::runtime::submit_phase;
  syclone::runtime::submit_timer timer;
  cmd.event->set_running();
  auto& stream = *cmd.stream;
  std::shared_ptr<syclone::runtime::native_event> native;
  try {
    // Buffer data moves to where the command uses it, in dependency order.
    device_impl* dev = cmd.queue->device().get();
    for (auto& r : cmd.requirements) {
      bool host_side = r.on_host || cmd.what == command::kind::host_task ||
                       cmd.what == command::kind::update_host;
      r.buffer->prepare(host_side ? nullptr : dev, r.mode, r.no_init, &stream);
    }
    timer.mark(submit_phase::execute);
    switch (cmd.what) {
    case command::kind::kernel:
      native = stream.run_kernel(cmd.launch, cmd.local_memory_bytes);
      if (native) note_mirrors(cmd, native);
      break;
    case command::kind::host_task: {
      // Native calls of the task (CUDA runtime, cuBLAS) find the queue's device current.
      auto& backend_device = dev->backend_device();
      backend_device.bind_thread();
      struct rebind {
        syclone::runtime::device& d;
        ~rebind() { d.bind_thread(); } // the task may have switched devices
      } restore{backend_device};
      cmd.host_task(interop_handle(impl_access::make<device>(cmd.queue->device()),
                                   impl_access::make<context>(cmd.queue->context()), cmd.queue,
                                   &cmd, false));
      break;
    }
    case command::kind::native_command:
      native = stream.run_native([&] {
        cmd.host_task(interop_handle(impl_access::make<device>(cmd.queue->device()),
                                     impl_access::make<context>(cmd.queue->context()), cmd.queue,
                                     &cmd, true));
      });
      break;
    case command::kind::copy:
      native = stream.copy(cmd.src, cmd.dst);
      break;
    case command::kind::fill:
      native = stream.fill(cmd.dst, cmd.pattern.data(), cmd.pattern.size());
      break;
    case command::kind::update_host:
      break;
    case command::kind::none:
      // A command group without work (a barrier, an empty group, a prefetch): its event follows
      // its dependencies, which on a GPU stream are waits the stream has not passed yet (a
      // barrier's event, and what waits for it, must not complete before them).
      native = stream.run_native([] {});
      break;
    }
    timer.mark(submit_phase::backend);
  } catch (...) {
    // SYCL 2020 4.13.1: errors after submission are asynchronous; the queue stays usable.
    cmd.queue->report_async(std::current_exception());
  }
  // Drop what the command captured before waking waiters (user objects die in order). Kernel
  // arguments were copied at launch; memory a copy reads or writes lives until it completes.
  cmd.launch.object.reset();
  cmd.host_task = nullptr;
  auto ev = std::move(cmd.event);
  // Let go of the queue before the waiters wake: a user who waits and then destroys the queue
  // destroys it on their thread, and its unconsumed asynchronous errors reach the handler then
  // (queue_impl::~queue_impl), not later on this worker.
  cmd.queue.reset();
  if (native) {
    // What the command keeps is released when the operation ends, waited for or not (the
    // continuation asks the backend for a notification), and before the event reads complete.
    bool keeps = cmd.keep_alive != nullptr;
    if (keeps) ev->keep_until_complete(std::move(cmd.keep_alive));
    ev->set_stream(&stream);
    ev->set_native(std::move(native));
    if (keeps) ev->on_complete([] {});
  } else {
    cmd.keep_alive.reset();
    t_next = next;
    ev->set_complete();
    t_next = nullptr;
  }
  timer.mark(submit_phase::completion);
}

// Whether the command runs on the queue's stream (and so may wait for its dependencies there).
bool runs_on_stream(const command& cmd) {
  return cmd.what == command::kind::kernel || cmd.what == command::kind::copy ||
         cmd.what == command::kind::fill || cmd.what == command::kind::native_command;
}

// Whether running the command blocks the thread that runs it until the work is done: host
// tasks, and everything a backend computes on the calling thread (the host device). Those run
// on a worker, never on the submitting thread.
bool blocks_runner(const command& cmd) {
  return cmd.what == command::kind::host_task || cmd.queue->computes_on_host();
}

// The stream of an out-of-order queue a command runs on: that of a dependency still running on
// one of the queue's streams (stream order then is the dependency, at no cost), else the next
// one in turn, so that independent commands overlap.
syclone::runtime::stream* choose_stream(const command& cmd) {
  queue_impl& q = *cmd.queue;
  for (const auto& dep : cmd.deps)
    if (const auto* s = dep->stream();
        s && q.owns(s) && dep->status() != info::event_command_status::complete)
      return const_cast<syclone::runtime::stream*>(s);
  return &q.next_stream();
}

bool shuffled() {
  return syclone::host::schedule() == syclone::host::schedule_kind::shuffled;
}

// Workers for ready commands; a command that finds no idle worker left for it starts one, so
// that a blocked host task never starves the others. Never destroyed: commands may still be in
// flight while static objects are torn down.
class worker_pool {
public:
  static worker_pool& get() {
    static worker_pool* pool = new worker_pool();
    return *pool;
  }
  void push(std::shared_ptr<command> cmd) {
    // Host tasks may block for as long as they like, so they get threads up to a large bound;
    // kernels compute (on the host device's own thread pool), so a few threads serve them.
    // Threads inside host tasks do not count against the kernels' share.
    const bool host_task = cmd->what == command::kind::host_task;
    cmd->queued_ns = now_ns();
    std::unique_lock lock(m_mutex);
    m_queue.push_back(std::move(cmd));
    m_queued.store(m_queue.size(), std::memory_order_release);
    // A notified idle thread counts as idle until it runs: there are enough when every queued
    // command has one.
    const int idle = m_idle + (m_polling.load(std::memory_order_relaxed) ? 1 : 0);
    if (idle < static_cast<int>(m_queue.size()) && m_threads < max_threads &&
        (host_task || m_threads - m_in_host_tasks < m_kernel_threads)) {
      ++m_threads;
      std::thread([this] { loop(); }).detach();
    }
    // A worker polling for work takes it without the system call of a wake-up (read under the
    // mutex: a poller that gives up checks the queue under it before it sleeps).
    const bool polled = m_polling.load(std::memory_order_seq_cst) && m_queue.size() == 1;
    lock.unlock();
    if (!polled) m_cv.notify_one();
  }
  // Runs the command of `ev` on the calling thread when it waits in the queue; false when no
  // queued command has that event (a worker took it, or it still waits for dependencies).
  bool run_queued(const event_impl& ev) {
    std::shared_ptr<command> cmd;
    {
      std::lock_guard lock(m_mutex);
      for (auto it = m_queue.rbegin(); it != m_queue.rend(); ++it)
        if ((*it)->event.get() == &ev) {
          cmd = std::move(*it);
          m_queue.erase(std::next(it).base());
          m_queued.store(m_queue.size(), std::memory_order_release);
          break;
        }
    }
    if (!cmd) return false;
    execute(*cmd, nullptr);
    return true;
  }

private:
  static constexpr int max_threads = 256;
  static constexpr std::uint64_t handoff_ns = 10'000;
  const int m_kernel_threads =
      std::max(4, 2 * static_cast<int>(std::thread::hardware_concurrency()));
  void loop() {
    std::uint64_t state = 0x9e3779b97f4a7c15ull ^ syclone::host::schedule_seed();
    std::unique_lock lock(m_mutex);
    for (;;) {
      if (m_queue.empty()) poll(lock);
      ++m_idle;
      m_cv.wait(lock, [&] { return !m_queue.empty(); });
      --m_idle;
      // A command submitted a moment ago is left to its submitter for a few microseconds: a
      // submit followed by a wait then runs on the waiting thread (run_queued), with no hand-off
      // between threads.
      if (std::uint64_t age = now_ns() - m_queue.front()->queued_ns; age < handoff_ns) {
        ++m_idle;
        m_cv.wait_for(lock, std::chrono::nanoseconds(handoff_ns - age));
        --m_idle;
        continue;
      }
      std::shared_ptr<command> cmd;
      if (m_queue.size() > 1 && shuffled()) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17; // xorshift64
        auto pick = m_queue.begin() + static_cast<std::ptrdiff_t>(state % m_queue.size());
        cmd = std::move(*pick);
        m_queue.erase(pick);
      } else {
        cmd = std::move(m_queue.front());
        m_queue.pop_front();
      }
      m_queued.store(m_queue.size(), std::memory_order_release);
      const bool host_task = cmd->what == command::kind::host_task;
      if (host_task) ++m_in_host_tasks;
      lock.unlock();
      while (cmd) {
        std::shared_ptr<command> next;
        execute(*cmd, &next);
        cmd = std::move(next);
      }
      lock.lock();
      if (host_task) --m_in_host_tasks;
    }
  }
  // One worker at a time polls the queue for a while before it sleeps (SYCLONE_HOST_SPIN_US,
  // as the host device's pool threads do): commands submitted back to back, or submitted and
  // waited for, then cost no wake-up system call.
  void poll(std::unique_lock<std::mutex>& lock) {
    const std::uint64_t spin_ns = syclone::host::config().spin_ns;
    if (spin_ns == 0 || m_polling.exchange(true, std::memory_order_seq_cst)) return;
    lock.unlock();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(spin_ns);
    for (bool found = false; !found;) {
      for (int i = 0; i < 64 && !found; ++i) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        found = m_queued.load(std::memory_order_acquire) != 0;
      }
      if (std::chrono::steady_clock::now() >= deadline) break;
    }
    m_polling.store(false, std::memory_order_seq_cst);
    lock.lock();
  }

  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::atomic<bool> m_polling{false};
  std::atomic<std::size_t> m_queued{0}; // m_queue.size(), for the poller
  std::deque<std::shared_ptr<command>> m_queue;
  int m_idle = 0;
  int m_threads = 0;
  int m_in_host_tasks = 0;
};

// Dispatches a command whose dependencies are met.
void dispatch(std::shared_ptr<command> cmd) {
  if (!blocks_runner(*cmd)) {
    execute(*cmd, nullptr);
    return;
  }
  // Completing a command on a worker made this one ready: that worker runs it next (unless
  // the shuffled schedule wants the order left to chance).
  if (t_next && !*t_next && !shuffled()) {
    *t_next = std::move(cmd);
    return;
  }
  worker_pool::get().push(std::move(cmd));
}

// Commands that became ready because a command before them went onto its stream run on the
// thread that put it there, one after the other rather than nested (a chain of them would
// otherwise recurse as deep as it is long).
thread_local std::vector<std::shared_ptr<command>>* t_enqueued_batch = nullptr;

void run_enqueued(std::shared_ptr<command> cmd) {
  if (t_enqueued_batch) {
    t_enqueued_batch->push_back(std::move(cmd));
    return;
  }
  std::vector<std::shared_ptr<command>> batch;
  batch.push_back(std::move(cmd));
  t_enqueued_batch = &batch;
  for (std::size_t i = 0; i < batch.size(); ++i) dispatch(std::move(batch[i]));
  t_enqueued_batch = nullptr;
}

// One of the command's unmet dependencies is met: the last one dispatches it. `here`: on a
// thread that may launch work (not a backend's notification thread).
void arrive(const std::shared_ptr<std::atomic<std::size_t>>& pending,
            const std::shared_ptr<command>& cmd, bool here) {
  if (pending->fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (here && !blocks_runner(*cmd))
    run_enqueued(cmd);
  else if (blocks_runner(*cmd)) // completions arrive on notification threads: a worker runs it
    dispatch(cmd);
  else
    worker_pool::get().push(cmd);
}

// Waits for `dep` to complete, then arrives; arrives at once when it already has.
void arrive_on_complete(event_impl& dep, const std::shared_ptr<std::atomic<std::size_t>>& pending,
                        const std::shared_ptr<command>& cmd, bool here) {
  if (!dep.on_complete([pending, cmd] { arrive(pending, cmd, false); })) arrive(pending, cmd, here);
}

} // namespace

bool run_queued(const event_impl& ev) {
  return worker_pool::get().run_queued(ev);
}

void schedule(std::shared_ptr<command> cmd) {
  syclone::runtime::submit_timer timer;
  const bool on_stream = runs_on_stream(*cmd);
  if (!cmd->stream)
    cmd->stream =
        on_stream && cmd->queue->stream_count() > 1 ? choose_stream(*cmd) : &cmd->queue->stream();
  auto& stream = *cmd->stream;
  // A dependency is met when it completed, or when the device orders the command after it. An
  // earlier operation of the same stream needs nothing at all (the common case of an in-order
  // queue, SYCL 2020 4.6.5.2 property::queue::in_order), so the stream is asked before the
  // driver is queried about the dependency.
  auto satisfied = [&](const std::shared_ptr<event_impl>& dep) {
    if (dep->status() == info::event_command_status::complete) return true;
    if (on_stream && dep->stream() == &stream) return true; // ran on this stream already
    if (on_stream)
      if (auto native = dep->native(); native && stream.wait_on_device(*native)) return true;
    return dep->is_complete();
  };
  // Dependencies already met stay at the end of `deps` until the command was dispatched: such an
  // event is often held by nothing else any more (the user waited and let go of it), and
  // destroying it then is off the path of a submit -> wait round trip.
  std::vector<std::shared_ptr<event_impl>> deps = std::move(cmd->deps);
  std::shared_ptr<event_impl> previous = std::move(cmd->previous);
  auto unmet = static_cast<std::size_t>(
      std::partition(deps.begin(), deps.end(), [&](const auto& dep) { return !satisfied(dep); }) -
      deps.begin());
  if (previous && !satisfied(previous)) {
    deps.insert(deps.begin() + static_cast<std::ptrdiff_t>(unmet), std::move(previous));
    ++unmet;
  }

  // Only a command that must wait pays for the counter and the continuations. A device
  // command waits for a dependency not yet on a stream (submitted an instant before, by another
  // thread perhaps) only until it is: then stream order or a device-side wait orders the two,
  // as for a dependency found there at once. Waiting for its completion instead would put every
  // later command of an in-order queue behind a device round trip too (issue 28: 16 threads on
  // one in-order GPU queue made 12 thousand submissions a second, one thread 229 thousand).
  if (unmet != 0) {
    auto pending = std::make_shared<std::atomic<std::size_t>>(unmet + 1);
    const bool follow_enqueue = on_stream && !cmd->queue->computes_on_host();
    for (std::size_t i = 0; i < unmet; ++i) {
      event_impl* dep = deps[i].get();
      if (follow_enqueue && dep->on_enqueued([pending, cmd, dep](bool enqueued) {
            // Runs inside dep's set_native or set_complete: dep is alive.
            if (!enqueued) return arrive(pending, cmd, false);
            auto& s = *cmd->stream;
            if (dep->stream() == &s) return arrive(pending, cmd, true);
            if (auto native = dep->native(); native && s.wait_on_device(*native))
              return arrive(pending, cmd, true);
            arrive_on_complete(*dep, pending, cmd, true);
          }))
        continue;
      if (follow_enqueue && satisfied(deps[i])) { // went onto a stream just now
        pending->fetch_sub(1, std::memory_order_acq_rel);
        continue;
      }
      if (!dep->on_complete([pending, cmd] { arrive(pending, cmd, false); }))
        pending->fetch_sub(1, std::memory_order_acq_rel);
    }
    if (pending->fetch_sub(1, std::memory_order_acq_rel) != 1) {
      timer.mark(syclone::runtime::submit_phase::dependencies);
      return;
    }
  }
  timer.mark(syclone::runtime::submit_phase::dependencies);
  dispatch(std::move(cmd));
}

} // namespace detail
SYCLONE_END_NAMESPACE
