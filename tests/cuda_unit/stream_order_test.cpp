// The lock-free numbering of a CUDA stream's operations (src/backends/cuda/stream_order.hpp):
// an enqueue that had the stream to itself gets its ticket's number, one that overlapped another
// gets 0, and numbers only grow in the order enqueues happened.
#include "backends/cuda/stream_order.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace {

using syclone::cuda::enqueue_window;
using syclone::cuda::stream_tickets;

TEST(StreamOrder, EnqueuesOneAfterAnotherAreNumberedInOrder) {
  stream_tickets t;
  for (std::uint64_t expected = 1; expected <= 5; ++expected) {
    enqueue_window w(t);
    EXPECT_EQ(w.order(), expected);
  }
}

TEST(StreamOrder, OverlappingEnqueuesAreNotNumbered) {
  stream_tickets t;
  std::optional<enqueue_window> a, b;
  a.emplace(t); // a's driver calls start
  b.emplace(t); // b's start before a's ended: either may precede the other in the stream
  EXPECT_EQ(b->order(), 0u);
  b.reset();
  EXPECT_EQ(a->order(), 0u);
  a.reset();
  // Once both ended, the stream is one thread's again.
  enqueue_window c(t);
  EXPECT_EQ(c.order(), 3u);
}

TEST(StreamOrder, EnqueueBeginningBeforeAnEarlierOneEndedIsNotNumbered) {
  stream_tickets t;
  std::optional<enqueue_window> a;
  a.emplace(t);
  EXPECT_EQ(a->order(), 1u); // nothing overlapped a so far
  {
    enqueue_window b(t); // began before a counted itself finished
    EXPECT_EQ(b.order(), 0u);
  }
  a.reset();
}

// Threads enqueue concurrently, each "operation" appended to a shared log under a mutex (the
// driver's own serialization of a stream): every number given is unique, and numbered
// operations appear in the log in increasing order.
TEST(StreamOrder, ConcurrentEnqueuesNumberConsistentlyWithTheStream) {
  stream_tickets t;
  std::mutex driver;
  std::vector<std::uint64_t> log; // per operation in stream order: its number (0 if none)
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      for (int k = 0; k < 2000; ++k) {
        enqueue_window w(t);
        std::size_t slot;
        {
          std::lock_guard lock(driver);
          slot = log.size();
          log.push_back(0);
        }
        std::uint64_t n = w.order();
        std::lock_guard lock(driver);
        log[slot] = n;
      }
    });
  for (auto& th : threads) th.join();
  ASSERT_EQ(log.size(), 8000u);
  std::uint64_t last = 0;
  for (std::uint64_t n : log) {
    if (n == 0) continue;
    EXPECT_GT(n, last);
    last = n;
  }
  // A lone enqueue after the threads is numbered again.
  enqueue_window w(t);
  EXPECT_EQ(w.order(), 8001u);
}

} // namespace
