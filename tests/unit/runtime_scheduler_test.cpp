// Unit tests of the runtime's scheduler, queues and events (src/runtime/scheduler.cpp,
// queue.cpp, event.cpp) through the public API, built by a plain C++ compiler (the host-only
// path of the headers): dependency ordering, in-order chaining, event states and wait lists,
// asynchronous error delivery, and submissions from several threads at once.
#include <sycl/sycl.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;
using status = sycl::info::event_command_status;

status status_of(const sycl::event& e) {
  return e.get_info<sycl::info::event::command_execution_status>();
}

// A host task that blocks until released; lets a test hold a command in the running state.
struct gate {
  std::atomic<bool> open{false};
  std::atomic<bool> entered{false};
  sycl::event submit(sycl::queue& q) {
    return q.submit([&](sycl::handler& h) {
      h.host_task([this] {
        entered = true;
        while (!open) std::this_thread::sleep_for(100us);
      });
    });
  }
  void wait_entered() {
    while (!entered) std::this_thread::sleep_for(100us);
  }
};

TEST(RuntimeScheduler, DefaultEventIsComplete) {
  sycl::event e;
  EXPECT_EQ(status_of(e), status::complete);
  EXPECT_TRUE(e.get_wait_list().empty());
  e.wait();
}

TEST(RuntimeScheduler, ReadyCommandCompletesBeforeWaitReturns) {
  sycl::queue q;
  int* p = sycl::malloc_shared<int>(1, q);
  *p = 0;
  sycl::event e = q.single_task([=] { *p = 1; });
  e.wait();
  EXPECT_EQ(*p, 1);
  EXPECT_EQ(status_of(e), status::complete);
  sycl::free(p, q);
}

TEST(RuntimeScheduler, DependentCommandWaitsAndListsItsDependency) {
  sycl::queue q;
  gate g;
  sycl::event blocked = g.submit(q);
  g.wait_entered();
  EXPECT_EQ(status_of(blocked), status::running);
  std::atomic<int> order{0};
  int seen = -1;
  sycl::event after = q.submit([&](sycl::handler& h) {
    h.depends_on(blocked);
    h.host_task([&] { seen = order++; });
  });
  std::this_thread::sleep_for(5ms);
  EXPECT_EQ(status_of(after), status::submitted);
  auto wl = after.get_wait_list();
  ASSERT_EQ(wl.size(), 1u);
  EXPECT_EQ(wl[0], blocked);
  g.open = true;
  after.wait();
  EXPECT_EQ(seen, 0);
  EXPECT_TRUE(after.get_wait_list().empty()); // completed events drop their history
}

// The first dependency is kept apart from the others (issue 16): the wait list still lists
// every one, once, while the command waits.
TEST(RuntimeScheduler, WaitListHoldsEveryDependency) {
  sycl::queue q;
  gate g;
  sycl::event blocked = g.submit(q);
  g.wait_entered();
  sycl::event a = q.submit([&](sycl::handler& h) {
    h.depends_on(blocked);
    h.host_task([] {});
  });
  sycl::event b = q.submit([&](sycl::handler& h) {
    h.depends_on(blocked);
    h.host_task([] {});
  });
  sycl::event after = q.submit([&](sycl::handler& h) {
    h.depends_on({blocked, a, b});
    h.host_task([] {});
  });
  auto wl = after.get_wait_list();
  ASSERT_EQ(wl.size(), 3u);
  for (const auto& e : {blocked, a, b})
    EXPECT_EQ(std::count(wl.begin(), wl.end(), e), 1) << "a dependency missing or listed twice";
  g.open = true;
  after.wait();
  EXPECT_TRUE(after.get_wait_list().empty());
}

TEST(RuntimeScheduler, InOrderQueueChainsWithoutDependencies) {
  sycl::queue q{sycl::property::queue::in_order{}};
  ASSERT_TRUE(q.is_in_order());
  std::vector<int> log;
  std::mutex m;
  for (int i = 0; i < 20; ++i)
    q.submit([&, i](sycl::handler& h) {
      h.host_task([&, i] {
        if (i % 3 == 0) std::this_thread::sleep_for(1ms);
        std::lock_guard lock(m);
        log.push_back(i);
      });
    });
  q.wait();
  std::vector<int> expect(20);
  std::iota(expect.begin(), expect.end(), 0);
  EXPECT_EQ(log, expect);
}

TEST(RuntimeScheduler, OutOfOrderQueueRunsIndependentCommandsConcurrently) {
  sycl::queue q;
  gate g;
  sycl::event blocked = g.submit(q);
  g.wait_entered();
  sycl::event independent = q.submit([&](sycl::handler& h) { h.host_task([] {}); });
  independent.wait(); // would hang if the queue serialized commands
  EXPECT_NE(status_of(blocked), status::complete);
  g.open = true;
  q.wait();
}

TEST(RuntimeScheduler, DiamondOfEvents) {
  sycl::queue q;
  std::atomic<int> counter{0};
  int a = -1, b = -1, c = -1, d = -1;
  sycl::event ea = q.submit([&](sycl::handler& h) {
    h.host_task([&] {
      std::this_thread::sleep_for(2ms);
      a = counter++;
    });
  });
  sycl::event eb = q.submit([&](sycl::handler& h) {
    h.depends_on(ea);
    h.host_task([&] { b = counter++; });
  });
  sycl::event ec = q.submit([&](sycl::handler& h) {
    h.depends_on(ea);
    h.host_task([&] { c = counter++; });
  });
  q.submit([&](sycl::handler& h) {
     h.depends_on({eb, ec});
     h.host_task([&] { d = counter++; });
   }).wait();
  EXPECT_EQ(a, 0);
  EXPECT_TRUE((b == 1 && c == 2) || (b == 2 && c == 1));
  EXPECT_EQ(d, 3);
}

TEST(RuntimeScheduler, AsyncErrorsAreDeliveredOnceAndQueueStaysUsable) {
  int calls = 0;
  std::size_t errors = 0;
  sycl::queue q{[&](sycl::exception_list l) {
    ++calls;
    errors += l.size();
  }};
  for (int i = 0; i < 3; ++i)
    q.submit([&](sycl::handler& h) {
      h.host_task([] { throw sycl::exception(sycl::errc::runtime, "failure"); });
    });
  q.wait_and_throw();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(errors, 3u);
  q.wait_and_throw();
  EXPECT_EQ(calls, 1);
  int* p = sycl::malloc_shared<int>(1, q);
  q.single_task([=] { *p = 5; }).wait();
  EXPECT_EQ(*p, 5);
  sycl::free(p, q);
}

TEST(RuntimeSchedulerDeathTest, AsyncErrorWithoutHandlerTerminates) {
  // SYCL 2020 4.13.1.2: with no async_handler on the queue or its context, an asynchronous
  // error reported by wait_and_throw ends the program, after saying what happened.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        sycl::queue q;
        q.submit([&](sycl::handler& h) {
          h.host_task([] { throw sycl::exception(sycl::errc::runtime, "nobody handles this"); });
        });
        q.wait_and_throw();
      },
      "nobody handles this.*\n.*no async_handler");
}

TEST(RuntimeScheduler, ConcurrentSubmissionsFromManyThreads) {
  // Several threads submit chains over shared buffers and private USM; every increment lands.
  sycl::queue q;
  constexpr int threads = 4, per_thread = 200;
  int shared_value = 0;
  std::vector<int> totals(threads, 0);
  {
    sycl::buffer<int> shared(&shared_value, sycl::range<1>(1));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        int* mine = sycl::malloc_shared<int>(1, q);
        *mine = 0;
        sycl::event last;
        for (int i = 0; i < per_thread; ++i) {
          q.submit([&](sycl::handler& h) {
            sycl::accessor a(shared, h);
            h.single_task([=] { a[0] += 1; });
          });
          last = q.submit([&](sycl::handler& h) {
            h.depends_on(last);
            h.single_task([=] { *mine += 1; });
          });
        }
        last.wait();
        totals[t] = *mine;
        sycl::free(mine, q);
      });
    for (auto& th : pool) th.join();
  }
  EXPECT_EQ(shared_value, threads * per_thread);
  for (int t = 0; t < threads; ++t) EXPECT_EQ(totals[t], per_thread);
}

TEST(RuntimeScheduler, RandomDependencyGraphMatchesSequentialExecution) {
  // A random sequence of reads and writes over a few buffers, submitted without waits on an
  // out-of-order queue, must give the result of running it in program order.
  sycl::queue q;
  constexpr int buffers = 4, commands = 300;
  std::mt19937 rng(1234);
  std::vector<long> expect(buffers, 1), actual(buffers, 1);
  {
    std::vector<sycl::buffer<long>> bufs;
    for (int b = 0; b < buffers; ++b) bufs.emplace_back(&actual[b], sycl::range<1>(1));
    for (int c = 0; c < commands; ++c) {
      int src = static_cast<int>(rng() % buffers), dst = static_cast<int>(rng() % buffers);
      long k = static_cast<long>(rng() % 7) + 1;
      expect[dst] = (expect[dst] * 3 + expect[src] * k) % 1000003;
      bool slow = rng() % 10 == 0;
      q.submit([&](sycl::handler& h) {
        if (src == dst) {
          sycl::accessor d(bufs[dst], h);
          h.single_task([=] { d[0] = (d[0] * 3 + d[0] * k) % 1000003; });
        } else if (slow) {
          sycl::accessor s(bufs[src], h, sycl::read_only_host_task);
          sycl::accessor d(bufs[dst], h, sycl::read_write_host_task);
          h.host_task([=] {
            std::this_thread::sleep_for(200us);
            d[0] = (d[0] * 3 + s[0] * k) % 1000003;
          });
        } else {
          sycl::accessor s(bufs[src], h, sycl::read_only);
          sycl::accessor d(bufs[dst], h);
          h.single_task([=] { d[0] = (d[0] * 3 + s[0] * k) % 1000003; });
        }
      });
    }
  }
  EXPECT_EQ(actual, expect);
}

// Issue 16: events, handlers and commands come from per-thread pools. An event the program
// holds keeps its identity and status while later submissions reuse released ones.
TEST(RuntimeScheduler, HeldEventIsNeverReusedByLaterSubmissions) {
  sycl::queue q{sycl::property::queue::in_order{}};
  int value = 0;
  sycl::event held = q.single_task([&] { value = 1; });
  held.wait();
  const auto held_copy = held;
  for (int k = 0; k < 300; ++k) {
    sycl::event e = q.single_task([&] { value += 1; });
    EXPECT_NE(e, held);
    if (k % 50 == 0) e.wait();
  }
  q.wait();
  EXPECT_EQ(value, 301);
  EXPECT_EQ(held, held_copy);
  EXPECT_EQ(held.get_info<sycl::info::event::command_execution_status>(), status::complete);
  EXPECT_TRUE(held.get_wait_list().empty());
}

// Kernel objects come from the runtime's block pools (issue 16), over-aligned ones from
// operator new: both reach the kernel intact, submission after submission.
TEST(RuntimeScheduler, KernelObjectsKeepTheirCapturesAndAlignment) {
  struct alignas(64) wide {
    float v[16];
  };
  sycl::queue q{sycl::property::queue::in_order{}};
  float* out = sycl::malloc_shared<float>(2, q);
  for (int k = 0; k < 100; ++k) {
    wide w{};
    w.v[3] = static_cast<float>(k);
    const float small = static_cast<float>(2 * k);
    q.single_task([=] {
      out[0] = reinterpret_cast<std::uintptr_t>(&w) % alignof(wide) == 0 ? w.v[3] : -1.0f;
    });
    q.single_task([=] { out[1] = small; });
    q.wait();
    ASSERT_EQ(out[0], static_cast<float>(k));
    ASSERT_EQ(out[1], static_cast<float>(2 * k));
  }
  sycl::free(out, q);
}

TEST(RuntimeScheduler, ProfilingTimestampsAreOrdered) {
  sycl::queue q{sycl::property::queue::enable_profiling{}};
  sycl::event e1 =
      q.submit([&](sycl::handler& h) { h.host_task([] { std::this_thread::sleep_for(2ms); }); });
  sycl::event e2 = q.submit([&](sycl::handler& h) {
    h.depends_on(e1);
    h.host_task([] {});
  });
  e2.wait();
  using namespace sycl::info;
  auto s1 = e1.get_profiling_info<event_profiling::command_submit>();
  auto b1 = e1.get_profiling_info<event_profiling::command_start>();
  auto f1 = e1.get_profiling_info<event_profiling::command_end>();
  auto b2 = e2.get_profiling_info<event_profiling::command_start>();
  EXPECT_LE(s1, b1);
  EXPECT_LE(b1, f1);
  EXPECT_GE(f1 - b1, 1'500'000u);
  EXPECT_LE(f1, b2);
  sycl::queue plain;
  sycl::event e = plain.single_task([] {});
  try {
    (void)e.get_profiling_info<event_profiling::command_end>();
    FAIL() << "no exception";
  } catch (const sycl::exception& ex) {
    EXPECT_EQ(ex.code(), sycl::errc::invalid);
  }
}

} // namespace
