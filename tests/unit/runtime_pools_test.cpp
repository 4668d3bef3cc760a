// The submit path's allocation helpers (issue 16): block_pool.hpp's per-thread block lists and
// small_vector.hpp's inline elements.
#include "runtime/block_pool.hpp"
#include "runtime/small_vector.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

namespace {

using syclone::runtime::block_cache;
using syclone::runtime::pooled_allocator;
using syclone::runtime::small_vector;

TEST(RuntimePools, SmallVectorKeepsOrderInlineAndBeyond) {
  small_vector<int, 2> v;
  EXPECT_TRUE(v.empty());
  for (int i = 0; i < 5; ++i) {
    v.push_back(i * 10);
    ASSERT_EQ(v.size(), static_cast<std::size_t>(i + 1));
    int expected = 0;
    for (int x : v) {
      EXPECT_EQ(x, expected);
      expected += 10;
    }
  }
  small_vector<int, 2> copy = v; // a copy iterates its own elements
  v.push_back(50);
  EXPECT_EQ(copy.size(), 5u);
  EXPECT_EQ(*(copy.end() - 1), 40);
  small_vector<int, 2> two;
  two.push_back(1);
  two.push_back(2);
  small_vector<int, 2> two_copy = two;
  *two.begin() = 7;
  EXPECT_EQ(*two_copy.begin(), 1);
}

struct payload {
  int value;
  explicit payload(int v) : value(v) {}
};

TEST(RuntimePools, HeldObjectsAreNeverHandedOutAgain) {
  std::vector<std::shared_ptr<payload>> held;
  for (int i = 0; i < 200; ++i)
    held.push_back(std::allocate_shared<payload>(pooled_allocator<payload>(), i));
  // Released ones come back; those still held keep their value and address.
  std::vector<payload*> released;
  for (int i = 0; i < 200; i += 2) {
    released.push_back(held[i].get());
    held[i].reset();
  }
  std::vector<std::shared_ptr<payload>> more;
  for (int i = 0; i < 200; ++i) {
    more.push_back(std::allocate_shared<payload>(pooled_allocator<payload>(), 1000 + i));
    for (int k = 1; k < 200; k += 2) ASSERT_NE(more.back().get(), held[k].get());
  }
  for (int k = 1; k < 200; k += 2) EXPECT_EQ(held[k]->value, k);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(more[i]->value, 1000 + i);
}

TEST(RuntimePools, BlocksReleasedOnAnotherThreadAndAtItsExit) {
  // Made here, released on a thread that then exits: its list frees them at its exit.
  std::vector<std::shared_ptr<payload>> made;
  for (int i = 0; i < 100; ++i)
    made.push_back(std::allocate_shared<payload>(pooled_allocator<payload>(), i));
  std::thread([&] {
    made.clear();
    // Made and released on this thread (its list in use), then the thread ends.
    auto p = std::allocate_shared<payload>(pooled_allocator<payload>(), 7);
    EXPECT_EQ(p->value, 7);
  }).join();
  void* a = block_cache<64>::allocate();
  block_cache<64>::deallocate(a);
  void* b = block_cache<64>::allocate();
#if SYCLONE_BLOCK_POOL
  EXPECT_EQ(a, b); // the block released last is the next one taken
#endif
  block_cache<64>::deallocate(b);
}

} // namespace
