#include "cuda_stream.hpp"

#include "../../runtime/block_pool.hpp"
#include "../../runtime/submit_profile.hpp"
#include "cuda_device.hpp"
#include "cuda_interop.hpp"
#include "launch_geometry.hpp"

#include <sycl/exception.hpp>

#include <cstdlib>
#include <cstring>
#include <string_view>

namespace syclone::cuda {

namespace {

CUdeviceptr address(const void* p) {
  return reinterpret_cast<CUdeviceptr>(p);
}

std::string dims(const unsigned* v) {
  return "{" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) +
         "}";
}

} // namespace

namespace {
// SYCLONE_CUDA_LAUNCH_THREAD=0: every kernel launch is made by the thread that submits it.
bool launch_thread_enabled() {
  static const bool on = [] {
    const char* e = std::getenv("SYCLONE_CUDA_LAUNCH_THREAD");
    return !(e && std::string_view(e) == "0");
  }();
  return on;
}
bool lazy_events();
} // namespace

cuda_stream::cuda_stream(cuda_device& device, bool profiling)
    : m_device(device), m_profiling(profiling),
      m_handle(std::make_shared<stream_handle>(device.context(), CU_STREAM_NON_BLOCKING,
                                               device.life())) {
  if (!profiling && !lazy_events() && launch_thread_enabled())
    m_launcher = std::make_unique<launch_thread>(m_handle, device.events().plain_pool);
}

cuda_stream::cuda_stream(cuda_device& device, bool profiling, CUstream adopted)
    : m_device(device), m_profiling(profiling),
      m_handle(std::make_shared<stream_handle>(device.context(), adopted, device.life())) {}

cuda_stream::~cuda_stream() {
  m_launcher.reset(); // makes the launches it was handed
  // Staging buffers are read by copies still in flight.
  for (auto& s : m_staging) {
    try {
      s.event->wait();
    } catch (...) {
      // The error was (or will be) reported through the operation's event.
    }
    if (m_handle->alive() && try_make_current(m_device.context()) == CUDA_SUCCESS)
      invoke(driver().mem_free_host, s.host);
  }
}

void cuda_stream::check_alive() const {
  if (!m_handle->alive())
    sycl::detail::throw_error(
        sycl::errc::runtime,
        "queue on " + m_device.properties().name +
            ": the device's CUDA context was reset to recover from a fault in a kernel (reported "
            "before), and this queue's stream went with it; create a new queue for the device");
}

namespace {
// SYCLONE_CUDA_LAZY_EVENTS=1 (issue 16, off by default while it is measured): an operation's
// completion event is recorded only if something can still ask for it, just before the next
// operation of its stream or when asked, so it stays exact (stream_handle::unrecorded).
bool lazy_events() {
  static const bool on = [] {
    const char* e = std::getenv("SYCLONE_CUDA_LAZY_EVENTS");
    return e && *e && std::string_view(e) != "0";
  }();
  return on;
}
} // namespace

void* cuda_stream::native_handle() const noexcept {
  if (!m_handle->alive()) return nullptr;
  m_native_handed_out.store(true, std::memory_order_seq_cst);
  if (m_launcher) m_launcher->drain();
  return m_handle->get();
}

template <typename Enqueue>
std::shared_ptr<cuda_event> cuda_stream::submit(operation_name what, Enqueue&& enqueue) {
  check_alive();
  const driver_api& d = driver();
  // Launches handed to the launch thread go first (order); one of them the driver refused, with
  // nobody left to ask its event, is reported here.
  if (m_launcher && !m_launcher->idle()) m_launcher->drain();
  m_handle->rethrow_launch_error();
  event_services& services = m_device.events();
  event_pool& pool = m_profiling ? services.timing_pool : services.plain_pool;
  make_current(m_device.context());
  if (m_staging_count.load(std::memory_order_acquire) != 0) release_staging();
  stream_handle& h = *m_handle;
  if (!m_profiling && lazy_events()) {
    std::lock_guard lock(h.mutex);
    // The previous operation's completion, if its event still lives: recorded before this
    // operation, where it belongs.
    if (auto previous = h.unrecorded.lock()) previous->record_end_locked();
    enqueue_window window(h.tickets);
    runtime::submit_timer timer;
    enqueue();
    timer.mark(runtime::submit_phase::driver_launch);
    auto event = std::allocate_shared<cuda_event>(runtime::pooled_allocator<cuda_event>(), services,
                                                  m_handle, nullptr, nullptr, 0, std::move(what),
                                                  window.order());
    h.unrecorded = event;
    return event;
  }
  CUevent start = nullptr, end = pool.acquire(&what.text());
  try {
    // A stream that profiles brackets the operation with its two timing events, nothing of
    // another thread between them: under the stream's mutex. Others hold no lock across the
    // driver calls; the completion event then follows the operation in the stream, possibly
    // after another thread's operation too, which only makes it complete later, never earlier.
    std::unique_lock<std::mutex> lock;
    std::uint64_t enqueued = 0;
    if (m_profiling) {
      start = pool.acquire(&what.text());
      lock = std::unique_lock(h.mutex);
      enqueued = host_now_ns(); // only profile() reads it
      if (CUresult r = invoke(d.event_record, start, h.get()); r != CUDA_SUCCESS)
        throw_error(d.event_record.name, r, what.text());
    }
    enqueue_window window(h.tickets);
    runtime::submit_timer timer;
    enqueue();
    timer.mark(runtime::submit_phase::driver_launch);
    // A fault in the kernel just launched may answer here (the error names the operation).
    if (CUresult r = invoke(d.event_record, end, h.get()); r != CUDA_SUCCESS)
      throw_error(d.event_record.name, r, what.text());
    timer.mark(runtime::submit_phase::driver_record);
    const std::uint64_t order = window.order();
    if (lock) lock.unlock();
    return std::allocate_shared<cuda_event>(runtime::pooled_allocator<cuda_event>(), services,
                                            m_handle, start, end, enqueued, std::move(what), order);
  } catch (...) {
    pool.release(end);
    if (start) pool.release(start);
    throw;
  }
}

void cuda_stream::release_staging() {
  // Taken out under the lock, asked about outside it (a driver call each), the pending ones put
  // back.
  std::vector<staging_buffer> staging;
  {
    std::lock_guard lock(m_staging_mutex);
    staging.swap(m_staging);
    m_staging_count.store(0, std::memory_order_release);
  }
  std::erase_if(staging, [this](staging_buffer& s) {
    if (!s.event->query()) return false;
    if (m_handle->alive()) invoke(driver().mem_free_host, s.host);
    return true;
  });
  if (staging.empty()) return;
  std::lock_guard lock(m_staging_mutex);
  for (auto& s : staging) m_staging.push_back(std::move(s));
  m_staging_count.store(m_staging.size(), std::memory_order_release);
}

std::shared_ptr<runtime::native_event>
cuda_stream::run_native(const std::function<void()>& enqueue) {
  return submit(operation_name("native command on " + m_device.properties().name), [&] {
    // The command may switch contexts (cudaSetDevice, a library's own context): the event
    // after it is recorded in ours.
    struct restore {
      CUcontext context;
      ~restore() {
        forget_current();
        try_make_current(context);
      }
    } r{m_device.context()};
    enqueue();
  });
}

bool cuda_stream::wait_on_device(runtime::native_event& e) {
  if (!m_handle->alive()) return false; // the host waits, and the command then reports the reset
  auto* event = dynamic_cast<cuda_event*>(&e);
  // An earlier operation of this stream: the stream already runs it first.
  if (event && event->stream() == m_handle.get()) return true;
  if (m_launcher && !m_launcher->idle()) m_launcher->drain(); // the wait goes behind them
  if (!event) {
    // An event made from a user's CUevent (make_event).
    auto* adopted = dynamic_cast<adopted_event*>(&e);
    return adopted && try_make_current(m_device.context()) == CUDA_SUCCESS &&
           invoke(driver().stream_wait_event, m_handle->get(), adopted->get(), 0u) == CUDA_SUCCESS;
  }
  // Failing (a failed context) leaves the wait to the host, which reports the error. The
  // event's own context records it, if that was left for later: ask first, then make ours
  // current.
  CUevent end = event->end_event();
  return end && try_make_current(m_device.context()) == CUDA_SUCCESS &&
         invoke(driver().stream_wait_event, m_handle->get(), end, 0u) == CUDA_SUCCESS;
}

namespace {
// The plans of a thread's last launches (issue 16): a kernel submitted again with the same shape,
// the common case, and the launch of a kernel whose submission just planned it, reuse the shape
// chosen and checked once. What a plan depends on besides the key is fixed for the kernel's
// function (its limits, its device's).
struct plan_key {
  const kernel_function* kernel;
  std::uint64_t serial; // kernel_function::serial: not a later function at the same address
  sycl::detail::kernel_kind kind;
  int dimensions;
  std::size_t global[3], local[3];
  std::size_t local_bytes;
  bool operator==(const plan_key& o) const noexcept {
    return kernel == o.kernel && serial == o.serial && kind == o.kind &&
           dimensions == o.dimensions && local_bytes == o.local_bytes && global[0] == o.global[0] &&
           global[1] == o.global[1] && global[2] == o.global[2] && local[0] == o.local[0] &&
           local[1] == o.local[1] && local[2] == o.local[2];
  }
};
struct plan_memo {
  static constexpr std::size_t slots = 4;
  plan_key key[slots] = {};
  function_limits limits[slots];
  launch_geometry geometry[slots];
  std::size_t next = 0;
};
thread_local plan_memo t_plans;

plan_key key_of(const kernel_function& kernel, const sycl::detail::kernel_launch& l,
                std::size_t local_bytes) {
  plan_key k{&kernel, kernel.serial, l.kind, l.dimensions, {}, {}, local_bytes};
  for (int d = 0; d < 3; ++d) {
    k.global[d] = l.global[d];
    k.local[d] = l.local[d];
  }
  return k;
}
} // namespace

cuda_stream::kernel_plan cuda_stream::plan(const sycl::detail::kernel_launch& launch,
                                           std::size_t local_bytes) {
  // Everything per kernel (function, limits, the names messages use) was found or built when
  // the kernel was loaded; a launch only chooses its shape.
  kernel_function& kernel = launch.prepared ? *static_cast<kernel_function*>(launch.prepared)
                                            : m_device.kernels().get(launch);
  plan_memo& memo = t_plans;
  const plan_key key = key_of(kernel, launch, local_bytes);
  for (std::size_t i = 0; i < plan_memo::slots; ++i)
    if (memo.key[i] == key) return {&kernel, memo.limits[i], memo.geometry[i]};
  const std::string& device_name = m_device.properties().name;
  function_limits limits = kernel.limits;
  if (local_bytes > 0) {
    if (local_bytes + kernel.static_shared_bytes > m_device.max_shared_optin())
      sycl::detail::throw_error(
          sycl::errc::memory_allocation,
          "kernel `" + kernel.name + "` needs " + std::to_string(local_bytes) +
              " bytes of local memory" +
              (kernel.static_shared_bytes
                   ? " (plus " + std::to_string(kernel.static_shared_bytes) + " of its own)"
                   : std::string()) +
              ", more than the " + std::to_string(m_device.max_shared_optin()) +
              " bytes a work-group has on " + device_name + "; use smaller local accessors");
    // Beyond 48 KiB a kernel must opt in to more dynamic shared memory.
    if (local_bytes > kernel.dynamic_shared_limit.load(std::memory_order_acquire)) {
      std::lock_guard lock(kernel.attribute_mutex);
      if (local_bytes > kernel.dynamic_shared_limit.load(std::memory_order_relaxed)) {
        const driver_api& d = driver();
        make_current(m_device.context());
        call(d.func_set_attribute, kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
             static_cast<int>(local_bytes));
        kernel.dynamic_shared_limit.store(local_bytes, std::memory_order_release);
      }
    }
    if (launch.kind == sycl::detail::kernel_kind::range) {
      int min_grid = 0, block = 0;
      if (invoke(driver().occupancy_max_potential_block_size, &min_grid, &block, kernel.function,
                 nullptr, local_bytes, 0) == CUDA_SUCCESS)
        limits.occupancy_block_size = static_cast<unsigned>(block);
    }
  }
  launch_geometry g = choose_geometry(launch, m_device.limits(), limits, kernel.name, device_name);
  // Only a plan that passed every check is remembered: a shape that throws throws every time.
  const std::size_t slot = memo.next++ % plan_memo::slots;
  memo.key[slot] = key;
  memo.limits[slot] = limits;
  memo.geometry[slot] = g;
  return {&kernel, limits, g};
}

void cuda_stream::prepare_kernel_launch(sycl::detail::kernel_launch& launch,
                                        std::size_t local_bytes) {
  check_alive();
  const kernel_plan p = plan(launch, local_bytes);
  launch.prepared = p.kernel;
  if (launch.root_sync) {
    // sycl_ext_oneapi_root_group: a cooperative launch needs every block resident at once.
    const std::size_t blocks =
        std::size_t(p.geometry.grid[0]) * p.geometry.grid[1] * p.geometry.grid[2];
    const std::size_t block_items =
        std::size_t(p.geometry.block[0]) * p.geometry.block[1] * p.geometry.block[2];
    const std::size_t most = m_device.resident_blocks(*p.kernel, block_items, local_bytes);
    if (blocks > most)
      sycl::detail::throw_error(sycl::errc::nd_range,
                                p.kernel->description + " is launched with use_root_sync and " +
                                    std::to_string(blocks) + " work-groups, more than the " +
                                    std::to_string(most) + " that fit on " +
                                    m_device.properties().name +
                                    " at once with this work-group size and local memory; ask "
                                    "info::kernel_queue_specific::max_num_work_groups");
  }
}

std::shared_ptr<runtime::native_event>
cuda_stream::run_kernel(const sycl::detail::kernel_launch& launch, std::size_t local_bytes) {
  check_alive();
  const driver_api& d = driver();
  const kernel_plan p = plan(launch, local_bytes);
  kernel_function& kernel = *p.kernel;
  const launch_geometry& g = p.geometry;
  const bool empty = std::size_t(g.grid[0]) * g.grid[1] * g.grid[2] == 0;

  // A kernel behind work still in flight goes to the launch thread (launch_thread.hpp).
  if (m_launcher && !empty && !launch.root_sync && launch.object_size <= 4096 &&
      !m_native_handed_out.load(std::memory_order_relaxed)) {
    stream_handle& h = *m_handle;
    const bool busy = h.tickets.begun.load(std::memory_order_relaxed) !=
                      h.completed.load(std::memory_order_relaxed);
    if (m_launcher->should_take(busy)) {
      h.rethrow_launch_error();
      if (m_staging_count.load(std::memory_order_acquire) != 0) release_staging();
      auto event = std::allocate_shared<cuda_event>(
          runtime::pooled_allocator<cuda_event>(), m_device.events(), m_handle, nullptr, nullptr, 0,
          operation_name::lasting(kernel.description), 0);
      event->mark_launch_pending();
      launch_thread::launch l{kernel.function,
                              {g.grid[0], g.grid[1], g.grid[2]},
                              {g.block[0], g.block[1], g.block[2]},
                              static_cast<unsigned>(local_bytes),
                              launch.object.get(),
                              launch.object_size,
                              &kernel.description,
                              kernel.prints};
      m_launcher->take(l, event);
      return event;
    }
  }
  // The kernel's one parameter is the kernel object, passed by value: the driver copies its
  // bytes at the launch call.
  void* params[] = {launch.object.get()};
  return submit(operation_name::lasting(kernel.description), [&] {
    if (empty) return;
    // use_root_sync (sycl_ext_oneapi_root_group): a cooperative launch, whose blocks are all
    // resident and which gets the workspace the grid-wide barrier counts in.
    CUresult r =
        launch.root_sync
            ? invoke(d.launch_cooperative_kernel, kernel.function, g.grid[0], g.grid[1], g.grid[2],
                     g.block[0], g.block[1], g.block[2], static_cast<unsigned>(local_bytes),
                     m_handle->get(), params)
            : invoke(d.launch_kernel, kernel.function, g.grid[0], g.grid[1], g.grid[2], g.block[0],
                     g.block[1], g.block[2], static_cast<unsigned>(local_bytes), m_handle->get(),
                     params, static_cast<void**>(nullptr));
    if (r != CUDA_SUCCESS) {
      std::string context = kernel.description + " with grid " + dims(g.grid) + ", block " +
                            dims(g.block) + " and " + std::to_string(local_bytes) +
                            " bytes of local memory";
      if (r == CUDA_ERROR_INVALID_VALUE && launch.object_size > 4096)
        context += " (a kernel object of " + std::to_string(launch.object_size) +
                   " bytes, more than the driver takes: 4096 before CUDA 12.1 or sm_70, 32764 "
                   "since; capture less by value)";
      throw_error(launch.root_sync ? d.launch_cooperative_kernel.name : d.launch_kernel.name, r,
                  context);
    }
    if (kernel.prints) print_after_kernel(m_handle->get());
  });
}

void cuda_stream::execute(const transfer_op& op, const void* staging, std::size_t pattern_size,
                          const std::string& what) {
  const driver_api& d = driver();
  CUstream stream = m_handle->get();
  auto check = [&](const char* call_name, CUresult r) {
    if (r != CUDA_SUCCESS) throw_error(call_name, r, what);
  };
  if (const auto* c = std::get_if<copy_op>(&op)) {
    if (c->height == 1 && c->depth == 1) {
      check(d.memcpy_async.name,
            invoke(d.memcpy_async, address(c->dst), address(c->src), c->width, stream));
      return;
    }
    // Unified addressing: the driver tells host from device memory itself.
    CUDA_MEMCPY3D p{};
    p.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
    p.srcDevice = address(c->src);
    p.srcPitch = c->src_pitch;
    p.srcHeight = c->src_height;
    p.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    p.dstDevice = address(c->dst);
    p.dstPitch = c->dst_pitch;
    p.dstHeight = c->dst_height;
    p.WidthInBytes = c->width;
    p.Height = c->height;
    p.Depth = c->depth;
    check(d.memcpy_3d_async.name, invoke(d.memcpy_3d_async, &p, stream));
  } else if (const auto* m = std::get_if<memset_op>(&op)) {
    CUdeviceptr dst = address(m->dst);
    if (m->height == 1) {
      switch (m->unit) {
      case 1:
        check(
            d.memset_d8_async.name,
            invoke(d.memset_d8_async, dst, static_cast<unsigned char>(m->value), m->width, stream));
        break;
      case 2:
        check(d.memset_d16_async.name,
              invoke(d.memset_d16_async, dst, static_cast<unsigned short>(m->value), m->width,
                     stream));
        break;
      default:
        check(d.memset_d32_async.name,
              invoke(d.memset_d32_async, dst, static_cast<unsigned>(m->value), m->width, stream));
      }
      return;
    }
    switch (m->unit) {
    case 1:
      check(d.memset_d2d8_async.name,
            invoke(d.memset_d2d8_async, dst, m->pitch, static_cast<unsigned char>(m->value),
                   m->width, m->height, stream));
      break;
    case 2:
      check(d.memset_d2d16_async.name,
            invoke(d.memset_d2d16_async, dst, m->pitch, static_cast<unsigned short>(m->value),
                   m->width, m->height, stream));
      break;
    default:
      check(d.memset_d2d32_async.name,
            invoke(d.memset_d2d32_async, dst, m->pitch, static_cast<unsigned>(m->value), m->width,
                   m->height, stream));
    }
  } else if (const auto* w = std::get_if<pattern_op>(&op)) {
    check(d.memcpy_async.name,
          invoke(d.memcpy_async, address(w->dst), address(staging), pattern_size, stream));
  }
}

std::shared_ptr<runtime::native_event> cuda_stream::copy(const sycl::detail::mem_region& src,
                                                         const sycl::detail::mem_region& dst) {
  auto ops = plan_copy(src, dst, m_device.max_pitch());
  std::string what = "copy of " + std::to_string(layout_of(src).bytes()) + " bytes on " +
                     m_device.properties().name;
  return submit(operation_name(what), [&] {
    for (const auto& op : ops) execute(op, nullptr, 0, what);
  });
}

std::shared_ptr<runtime::native_event> cuda_stream::copy_to_pinned(const void* src, void* dst,
                                                                   std::size_t bytes) {
  check_alive();
  CUfunction kernel =
      bytes <= cuda_device::small_copy_limit ? m_device.small_copy_kernel() : nullptr;
  if (!kernel)
    return copy(sycl::detail::contiguous(src, 1, bytes), sycl::detail::contiguous(dst, 1, bytes));
  std::string what =
      "read-back of " + std::to_string(bytes) + " bytes on " + m_device.properties().name;
  return submit(operation_name(what), [&] {
    CUdeviceptr s = address(src), d = address(dst);
    std::size_t n = bytes;
    void* params[] = {&s, &d, &n};
    CUresult r = invoke(driver().launch_kernel, kernel, 1u, 1u, 1u, 256u, 1u, 1u, 0u,
                        m_handle->get(), params, static_cast<void**>(nullptr));
    if (r != CUDA_SUCCESS) throw_error(driver().launch_kernel.name, r, what);
  });
}

std::shared_ptr<runtime::native_event> cuda_stream::fill(const sycl::detail::mem_region& dst,
                                                         const void* pattern,
                                                         std::size_t pattern_size) {
  check_alive();
  auto ops = plan_fill(dst, pattern, pattern_size, m_device.max_pitch());
  std::string what = "fill of " + std::to_string(layout_of(dst).bytes()) + " bytes with a " +
                     std::to_string(pattern_size) + "-byte pattern on " +
                     m_device.properties().name;
  // A pattern written by a copy needs a pinned copy of it that lives until the copy ran.
  void* staging = nullptr;
  for (const auto& op : ops)
    if (std::holds_alternative<pattern_op>(op)) {
      make_current(m_device.context());
      call(driver().mem_host_alloc, &staging, pattern_size, CU_MEMHOSTALLOC_PORTABLE);
      std::memcpy(staging, pattern, pattern_size);
      break;
    }
  std::shared_ptr<cuda_event> event;
  try {
    event = submit(operation_name(what), [&] {
      for (const auto& op : ops) execute(op, staging, pattern_size, what);
    });
  } catch (...) {
    if (staging) {
      invoke(driver().stream_synchronize, m_handle->get());
      invoke(driver().mem_free_host, staging);
    }
    throw;
  }
  if (staging) {
    std::lock_guard lock(m_staging_mutex);
    m_staging.push_back({event, staging});
    m_staging_count.store(m_staging.size(), std::memory_order_release);
  }
  return event;
}

} // namespace syclone::cuda
