// Runs commands in dependency order. A command whose dependencies are complete when it is
// submitted runs right away on the submitting thread (the host device computes there, which
// keeps an empty kernel's submit-to-complete in the microseconds); others run on a worker when
// their last dependency completes. Host tasks always run on a worker, so a blocking host task
// never blocks submission.
#include "queue_impl.hpp"

#include <sycl/interop_handle.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

namespace {

void execute(command& cmd) {
  cmd.event->set_running();
  auto& stream = cmd.queue->stream();
  std::shared_ptr<syclone::runtime::native_event> native;
  try {
    // Buffer data moves to where the command uses it, in dependency order.
    device_impl* dev = cmd.queue->device().get();
    for (auto& r : cmd.requirements) {
      bool host_side = r.on_host || cmd.what == command::kind::host_task ||
                       cmd.what == command::kind::update_host;
      r.buffer->prepare(host_side ? nullptr : dev, r.mode, r.no_init, &stream);
    }
    switch (cmd.what) {
    case command::kind::kernel:
      native = stream.run_kernel(cmd.launch, cmd.local_memory_bytes);
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
    case command::kind::none:
      break;
    }
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
    ev->set_native(std::move(native));
    if (keeps) ev->on_complete([] {});
  } else {
    cmd.keep_alive.reset();
    ev->set_complete();
  }
}

// Whether the command runs on the queue's stream (and so may wait for its dependencies there).
bool runs_on_stream(const command& cmd) {
  return cmd.what == command::kind::kernel || cmd.what == command::kind::copy ||
         cmd.what == command::kind::fill || cmd.what == command::kind::native_command;
}

// Workers for commands that become ready later; grows when every worker is busy so that one
// blocked host task never starves the others. Never destroyed: commands may still be in
// flight while static objects are torn down.
class worker_pool {
public:
  static worker_pool& get() {
    static worker_pool* pool = new worker_pool();
    return *pool;
  }
  void push(std::shared_ptr<command> cmd) {
    std::unique_lock lock(m_mutex);
    m_queue.push_back(std::move(cmd));
    if (m_idle == 0 && m_threads < max_threads) {
      ++m_threads;
      std::thread([this] { loop(); }).detach();
    }
    lock.unlock();
    m_cv.notify_one();
  }

private:
  static constexpr int max_threads = 256;
  void loop() {
    std::unique_lock lock(m_mutex);
    for (;;) {
      ++m_idle;
      m_cv.wait(lock, [&] { return !m_queue.empty(); });
      --m_idle;
      auto cmd = std::move(m_queue.front());
      m_queue.pop_front();
      lock.unlock();
      execute(*cmd);
      cmd.reset();
      lock.lock();
    }
  }
  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::deque<std::shared_ptr<command>> m_queue;
  int m_idle = 0;
  int m_threads = 0;
};

} // namespace

void schedule(std::shared_ptr<command> cmd) {
  const bool on_stream = runs_on_stream(*cmd);
  auto& stream = cmd->queue->stream();
  // A dependency is met when it completed, or when the device orders the command after it. An
  // earlier operation of the same stream needs nothing at all (the common case of an in-order
  // queue, SYCL 2020 4.6.5.2 property::queue::in_order), so the stream is asked before the
  // driver is queried about the dependency.
  auto satisfied = [&](const std::shared_ptr<event_impl>& dep) {
    if (dep->status() == info::event_command_status::complete) return true;
    if (on_stream)
      if (auto native = dep->native(); native && stream.wait_on_device(*native)) return true;
    return dep->is_complete();
  };
  std::vector<std::shared_ptr<event_impl>> waiting = std::move(cmd->deps);
  std::shared_ptr<event_impl> previous = std::move(cmd->previous);
  if (previous && satisfied(previous)) previous.reset();
  std::erase_if(waiting, satisfied);
  if (previous) waiting.push_back(std::move(previous));

  // Only a command that must wait pays for the counter and the continuations; the rest runs now.
  if (!waiting.empty()) {
    auto pending = std::make_shared<std::atomic<std::size_t>>(waiting.size() + 1);
    for (auto& dep : waiting) {
      bool registered = dep->on_complete([pending, cmd] {
        if (pending->fetch_sub(1, std::memory_order_acq_rel) == 1) worker_pool::get().push(cmd);
      });
      if (!registered) pending->fetch_sub(1, std::memory_order_acq_rel);
    }
    waiting.clear();
    if (pending->fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  }
  if (cmd->what == command::kind::host_task)
    worker_pool::get().push(std::move(cmd));
  else
    execute(*cmd);
}

} // namespace detail
SYCLONE_END_NAMESPACE
