// Unit tests of USM bookkeeping (src/runtime/context.cpp) and of the copy and fill operations
// (src/runtime/memory_ops.cpp) through the public API, built by a plain C++ compiler: pointer
// lookup at allocation boundaries, contexts owning their allocations, strided copies between
// ranged accessors of different shapes, and fills with patterns of every size.
#include <sycl/sycl.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace {

TEST(RuntimeMemory, PointerLookupCoversExactlyTheAllocation) {
  sycl::queue q;
  sycl::context ctx = q.get_context();
  char* a = static_cast<char*>(sycl::malloc_shared(100, q));
  char* b = static_cast<char*>(sycl::malloc_device(100, q));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(sycl::get_pointer_type(a, ctx), sycl::usm::alloc::shared);
  EXPECT_EQ(sycl::get_pointer_type(a + 99, ctx), sycl::usm::alloc::shared);
  EXPECT_EQ(sycl::get_pointer_type(b + 50, ctx), sycl::usm::alloc::device);
  // One past the end belongs to nothing, unless another allocation starts there.
  if (a + 100 != b) EXPECT_NE(sycl::get_pointer_type(a + 100, ctx), sycl::usm::alloc::shared);
  EXPECT_NE(sycl::get_pointer_type(a - 1, ctx), sycl::usm::alloc::shared);
  sycl::free(a, q);
  EXPECT_EQ(sycl::get_pointer_type(a, ctx), sycl::usm::alloc::unknown);
  EXPECT_EQ(sycl::get_pointer_type(b, ctx), sycl::usm::alloc::device);
  sycl::free(b, ctx);
}

TEST(RuntimeMemory, FreeReportsForeignAndDoubleFrees) {
  sycl::queue q;
  int local = 0;
  try {
    sycl::free(&local, q);
    FAIL() << "no exception";
  } catch (const sycl::exception& e) {
    EXPECT_EQ(e.code(), sycl::errc::invalid);
    EXPECT_NE(std::strstr(e.what(), "sycl::free"), nullptr);
  }
  void* p = sycl::malloc_host(16, q);
  sycl::free(p, q);
  EXPECT_THROW(sycl::free(p, q), sycl::exception);
  // Another context does not own it.
  sycl::context other{q.get_device()};
  void* s = sycl::malloc_shared(16, q);
  EXPECT_THROW(sycl::free(s, other), sycl::exception);
  EXPECT_EQ(sycl::get_pointer_type(s, other), sycl::usm::alloc::unknown);
  sycl::free(s, q);
}

TEST(RuntimeMemory, AllocationsHonourAlignment) {
  sycl::queue q;
  for (std::size_t align = 1; align <= 8192; align *= 2) {
    void* p = sycl::aligned_alloc_shared(align, 3, q);
    ASSERT_NE(p, nullptr) << align;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u) << align;
    sycl::free(p, q);
  }
  EXPECT_EQ(sycl::aligned_alloc_host(3, 64, q), nullptr);
  EXPECT_EQ(sycl::malloc_shared(0, q), nullptr);
}

TEST(RuntimeMemory, FillWithPatternsOfEverySize) {
  sycl::queue q;
  unsigned char* p = sycl::malloc_shared<unsigned char>(64, q);
  q.memset(p, 0xab, 64).wait();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(p[i], 0xab);
  q.fill(p, static_cast<std::uint16_t>(0x0102), 32).wait();
  EXPECT_EQ(p[0], 0x02);
  EXPECT_EQ(p[1], 0x01);
  EXPECT_EQ(p[63], 0x01);
  struct three {
    unsigned char x, y, z;
  };
  std::memset(p, 0, 64);
  q.fill(p, three{1, 2, 3}, 21).wait(); // 63 bytes
  EXPECT_EQ(p[0], 1);
  EXPECT_EQ(p[61], 2);
  EXPECT_EQ(p[62], 3);
  EXPECT_EQ(p[63], 0); // untouched
  struct big {
    double d[5];
  };
  big* b = sycl::malloc_shared<big>(7, q);
  q.fill(b, big{{1, 2, 3, 4, 5}}, 7).wait();
  EXPECT_EQ(b[6].d[4], 5.0);
  EXPECT_EQ(b[3].d[0], 1.0);
  sycl::free(b, q);
  sycl::free(p, q);
}

TEST(RuntimeMemory, StridedCopiesBetweenRegionsOfDifferentShapes) {
  sycl::queue q;
  // 2-D region (3 x 4 at (1, 2)) of a 6 x 8 buffer into a 3-D region (2 x 3 x 2 at (1, 0, 1))
  // of a 4 x 3 x 5 buffer: 12 elements in row-major order on both sides.
  std::vector<int> src(6 * 8);
  std::iota(src.begin(), src.end(), 0);
  std::vector<int> dst(4 * 3 * 5, -1);
  {
    sycl::buffer<int, 2> bs(src.data(), sycl::range<2>(6, 8));
    sycl::buffer<int, 3> bd(dst.data(), sycl::range<3>(4, 3, 5));
    q.submit([&](sycl::handler& h) {
      sycl::accessor from(bs, h, sycl::range<2>(3, 4), sycl::id<2>(1, 2), sycl::read_only);
      sycl::accessor to(bd, h, sycl::range<3>(2, 3, 2), sycl::id<3>(1, 0, 1), sycl::write_only);
      h.copy(from, to);
    });
  }
  std::vector<int> order;
  for (int r = 1; r < 4; ++r)
    for (int c = 2; c < 6; ++c) order.push_back(r * 8 + c);
  std::size_t k = 0;
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 3; ++y)
      for (int z = 0; z < 5; ++z) {
        bool inside = x >= 1 && x < 3 && z >= 1 && z < 3;
        int got = dst[(x * 3 + y) * 5 + z];
        if (inside)
          EXPECT_EQ(got, order[k++]) << x << "," << y << "," << z;
        else
          EXPECT_EQ(got, -1) << x << "," << y << "," << z;
      }
  EXPECT_EQ(k, order.size());
}

} // namespace
