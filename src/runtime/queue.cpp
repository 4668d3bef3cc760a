// SYCL 2020 4.6.5 queue and 4.9.4 handler: recording command groups and submitting them.
#include "queue_impl.hpp"

#include "block_pool.hpp"
#include "kernel_attributes.hpp"
#include "kernel_bundle_impl.hpp"
#include "kernel_registry.hpp"
#include "sub_group.hpp"
#include "submit_profile.hpp"

#include <sycl/detail/block_allocator.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

namespace {
thread_local const void* t_capturing = nullptr;
thread_local bool t_capturing_host = false;

handler_impl& impl_of(handler& cgh) {
  return *cgh.impl();
}
} // namespace

// block_allocator.hpp: size classes over block_pool.hpp's per-thread lists; larger blocks from
// operator new.
void* allocate_block(std::size_t bytes) {
  using syclone::runtime::block_cache;
  if (bytes <= 64) return block_cache<64>::allocate();
  if (bytes <= 128) return block_cache<128>::allocate();
  if (bytes <= 256) return block_cache<256>::allocate();
  if (bytes <= 512) return block_cache<512>::allocate();
  if (bytes <= 1024) return block_cache<1024>::allocate();
  return ::operator new(bytes);
}
void release_block(void* block, std::size_t bytes) noexcept {
  using syclone::runtime::block_cache;
  if (bytes <= 64) return block_cache<64>::deallocate(block);
  if (bytes <= 128) return block_cache<128>::deallocate(block);
  if (bytes <= 256) return block_cache<256>::deallocate(block);
  if (bytes <= 512) return block_cache<512>::deallocate(block);
  if (bytes <= 1024) return block_cache<1024>::deallocate(block);
  ::operator delete(block);
}

// spec constants
void spec_constant_values::set(const void* id, const char* name, const void* value,
                               std::size_t size) {
  auto& v = m_values[id];
  v.name = name;
  v.bytes.resize(size);
  std::memcpy(v.bytes.data(), value, size);
}
const void* spec_constant_values::find(const void* id) const {
  auto it = m_values.find(id);
  return it == m_values.end() ? nullptr : it->second.bytes.data();
}
const void* find_spec_constant(const spec_constant_values* values, const void* spec_id) {
  return values ? values->find(spec_id) : nullptr;
}

// handler_impl
command& handler_impl::claim(command::kind k, const char* what) {
  if (m_command_name) // a prefetch or mem_advise records kind::none but is a command too
    throw_error(errc::invalid, std::string("command group: ") + what + " after " + m_command_name +
                                   "; a command group submits at most one command (SYCL 2020 "
                                   "3.7.1): submit a second command group");
  m_command.what = k;
  m_command_name = what;
  return m_command;
}

void handler_impl::add_requirement(buffer_impl& b, access_mode mode, bool no_init, bool on_host) {
  for (auto& r : m_command.requirements)
    if (r.buffer == &b) {
      if (r.mode != mode) r.mode = access_mode::read_write;
      r.no_init = r.no_init && no_init;
      r.on_host = r.on_host || on_host;
      if (r.uses < 255) ++r.uses;
      return;
    }
  b.pin();
  m_command.requirements.push_back({&b, mode, no_init, on_host, 1, nullptr, true});
}

handler_impl::~handler_impl() {
  for (auto& r : m_command.requirements)
    if (r.pinned) r.buffer->unpin();
}

void handler_impl::collect(std::vector<const evictable*>& out) const {
  for (auto& r : m_command.requirements) out.push_back(&r.buffer->root());
}

bool handler_impl::requires_buffer(const buffer_impl& b) const {
  for (auto& r : m_command.requirements)
    if (r.buffer == &b) return true;
  return false;
}

void handler_impl::keep_until_complete(std::shared_ptr<const void> holder) {
  auto& keep = m_command.keep_alive;
  if (!keep) {
    keep = std::move(holder);
    return;
  }
  keep = std::make_shared<std::pair<std::shared_ptr<const void>, std::shared_ptr<const void>>>(
      std::move(keep), std::move(holder));
}

syclone::runtime::stream& handler_impl::pin_stream() {
  if (!m_command.stream) m_command.stream = &m_queue->stream();
  return *m_command.stream;
}

std::size_t handler_impl::reserve_local(std::size_t bytes, std::size_t align) {
  std::size_t offset = (m_local_bytes + align - 1) / align * align;
  m_local_bytes = offset + bytes;
  return offset;
}

capture_scope::capture_scope(handler& cgh, bool host_side)
    : m_previous_cg(t_capturing), m_previous_host(t_capturing_host) {
  t_capturing = cgh.impl().get();
  t_capturing_host = host_side;
}
capture_scope::~capture_scope() {
  t_capturing = m_previous_cg;
  t_capturing_host = m_previous_host;
}
const void* capturing_command_group() noexcept {
  return t_capturing;
}

void* bind_captured_accessor(const void* capturing_cg, buffer_impl& b) {
  auto* h = static_cast<const handler_impl*>(capturing_cg);
  if (!h->requires_buffer(b))
    throw_error(errc::kernel_argument,
                "accessor used in a command group it does not belong to: create the accessor "
                "with this command group's handler, or call handler::require() on a placeholder "
                "accessor before the kernel or host task uses it");
  if (t_capturing_host) return b.host_data();
  return b.data_on(*h->m_queue->device(), h);
}

void* require(handler& cgh, buffer_impl& b, access_mode mode, bool no_init, bool on_host) {
  auto& h = impl_of(cgh);
  h.add_requirement(b, mode, no_init, on_host);
  return on_host ? b.host_data() : b.data_on(*h.m_queue->device(), &h);
}

std::size_t reserve_local_memory(handler& cgh, std::size_t bytes, std::size_t align) {
  return impl_of(cgh).reserve_local(bytes, align);
}

void note_captured_local_accessor(const void* capturing_cg) noexcept {
  const_cast<handler_impl*>(static_cast<const handler_impl*>(capturing_cg))->m_local_captured =
      true;
}

const void* command_group_id(const handler& cgh) noexcept {
  return cgh.impl().get();
}

namespace {
// SYCLONE_QUEUE_STREAMS: device streams of an out-of-order queue (1 to 16, default 4).
std::size_t out_of_order_streams() {
  static const std::size_t n = [] {
    const char* e = std::getenv("SYCLONE_QUEUE_STREAMS");
    if (!e || !*e) return std::size_t(4);
    long v = std::strtol(e, nullptr, 10);
    if (v >= 1 && v <= 16) return static_cast<std::size_t>(v);
    std::fprintf(stderr, "syclone: ignoring SYCLONE_QUEUE_STREAMS=\"%s\": expected 1 to 16\n", e);
    return std::size_t(4);
  }();
  return n;
}
} // namespace

namespace {
// What the checks of a kernel submission found (issue 16): a thread submitting a kernel again to
// the same queue with the same shape, the common case, skips them. Everything they decide
// depends only on the key: the kernel (its name's address), the queue (so its device and
// streams), the launch shape and local memory, and what was registered about kernels (images,
// sub-group sizes, attributes), whose generations say when a registration came since. Only
// submissions without a kernel bundle or specialization constants, whose checks passed.
struct checked_launch {
  std::uint64_t queue = 0; // queue_impl::serial, never 0
  const char* name = nullptr;
  kernel_kind kind = kernel_kind::single_task;
  int dimensions = 0;
  std::uint32_t required_sub_group_size = 0;
  bool root_sync = false;
  std::size_t global[3] = {}, local[3] = {};
  std::size_t local_bytes = 0;
  std::uint64_t images = 0, sub_groups = 0, attributes = 0;
  // What the checks set.
  std::uint32_t sub_group_size = 0;
  void* prepared = nullptr;

  bool same(std::uint64_t q, const kernel_launch& l, std::size_t bytes, std::uint64_t gi,
            std::uint64_t gs, std::uint64_t ga) const noexcept {
    return name == l.name && queue == q && kind == l.kind && dimensions == l.dimensions &&
           required_sub_group_size == l.required_sub_group_size && root_sync == l.root_sync &&
           local_bytes == bytes && global[0] == l.global[0] && global[1] == l.global[1] &&
           global[2] == l.global[2] && local[0] == l.local[0] && local[1] == l.local[1] &&
           local[2] == l.local[2] && images == gi && sub_groups == gs && attributes == ga;
  }
};
struct checked_launches {
  static constexpr std::size_t slots = 4;
  checked_launch slot[slots];
  std::size_t next = 0;
};
thread_local checked_launches t_checked;

std::atomic<std::uint64_t> g_queue_serials{0};
} // namespace

// queue_impl
queue_impl::queue_impl(std::shared_ptr<device_impl> dev, std::shared_ptr<context_impl> ctx,
                       async_handler handler, property_list props,
                       std::unique_ptr<syclone::runtime::stream> stream)
    : m_serial(g_queue_serials.fetch_add(1, std::memory_order_relaxed) + 1),
      m_device(std::move(dev)), m_context(std::move(ctx)), m_handler(std::move(handler)),
      m_props(std::move(props)), m_in_order(m_props.has_property<property::queue::in_order>()),
      m_profiling(m_props.has_property<property::queue::enable_profiling>()) {
  if (!m_context->contains(m_device.get()))
    throw_error(errc::invalid, "queue: the device is not part of the given context; create the "
                               "context with this device");
  m_computes_on_host = m_device->backend_device().backend() == backend::syclone_host;
  // Issue 28: a device a fault in a kernel left unusable is reset for the queues made after.
  if (!m_computes_on_host) m_device->recover_after_fault();
  if (stream) {
    m_streams.push_back(std::move(stream)); // a native stream the queue adopted: its only one
  } else {
    // Streams are cheap on the device but not free to create (a driver call each), so only
    // queues whose commands can overlap get more than one.
    std::size_t streams = m_in_order || m_computes_on_host ? 1 : out_of_order_streams();
    for (std::size_t i = 0; i < streams; ++i)
      m_streams.push_back(m_device->backend_device().create_stream(m_profiling));
  }
  m_context->add_source(this);
}

void queue_impl::hold_until_complete(const std::shared_ptr<release_latch>& latch) {
  std::vector<std::shared_ptr<event_impl>> pending;
  {
    std::lock_guard lock(m_mutex);
    // An in-order queue's last command completes after all the others.
    if (m_in_order) {
      if (m_last) pending.push_back(m_last);
    } else {
      pending = m_outstanding;
    }
  }
  for (const auto& e : pending) {
    latch->hold();
    if (!e->on_complete([latch] { latch->drop(); })) latch->drop();
  }
}

// SYCL 2020 4.13.1: asynchronous errors nobody consumed reach a handler when the queue goes, so
// that none is lost in silence (a program that only calls queue::wait() learns of them here).
// The handler is the queue's, else its context's; without one they are printed and the program
// terminates (4.13.1.2). Runs when the last command of the queue completed (commands hold the
// queue), possibly on a worker thread.
queue_impl::~queue_impl() {
  m_context->remove_source(this);
  try {
    throw_asynchronous();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "syclone: the async_handler threw while the queue was destroyed: %s\n",
                 e.what());
  } catch (...) {
    std::fprintf(stderr, "syclone: the async_handler threw while the queue was destroyed\n");
  }
}

void queue_impl::wait() {
  std::vector<std::shared_ptr<event_impl>> pending;
  {
    std::lock_guard lock(m_mutex);
    // In order, every command waits for the one before it: the last one completes last.
    if (m_in_order) {
      pending.swap(m_output_pending);
      if (m_last) pending.push_back(m_last);
    } else {
      pending = m_outstanding;
    }
  }
  for (auto& e : pending) e->wait();
  std::lock_guard lock(m_mutex);
  std::erase_if(m_outstanding,
                [](const auto& e) { return e->status() == info::event_command_status::complete; });
}

bool queue_impl::empty() {
  auto complete = [](const std::shared_ptr<event_impl>& e) {
    return e->status() == info::event_command_status::complete;
  };
  std::lock_guard lock(m_mutex);
  // In order, the last command completes last.
  if (m_in_order)
    return (!m_last || complete(m_last)) &&
           std::all_of(m_output_pending.begin(), m_output_pending.end(), complete);
  std::erase_if(m_outstanding, complete);
  return m_outstanding.empty();
}

void queue_impl::report_async(std::exception_ptr e) {
  if (!m_computes_on_host) e = m_device->describe_fault(std::move(e));
  std::lock_guard lock(m_mutex);
  m_async_errors.push_back(std::move(e));
}

void queue_impl::throw_asynchronous() {
  std::vector<std::exception_ptr> errors;
  {
    std::lock_guard lock(m_mutex);
    errors.swap(m_async_errors);
  }
  if (errors.empty()) return;
  const async_handler& h = m_handler ? m_handler : m_context->handler();
  if (h) {
    h(exception_list(std::move(errors)));
    return;
  }
  // SYCL 2020 4.13.1.2: without a handler the errors are reported and the program terminates.
  for (auto& e : errors) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      std::fprintf(stderr, "syclone: unhandled asynchronous error: %s\n", ex.what());
    } catch (...) {
      std::fprintf(stderr, "syclone: unhandled asynchronous error of unknown type\n");
    }
  }
  std::fprintf(stderr, "syclone: no async_handler was given to the queue or its context; "
                       "terminating (SYCL 2020 4.13.1.2)\n");
  std::terminate();
}

void queue_impl::check_command(command& cmd, const handler_impl& h) {
  auto& l = cmd.launch;
  // A kernel this thread submitted to this queue before with the same shape passed them then.
  const bool remember = cmd.what == command::kind::kernel && !h.m_bundle && !cmd.spec_constants;
  checked_launch key;
  if (remember) {
    const std::uint64_t images = syclone::runtime::kernel_registry::get().generation();
    const std::uint64_t sub_groups = syclone::runtime::sub_group_records_generation();
    const std::uint64_t attributes = syclone::runtime::kernel_attributes_generation();
    for (const auto& c : t_checked.slot)
      if (c.same(m_serial, l, cmd.local_memory_bytes, images, sub_groups, attributes)) {
        l.sub_group_size = c.sub_group_size;
        l.prepared = c.prepared;
        return;
      }
    key = {m_serial,
           l.name,
           l.kind,
           l.dimensions,
           l.required_sub_group_size,
           l.root_sync,
           {l.global[0], l.global[1], l.global[2]},
           {l.local[0], l.local[1], l.local[2]},
           cmd.local_memory_bytes,
           images,
           sub_groups,
           attributes};
  }
  if (h.m_bundle)
    bind_kernel_bundle(*h.m_bundle, cmd, *m_device);
  else
    check_compatible(cmd, *m_device);

  if (cmd.what == command::kind::kernel) {
    const auto& props = m_device->props();
    // SYCL 2020 5.7/5.8.1: device_has, reqd_work_group_size (kernel_not_supported, nd_range).
    syclone::runtime::check_kernel_attributes(l, *m_device);
    syclone::runtime::resolve_sub_group_size(l, props); // seed 004: unsupported size throws here
    // A range launch that can also run item by item (a hierarchical kernel on the host: one item
    // per work-group) but uses local memory runs as an nd_range of one-item work-groups, so each
    // work-group gets its own block of local memory.
    if (l.kind == kernel_kind::range && cmd.local_memory_bytes && l.run_item && l.dimensions == 1) {
      l.kind = kernel_kind::nd_range;
      l.local[0] = 1;
    }
    if (l.kind == kernel_kind::nd_range) {
      std::size_t total = 1;
      for (int d = 0; d < l.dimensions; ++d) {
        if (l.local[d] == 0)
          throw_error(errc::nd_range,
                      "nd_range: local range 0 in dimension " + std::to_string(d) +
                          "; a work-group has work-items in every dimension (a local range of "
                          "0 in every dimension, sycl::ext::oneapi::experimental::auto_range(), "
                          "lets syclone choose)");
        if (l.global[d] % l.local[d] != 0)
          throw_error(errc::nd_range,
                      "nd_range: global range " + std::to_string(l.global[d]) +
                          " is not a multiple of local range " + std::to_string(l.local[d]) +
                          " in dimension " + std::to_string(d) +
                          "; round the global range up to a multiple of the local range");
        int hw = 3 - l.dimensions + d;
        if (l.local[d] > props.max_work_item_sizes[hw])
          throw_error(errc::nd_range, "nd_range: local range " + std::to_string(l.local[d]) +
                                          " in dimension " + std::to_string(d) +
                                          " exceeds the device's max_work_item_sizes (" +
                                          std::to_string(props.max_work_item_sizes[hw]) + ")");
        total *= l.local[d];
      }
      if (total > props.max_work_group_size)
        throw_error(errc::nd_range, "nd_range: the work-group has " + std::to_string(total) +
                                        " work-items but " + props.name + " allows at most " +
                                        std::to_string(props.max_work_group_size) +
                                        " (info::device::max_work_group_size)");
      if (cmd.local_memory_bytes > props.local_mem_size)
        throw_error(errc::memory_allocation,
                    "local memory (local_accessor, work_group_scratch_size): the kernel needs " +
                        std::to_string(cmd.local_memory_bytes) +
                        " bytes of local memory per work-group but the device has " +
                        std::to_string(props.local_mem_size) + " (info::device::local_mem_size)");
    } else if (cmd.local_memory_bytes) {
      throw_error(errc::kernel_argument,
                  "local_accessor used in a kernel launched over a range: local memory exists "
                  "only in nd_range kernels; launch with an nd_range");
    }
    if (cmd.spec_constants) {
      l.spec_constants = cmd.spec_constants.get();
      if (l.handler_slot) l.handler_slot->bind_host_values(cmd.spec_constants.get());
    }
    // DESIGN.md "kernel errors": whether the kernel can run here (device code, JIT or cache hit,
    // its limits) is decided now and throws from submit, before anything was enqueued.
    stream().prepare_kernel_launch(l, cmd.local_memory_bytes);
  }

  // Checks that changed the launch's kind (a range run as an nd_range) are not remembered.
  if (remember && l.kind == key.kind) {
    key.sub_group_size = l.sub_group_size;
    key.prepared = l.prepared;
    t_checked.slot[t_checked.next++ % checked_launches::slots] = key;
  }
}

std::shared_ptr<event_impl> queue_impl::submit(const std::function<void(handler&)>& cgf) {
  using syclone::runtime::submit_phase;
  syclone::runtime::submit_timer timer;
  // Blocks of a per-thread pool (block_pool.hpp): no malloc or free per submission.
  // The command stays inside the handler_impl: one allocation for both. Once the command group
  // function returned, the command takes the handler's ownership of it over (the handler is
  // gone right after, so nothing records into it any more).
  handler_impl* himpl;
  std::shared_ptr<command> cmd;
  {
    handler cgh(std::allocate_shared<handler_impl>(
        syclone::runtime::pooled_allocator<handler_impl>(), shared_from_this()));
    himpl = cgh.impl().get();
    cgf(cgh); // exceptions propagate synchronously; nothing was enqueued
    cmd = std::shared_ptr<command>(
        std::move(const_cast<std::shared_ptr<handler_impl>&>(cgh.impl())), &himpl->m_command);
  }
  timer.mark(submit_phase::command_group);
  // The command holds the queue until it ran (scheduler.cpp's execute lets go before waking
  // waiters); the handler has no use for it any more.
  cmd->queue = std::move(himpl->m_queue);
  // Local memory only for a kernel that captured a local_accessor: one constructed in the
  // command group but not used by the kernel reserves nothing (SYCL 2020 4.7.6.11 forbids
  // *using* one in a range kernel, not creating it).
  cmd->local_memory_bytes = himpl->m_local_captured ? himpl->m_local_bytes : 0;
  cmd->spec_constants = himpl->m_spec;
  check_command(*cmd, *himpl);
  timer.mark(submit_phase::checks);

  auto ev = std::allocate_shared<event_impl>(syclone::runtime::pooled_allocator<event_impl>(),
                                             m_profiling);
  ev->set_queue(weak_from_this());
  ev->backend = m_device->backend_device().backend();
  cmd->event = ev;
  cmd->deps = std::move(himpl->m_deps);
  timer.mark(submit_phase::command);
  for (auto& r : cmd->requirements) {
    r.buffer->add_access(r.mode, ev, cmd->deps);
    r.buffer->unpin(); // the command's event keeps its device copies from now on
    r.pinned = false;
  }
  timer.mark(submit_phase::buffer_deps);
  std::vector<std::shared_ptr<event_impl>> prune;
  {
    std::lock_guard lock(m_mutex);
    if (m_in_order) {
      cmd->previous = std::move(m_last);
      m_last = ev;
      if (cmd->writes_output) {
        std::erase_if(m_output_pending, [](const auto& e) {
          return e->status() == info::event_command_status::complete;
        });
        m_output_pending.push_back(ev);
      }
    } else {
      // sycl_ext_oneapi_enqueue_barrier: a barrier over the whole queue waits for everything it
      // holds (older barriers included); any other command waits for the last barrier.
      if (himpl->m_barrier == handler_impl::barrier::all)
        cmd->deps.insert(cmd->deps.end(), m_outstanding.begin(), m_outstanding.end());
      else if (m_barrier && m_barrier->status() != info::event_command_status::complete)
        cmd->deps.push_back(m_barrier);
      if (himpl->m_barrier != handler_impl::barrier::none) m_barrier = ev;
      // Now and then, drop the events queue::wait need not wait for: those complete, and those
      // a newer operation of the same device stream stands for (no driver call). Should many
      // remain (commands waiting for others, a backend that does not number its operations),
      // the backend is asked which completed: outside the lock (below), about a copy, so that
      // queue::wait meanwhile still finds every event here.
      if (m_outstanding.size() >= m_prune_at) {
        erase_superseded(m_outstanding);
        if (m_outstanding.size() >= m_prune_at / 2) prune = m_outstanding;
        m_prune_at = std::max<std::size_t>(64, 2 * m_outstanding.size());
      }
      m_outstanding.push_back(ev);
    }
  }
  if (!prune.empty()) {
    // Newest first: once a newer operation of a backend stream completed, the older ones of it
    // answer without a driver call (event_impl.hpp erase_completed).
    for (auto it = prune.rbegin(); it != prune.rend(); ++it) (*it)->is_complete();
    prune.clear();
    std::lock_guard lock(m_mutex);
    std::erase_if(m_outstanding, [](const auto& e) {
      return e->status() == info::event_command_status::complete;
    });
    m_prune_at = std::max<std::size_t>(64, 2 * m_outstanding.size());
  }
  ev->set_dependencies(cmd->deps, cmd->previous); // schedule() skips those already complete
  timer.mark(submit_phase::queue_books);
  if (timer.on()) syclone::runtime::submit_profile_count();
  schedule(std::move(cmd));
  return ev;
}

} // namespace detail

// queue
queue::queue(const device& dev, const async_handler& handler, const property_list& props) {
  auto d = detail::impl_access::get(dev);
  m_impl = std::make_shared<detail::queue_impl>(d, d->default_context(), handler, props);
}
queue::queue(const context& ctx, const device& dev, const async_handler& handler,
             const property_list& props)
    : m_impl(std::make_shared<detail::queue_impl>(detail::impl_access::get(dev),
                                                  detail::impl_access::get(ctx), handler, props)) {}

backend queue::get_backend() const noexcept {
  return m_impl->device()->backend_device().backend();
}
context queue::get_context() const {
  return detail::impl_access::make<context>(m_impl->context());
}
device queue::get_device() const {
  return detail::impl_access::make<device>(m_impl->device());
}
bool queue::is_in_order() const {
  return m_impl->in_order();
}
const property_list& queue::properties() const {
  return m_impl->properties();
}
void queue::wait() {
  m_impl->wait();
}
bool queue::khr_empty() const {
  return m_impl->empty();
}
bool queue::ext_oneapi_empty() const {
  return khr_empty();
}
// Nothing to push: a command goes to its device when submitted, or from the scheduler when its
// last dependency completes (scheduler.cpp); host tasks run on the host device's workers. So the
// forward progress sycl_khr_queue_flush asks for holds without a wait().
void queue::khr_flush() const {}
event queue::ext_oneapi_submit_barrier() {
  return submit([](handler& h) { h.ext_oneapi_barrier(); });
}
event queue::ext_oneapi_submit_barrier(const std::vector<event>& waitList) {
  return submit([&](handler& h) { h.ext_oneapi_barrier(waitList); });
}
void queue::wait_and_throw() {
  m_impl->wait();
  m_impl->throw_asynchronous();
}
void queue::throw_asynchronous() {
  m_impl->throw_asynchronous();
}

event queue::submit_impl(std::function<void(handler&)> cgf, queue* secondary) {
  if (!secondary) return detail::impl_access::make<event>(m_impl->submit(cgf));
  try {
    return detail::impl_access::make<event>(m_impl->submit(cgf));
  } catch (const exception&) {
    // SYCL 2020 4.6.5.1: the secondary queue runs the command group if the primary fails.
    return detail::impl_access::make<event>(secondary->m_impl->submit(cgf));
  }
}

template <>
SYCLONE_EXPORT context queue::get_info<info::queue::context>() const {
  return get_context();
}
template <>
SYCLONE_EXPORT device queue::get_info<info::queue::device>() const {
  return get_device();
}

// handler
void handler::depends_on(event e) {
  m_impl->m_deps.push_back(detail::impl_access::get(e));
}
void handler::depends_on(const std::vector<event>& events) {
  for (const auto& e : events) depends_on(e);
}
void handler::set_kernel(detail::kernel_launch&& launch) {
  detail::command& cmd = m_impl->claim(detail::command::kind::kernel, "a kernel");
  cmd.launch = std::move(launch);
  // A stream is made in the command group before the kernel that uses it.
  cmd.launch.work_item_streams = cmd.writes_output;
}
void handler::set_native_command(std::function<void(interop_handle)> task) {
  m_impl->claim(detail::command::kind::native_command, "a native command").host_task =
      std::move(task);
}
void handler::set_host_task(std::function<void(interop_handle)> task) {
  m_impl->claim(detail::command::kind::host_task, "a host task").host_task = std::move(task);
}

namespace {
void check_region(detail::handler_impl& h, const detail::mem_region& r, const char* what) {
  if (r.buffer && !h.requires_buffer(*r.buffer))
    detail::throw_error(errc::kernel_argument,
                        std::string(what) +
                            ": the accessor is not bound to this command group; create it with "
                            "this handler or call handler::require() first");
  if (!r.buffer && !r.ptr && r.range[0] * r.range[1] * r.range[2] != 0)
    detail::throw_error(errc::invalid, std::string(what) + ": null pointer");
}
} // namespace

void handler::record_copy(const detail::mem_region& src, const detail::mem_region& dst,
                          std::shared_ptr<const void> keep_alive) {
  check_region(*m_impl, src, "handler::copy source");
  check_region(*m_impl, dst, "handler::copy destination");
  auto& c = m_impl->claim(detail::command::kind::copy, "a copy");
  c.src = src;
  c.dst = dst;
  c.keep_alive = std::move(keep_alive);
}
void handler::record_update_host(const detail::mem_region& region) {
  check_region(*m_impl, region, "handler::update_host");
  // SYCL 2020 4.9.4.3: the host memory behind the buffer (its host pointer, shared_ptr or final
  // data) gets the region's contents. The command runs host-side like a host task: its
  // requirement brings the buffer's host copy up to date first, then the region is copied out.
  auto& c = m_impl->claim(detail::command::kind::host_task, "update_host");
  c.dst = region;
  c.host_task = [region](interop_handle) { region.buffer->update_host_memory(region); };
}
void handler::record_fill(const detail::mem_region& dst, const void* pattern,
                          std::size_t pattern_size) {
  check_region(*m_impl, dst, "handler::fill");
  const auto& q = *m_impl->m_queue;
  if (!dst.buffer && dst.ptr && !q.computes_on_host()) {
    detail::context_impl::allocation a;
    if (!q.context()->find_in_platform(dst.ptr, *q.device(), a)) {
      // Memory a GPU cannot write (the program's own host memory, which the driver's memset
      // refuses; a copy the driver stages itself): filled by the host in the command's place.
      auto& c = m_impl->claim(detail::command::kind::host_task, "a fill");
      std::vector<std::byte> bytes(static_cast<const std::byte*>(pattern),
                                   static_cast<const std::byte*>(pattern) + pattern_size);
      c.host_task = [dst, bytes = std::move(bytes)](interop_handle) {
        syclone::runtime::host_fill(dst, bytes.data(), bytes.size());
      };
      return;
    }
  }
  auto& c = m_impl->claim(detail::command::kind::fill, "a fill");
  c.dst = dst;
  c.pattern.resize(pattern_size);
  std::memcpy(c.pattern.data(), pattern, pattern_size);
}
namespace {
// A USM device allocation of another platform's device is memory this queue's device cannot
// address (SYCL 2020 4.8.2: device allocations are accessible only by their device); the host
// device would read a GPU address as its own and crash. Memory of the queue's own platform
// (several GPUs of one CUDA platform included) the backend copies itself.
void check_foreign_device_memory(const detail::handler_impl& h, const void* ptr, const char* what,
                                 const char* role) {
  const auto& mine = h.m_queue->device();
  const detail::device_impl* owner = h.m_queue->context()->foreign_device_owner(ptr, *mine);
  if (!owner) return;
  detail::throw_error(
      errc::invalid,
      std::string(what) + ": the " + role + " is a USM device allocation of " +
          owner->props().name + ", which " + mine->props().name +
          " cannot access (SYCL 2020 4.8.2); copy with a queue of the allocation's device, or "
          "through host or shared memory");
}
} // namespace

void handler::memcpy(void* dest, const void* src, std::size_t num_bytes) {
  if (num_bytes && (!dest || !src))
    detail::throw_error(errc::invalid, "handler::memcpy: null pointer with a non-zero size");
  if (num_bytes) {
    check_foreign_device_memory(*m_impl, src, "handler::memcpy", "source");
    check_foreign_device_memory(*m_impl, dest, "handler::memcpy", "destination");
  }
  auto& c = m_impl->claim(detail::command::kind::copy, "a memcpy");
  c.src = detail::contiguous(src, 1, num_bytes);
  c.dst = detail::contiguous(dest, 1, num_bytes);
}
void handler::memset(void* ptr, int value, std::size_t num_bytes) {
  if (num_bytes && !ptr)
    detail::throw_error(errc::invalid, "handler::memset: null pointer with a non-zero size");
  if (num_bytes) check_foreign_device_memory(*m_impl, ptr, "handler::memset", "destination");
  unsigned char byte = static_cast<unsigned char>(value);
  record_fill(detail::contiguous(ptr, 1, num_bytes), &byte, 1);
}
namespace {
// `height` rows of `width` elements of `element` bytes, rows `pitch` elements apart.
detail::mem_region rows(const void* p, std::size_t element, std::size_t pitch, std::size_t width,
                        std::size_t height) {
  detail::mem_region r;
  r.ptr = const_cast<void*>(p);
  r.element_size = element;
  r.dimensions = 2;
  r.mem[0] = r.range[0] = height;
  r.mem[1] = pitch;
  r.range[1] = width;
  return r;
}
void check_rows(const char* what, const char* side, std::size_t pitch, std::size_t width) {
  if (width > pitch)
    detail::throw_error(errc::invalid, std::string("handler::") + what + ": the width (" +
                                           std::to_string(width) + ") is larger than the " + side +
                                           " pitch (" + std::to_string(pitch) +
                                           "); a row cannot be wider than the rows' distance");
}
} // namespace
void handler::ext_oneapi_memcpy2d(void* dest, std::size_t destPitch, const void* src,
                                  std::size_t srcPitch, std::size_t width, std::size_t height) {
  record_copy2d(dest, destPitch, src, srcPitch, width, height, 1, "ext_oneapi_memcpy2d");
}
void handler::record_copy2d(void* dest, std::size_t dest_pitch, const void* src,
                            std::size_t src_pitch, std::size_t width, std::size_t height,
                            std::size_t element, const char* what) {
  check_rows(what, "source", src_pitch, width);
  check_rows(what, "destination", dest_pitch, width);
  const bool any = width && height;
  if (any && (!dest || !src))
    detail::throw_error(errc::invalid,
                        std::string("handler::") + what + ": null pointer with a non-empty region");
  if (any) {
    check_foreign_device_memory(*m_impl, src, what, "source");
    check_foreign_device_memory(*m_impl, dest, what, "destination");
  }
  auto& c = m_impl->claim(detail::command::kind::copy, what);
  c.src = any ? rows(src, element, src_pitch, width, height) : detail::contiguous(src, 1, 0);
  c.dst = any ? rows(dest, element, dest_pitch, width, height) : detail::contiguous(dest, 1, 0);
}
void handler::ext_oneapi_memset2d(void* dest, std::size_t destPitch, int value, std::size_t width,
                                  std::size_t height) {
  unsigned char byte = static_cast<unsigned char>(value);
  record_fill2d(dest, destPitch, &byte, 1, width, height, "ext_oneapi_memset2d");
}
void handler::record_fill2d(void* dest, std::size_t dest_pitch, const void* pattern,
                            std::size_t element, std::size_t width, std::size_t height,
                            const char* what) {
  check_rows(what, "destination", dest_pitch, width);
  const bool any = width && height;
  if (any && !dest)
    detail::throw_error(errc::invalid,
                        std::string("handler::") + what + ": null pointer with a non-empty region");
  if (any) check_foreign_device_memory(*m_impl, dest, what, "destination");
  record_fill(any ? rows(dest, element, dest_pitch, width, height)
                  : detail::contiguous(dest, element, 0),
              pattern, element);
}
void handler::prefetch(const void*, std::size_t) {
  // USM memory of the host device already lives where the host device reads it.
  m_impl->claim(detail::command::kind::none, "a prefetch");
}
void handler::mem_advise(const void*, std::size_t, int) {
  // Advice is a hint (SYCL 2020 4.9.4.3); the host device has no placement to change.
  m_impl->claim(detail::command::kind::none, "a mem_advise");
}
void handler::ext_oneapi_barrier() {
  m_impl->claim(detail::command::kind::none, "a barrier");
  m_impl->m_barrier = detail::handler_impl::barrier::all;
}
void handler::ext_oneapi_barrier(const std::vector<event>& waitList) {
  m_impl->claim(detail::command::kind::none, "a barrier");
  m_impl->m_barrier = detail::handler_impl::barrier::wait_list;
  depends_on(waitList);
}
void handler::set_spec_constant(const void* id, const char* name, const void* value,
                                std::size_t size) {
  if (m_impl->m_bundle)
    detail::throw_error(errc::invalid,
                        "handler::set_specialization_constant: this command group uses a kernel "
                        "bundle (handler::use_kernel_bundle), whose values apply (SYCL 2020 "
                        "4.9.4.4); set the value on the input bundle before sycl::build");
  if (!m_impl->m_spec) m_impl->m_spec = std::make_shared<detail::spec_constant_values>();
  m_impl->m_spec->set(id, name, value, size);
}
const detail::spec_constant_values* handler::spec_values() const {
  if (m_impl->m_bundle)
    detail::throw_error(errc::invalid,
                        "handler::get_specialization_constant: this command group uses a kernel "
                        "bundle (handler::use_kernel_bundle); read the value with "
                        "kernel_bundle::get_specialization_constant (SYCL 2020 4.9.4.4)");
  return m_impl->m_spec.get();
}

backend interop_handle::get_backend() const noexcept {
  return m_device.get_backend();
}

SYCLONE_END_NAMESPACE
