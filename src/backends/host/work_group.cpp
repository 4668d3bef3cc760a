#include "work_group.hpp"

#include "host_config.hpp"
#include "work_item_streams.hpp"

#include <sycl/detail/device/host.hpp>
#include <sycl/exception.hpp>

#include <boost/context/detail/fcontext.hpp>

#include <link.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <numeric>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

// Sanitizers must be told about stack switches: ASan tracks the stack bounds (and fake stacks),
// TSan keeps one state per fiber and orders the fibers of a thread by their switches.
#ifdef SYCLONE_HOST_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef SYCLONE_HOST_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace bctx = boost::context::detail;

namespace syclone::host {
thread_local int tl_range_kernels = 0;
namespace {

// initial-exec: a load from %fs in work_group_barrier() instead of a __tls_get_addr call.
[[gnu::tls_model("initial-exec")]] thread_local work_group_scheduler* tl_current = nullptr;

// A guard page splits a stack into two mappings; Linux allows vm.max_map_count (65530 by
// default) per process, so past this many stacks new ones go without one.
constexpr std::size_t max_guarded_stacks = 8192;
std::atomic<std::size_t> g_guarded_stacks{0};

void fiber_entry(bctx::transfer_t t) {
  work_group_scheduler::fiber_main(t.fctx, t.data);
}

// A new fiber at the top of a free stack; the first jump to it enters fiber_entry.
void* start_fiber(stack_cache::stack& s) noexcept {
#ifdef SYCLONE_HOST_TSAN
  // An exited fiber never popped TSan's shadow call stack: a new fiber needs a new TSan state.
  if (s.tsan_fiber) __tsan_destroy_fiber(s.tsan_fiber);
  s.tsan_fiber = __tsan_create_fiber(0);
#endif
  return bctx::make_fcontext(s.top, s.size, &fiber_entry);
}

std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// stack_cache

stack_cache::~stack_cache() {
  for (const stack& s : m_stacks) {
#ifdef SYCLONE_HOST_TSAN
    if (s.tsan_fiber) __tsan_destroy_fiber(s.tsan_fiber);
#endif
    delete s.streams;
    munmap(s.mapping, s.mapping_size);
    if (s.mapping_size != s.size) g_guarded_stacks.fetch_sub(1, std::memory_order_relaxed);
  }
}

std::uint32_t stack_cache::acquire() {
  if (!m_free.empty()) {
    std::uint32_t index = m_free.back();
    m_free.pop_back();
    return index;
  }
  auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::size_t size = config().stack_size;
  bool guard = g_guarded_stacks.fetch_add(1, std::memory_order_relaxed) < max_guarded_stacks;
  if (!guard) g_guarded_stacks.fetch_sub(1, std::memory_order_relaxed);
  std::size_t mapping_size = size + (guard ? page : 0);
  void* mapping = mmap(nullptr, mapping_size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapping == MAP_FAILED) {
    int error = errno;
    if (guard) g_guarded_stacks.fetch_sub(1, std::memory_order_relaxed);
    sycl::detail::throw_error(
        sycl::errc::memory_allocation,
        "host device: cannot map a " + std::to_string(size >> 10) + " KiB stack for work-item " +
            "fiber " + std::to_string(m_stacks.size() + 1) + " (" + std::strerror(error) +
            "); use smaller work-groups or a smaller SYCLONE_HOST_STACK_SIZE");
  }
  if (guard && mprotect(mapping, page, PROT_NONE) != 0) {
    // Without the guard page the stack still works; count it as unguarded.
    g_guarded_stacks.fetch_sub(1, std::memory_order_relaxed);
    guard = false;
    size = mapping_size;
  }
  // Tops of stacks of equal size are equally aligned, so the hot frames of all fibers of a
  // work-group would compete for the same cache sets; shift each top by a few lines.
  std::size_t colour = (m_stacks.size() % 16) * 320;
  auto* top = static_cast<std::byte*>(mapping) + mapping_size - colour;
  try {
    m_free.reserve(m_stacks.size() + 1); // first: a failure must leave m_stacks unchanged
    m_stacks.push_back(
        {mapping, mapping_size, top, size - colour, nullptr, nullptr, nullptr, nullptr});
  } catch (...) {
    if (guard) g_guarded_stacks.fetch_sub(1, std::memory_order_relaxed);
    munmap(mapping, mapping_size);
    throw;
  }
  return static_cast<std::uint32_t>(m_stacks.size() - 1);
}

// ---------------------------------------------------------------------------------------------
// work_group_scheduler

work_group_scheduler::~work_group_scheduler() {
  for (std::byte* block : m_blocks) ::operator delete(block, std::align_val_t(64));
  ::operator delete(m_local_memory, std::align_val_t(64));
  release_scratch();
  ::operator delete(m_loop_storage, std::align_val_t(64));
}

work_group_scheduler* work_group_scheduler::current() noexcept {
  return tl_current;
}

work_group_scheduler* work_group_scheduler::exchange_current(work_group_scheduler* s) noexcept {
  return std::exchange(tl_current, s);
}

namespace {

// Kernels that run on fibers although the loop compiler may have made loops for them, and
// kernels whose host compile made none, by run_group: reported once each.
struct fallback_registry {
  std::mutex mutex;
  std::unordered_set<const void*> reported;
};

void report_fallback(const nd_range_launch& launch, const char* reason) {
  if (kernel_mode_setting() != kernel_mode::report) return;
  static auto* registry = new fallback_registry(); // never destroyed: launches may come late
  std::lock_guard lock(registry->mutex);
  if (!registry->reported.insert(reinterpret_cast<const void*>(launch.run_group)).second) return;
  std::fprintf(stderr, "syclone: host device runs the work-items of kernel `%s` as fibers: %s\n",
               launch.name ? launch.name : "(unnamed)", reason);
}

} // namespace

void work_group_scheduler::begin(const nd_range_launch& launch, schedule_kind kind,
                                 std::uint64_t seed) {
  m_launch = &launch;
  m_shuffled = kind == schedule_kind::shuffled;
  m_seed = seed;
  m_size = static_cast<std::uint32_t>(launch.local_range[0] * launch.local_range[1] *
                                      launch.local_range[2]);
  m_range1 = static_cast<std::uint32_t>(launch.local_range[1]);
  m_range2 = static_cast<std::uint32_t>(launch.local_range[2]);
  if (m_arrived.capacity() < m_size) {
    // Barriers push without allocating: a fiber may not throw out of a switch.
    m_arrived.reserve(m_size);
  }
  if (m_ready.size() < m_size) m_ready.resize(m_size);
  // Sub-groups: a power of two (seed 004 "Device Descriptors": sub_group_sizes).
  m_sg_size = launch.sub_group_size ? launch.sub_group_size : 1;
  m_sg_shift = static_cast<std::uint32_t>(__builtin_ctz(m_sg_size));
  m_sg_count = (m_size + m_sg_size - 1) >> m_sg_shift;
  if (m_sg.size() < m_sg_count) m_sg.resize(m_sg_count);
  if (m_sg_waiters.size() < std::size_t(m_sg_count) * m_sg_size)
    m_sg_waiters.resize(std::size_t(m_sg_count) * m_sg_size);
  if (m_masked.size() < m_size)
    m_masked.resize(m_size, masked_state{0, 0, nullptr, 0, no_block, nullptr, 0});
  // Two exchange sets per sub-group, then inputs and results of work-group algorithms. Mapped
  // lazily by the allocator: a kernel without group functions touches none of it.
  constexpr std::size_t slot = sycl::detail::host::exchange_bytes;
  std::size_t sg_bytes = std::size_t(m_sg_count) * 2 * m_sg_size * slot;
  std::size_t scratch = sg_bytes + 2 * std::size_t(m_size) * slot;
  if (scratch > m_scratch_capacity) {
    release_scratch();
    // Sub-group shifts read a slot up to the largest sub-group size away from their own
    // without a test (host_group.hpp): that much padding on each side.
    auto* block = static_cast<std::byte*>(
        ::operator new(scratch + 2 * scratch_padding, std::align_val_t(64)));
    m_scratch = block + scratch_padding;
    m_scratch_capacity = scratch;
  }
  m_wg_scratch = m_scratch + sg_bytes;
  // Compiled loops run work-items in order; the shuffled schedule, streams (each work-item's
  // own formatting state) and the fiber reference mode keep fibers.
  m_loops = launch.run_group && !m_shuffled && !launch.work_item_streams &&
            kernel_mode_setting() != kernel_mode::fibers;
  if (launch.run_group && launch.work_item_streams)
    report_fallback(launch, "it writes to a sycl::stream (each work-item's stream state lives on "
                            "its fiber)");
  if (m_shuffled) m_order.resize(m_size);
  // SYCL 2020 4.7.6.11: local memory is per work-group; a thread runs one group at a time, so
  // one block per thread (and nesting level), reused, 64-byte aligned like the CUDA side.
  std::size_t bytes = (std::max<std::size_t>(launch.local_memory_bytes, 1) + 63) & ~std::size_t(63);
  if (bytes > m_local_capacity) {
    ::operator delete(m_local_memory, std::align_val_t(64));
    m_local_memory = nullptr;
    m_local_capacity = 0;
    m_local_memory = static_cast<std::byte*>(::operator new(bytes, std::align_val_t(64)));
    m_local_capacity = bytes;
  }
}

int work_group_scheduler::address_space_of(const void* p) const noexcept {
  // A hierarchical kernel run as one-work-item groups (it has no work-group loops): its
  // work-group-scope variables on the stack are local memory in SYCL's terms; no answer.
  if (m_launch && !m_launch->run_group) return -1;
  auto within = [p](const void* base, std::size_t bytes) {
    auto a = reinterpret_cast<std::uintptr_t>(p), b = reinterpret_cast<std::uintptr_t>(base);
    return base && a >= b && a - b < bytes;
  };
  if (within(m_local_memory, m_launch ? m_launch->local_memory_bytes : 0)) return 1;
  if (m_in_loops && within(m_loop_storage, m_loop_storage_capacity)) return 3;
  if (!m_in_loops && m_current_stack < m_stacks.size()) {
    const auto& s = m_stacks[m_current_stack];
    if (within(s.mapping, s.mapping_size)) return 3;
  }
  return 0;
}

bool work_group_scheduler::start_group() noexcept {
  if (m_group_next == m_group_end || m_error) return false;
  std::size_t linear_group = m_group_next++;
  const std::size_t* groups = m_launch->group_range;
  m_linear_group = linear_group;
  m_group_id[2] = linear_group % groups[2];
  std::size_t rest = linear_group / groups[2];
  m_group_id[1] = rest % groups[1];
  m_group_id[0] = rest / groups[1];

  m_next_start = 0;
  m_phase = 0;
  m_arrived.clear();
  m_ready_head = m_ready_count = 0;
  for (std::uint32_t i = 0; i < m_sg_count; ++i) {
    std::uint32_t first = i << m_sg_shift;
    m_sg[i] = {std::min(m_sg_size, m_size - first), 0, 0, 0};
  }
  m_sg_waiting_total = 0;
  if (m_masked_used) begin_non_uniform_groups();
  if (m_shuffled) {
    std::iota(m_order.begin(), m_order.end(), 0u);
    shuffle(m_order.data(), m_order.size(), ~0ull);
  }
  return true;
}

bool work_group_scheduler::run_groups_as_loops(std::size_t begin, std::size_t end) {
  sycl::detail::host::group_frame frame{};
  frame.object = m_launch->kernel;
  // Right-aligned local range: the last SYCL dimension is the innermost loop.
  const int dims = m_launch->dimensions;
  for (int d = 0; d < 3; ++d) frame.loop_range[d] = 1;
  for (int d = 0; d < dims; ++d) frame.loop_range[3 - dims + d] = m_launch->local_range[d];
  frame.local_memory = m_local_memory;
  frame.scratch = m_wg_scratch;
  frame.sub_group = m_sg_size;
  frame.storage = m_loop_storage;
  frame.storage_size = m_loop_storage_capacity;
  frame.runtime = this;
  // Sub-group functions as loops: two sets of one slot per work-item, alternating by region.
  frame.exchange = m_scratch;
  frame.exchange_set = std::size_t(m_size) * sycl::detail::host::exchange_bytes;
  work_group_scheduler* outer = std::exchange(tl_current, this);
  m_in_loops = true;
  struct restore {
    work_group_scheduler* self;
    work_group_scheduler* outer;
    ~restore() {
      self->m_in_loops = false;
      tl_current = outer;
    }
  } restore{this, outer};
  const std::size_t* groups = m_launch->group_range;
  for (std::size_t linear = begin; linear < end; ++linear) {
    frame.group[2] = linear % groups[2];
    std::size_t rest = linear / groups[2];
    frame.group[1] = rest % groups[1];
    frame.group[0] = rest / groups[1];
    m_group_id[0] = frame.group[0];
    m_group_id[1] = frame.group[1];
    m_group_id[2] = frame.group[2];
    if (const char* reason = m_launch->run_group(&frame)) {
      // The compile made no loops (a constant answer, so the first group gets it and nothing
      // ran): the launch runs on fibers.
      report_fallback(*m_launch, reason);
      m_loops = false;
      return false;
    }
    if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
  }
  return true;
}

std::byte* work_group_scheduler::loop_storage(sycl::detail::host::group_frame& frame,
                                              std::size_t bytes) {
  if (bytes > m_loop_storage_capacity) {
    std::size_t capacity = std::max(bytes, 2 * m_loop_storage_capacity);
    auto* storage = static_cast<std::byte*>(::operator new(capacity, std::align_val_t(64)));
    ::operator delete(m_loop_storage, std::align_val_t(64));
    m_loop_storage = storage;
    m_loop_storage_capacity = capacity;
  }
  frame.storage = m_loop_storage;
  frame.storage_size = m_loop_storage_capacity;
  return m_loop_storage;
}

void work_group_scheduler::divergent_barrier(const char* first, const char* second) {
  std::string group = std::to_string(m_group_id[0]);
  for (int d = 1; d < m_launch->dimensions; ++d) group += ", " + std::to_string(m_group_id[d]);
  m_error = std::make_exception_ptr(sycl::exception(
      sycl::make_error_code(sycl::errc::kernel),
      "host device: in kernel `" + std::string(m_launch->name ? m_launch->name : "(unnamed)") +
          "`, the work-items of work-group (" + group + ") did not all reach the same barrier: " +
          "some went on to " + first + ", others to " + second +
          ". SYCL 2020 3.9.3 requires every work-item of a work-group to reach each barrier (a " +
          "`return` before a barrier taken by only some work-items breaks this); the work-group " +
          "stopped there"));
}

void work_group_scheduler::run_groups(std::size_t begin, std::size_t end) {
  if (m_loops && run_groups_as_loops(begin, end)) return;
  m_group_next = begin;
  m_group_end = end;
  if (!start_group()) return;
  std::uint32_t first = m_stacks.acquire();
  void* fiber = start_fiber(m_stacks[first]);
  work_group_scheduler* outer = std::exchange(tl_current, this);
  m_save_slot = native_slot;
#ifdef SYCLONE_HOST_ASAN
  m_from_native = true;
#endif
#ifdef SYCLONE_HOST_TSAN
  m_native_tsan_fiber = __tsan_get_current_fiber();
#endif
  jump(fiber, first, false);
  // Back on this stack: every work-item of every work-group finished, or one threw (then the
  // remaining work-groups did not start); the last fiber's stack was released.
  tl_current = outer;
  if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
}

void work_group_scheduler::fiber_main(void* from, void* scheduler) {
  auto* self = static_cast<work_group_scheduler*>(scheduler);
  self->on_resume(from, nullptr);
  for (;;) {
    self->run_items();
    // The last fiber of a work-group goes on with the next one: a kernel without barriers
    // switches stacks only twice per chunk of work-groups.
    if (self->m_next_start < self->m_size || self->m_ready_count != 0 || !self->m_arrived.empty() ||
        self->m_sg_waiting_total != 0 || self->m_masked_waiting != 0 ||
        self->m_converged_waiting != 0 || !self->start_group())
      break;
  }
  self->exit_fiber();
}

void work_group_scheduler::run_items() {
  // In-order, one fiber runs work-items until one suspends at a barrier; the next then starts
  // here on a fresh fiber. Shuffled, every work-item gets its own fiber, so neighbours really
  // interleave.
  constexpr std::uint32_t none = ~0u;
  // Fixed for the work-group (only m_next_start changes while a work-item runs).
  auto* const run_item = m_launch->run_item;
  const void* const kernel = m_launch->kernel;
  const std::uint32_t size = m_size, range1 = m_range1, range2 = m_range2;
  const bool shuffled = m_shuffled;
  const bool streams = m_launch->work_item_streams;
  std::uint32_t following = none; // the item after the previous one this fiber ran
  std::size_t local[3] = {0, 0, 0};
  while (m_next_start < size) {
    std::uint32_t item = shuffled ? m_order[m_next_start] : m_next_start;
    ++m_next_start;
    // SYCL linearization, last dimension fastest: item = (l0 * r1 + l1) * r2 + l2.
    if (item == following) {
      if (++local[2] == range2) {
        local[2] = 0;
        if (++local[1] == range1) {
          local[1] = 0;
          ++local[0];
        }
      }
    } else {
      local[2] = item % range2;
      std::uint32_t rest = item / range2;
      local[1] = rest % range1;
      local[0] = rest / range1;
    }
    following = item + 1;
    if (streams) {
      // SYCL 2020 4.16: the work-item starts with its own stream state, and the statement the
      // previous one left open on this fiber ends there.
      if (work_item_streams* t = m_stacks[m_current_stack].streams) t->clear();
    }
    m_stacks[m_current_stack].local_id = local;
    try {
      run_item(kernel, m_group_id, local);
    } catch (...) {
      fail(std::current_exception());
    }
    item_finished(item);
    if (shuffled) return;
  }
}

void work_group_scheduler::exit_fiber() {
  m_free_stack = m_current_stack;
  m_save_slot = no_stack;
  switch_away(false);
  std::abort(); // nothing resumes an exited fiber
}

[[gnu::always_inline]] inline void work_group_scheduler::barrier() noexcept {
  m_arrived.push_back(m_current_stack); // capacity reserved in begin()
  m_save_slot = m_current_stack;
  switch_away(true);
}

// Inlined down to the jump (as are sub_group_barrier, sub_group_exchange and jump): a resumed
// fiber returns through every frame between the jump and the kernel, and after a stack switch
// each of those returns is mispredicted, so fewer frames make sub-group operations cheaper.
[[gnu::always_inline]] inline void work_group_scheduler::switch_away(bool suspending) {
  for (;;) {
    if (m_ready_count != 0) {
      std::uint32_t next = pop_ready();
      if (next == m_current_stack) {
        // The suspending work-item is the one to run next (work-group of one, or the others
        // finished without reaching this barrier): carry on without switching.
        m_save_slot = no_stack;
        return;
      }
      jump(m_stacks[next].context, next, !suspending);
      return;
    }
    if (m_next_start < m_size) {
      std::uint32_t fresh;
      try {
        fresh = m_stacks.acquire();
      } catch (...) {
        // Out of stacks: the work-items not started yet do not run, and the launch reports
        // why. Those that did start still finish (the barrier opens without the others).
        fail(std::current_exception());
        m_next_start = m_size;
        continue;
      }
      jump(start_fiber(m_stacks[fresh]), fresh, !suspending);
      return;
    }
    if ((m_converged_waiting != 0 || m_masked_waiting != 0) && release_groups()) {
      // Nothing else could run: the non-uniform groups whose members all wait go on, and the
      // work-items waiting at calls that form tangles are all there.
      continue;
    }
    if (m_sg_waiting_total != 0 || m_masked_waiting != 0) {
      // Nothing can run, yet work-items wait at sub-group barriers (their sub-groups' other
      // members wait at a work-group barrier) or for members of a non-uniform group that will
      // not come.
      release_mismatched_barriers();
      continue;
    }
    if (m_arrived.empty()) {
      jump(m_native, no_stack, true); // the work-group is done (only an exiting fiber is here)
      return;
    }
    open_barrier();
  }
}

void work_group_scheduler::open_barrier() {
  // Every work-item started and each either waits here or finished: the barrier opens.
  ++m_phase;
  if (m_shuffled) shuffle(m_arrived.data(), m_arrived.size(), m_phase);
  for (std::uint32_t stack : m_arrived) push_ready(stack);
  m_arrived.clear();
}

[[gnu::always_inline]] inline void
work_group_scheduler::sub_group_barrier(std::uint32_t sub_group) noexcept {
  sub_group_state& sg = m_sg[sub_group];
  if (sg.pending == 1 && !m_shuffled) {
    // The last member to arrive: the others resume later, this one carries on.
    sg.pending = 0;
    open_sub_group(sub_group);
    return;
  }
  m_sg_waiters[(std::size_t(sub_group) << m_sg_shift) + sg.waiting++] = m_current_stack;
  ++m_sg_waiting_total;
  m_save_slot = m_current_stack;
  if (--sg.pending == 0) open_sub_group(sub_group); // shuffled: this one queues as well
  switch_away(true);
}

[[gnu::always_inline]] inline const std::byte*
work_group_scheduler::sub_group_exchange(std::uint32_t sub_group, std::uint32_t lane,
                                         const void* value, std::size_t bytes) noexcept {
  // Two sets, alternating with the sub-group's barrier phase: a member racing ahead to the next
  // exchange writes the other set, and can get two exchanges ahead only once every member passed
  // the next barrier, i.e. finished reading this set.
  constexpr std::size_t slot = sycl::detail::host::exchange_bytes;
  std::size_t set = std::size_t(sub_group) * 2 + (m_sg[sub_group].phase & 1);
  std::byte* base = m_scratch + (set << m_sg_shift) * slot;
  std::memcpy(base + std::size_t(lane) * bytes, value, bytes);
  sub_group_barrier(sub_group);
  return base;
}

void work_group_scheduler::open_sub_group(std::uint32_t sub_group) noexcept {
  sub_group_state& sg = m_sg[sub_group];
  std::uint32_t* waiters = &m_sg_waiters[std::size_t(sub_group) << m_sg_shift];
  if (m_shuffled)
    shuffle(waiters, sg.waiting, (std::uint64_t(sub_group) << 32 | sg.phase) + 0x5bd1e995u);
  for (std::uint32_t i = 0; i < sg.waiting; ++i) push_ready(waiters[i]);
  m_sg_waiting_total -= sg.waiting;
  sg.waiting = 0;
  ++sg.phase;
  std::uint32_t first = sub_group << m_sg_shift;
  sg.pending = std::min(m_sg_size, m_size - first) - sg.finished;
}

void work_group_scheduler::item_finished(std::uint32_t item) noexcept {
  if (m_masked_used) drop_block(item);
  std::uint32_t sub_group = item >> m_sg_shift;
  sub_group_state& sg = m_sg[sub_group];
  ++sg.finished;
  // Members waiting at a barrier this one never reached go on without it, as for work-groups.
  if (--sg.pending == 0 && sg.waiting != 0) open_sub_group(sub_group);
}

void work_group_scheduler::release_mismatched_barriers() noexcept {
  try {
    if (m_sg_waiting_total != 0)
      sycl::detail::throw_error(
          sycl::errc::invalid,
          "nd_range kernel on the host device: in work-group " + std::to_string(m_linear_group) +
              " some work-items wait at a sub-group barrier while others of their sub-group wait "
              "at a work-group barrier; every work-item of a group must reach the same group "
              "functions in the same order (SYCL 2020 4.17.3)");
    sycl::detail::throw_error(
        sycl::errc::invalid,
        "nd_range kernel on the host device: in work-group " + std::to_string(m_linear_group) +
            " some work-items wait at a group function of a non-uniform group "
            "(sycl_ext_oneapi_non_uniform_groups) that other members of the group never reach; "
            "every member must call the group's functions in the same order, in converged "
            "control flow");
  } catch (...) {
    fail(std::current_exception());
  }
  // Let everyone run to the end; the launch reports the error.
  for (std::uint32_t i = 0; i < m_sg_count; ++i)
    if (m_sg[i].waiting != 0) open_sub_group(i);
  if (m_masked_waiting != 0) {
    // Each stuck member goes on with the values of the members that did arrive.
    for (std::uint32_t item = 0; item < m_size; ++item) {
      std::uint32_t mask = m_masked[item].waiting_mask;
      if (mask == 0) continue;
      std::uint32_t first = item & ~(m_sg_size - 1), present = 0;
      for (std::uint32_t rest = mask; rest != 0; rest &= rest - 1) {
        std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(rest));
        if (m_masked[first + lane].waiting_mask == mask) present |= 1u << lane;
      }
      try {
        release_masked(item >> m_sg_shift, present);
      } catch (...) {
        fail(std::current_exception());
        for (std::uint32_t rest = present; rest != 0; rest &= rest - 1) {
          masked_state& m = m_masked[first + static_cast<std::uint32_t>(__builtin_ctz(rest))];
          m.waiting_mask = 0;
          push_ready(m.stack);
          --m_masked_waiting;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Non-uniform groups (sycl_ext_oneapi_non_uniform_groups)

void work_group_scheduler::begin_non_uniform_groups() {
  for (std::uint32_t i = 0; i < m_size; ++i)
    m_masked[i] = masked_state{0, 0, nullptr, 0, no_block, nullptr, 0};
  m_free_blocks.clear();
  for (std::uint32_t b = 0; b < m_blocks.size(); ++b) {
    m_block_users[b] = 0;
    m_free_blocks.push_back(b);
  }
  m_masked_waiting = 0;
  m_converged_waiting = 0;
  m_masked_used = false;
}

void work_group_scheduler::drop_block(std::uint32_t item) noexcept {
  std::uint32_t& block = m_masked[item].block;
  if (block == no_block) return;
  if (--m_block_users[block] == 0) m_free_blocks.push_back(block); // capacity: every block
  block = no_block;
}

// The members in `mask` all wait: their values go to a block of their own, and they become ready.
void work_group_scheduler::release_masked(std::uint32_t sub_group, std::uint32_t mask) {
  std::uint32_t first = sub_group << m_sg_shift;
  std::size_t bytes = 0;
  for (std::uint32_t rest = mask; rest != 0; rest &= rest - 1)
    bytes =
        std::max(bytes, m_masked[first + static_cast<std::uint32_t>(__builtin_ctz(rest))].bytes);
  std::uint32_t block = no_block;
  if (bytes != 0) {
    if (m_free_blocks.empty()) {
      // Each block holds one value per lane of the largest sub-group (32).
      constexpr std::size_t block_bytes = 32 * sycl::detail::host::exchange_bytes;
      m_blocks.reserve(m_blocks.size() + 1);
      m_block_users.reserve(m_blocks.size() + 1);
      m_free_blocks.reserve(m_blocks.size() + 1);
      m_blocks.push_back(
          static_cast<std::byte*>(::operator new(block_bytes, std::align_val_t(64))));
      m_block_users.push_back(0);
      m_free_blocks.push_back(static_cast<std::uint32_t>(m_blocks.size() - 1));
    }
    block = m_free_blocks.back();
    m_free_blocks.pop_back();
    m_block_users[block] = static_cast<std::uint32_t>(__builtin_popcount(mask));
  }
  std::uint32_t ready[32], count = 0;
  for (std::uint32_t rest = mask; rest != 0; rest &= rest - 1) {
    std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(rest));
    masked_state& m = m_masked[first + lane];
    if (block != no_block && m.bytes != 0)
      std::memcpy(m_blocks[block] + std::size_t(lane) * bytes, m.value, m.bytes);
    m.block = block;
    m.waiting_mask = 0;
    ready[count++] = m.stack;
    --m_masked_waiting;
  }
  if (m_shuffled) shuffle(ready, count, (std::uint64_t(sub_group) << 32 | mask) + 0x27d4eb2fu);
  for (std::uint32_t i = 0; i < count; ++i) push_ready(ready[i]);
}

const std::byte* work_group_scheduler::masked_exchange(std::uint32_t sub_group, std::uint32_t lane,
                                                       std::uint32_t mask, const void* value,
                                                       std::size_t bytes) {
  m_masked_used = true;
  std::uint32_t first = sub_group << m_sg_shift;
  std::uint32_t item = first + lane;
  drop_block(item); // done reading the values of its previous group function
  // (Only lanes that exist; the caller's always.)
  std::uint32_t size = std::min(m_sg_size, m_size - first);
  mask &= size >= 32 ? ~0u : (1u << size) - 1u;
  mask |= 1u << lane;
  masked_state& me = m_masked[item];
  me.waiting_mask = mask;
  me.value = value;
  me.bytes = bytes;
  me.stack = m_current_stack;
  ++m_masked_waiting;
  // The group goes on once nothing else can run (release_groups), not as soon as its last member
  // arrives: a sub-group's work-items thus pass their groups' functions in step, as a GPU's
  // lanes do, and a group never runs ahead into memory that another group of its sub-group
  // still reads (as the CTS's non-uniform group barrier test expects).
  m_save_slot = m_current_stack;
  switch_away(true);
  std::uint32_t block = m_masked[item].block;
  return block == no_block ? nullptr : m_blocks[block];
}

bool work_group_scheduler::release_groups() noexcept {
  bool released = false;
  if (m_converged_waiting != 0) {
    resolve_converged();
    released = true;
  }
  for (std::uint32_t item = 0; item < m_size && m_masked_waiting != 0; ++item) {
    std::uint32_t mask = m_masked[item].waiting_mask;
    if (mask == 0) continue;
    std::uint32_t first = item & ~(m_sg_size - 1);
    bool complete = true;
    for (std::uint32_t rest = mask; rest != 0 && complete; rest &= rest - 1)
      complete =
          m_masked[first + static_cast<std::uint32_t>(__builtin_ctz(rest))].waiting_mask == mask;
    if (!complete) continue;
    try {
      release_masked(item >> m_sg_shift, mask);
    } catch (...) {
      // No memory for the values: the members go on without them (the launch reports why).
      fail(std::current_exception());
      for (std::uint32_t rest = mask; rest != 0; rest &= rest - 1) {
        masked_state& m = m_masked[first + static_cast<std::uint32_t>(__builtin_ctz(rest))];
        m.waiting_mask = 0;
        push_ready(m.stack);
        --m_masked_waiting;
      }
    }
    released = true;
  }
  return released;
}

std::uint32_t work_group_scheduler::converged(std::uint32_t sub_group, std::uint32_t lane,
                                              const void* site) {
  m_masked_used = true;
  std::uint32_t item = (sub_group << m_sg_shift) + lane;
  drop_block(item);
  masked_state& me = m_masked[item];
  me.site = site;
  me.stack = m_current_stack;
  ++m_converged_waiting;
  m_save_slot = m_current_stack;
  switch_away(true);
  return m_masked[item].converged;
}

void work_group_scheduler::resolve_converged() noexcept {
  for (std::uint32_t sub_group = 0; sub_group < m_sg_count; ++sub_group) {
    std::uint32_t first = sub_group << m_sg_shift;
    std::uint32_t size = std::min(m_sg_size, m_size - first);
    for (std::uint32_t lane = 0; lane < size; ++lane) {
      const void* site = m_masked[first + lane].site;
      if (!site) continue;
      // The tangle: the lanes of the sub-group at the same call.
      std::uint32_t mask = 0, ready[32], count = 0;
      for (std::uint32_t other = lane; other < size; ++other)
        if (m_masked[first + other].site == site) mask |= 1u << other;
      for (std::uint32_t rest = mask; rest != 0; rest &= rest - 1) {
        masked_state& m = m_masked[first + static_cast<std::uint32_t>(__builtin_ctz(rest))];
        m.site = nullptr;
        m.converged = mask;
        ready[count++] = m.stack;
        --m_converged_waiting;
      }
      if (m_shuffled) shuffle(ready, count, (std::uint64_t(sub_group) << 32 | mask) + 0x165667b1u);
      for (std::uint32_t i = 0; i < count; ++i) push_ready(ready[i]);
    }
  }
}

[[gnu::always_inline]] inline void
work_group_scheduler::jump(void* target, std::uint32_t target_stack, bool exiting) {
  void* fake_stack = nullptr;
#ifdef SYCLONE_HOST_ASAN
  const void* bottom = m_native_bottom;
  std::size_t size = m_native_size;
  if (target_stack != no_stack) {
    stack_cache::stack& s = m_stacks[target_stack];
    bottom = static_cast<std::byte*>(s.top) - s.size;
    size = s.size;
  }
  __sanitizer_start_switch_fiber(exiting ? nullptr : &fake_stack, bottom, size);
#else
  (void)exiting;
#endif
#ifdef SYCLONE_HOST_TSAN
  __tsan_switch_to_fiber(
      target_stack == no_stack ? m_native_tsan_fiber : m_stacks[target_stack].tsan_fiber, 0);
#endif
  m_current_stack = target_stack;
  bctx::transfer_t t = bctx::jump_fcontext(target, this);
  on_resume(t.fctx, fake_stack);
}

void work_group_scheduler::on_resume(void* from, void* fake_stack) noexcept {
#ifdef SYCLONE_HOST_ASAN
  const void* from_bottom = nullptr;
  std::size_t from_size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &from_bottom, &from_size);
  if (m_from_native) {
    m_native_bottom = from_bottom;
    m_native_size = from_size;
    m_from_native = false;
  }
#else
  (void)fake_stack;
#endif
  if (m_save_slot != no_stack) {
    if (m_save_slot == native_slot)
      m_native = from;
    else
      m_stacks[m_save_slot].context = from;
    m_save_slot = no_stack;
  }
  if (m_free_stack != no_stack) {
    m_stacks.release(m_free_stack);
    m_free_stack = no_stack;
  }
}

void work_group_scheduler::shuffle(std::uint32_t* items, std::size_t count,
                                   std::uint64_t salt) const noexcept {
  // Seeded by (seed, work-group, barrier phase) only, so the order does not depend on which
  // thread runs the work-group or on how many launches came before.
  std::uint64_t state = m_seed;
  splitmix64(state);
  state ^= m_linear_group * 0xd1342543de82ef95ull;
  splitmix64(state);
  state ^= salt * 0x2545f4914f6cdd1dull;
  for (std::size_t i = count; i > 1; --i) {
    auto j =
        static_cast<std::size_t>((static_cast<unsigned __int128>(splitmix64(state)) * i) >> 64);
    std::swap(items[i - 1], items[j]);
  }
}

work_item_streams& work_group_scheduler::current_streams() {
  stack_cache::stack& s = m_stacks[m_current_stack];
  if (!s.streams) s.streams = new work_item_streams();
  return *s.streams;
}

void work_group_scheduler::fail(std::exception_ptr error) noexcept {
  if (!m_error) m_error = std::move(error);
}

// ---------------------------------------------------------------------------------------------
// thread_state

namespace {
// Trivially destructible, so launches during thread exit (after the owner below ran) still work:
// they get a fresh state that is then leaked.
[[gnu::tls_model("initial-exec")]] thread_local thread_state* tl_state = nullptr;
thread_local bool tl_state_freed = false;

struct thread_state_owner {
  thread_state* state;
  ~thread_state_owner() {
    delete state;
    tl_state = nullptr;
    tl_state_freed = true;
  }
};
} // namespace

thread_state& thread_state::get() {
  if (tl_state) return *tl_state;
  tl_state = new thread_state();
  if (!tl_state_freed) {
    thread_local thread_state_owner owner{nullptr};
    owner.state = tl_state;
  }
  return *tl_state;
}

thread_state::~thread_state() {
  for (work_group_scheduler* s : m_schedulers) delete s;
}

work_group_scheduler& thread_state::enter() {
  if (m_depth == m_schedulers.size()) {
    m_schedulers.reserve(m_depth + 1);
    m_schedulers.push_back(new work_group_scheduler(m_stacks));
  }
  return *m_schedulers[m_depth++];
}

// ---------------------------------------------------------------------------------------------
// work-item stream state (work_item_streams.hpp)

namespace {
// A range or single_task kernel's work-item on this thread; trivially destructible.
thread_local work_item_streams tl_streams;
// While a hierarchical kernel runs a logical work-item of parallel_for_work_item: its table.
thread_local work_item_streams* tl_logical_streams = nullptr;
// Whether the launch running on this thread writes to a stream.
thread_local bool tl_streams_active = false;
} // namespace

work_item_streams& current_work_item_streams() {
  if (tl_logical_streams) return *tl_logical_streams;
  if (work_group_scheduler* s = work_group_scheduler::current()) return s->current_streams();
  return tl_streams;
}

void begin_thread_work_item() noexcept {
  tl_streams.clear();
}

bool exchange_streams_active(bool active) noexcept {
  return std::exchange(tl_streams_active, active);
}

} // namespace syclone::host

// ---------------------------------------------------------------------------------------------
// Device builtins of include/sycl/detail/device/host.hpp

SYCLONE_BEGIN_NAMESPACE
namespace detail::host {

void work_group_barrier() {
  __syclone_host_barrier();
}

std::byte* local_memory() noexcept {
  syclone::host::work_group_scheduler* s = syclone::host::work_group_scheduler::current();
  return s ? s->local_memory() : nullptr;
}

namespace {
// A group function reached from code the work-item loop compiler did not see (a function of
// another translation unit) while the work-group runs as loops: no work-item can wait there.
[[noreturn]] void unseen_group_function(const char* what) {
  throw_error(errc::kernel,
              std::string("host device: ") + what +
                  " reached in a function the work-item loop compiler could not see (defined in "
                  "another translation unit, or called through a pointer) while its work-group "
                  "runs as compiled loops; define the function in the kernel's translation "
                  "unit, or run with SYCLONE_HOST_KERNELS=fibers");
}

// The scheduler of the running work-group for a function that makes work-items wait.
[[gnu::always_inline]] inline syclone::host::work_group_scheduler&
group_scheduler(const char* what) {
  syclone::host::work_group_scheduler* s = syclone::host::work_group_scheduler::current();
  if (!s)
    throw_error(errc::invalid, std::string(what) +
                                   " called outside an nd_range kernel on the host device; "
                                   "barriers and group functions exist only there");
  if (s->in_loops()) unseen_group_function(what);
  return *s;
}
} // namespace

bool streams_active() noexcept {
  return syclone::host::tl_streams_active;
}

void enter_logical_work_item() {
  // The logical work-item inherits the formatting the work-group scope set (every work-item of
  // the group runs that code), not its open statement.
  thread_local syclone::host::work_item_streams logical;
  logical = syclone::host::current_work_item_streams();
  for (auto& e : logical.entries) e.state.segment = nullptr;
  syclone::host::tl_logical_streams = &logical;
}

void leave_logical_work_item() noexcept {
  syclone::host::tl_logical_streams = nullptr;
}

} // namespace detail::host
SYCLONE_END_NAMESPACE

using sycl::detail::host::group_scheduler;
using syclone::host::work_group_scheduler;

extern "C" {

const char* __syclone_host_work_group_loops(sycl::detail::host::work_item_fn,
                                            sycl::detail::host::group_frame*, std::uint32_t) {
  return "its translation unit was not compiled by syclone++ with optimization (-O1 or "
         "higher), which runs the work-item loop compiler";
}

std::byte* __syclone_host_loop_storage(sycl::detail::host::group_frame* frame, std::size_t bytes) {
  if (bytes <= frame->storage_size) return frame->storage;
  return static_cast<work_group_scheduler*>(frame->runtime)->loop_storage(*frame, bytes);
}

void __syclone_host_divergent_barrier(sycl::detail::host::group_frame* frame, const char* first,
                                      const char* second) {
  static_cast<work_group_scheduler*>(frame->runtime)->divergent_barrier(first, second);
}

void __syclone_host_barrier() {
  group_scheduler("group_barrier/nd_item::barrier").barrier();
}

namespace {
// This thread's thread-local storage of every loaded module (dl_iterate_phdr), found again when
// modules were loaded or unloaded since.
struct tls_blocks {
  unsigned long long generation = ~0ull;
  bool incomplete = true; // a module with thread-local storage this thread has not allocated yet
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
  bool contains(std::uintptr_t a) const {
    for (auto [begin, end] : ranges)
      if (a >= begin && a < end) return true;
    return false;
  }
};
unsigned long long loaded_modules_generation() {
  unsigned long long generation = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        *static_cast<unsigned long long*>(out) = info->dlpi_adds + info->dlpi_subs;
        return 1; // the counts are the same in every module's entry
      },
      &generation);
  return generation;
}
// Whether `a` lies in this thread's thread-local storage of a loaded module (dl_iterate_phdr).
// The ranges are remembered per thread; a miss looks again only when modules were loaded or
// unloaded since, or when a module's storage had not been allocated for this thread yet.
bool in_thread_local_storage(std::uintptr_t a) {
  thread_local tls_blocks blocks;
  if (blocks.contains(a)) return true;
  unsigned long long generation = loaded_modules_generation();
  if (generation == blocks.generation && !blocks.incomplete) return false;
  blocks.ranges.clear();
  blocks.incomplete = false;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        auto& b = *static_cast<tls_blocks*>(out);
        for (int i = 0; i < info->dlpi_phnum; ++i)
          if (info->dlpi_phdr[i].p_type == PT_TLS) {
            if (!info->dlpi_tls_data) {
              b.incomplete = true;
              continue;
            }
            auto begin = reinterpret_cast<std::uintptr_t>(info->dlpi_tls_data);
            b.ranges.push_back({begin, begin + info->dlpi_phdr[i].p_memsz});
          }
        return 0;
      },
      &blocks);
  blocks.generation = generation;
  return blocks.contains(a);
}
} // namespace

// A pointer's SYCL address space on the host device (host_memory.hpp in_address_space): what
// the running work-group's scheduler knows (local memory, fiber stacks, the loops' storage),
// else local when it is in this thread's thread-local storage (kernels cannot use thread_local
// variables: what they reach there is group_local_memory's objects, which the host compile
// makes thread-local), else private when it is on this thread's stack (or in AddressSanitizer's
// fake frames of it), else global. Outside kernels (host code), -1: every pointer is in every
// space.
extern "C" void* __asan_get_current_fake_stack() __attribute__((weak));
extern "C" void* __asan_addr_is_in_fake_stack(void* fake_stack, void* addr, void** beg, void** end)
    __attribute__((weak));
int __syclone_host_address_space(const void* p) noexcept {
  work_group_scheduler* s = work_group_scheduler::current();
  if (!s && !syclone::host::tl_range_kernels) return -1; // host code: no address spaces
  if (s)
    if (int space = s->address_space_of(p)) return space;
  thread_local std::uintptr_t stack_low = 0, stack_high = 0;
  if (!stack_high) {
    pthread_attr_t attr;
    void* base = nullptr;
    std::size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &base, &size);
      pthread_attr_destroy(&attr);
    }
    stack_low = reinterpret_cast<std::uintptr_t>(base);
    stack_high = stack_low + size;
  }
  auto a = reinterpret_cast<std::uintptr_t>(p);
  // (First: glibc puts a thread's thread-local storage at the top of its stack's mapping.)
  if (in_thread_local_storage(a)) return 1;
  if (a >= stack_low && a < stack_high) return 3;
  if (__asan_get_current_fake_stack && __asan_addr_is_in_fake_stack)
    if (void* fake = __asan_get_current_fake_stack();
        fake && __asan_addr_is_in_fake_stack(fake, const_cast<void*>(p), nullptr, nullptr))
      return 3;
  return 0;
}

// The compiled loops answer these themselves: reached here, they run on fibers (or the call lies
// where the loop compiler did not see it, or outside an nd_range kernel: errors).
const void* __syclone_host_work_item_object() {
  return group_scheduler("khr::this_nd_item (a work-item query)").kernel_object();
}
const std::size_t* __syclone_host_work_item_group() {
  return group_scheduler("khr::this_nd_item (a work-item query)").group_id();
}
std::size_t __syclone_host_work_item_local(std::uint32_t which) {
  work_group_scheduler& s = group_scheduler("khr::this_nd_item (a work-item query)");
  const std::size_t* local = s.local_id();
  int d = int(which) - 3 + s.dimensions(); // right-aligned to SYCL order
  return local && d >= 0 ? local[d] : 0;
}

void* __syclone_host_group_local_memory(std::size_t, std::size_t) {
  sycl::detail::throw_error(
      sycl::errc::feature_not_supported,
      "group_local_memory (sycl_ext_oneapi_local_memory) called from host device code "
      "that syclone++'s host compile did not see (its pass plugin gives each call its "
      "memory): compile the kernel with syclone++ -fsycl");
}

void* __syclone_host_work_group_static(const void*, std::size_t, std::size_t) {
  sycl::detail::throw_error(
      sycl::errc::feature_not_supported,
      "work_group_static (sycl_ext_oneapi_work_group_static) used in host device code that "
      "syclone++'s host compile did not see (its pass plugin gives each variable its memory): "
      "compile the kernel with syclone++ -fsycl");
}

std::byte* __syclone_host_local_memory() noexcept {
  return sycl::detail::host::local_memory();
}

std::byte* __syclone_host_work_group_scratch() {
  work_group_scheduler* s = work_group_scheduler::current();
  if (!s)
    sycl::detail::throw_error(sycl::errc::invalid,
                              "a work-group algorithm called outside an nd_range kernel on the "
                              "host device");
  return s->work_group_scratch(); // the compiled loops read it from their frame
}

std::uint32_t __syclone_host_sub_group_size() noexcept {
  work_group_scheduler* s = work_group_scheduler::current();
  return s ? s->sub_group_size() : 1;
}

// Work-items as fibers never run a sub-group as one vector (only the compiled loops do).
std::uint32_t __syclone_host_vector_lanes() noexcept {
  return 0;
}

std::uint32_t __syclone_host_sub_group_index(std::uint32_t local_linear_id) noexcept {
  return local_linear_id >> __builtin_ctz(__syclone_host_sub_group_size());
}

std::uint32_t __syclone_host_sub_group_lane(std::uint32_t local_linear_id) noexcept {
  return local_linear_id & (__syclone_host_sub_group_size() - 1);
}

void __syclone_host_sub_group_barrier(std::uint32_t sub_group) {
  group_scheduler("a sub-group barrier").sub_group_barrier(sub_group);
}

const std::byte* __syclone_host_sub_group_exchange(std::uint32_t sub_group, std::uint32_t lane,
                                                   const void* value, std::size_t bytes) {
  return group_scheduler("a sub-group function").sub_group_exchange(sub_group, lane, value, bytes);
}

const std::byte* __syclone_host_sub_group_masked_exchange(std::uint32_t sub_group,
                                                          std::uint32_t lane, std::uint32_t mask,
                                                          const void* value, std::size_t bytes) {
  return group_scheduler("a function of a non-uniform group")
      .masked_exchange(sub_group, lane, mask, value, bytes);
}

void __syclone_host_sub_group_masked_barrier(std::uint32_t sub_group, std::uint32_t lane,
                                             std::uint32_t mask) {
  group_scheduler("a barrier of a non-uniform group")
      .masked_exchange(sub_group, lane, mask, nullptr, 0);
}

// The call site tells tangles apart: the return address, in the kernel's code (each
// get_tangle_group / get_opportunistic_group is inlined where the kernel calls it).
[[gnu::noinline]] std::uint32_t
__syclone_host_sub_group_converged(std::uint32_t sub_group, std::uint32_t lane, std::uint32_t) {
  return group_scheduler("get_tangle_group/get_opportunistic_group")
      .converged(sub_group, lane, __builtin_return_address(0));
}

} // extern "C"
