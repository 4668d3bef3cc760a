// queue_impl, handler_impl and the command they produce (SYCL 2020 4.6.5, 4.9.4).
#pragma once

#include "buffer_impl.hpp"
#include "context_impl.hpp"
#include "event_impl.hpp"
#include "small_vector.hpp"
#include "spin_lock.hpp"

#include <sycl/handler.hpp>
#include <sycl/queue.hpp>

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

// The specialization constant values a command group set (SYCL 2020 4.9.4.4), by the address
// of the specialization_id (host lookups) and by its stable name (what the JIT substitutes).
class spec_constant_values {
public:
  struct value {
    std::string name;
    std::vector<std::byte> bytes;
  };
  void set(const void* id, const char* name, const void* value, std::size_t size);
  const void* find(const void* id) const;
  bool empty() const { return m_values.empty(); }
  const std::map<const void*, value>& values() const { return m_values; }

private:
  std::map<const void*, value> m_values;
};

struct requirement {
  buffer_impl* buffer;
  access_mode mode;
  bool no_init;
  bool on_host; // used by a host task rather than by the queue's device
  // How many accessors of the command group asked for the buffer.
  unsigned char uses = 1;
  // A buffer reduction's result mirror in pinned host memory (reduction_buffer_mirror): once
  // the kernel ran, the buffer's host copy can be read from there (buffer_impl::mirror_written).
  void* mirror = nullptr;
  // The buffer is pinned (buffer_impl::pin) until the command is registered with it.
  bool pinned = true;
};

// One command: what a command group recorded, ready to run on a device.
struct command {
  // native_command: sycl_ext_oneapi_enqueue_native_command (its callable is in host_task).
  enum class kind { none, kernel, host_task, native_command, copy, fill, update_host };
  kind what = kind::none;
  kernel_launch launch;
  std::size_t local_memory_bytes = 0;
  std::function<void(interop_handle)> host_task;
  mem_region src, dst;
  std::vector<std::byte> pattern;
  std::shared_ptr<const void> keep_alive;
  // keep_alive writes output (sycl::stream) when released: it must be released before the
  // command's event completes, and queue::wait waits for it.
  bool writes_output = false;
  std::shared_ptr<spec_constant_values> spec_constants;
  // Most commands use a buffer or two: those cost no allocation.
  syclone::runtime::small_vector<requirement, 2> requirements;
  std::vector<std::shared_ptr<event_impl>> deps;
  // The command submitted before this one to the same in-order queue (SYCL 2020 4.6.5: it runs
  // first); kept out of `deps` so that an in-order submission fills no vector.
  std::shared_ptr<event_impl> previous;
  std::shared_ptr<event_impl> event;
  std::shared_ptr<queue_impl> queue;
  // The queue's stream the command runs on; chosen by the scheduler unless the command group
  // already enqueued work it must follow on one (handler_impl::pin_stream).
  syclone::runtime::stream* stream = nullptr;
  // When the command entered the workers' queue (steady_clock ns; scheduler.cpp).
  std::uint64_t queued_ns = 0;
};

// The state of one command group while it is recorded. It also holds the command it records:
// the scheduler owns the command through an aliasing pointer to this object, so a submission
// allocates one block for both and moves nothing.
class handler_impl final : public buffer_set {
public:
  handler_impl(std::shared_ptr<queue_impl> q) : m_queue(std::move(q)) {}
  // Unpins the buffers of a command group that was never submitted (its function threw).
  ~handler_impl();
  handler_impl(const handler_impl&) = delete;
  handler_impl& operator=(const handler_impl&) = delete;
  // SYCL 2020 3.7.1: a command group holds at most one command.
  command& claim(command::kind k, const char* what);
  void add_requirement(buffer_impl& b, access_mode mode, bool no_init, bool on_host);
  bool requires_buffer(const buffer_impl& b) const;
  void collect(std::vector<const evictable*>& out) const override;
  std::size_t reserve_local(std::size_t bytes, std::size_t align);
  // The stream the command will run on, for work the command group enqueues ahead of it (it
  // then runs after that work in stream order).
  syclone::runtime::stream& pin_stream();
  // The command keeps `holder` until it completed (with whatever it kept before); releasing
  // it may act on the command's results (print a stream, report a device-side error).
  void keep_until_complete(std::shared_ptr<const void> holder);

  std::shared_ptr<queue_impl> m_queue;
  command m_command;
  std::vector<std::shared_ptr<event_impl>> m_deps;
  std::size_t m_local_bytes = 0;
  bool m_local_captured = false; // the kernel captured a local_accessor (copied it)
  std::shared_ptr<spec_constant_values> m_spec;
  std::shared_ptr<kernel_bundle_impl> m_bundle; // handler::use_kernel_bundle
  const char* m_command_name = nullptr;
  // sycl_ext_oneapi_enqueue_barrier: the command group is a barrier, over every command the
  // queue holds (all) or over its wait list (m_deps).
  enum class barrier { none, all, wait_list };
  barrier m_barrier = barrier::none;
};

class queue_impl final : public std::enable_shared_from_this<queue_impl>, public command_source {
public:
  // `stream`: the backend stream to run on (make_queue over a native queue); null creates one.
  queue_impl(std::shared_ptr<device_impl> dev, std::shared_ptr<context_impl> ctx,
             async_handler handler, property_list props,
             std::unique_ptr<syclone::runtime::stream> stream = nullptr);
  ~queue_impl();

  const std::shared_ptr<device_impl>& device() const { return m_device; }
  const std::shared_ptr<context_impl>& context() const { return m_context; }
  const property_list& properties() const { return m_props; }
  bool in_order() const { return m_in_order; }
  bool profiling() const { return m_profiling; }
  // The backend stream commands of this queue run on (thread-safe): the first of its streams.
  syclone::runtime::stream& stream() const { return *m_streams[0]; }
  // An out-of-order queue of an asynchronous backend has several streams, so that independent
  // commands overlap on the device (issue 16); the scheduler picks one per command.
  std::size_t stream_count() const { return m_streams.size(); }
  // One of the queue's streams for a command with no dependency on any of them (round robin).
  syclone::runtime::stream& next_stream() {
    return *m_streams[m_next_stream.fetch_add(1, std::memory_order_relaxed) % m_streams.size()];
  }
  bool owns(const syclone::runtime::stream* s) const {
    for (const auto& own : m_streams)
      if (own.get() == s) return true;
    return false;
  }
  // Whether commands compute where they run (the host device): they run on worker threads.
  bool computes_on_host() const { return m_computes_on_host; }

  std::shared_ptr<event_impl> submit(const std::function<void(handler&)>& cgf);
  void wait();
  // Whether every command submitted so far has completed.
  bool empty();
  void throw_asynchronous();
  void report_async(std::exception_ptr e);
  // command_source: the latch is held until each command not completed yet has.
  void hold_until_complete(const std::shared_ptr<release_latch>& latch) override;

private:
  // Everything that decides at submission whether the command can run here; throws
  // (SYCL 2020 4.13.1: synchronously, before anything was enqueued).
  void check_command(command& cmd, const handler_impl& h);

  // Unique per queue of the process (from 1), unlike its address: check_command's memo key.
  const std::uint64_t m_serial;
  std::shared_ptr<device_impl> m_device;
  std::shared_ptr<context_impl> m_context;
  async_handler m_handler;
  property_list m_props;
  bool m_in_order;
  bool m_profiling;
  bool m_computes_on_host;
  std::vector<std::unique_ptr<syclone::runtime::stream>> m_streams;
  std::atomic<std::size_t> m_next_stream{0};

  // Short sections only (a swap, a push, a pass over the outstanding events): a spin lock costs
  // a submission one atomic exchange (issue 16).
  syclone::runtime::spin_lock m_mutex;
  std::shared_ptr<event_impl> m_last;                     // in-order queues chain on it
  std::vector<std::shared_ptr<event_impl>> m_outstanding; // out-of-order queues only
  // Out-of-order queues: the last barrier submitted (sycl_ext_oneapi_enqueue_barrier), which
  // every command submitted after it waits for.
  std::shared_ptr<event_impl> m_barrier;
  // In-order queues: commands with sycl::stream output not yet waited for (queue::wait waits
  // for them too: the last command completing on the device does not print their output).
  std::vector<std::shared_ptr<event_impl>> m_output_pending;
  std::size_t m_prune_at = 64;
  std::vector<std::exception_ptr> m_async_errors;
};

// Runs a command when its dependencies are complete (src/runtime/scheduler.cpp).
void schedule(std::shared_ptr<command> cmd);

} // namespace detail
SYCLONE_END_NAMESPACE
