// Work-groups of nd_range kernels on one host thread. Work-items run lazily as fibers
// (Boost.Context fcontext): one fiber runs work-items 0, 1, 2, ... until one of them reaches a
// barrier, which suspends it and starts the next work-item on a fresh fiber. Once every work-item
// waits at the barrier (or finished), the barrier opens and the waiting ones resume one after the
// other. A kernel without barriers thus costs one fiber start per work-group.
// SYCL 2020 3.9.3 (work-group barriers), 4.17.3 (group_barrier), DESIGN.md "Target mapping".
#pragma once

#include "host_executor.hpp"

#include <sycl/detail/device/host.hpp> // host::exchange_bytes

#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SYCLONE_HOST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(SYCLONE_HOST_ASAN)
#define SYCLONE_HOST_ASAN 1
#endif
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SYCLONE_HOST_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(SYCLONE_HOST_TSAN)
#define SYCLONE_HOST_TSAN 1
#endif

namespace syclone::host {

// Range kernels (and single tasks) running on this thread: the address-space query answers for
// kernel code only (host code has no address spaces).
extern thread_local int tl_range_kernels;
struct range_kernel_scope {
  explicit range_kernel_scope(bool counts = true) noexcept : m_counts(counts) {
    if (m_counts) ++tl_range_kernels;
  }
  ~range_kernel_scope() {
    if (m_counts) --tl_range_kernels;
  }
  bool m_counts;
  range_kernel_scope(const range_kernel_scope&) = delete;
  range_kernel_scope& operator=(const range_kernel_scope&) = delete;
};

struct work_item_streams;

// Fiber stacks of one thread, reused across work-groups and launches: a work-group needs one per
// work-item that waits at a barrier at the same time, a kernel without barriers only one.
class stack_cache {
public:
  struct stack {
    void* mapping;
    std::size_t mapping_size;
    void* top;        // initial stack pointer (stacks grow down)
    std::size_t size; // usable bytes below top
    void* context;    // the suspended fiber on this stack (fcontext_t)
    void* tsan_fiber; // ThreadSanitizer's state of the fiber on this stack (TSan builds)
    // The sycl::stream state of the work-item on this stack (made at its first output).
    work_item_streams* streams;
    // The local id (SYCL order) of the work-item running on this stack.
    const std::size_t* local_id;
  };

  stack_cache() = default;
  stack_cache(const stack_cache&) = delete;
  stack_cache& operator=(const stack_cache&) = delete;
  ~stack_cache();

  // A free stack's index; maps a new one when none is free (sycl::exception on failure).
  std::uint32_t acquire();
  void release(std::uint32_t index) noexcept { m_free.push_back(index); }
  stack& operator[](std::uint32_t index) noexcept { return m_stacks[index]; }
  const stack& operator[](std::uint32_t index) const noexcept { return m_stacks[index]; }
  std::size_t size() const noexcept { return m_stacks.size(); }

private:
  std::vector<stack> m_stacks;
  std::vector<std::uint32_t> m_free; // capacity kept >= m_stacks.size(): release never allocates
};

// Runs the work-groups of one nd_range launch that one thread claims. Not thread-safe: each
// thread (and each nesting level of launches on that thread) has its own.
class work_group_scheduler {
public:
  explicit work_group_scheduler(stack_cache& stacks) : m_stacks(stacks) {}
  work_group_scheduler(const work_group_scheduler&) = delete;
  work_group_scheduler& operator=(const work_group_scheduler&) = delete;
  ~work_group_scheduler();

  // Prepares for work-groups of `launch` (whose work-group size fits 32 bits).
  void begin(const nd_range_launch& launch, schedule_kind kind, std::uint64_t seed);
  // Runs the work-groups with linear ids [begin, end) (last dimension fastest), one after the
  // other. An exception of a work-item is rethrown once its work-group finished (all of its
  // work-items ran); the work-groups after it do not start.
  void run_groups(std::size_t begin, std::size_t end);

  // The scheduler whose work-group runs on this thread right now, or null.
  static work_group_scheduler* current() noexcept;
  // Hides the current scheduler while a range kernel runs inside a work-item.
  static work_group_scheduler* exchange_current(work_group_scheduler* s) noexcept;

  // Whether the launch runs as compiled work-item loops (then no work-item is a fiber).
  bool in_loops() const noexcept { return m_in_loops; }
  // The compiled loops' per-work-item storage (host_loops.hpp __syclone_host_loop_storage).
  std::byte* loop_storage(sycl::detail::host::group_frame& frame, std::size_t bytes);
  // The compiled loops found work-items of the running group at different barriers.
  void divergent_barrier(const char* first, const char* second);

  // SYCL 2020 4.17.3: suspends the calling work-item until all of its work-group arrived.
  void barrier() noexcept;
  std::byte* local_memory() const noexcept { return m_local_memory; }
  // The running work-item (sycl_khr_work_item_queries on fibers; the compiled loops answer
  // themselves): the kernel object, the group id and the local id, in SYCL order.
  const void* kernel_object() const noexcept { return m_launch ? m_launch->kernel : nullptr; }
  const std::size_t* group_id() const noexcept { return m_group_id; }
  const std::size_t* local_id() const noexcept {
    return m_current_stack < m_stacks.size() ? m_stacks[m_current_stack].local_id : nullptr;
  }
  int dimensions() const noexcept { return m_launch ? m_launch->dimensions : 0; }
  // Where `p` points for the running work-item (SYCL address spaces: 1 the work-group's local
  // memory, 3 its private memory: its fiber's stack or the compiled loops' per-work-item storage;
  // 0 otherwise, except the thread's own stack, which the caller checks; -1 for a hierarchical
  // kernel, whose work-group-scope variables live on stacks).
  int address_space_of(const void* p) const noexcept;
  // The sycl::stream state of the running work-item.
  work_item_streams& current_streams();

  // Sub-groups (seed 004, SYCL 2020 4.9.1.8): the launch's sub-group size cuts the work-group's
  // linear ids into consecutive sub-groups. A sub-group barrier suspends the caller until each
  // member of its sub-group arrived or finished; the last one to arrive carries on (in the
  // shuffled schedule it queues behind the others at a random place).
  std::uint32_t sub_group_size() const noexcept { return m_sg_size; }
  void sub_group_barrier(std::uint32_t sub_group) noexcept;
  // Writes the caller's value into its slot of the sub-group's current scratch set, waits for
  // the sub-group and returns the set (see detail::host::sub_group_exchange).
  const std::byte* sub_group_exchange(std::uint32_t sub_group, std::uint32_t lane,
                                      const void* value, std::size_t bytes) noexcept;
  // sycl_ext_oneapi_non_uniform_groups (host_loops.hpp): an exchange and a barrier of the lanes
  // of `mask` only. Once no work-item of the work-group can go on otherwise, each group whose
  // members all wait goes on: its members' values (each on its member's stack) are copied into
  // a block of their own, which the members read from until each calls its next group function
  // or finishes; so groups of other lanes never overwrite what a member has yet to read.
  const std::byte* masked_exchange(std::uint32_t sub_group, std::uint32_t lane, std::uint32_t mask,
                                   const void* value, std::size_t bytes);
  // The lanes of the sub-group waiting at the same call (`site`) once nothing else can run.
  std::uint32_t converged(std::uint32_t sub_group, std::uint32_t lane, const void* site);
  // Scratch of the work-group for work-group algorithms (2 * exchange_bytes per work-item).
  std::byte* work_group_scratch() const noexcept { return m_wg_scratch; }

  // Entry of every fiber (a boost::context::detail::transfer_t carries the scheduler).
  static void fiber_main(void* from, void* scheduler);

private:
  static constexpr std::uint32_t no_stack = ~0u;
  static constexpr std::uint32_t native_slot = ~0u - 1;

  // The chunk as compiled loops; false when the kernel has none (nothing ran then).
  bool run_groups_as_loops(std::size_t begin, std::size_t end);
  bool start_group() noexcept; // the next work-group of the chunk; false when none (or failed)
  void run_items();
  [[noreturn]] void exit_fiber();
  void switch_away(bool suspending);
  void jump(void* target, std::uint32_t target_stack, bool exiting);
  void on_resume(void* from, void* fake_stack) noexcept;
  void open_barrier();
  void open_sub_group(std::uint32_t sub_group) noexcept;
  void item_finished(std::uint32_t item) noexcept;
  void release_mismatched_barriers() noexcept;
  void release_masked(std::uint32_t sub_group, std::uint32_t mask);
  void resolve_converged() noexcept;
  bool release_groups() noexcept;
  void drop_block(std::uint32_t item) noexcept;
  void begin_non_uniform_groups();
  void push_ready(std::uint32_t stack) noexcept {
    m_ready[(m_ready_head + m_ready_count++) % m_ready.size()] = stack;
  }
  std::uint32_t pop_ready() noexcept {
    std::uint32_t stack = m_ready[m_ready_head];
    m_ready_head = (m_ready_head + 1) % static_cast<std::uint32_t>(m_ready.size());
    --m_ready_count;
    return stack;
  }
  void shuffle(std::uint32_t* items, std::size_t count, std::uint64_t salt) const noexcept;
  void fail(std::exception_ptr error) noexcept;

  stack_cache& m_stacks;
  const nd_range_launch* m_launch = nullptr;
  bool m_shuffled = false;
  std::uint64_t m_seed = 0;
  std::uint32_t m_size = 0; // work-items per work-group
  std::uint32_t m_range1 = 1, m_range2 = 1;
  std::size_t m_group_id[3] = {0, 0, 0};
  std::size_t m_linear_group = 0;
  std::size_t m_group_next = 0, m_group_end = 0; // work-groups of the chunk not started yet

  // Work-items start in m_order (shuffled) or by index; m_next_start of them started so far.
  std::vector<std::uint32_t> m_order;
  std::uint32_t m_next_start = 0;
  std::uint32_t m_phase = 0;            // barriers opened so far in this work-group
  std::vector<std::uint32_t> m_arrived; // stacks of fibers suspended at the current barrier
  // Fibers released by a barrier, not yet resumed: a ring of m_size entries (a fiber is in at
  // most one place: here, m_arrived or a sub-group's waiters).
  std::vector<std::uint32_t> m_ready;
  std::uint32_t m_ready_head = 0, m_ready_count = 0;

  // Sub-groups of the current work-group.
  struct sub_group_state {
    std::uint32_t pending;  // members that neither wait at the current barrier nor finished
    std::uint32_t finished; // members that returned from the kernel
    std::uint32_t waiting;  // members suspended at the current barrier
    std::uint32_t phase;    // barriers opened so far; its parity picks the scratch set
  };
  std::uint32_t m_sg_size = 1, m_sg_shift = 0, m_sg_count = 1;
  std::vector<sub_group_state> m_sg;
  std::vector<std::uint32_t> m_sg_waiters; // m_sg_size stacks per sub-group
  std::uint32_t m_sg_waiting_total = 0;
  // Work-items at a non-uniform group's exchange or barrier (masked_exchange) or at a call
  // that forms a tangle (converged), per work-item of the group.
  struct masked_state {
    std::uint32_t waiting_mask; // the group it waits for; 0: none
    std::uint32_t stack;        // its fiber while it waits
    const void* value;          // its value, on its stack, while it waits
    std::size_t bytes;
    std::uint32_t block;     // the block of values it reads (no_block: none)
    const void* site;        // the call it waits at (converged); null: none
    std::uint32_t converged; // the tangle found for it
  };
  static constexpr std::uint32_t no_block = ~0u;
  std::vector<masked_state> m_masked;
  bool m_masked_used = false;         // this work-group called them (m_masked is dirty)
  std::uint32_t m_masked_waiting = 0; // work-items waiting at masked exchanges
  std::uint32_t m_converged_waiting = 0;
  std::vector<std::byte*> m_blocks; // m_sg_size * exchange_bytes each
  std::vector<std::uint32_t> m_block_users, m_free_blocks;
  std::byte* m_scratch = nullptr; // sub-group exchange sets, then the work-group scratch
  std::size_t m_scratch_capacity = 0;
  // Before and after the scratch: the largest sub-group (32) of the largest slots.
  static constexpr std::size_t scratch_padding = 32 * sycl::detail::host::exchange_bytes;
  void release_scratch() noexcept {
    if (m_scratch) ::operator delete(m_scratch - scratch_padding, std::align_val_t(64));
    m_scratch = nullptr;
    m_scratch_capacity = 0;
  }
  std::byte* m_wg_scratch = nullptr;
  void* m_native = nullptr;                 // the stack run_groups was called on
  std::uint32_t m_current_stack = no_stack; // stack of the running fiber
  // Handoff from the fiber that switched away to the one that runs next: which slot receives
  // the suspended fiber's context, and which stack became free (released only once off it).
  std::uint32_t m_save_slot = no_stack;
  std::uint32_t m_free_stack = no_stack;
  std::exception_ptr m_error;

  std::byte* m_local_memory = nullptr;
  std::size_t m_local_capacity = 0;

  bool m_loops = false;    // begin() chose the compiled loops for this launch
  bool m_in_loops = false; // they run now
  std::byte* m_loop_storage = nullptr;
  std::size_t m_loop_storage_capacity = 0;

#ifdef SYCLONE_HOST_ASAN
  const void* m_native_bottom = nullptr;
  std::size_t m_native_size = 0;
  bool m_from_native = false;
#endif
#ifdef SYCLONE_HOST_TSAN
  void* m_native_tsan_fiber = nullptr;
#endif
};

// Per-thread state of the nd_range path: the stack cache and one scheduler per nesting level
// (a work-item may itself launch a kernel). Created on first use, freed at thread exit.
class thread_state {
public:
  static thread_state& get();
  ~thread_state();

  // The scheduler for a launch starting now on this thread; leave() when its chunk ends.
  work_group_scheduler& enter();
  void leave() noexcept { --m_depth; }

private:
  thread_state() = default;

  stack_cache m_stacks;
  std::vector<work_group_scheduler*> m_schedulers;
  std::size_t m_depth = 0;
};

} // namespace syclone::host
