// Unit tests of the host device's execution engine (src/backends/host): thread pool, range chunks,
// work-groups as fibers, barriers, local memory and the shuffled schedule.
#include "backends/host/host_executor.hpp"

#include <sycl/detail/device/host.hpp>
#include <sycl/exception.hpp>

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

namespace host = syclone::host;
using sycl::detail::host::local_memory;
using sycl::detail::host::work_group_barrier;
using size3 = std::array<std::size_t, 3>;

// Launch descriptions for lambdas: f(i) for range kernels, f(group, local) for nd_range ones.
template <typename F>
void run_range(std::size_t count, const F& f) {
  host::range_launch launch{&f,
                            [](const void* k, std::size_t begin, std::size_t end) {
                              const F& f = *static_cast<const F*>(k);
                              for (std::size_t i = begin; i < end; ++i) f(i);
                            },
                            count};
  host::run(launch);
}

template <typename F>
void run_nd(int dimensions, size3 groups, size3 local, std::size_t local_bytes, const F& f) {
  host::nd_range_launch launch{};
  launch.kernel = &f;
  launch.run_item = [](const void* k, const std::size_t* g, const std::size_t* l) {
    (*static_cast<const F*>(k))(g, l);
  };
  launch.dimensions = dimensions;
  for (int d = 0; d < 3; ++d) {
    launch.group_range[d] = groups[d];
    launch.local_range[d] = local[d];
  }
  launch.local_memory_bytes = local_bytes;
  host::run(launch);
}

std::size_t product(const size3& r) {
  return r[0] * r[1] * r[2];
}

// Restores the in-order schedule whatever a test set.
class host_executor : public ::testing::Test {
protected:
  void TearDown() override { host::set_schedule(host::schedule_kind::in_order, 0); }
};

struct schedule_case {
  host::schedule_kind kind;
  std::uint64_t seed;
};
const schedule_case all_schedules[] = {{host::schedule_kind::in_order, 0},
                                       {host::schedule_kind::shuffled, 0},
                                       {host::schedule_kind::shuffled, 42}};

TEST_F(host_executor, concurrency_is_positive) {
  EXPECT_GE(host::concurrency(), 1u);
}

TEST_F(host_executor, schedule_can_be_set) {
  host::set_schedule(host::schedule_kind::shuffled, 1234);
  EXPECT_EQ(host::schedule(), host::schedule_kind::shuffled);
  EXPECT_EQ(host::schedule_seed(), 1234u);
  host::set_schedule(host::schedule_kind::in_order);
  EXPECT_EQ(host::schedule(), host::schedule_kind::in_order);
}

TEST_F(host_executor, range_covers_every_index_once) {
  for (std::size_t count : {0ul, 1ul, 7ul, 1000ul, 1024ul, 1025ul, 4097ul, 100'003ul, 1ul << 20}) {
    std::vector<std::atomic<std::uint32_t>> hits(count);
    run_range(count, [&](std::size_t i) { hits[i].fetch_add(1, std::memory_order_relaxed); });
    std::size_t wrong = 0;
    for (auto& h : hits) wrong += h.load() != 1;
    EXPECT_EQ(wrong, 0u) << "count " << count;
  }
}

TEST_F(host_executor, range_uses_several_threads_for_large_launches) {
  if (host::concurrency() < 2) GTEST_SKIP() << "one thread only";
  std::mutex mutex;
  std::vector<std::thread::id> seen;
  run_range(1 << 22, [&](std::size_t i) {
    if (i % 4096 != 0) return;
    std::lock_guard lock(mutex);
    if (std::find(seen.begin(), seen.end(), std::this_thread::get_id()) == seen.end())
      seen.push_back(std::this_thread::get_id());
    // Give the other threads time to wake up and claim chunks.
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  });
  EXPECT_GE(seen.size(), 2u);
}

TEST_F(host_executor, few_expensive_indices_or_work_groups_still_go_parallel) {
  // Whether to share a launch is decided from the measured cost of its first piece.
  if (host::concurrency() < 2) GTEST_SKIP() << "one thread only";
  std::mutex mutex;
  std::vector<std::thread::id> seen;
  auto note = [&] {
    std::lock_guard lock(mutex);
    if (std::find(seen.begin(), seen.end(), std::this_thread::get_id()) == seen.end())
      seen.push_back(std::this_thread::get_id());
  };
  run_range(32, [&](std::size_t) {
    note();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  EXPECT_GE(seen.size(), 2u);
  seen.clear();
  run_nd(1, {16, 1, 1}, {4, 1, 1}, 0, [&](const std::size_t*, const std::size_t* l) {
    note();
    if (l[0] == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    work_group_barrier();
  });
  EXPECT_GE(seen.size(), 2u);
}

TEST_F(host_executor, as_many_long_work_groups_as_threads_run_together_once_timed) {
  // A launch with as many work-groups as threads, each long: the first launch times one group
  // on the caller before sharing the rest; a later launch of the same kernel knows the cost and
  // shares at once, so both groups run at the same time (each waits, up to a limit, for the
  // other to start). Before unit_costs, every launch ran its first group alone.
  if (host::concurrency() < 2) GTEST_SKIP() << "one thread only";
  std::atomic<int> started{0};
  std::atomic<int> alone{0};
  auto kernel = [&](const std::size_t*, const std::size_t*) {
    started.fetch_add(1);
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
    while (started.load() < 2 && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
    if (started.load() < 2) alone.fetch_add(1);
  };
  run_nd(1, {2, 1, 1}, {1, 1, 1}, 0, kernel); // timed: the first group runs alone
  EXPECT_EQ(alone.load(), 1);
  for (int launch = 0; launch < 3; ++launch) {
    started = 0;
    alone = 0;
    run_nd(1, {2, 1, 1}, {1, 1, 1}, 0, kernel);
    EXPECT_EQ(alone.load(), 0) << "launch " << launch;
  }
}

TEST_F(host_executor, nd_range_covers_every_pair_once) {
  struct shape {
    int dims;
    size3 groups, local;
  };
  const shape shapes[] = {
      {1, {1, 1, 1}, {1, 1, 1}},     {1, {1, 1, 1}, {64, 1, 1}}, {1, {37, 1, 1}, {3, 1, 1}},
      {1, {1000, 1, 1}, {16, 1, 1}}, {2, {5, 7, 1}, {4, 8, 1}},  {2, {64, 3, 1}, {1, 32, 1}},
      {3, {2, 3, 4}, {2, 4, 8}},     {3, {7, 5, 3}, {3, 1, 5}},  {3, {16, 16, 16}, {1, 2, 2}},
  };
  for (const schedule_case& sc : all_schedules) {
    host::set_schedule(sc.kind, sc.seed);
    for (const shape& s : shapes) {
      size3 global{s.groups[0] * s.local[0], s.groups[1] * s.local[1], s.groups[2] * s.local[2]};
      std::vector<std::atomic<std::uint32_t>> hits(product(global));
      std::atomic<std::size_t> bad{0};
      run_nd(s.dims, s.groups, s.local, 0, [&](const std::size_t* g, const std::size_t* l) {
        std::size_t linear = 0;
        for (int d = 0; d < 3; ++d) {
          if (g[d] >= s.groups[d] || l[d] >= s.local[d]) bad.fetch_add(1);
          linear = linear * global[d] + g[d] * s.local[d] + l[d];
        }
        if (linear < hits.size()) hits[linear].fetch_add(1, std::memory_order_relaxed);
      });
      std::size_t wrong = 0;
      for (auto& h : hits) wrong += h.load() != 1;
      EXPECT_EQ(bad.load(), 0u);
      EXPECT_EQ(wrong, 0u) << "dims " << s.dims << " groups " << s.groups[0] << "x" << s.groups[1]
                           << "x" << s.groups[2] << " local " << s.local[0] << "x" << s.local[1]
                           << "x" << s.local[2] << " shuffled "
                           << (sc.kind == host::schedule_kind::shuffled);
    }
  }
}

TEST_F(host_executor, in_order_runs_work_items_by_linear_id) {
  // SYCL linearization: the last dimension varies fastest.
  std::vector<std::size_t> order;
  size3 local{2, 3, 4};
  run_nd(3, {1, 1, 1}, local, 0, [&](const std::size_t*, const std::size_t* l) {
    order.push_back((l[0] * local[1] + l[1]) * local[2] + l[2]);
  });
  std::vector<std::size_t> expected(product(local));
  std::iota(expected.begin(), expected.end(), 0u);
  EXPECT_EQ(order, expected);
}

// Start order of the work-items of work-group 0 under the current schedule.
std::vector<std::size_t> start_order(std::size_t items) {
  std::vector<std::size_t> order;
  run_nd(1, {1, 1, 1}, {items, 1, 1}, 0,
         [&](const std::size_t*, const std::size_t* l) { order.push_back(l[0]); });
  return order;
}

TEST_F(host_executor, shuffle_is_a_deterministic_permutation) {
  host::set_schedule(host::schedule_kind::shuffled, 7);
  std::vector<std::size_t> a = start_order(64);
  std::vector<std::size_t> b = start_order(64);
  host::set_schedule(host::schedule_kind::shuffled, 8);
  std::vector<std::size_t> c = start_order(64);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::vector<std::size_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::size_t> identity(64);
  std::iota(identity.begin(), identity.end(), 0u);
  EXPECT_EQ(sorted, identity);
  EXPECT_NE(a, identity);
}

TEST_F(host_executor, local_memory_is_aligned_and_per_work_group) {
  constexpr std::size_t items = 32;
  std::atomic<std::size_t> misaligned{0}, wrong{0};
  run_nd(1, {200, 1, 1}, {items, 1, 1}, items * sizeof(std::size_t) + 8,
         [&](const std::size_t* g, const std::size_t* l) {
           std::byte* base = local_memory();
           if (reinterpret_cast<std::uintptr_t>(base) % 64 != 0) misaligned.fetch_add(1);
           auto* slots = reinterpret_cast<std::size_t*>(base);
           slots[l[0]] = g[0] * 1000 + l[0];
           work_group_barrier();
           // Another work-group running on another thread at the same time must not interfere.
           for (std::size_t i = 0; i < items; ++i)
             if (slots[i] != g[0] * 1000 + i) wrong.fetch_add(1);
         });
  EXPECT_EQ(misaligned.load(), 0u);
  EXPECT_EQ(wrong.load(), 0u);
  EXPECT_EQ(local_memory(), nullptr) << "outside a kernel";
}

// Tree reduction in local memory, the classic use of work-group barriers.
std::vector<std::uint64_t> reduce_groups(std::size_t groups, std::size_t items) {
  std::vector<std::uint64_t> sums(groups);
  run_nd(1, {groups, 1, 1}, {items, 1, 1}, items * sizeof(std::uint64_t),
         [&](const std::size_t* g, const std::size_t* l) {
           auto* scratch = reinterpret_cast<std::uint64_t*>(local_memory());
           std::size_t i = l[0];
           scratch[i] = g[0] * items + i + 1;
           work_group_barrier();
           for (std::size_t stride = items / 2; stride > 0; stride /= 2) {
             if (i < stride) scratch[i] += scratch[i + stride];
             work_group_barrier();
           }
           if (i == 0) sums[g[0]] = scratch[0];
         });
  return sums;
}

TEST_F(host_executor, barrier_reduction_is_correct_under_every_schedule) {
  for (const schedule_case& sc : all_schedules) {
    host::set_schedule(sc.kind, sc.seed);
    for (std::size_t items : {1ul, 2ul, 64ul, 256ul, 1024ul}) {
      std::size_t groups = 37;
      std::vector<std::uint64_t> sums = reduce_groups(groups, items);
      for (std::size_t g = 0; g < groups; ++g) {
        std::uint64_t first = g * items + 1, last = g * items + items;
        ASSERT_EQ(sums[g], (first + last) * items / 2)
            << "group " << g << " items " << items << " seed " << sc.seed;
      }
    }
  }
}

// Each work-item publishes a value and reads its left neighbour's, with or without the barrier
// between. Values carry a per-call tag, so a slot not written yet in this launch never holds the
// expected value: the error count depends only on the schedule.
std::size_t count_missing_barrier_errors(bool with_barrier) {
  constexpr std::size_t items = 64, groups = 16;
  static std::uint64_t tag = 0;
  ++tag;
  std::vector<std::uint64_t> out(items * groups);
  run_nd(1, {groups, 1, 1}, {items, 1, 1}, items * sizeof(std::uint64_t),
         [&](const std::size_t* g, const std::size_t* l) {
           auto* slots = reinterpret_cast<std::uint64_t*>(local_memory());
           slots[l[0]] = tag << 32 | (g[0] * items + l[0]);
           if (with_barrier) work_group_barrier();
           std::size_t left = (l[0] + items - 1) % items;
           out[g[0] * items + l[0]] = slots[left];
         });
  std::size_t errors = 0;
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t i = 0; i < items; ++i)
      errors += out[g * items + i] != (tag << 32 | (g * items + (i + items - 1) % items));
  return errors;
}

TEST_F(host_executor, shuffle_exposes_a_missing_barrier) {
  // In order, only work-item 0 of each of the 16 groups reads a value not written yet (its left
  // neighbour is the last work-item): the bug hides in all the others.
  host::set_schedule(host::schedule_kind::in_order, 0);
  EXPECT_EQ(count_missing_barrier_errors(true), 0u);
  EXPECT_EQ(count_missing_barrier_errors(false), 16u);
  // Shuffled, about half of the work-items run before their left neighbour; the count is a
  // function of the seed alone.
  for (std::uint64_t seed : {0ull, 1ull, 99ull}) {
    host::set_schedule(host::schedule_kind::shuffled, seed);
    EXPECT_EQ(count_missing_barrier_errors(true), 0u);
    std::size_t errors = count_missing_barrier_errors(false);
    EXPECT_GT(errors, 16u * 16u) << "seed " << seed;
    EXPECT_EQ(count_missing_barrier_errors(false), errors) << "seed " << seed;
  }
}

TEST_F(host_executor, many_barriers_per_work_item) {
  constexpr std::size_t items = 64, rounds = 1000, groups = 8;
  for (const schedule_case& sc : all_schedules) {
    host::set_schedule(sc.kind, sc.seed);
    std::atomic<std::size_t> wrong{0};
    run_nd(1, {groups, 1, 1}, {items, 1, 1}, 2 * items * sizeof(std::size_t),
           [&](const std::size_t*, const std::size_t* l) {
             auto* slots = reinterpret_cast<std::size_t*>(local_memory());
             std::size_t i = l[0];
             for (std::size_t r = 0; r < rounds; ++r) {
               // Double-buffered: round r writes one half and reads the other one's neighbour.
               std::size_t* write = slots + (r % 2) * items;
               write[i] = r * items + i;
               work_group_barrier();
               if (write[(i + 1) % items] != r * items + (i + 1) % items) wrong.fetch_add(1);
             }
           });
    EXPECT_EQ(wrong.load(), 0u);
  }
}

TEST_F(host_executor, work_items_that_skip_the_barrier_do_not_deadlock) {
  for (const schedule_case& sc : all_schedules) {
    host::set_schedule(sc.kind, sc.seed);
    std::atomic<std::size_t> done{0};
    run_nd(1, {4, 1, 1}, {16, 1, 1}, 0, [&](const std::size_t*, const std::size_t* l) {
      // Not valid SYCL (the barrier is not reached by all), but must terminate.
      for (std::size_t r = 0; r < l[0] % 4; ++r) work_group_barrier();
      done.fetch_add(1);
    });
    EXPECT_EQ(done.load(), 64u);
  }
}

TEST_F(host_executor, barrier_outside_an_nd_range_kernel_throws) {
  try {
    work_group_barrier();
    FAIL() << "no exception";
  } catch (const sycl::exception& e) {
    EXPECT_EQ(e.code(), sycl::errc::invalid);
    EXPECT_NE(std::string(e.what()).find("outside an nd_range kernel"), std::string::npos);
  }
  EXPECT_THROW(run_range(1 << 16, [](std::size_t) { work_group_barrier(); }), sycl::exception);
}

TEST_F(host_executor, kernel_exceptions_reach_the_launcher) {
  EXPECT_THROW(run_range(1 << 20,
                         [](std::size_t i) {
                           if (i == 777'777) throw std::runtime_error("range");
                         }),
               std::runtime_error);
  EXPECT_THROW(run_range(5,
                         [](std::size_t i) {
                           if (i == 3) throw std::runtime_error("small range");
                         }),
               std::runtime_error);
  for (const schedule_case& sc : all_schedules) {
    host::set_schedule(sc.kind, sc.seed);
    std::atomic<std::size_t> after_barrier{0};
    EXPECT_THROW(run_nd(1, {64, 1, 1}, {32, 1, 1}, 0,
                        [&](const std::size_t* g, const std::size_t* l) {
                          work_group_barrier();
                          if (g[0] == 5 && l[0] == 7) throw std::runtime_error("nd");
                          work_group_barrier();
                          after_barrier.fetch_add(1);
                        }),
                 std::runtime_error);
    // The failing work-group's other work-items still passed the second barrier.
    EXPECT_GE(after_barrier.load(), 31u);
  }
  // The pool still works afterwards.
  std::atomic<std::size_t> n{0};
  run_range(1 << 16, [&](std::size_t) { n.fetch_add(1, std::memory_order_relaxed); });
  EXPECT_EQ(n.load(), 1u << 16);
}

TEST_F(host_executor, concurrent_launches_from_two_threads) {
  auto work = [](std::size_t seed, std::atomic<std::size_t>& failures) {
    for (int rep = 0; rep < 50; ++rep) {
      std::size_t count = 100'000 + seed * 1000 + rep;
      std::vector<std::atomic<std::uint8_t>> hits(count);
      run_range(count, [&](std::size_t i) { hits[i].fetch_add(1, std::memory_order_relaxed); });
      for (auto& h : hits)
        if (h.load() != 1) failures.fetch_add(1);
      std::vector<std::uint64_t> sums = reduce_groups(16, 128);
      for (std::size_t g = 0; g < 16; ++g)
        if (sums[g] != (g * 128 + 1 + g * 128 + 128) * 64) failures.fetch_add(1);
    }
  };
  std::atomic<std::size_t> failures{0};
  std::thread a(work, 1, std::ref(failures));
  std::thread b(work, 2, std::ref(failures));
  a.join();
  b.join();
  EXPECT_EQ(failures.load(), 0u);
}

TEST_F(host_executor, more_concurrent_launches_than_job_slots) {
  // The pool publishes up to 64 launches at once; the others run on their launching thread.
  std::atomic<std::size_t> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 80; ++t) {
    threads.emplace_back([&] {
      for (int rep = 0; rep < 5; ++rep) {
        std::vector<std::atomic<std::uint8_t>> hits(20'000);
        run_range(hits.size(), [&](std::size_t i) {
          hits[i].fetch_add(1, std::memory_order_relaxed);
          if (i % 2048 == 0) std::this_thread::yield();
        });
        for (auto& h : hits)
          if (h.load() != 1) failures.fetch_add(1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0u);
}

TEST_F(host_executor, launches_work_in_a_forked_child) {
  std::atomic<std::size_t> n{0};
  run_range(1 << 20, [&](std::size_t) { n.fetch_add(1, std::memory_order_relaxed); });
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Only this thread exists here; the pool's threads stayed in the parent.
    std::atomic<std::size_t> m{0};
    run_range(1 << 20, [&](std::size_t) { m.fetch_add(1, std::memory_order_relaxed); });
    std::vector<std::uint64_t> sums = reduce_groups(64, 64);
    bool ok = m.load() == (1u << 20) && sums[63] == (63 * 64 + 1 + 63 * 64 + 64) * 32;
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
    // LeakSanitizer would report the parent's pool threads' memory, unreachable in the child.
    _exit(ok ? 0 : 1);
#endif
#endif
    std::exit(ok ? 0 : 1); // runs the atexit handlers: must not wait for absent threads
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(host_executor, launch_from_inside_a_kernel) {
  // A host task running a kernel can run on a pool thread: nested launches share the pool.
  constexpr std::size_t outer = 64, inner = 50'000;
  std::atomic<std::size_t> failures{0}, off_launcher{0};
  std::thread::id launcher = std::this_thread::get_id();
  run_range(outer * 1024, [&](std::size_t i) {
    if (i % 1024 != 0) return;
    if (std::this_thread::get_id() != launcher) off_launcher.fetch_add(1);
    std::vector<std::atomic<std::uint8_t>> hits(inner);
    run_range(inner, [&](std::size_t j) { hits[j].fetch_add(1, std::memory_order_relaxed); });
    for (auto& h : hits)
      if (h.load() != 1) failures.fetch_add(1);
    std::vector<std::uint64_t> sums = reduce_groups(8, 64);
    for (std::size_t g = 0; g < 8; ++g)
      if (sums[g] != (g * 64 + 1 + g * 64 + 64) * 32) failures.fetch_add(1);
  });
  EXPECT_EQ(failures.load(), 0u);
  if (host::concurrency() > 1) EXPECT_GT(off_launcher.load(), 0u);
}

TEST_F(host_executor, launch_from_inside_a_work_item) {
  std::atomic<std::size_t> failures{0};
  run_nd(1, {8, 1, 1}, {4, 1, 1}, 4 * sizeof(std::uint64_t),
         [&](const std::size_t* g, const std::size_t* l) {
           auto* mine = reinterpret_cast<std::uint64_t*>(local_memory());
           mine[l[0]] = g[0];
           work_group_barrier();
           // The nested launch has its own work-groups and local memory.
           std::vector<std::uint64_t> sums = reduce_groups(3, 16);
           if (sums[2] != (33 + 48) * 8) failures.fetch_add(1);
           EXPECT_THROW(run_range(10, [](std::size_t) { work_group_barrier(); }), sycl::exception);
           work_group_barrier();
           if (local_memory() != reinterpret_cast<std::byte*>(mine)) failures.fetch_add(1);
           for (std::size_t i = 0; i < 4; ++i)
             if (mine[i] != g[0]) failures.fetch_add(1);
         });
  EXPECT_EQ(failures.load(), 0u);
}

TEST_F(host_executor, work_items_get_a_usable_stack) {
  std::atomic<std::size_t> wrong{0};
  run_nd(1, {4, 1, 1}, {8, 1, 1}, 0, [&](const std::size_t*, const std::size_t* l) {
    volatile unsigned char buffer[96 * 1024];
    for (std::size_t i = 0; i < sizeof(buffer); i += 512)
      buffer[i] = static_cast<unsigned char>(i + l[0]);
    work_group_barrier();
    for (std::size_t i = 0; i < sizeof(buffer); i += 512)
      if (buffer[i] != static_cast<unsigned char>(i + l[0])) wrong.fetch_add(1);
  });
  EXPECT_EQ(wrong.load(), 0u);
}

} // namespace
