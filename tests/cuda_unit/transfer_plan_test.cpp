// Unit tests of how the CUDA backend turns copies and fills into driver operations
// (src/backends/cuda/transfer_plan.hpp). Plans run here on host memory with the semantics of
// cuMemcpy3DAsync and cuMemsetD2D*Async (including their alignment rules) and are compared with
// an element-by-element reference of runtime::host_copy / host_fill.
#include "backends/cuda/transfer_plan.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

using namespace syclone::cuda;
using sycl::detail::mem_region;

// Runs a plan the way the driver would; fails the test on what the driver would refuse.
void run(const std::vector<transfer_op>& ops, const void* pattern, std::size_t pattern_size) {
  for (const auto& op : ops) {
    if (const auto* c = std::get_if<copy_op>(&op)) {
      ASSERT_GT(c->width, 0u);
      if (c->height > 1 || c->depth > 1) {
        ASSERT_GE(c->src_pitch, c->width);
        ASSERT_GE(c->dst_pitch, c->width);
      }
      if (c->depth > 1) {
        ASSERT_GE(c->src_height, c->height);
        ASSERT_GE(c->dst_height, c->height);
      }
      for (std::size_t z = 0; z < c->depth; ++z)
        for (std::size_t y = 0; y < c->height; ++y)
          std::memmove(c->dst + (z * c->dst_height + y) * c->dst_pitch,
                       c->src + (z * c->src_height + y) * c->src_pitch, c->width);
    } else if (const auto* m = std::get_if<memset_op>(&op)) {
      ASSERT_TRUE(m->unit == 1 || m->unit == 2 || m->unit == 4);
      ASSERT_EQ(reinterpret_cast<std::uintptr_t>(m->dst) % m->unit, 0u) << "misaligned memset";
      if (m->height > 1) {
        ASSERT_EQ(m->pitch % m->unit, 0u);
        ASSERT_GE(m->pitch, m->width * m->unit);
      }
      for (std::size_t y = 0; y < m->height; ++y)
        for (std::size_t x = 0; x < m->width; ++x)
          for (unsigned b = 0; b < m->unit; ++b)
            m->dst[y * m->pitch + x * m->unit + b] = std::byte((m->value >> (8 * b)) & 0xff);
    } else {
      const auto& w = std::get<pattern_op>(op);
      std::memcpy(w.dst, pattern, pattern_size);
    }
  }
}

// Byte offsets of a region's elements in row-major order.
std::vector<std::size_t> element_offsets(const mem_region& r) {
  std::size_t mem[3] = {1, 1, 1}, off[3] = {0, 0, 0}, rng[3] = {1, 1, 1};
  for (int d = 0; d < r.dimensions; ++d) {
    int k = 3 - r.dimensions + d;
    mem[k] = r.mem[d];
    off[k] = r.offset[d];
    rng[k] = r.range[d];
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < rng[0]; ++i)
    for (std::size_t j = 0; j < rng[1]; ++j)
      for (std::size_t k = 0; k < rng[2]; ++k)
        out.push_back((((off[0] + i) * mem[1] + off[1] + j) * mem[2] + off[2] + k) *
                      r.element_size);
  return out;
}

std::size_t allocation_bytes(const mem_region& r) {
  std::size_t n = r.element_size;
  for (int d = 0; d < r.dimensions; ++d) n *= r.mem[d];
  return n;
}

mem_region region(void* p, std::size_t elem, int dims, std::vector<std::size_t> mem,
                  std::vector<std::size_t> off, std::vector<std::size_t> rng) {
  mem_region r;
  r.ptr = p;
  r.element_size = elem;
  r.dimensions = dims;
  for (int d = 0; d < dims; ++d) {
    r.mem[d] = mem[d];
    r.offset[d] = off[d];
    r.range[d] = rng[d];
  }
  return r;
}

std::vector<std::byte> random_bytes(std::size_t n, std::mt19937& rng) {
  std::vector<std::byte> v(n);
  for (auto& b : v) b = std::byte(rng() & 0xff);
  return v;
}

// Checks plan_copy(src, dst) against the element-order reference.
void check_copy(mem_region src, mem_region dst, std::mt19937& rng,
                std::size_t max_pitch = 1u << 30) {
  std::vector<std::byte> s = random_bytes(allocation_bytes(src) + 7, rng);
  std::vector<std::byte> d = random_bytes(allocation_bytes(dst) + 7, rng);
  src.ptr = s.data() + 3; // odd addresses: the plan must not assume alignment
  dst.ptr = d.data() + 5;
  std::vector<std::byte> expected = d;
  auto so = element_offsets(src), dofs = element_offsets(dst);
  std::vector<std::byte> stream;
  for (auto o : so)
    for (std::size_t b = 0; b < src.element_size; ++b) stream.push_back(s[3 + o + b]);
  std::size_t pos = 0;
  for (auto o : dofs)
    for (std::size_t b = 0; b < dst.element_size && pos < stream.size(); ++b)
      expected[5 + o + b] = stream[pos++];
  run(plan_copy(src, dst, max_pitch), nullptr, 0);
  ASSERT_EQ(d, expected);
}

void check_fill(mem_region dst, const std::vector<unsigned char>& pattern, std::mt19937& rng,
                std::size_t misalign = 0, std::size_t max_pitch = 1u << 30) {
  std::vector<std::byte> d = random_bytes(allocation_bytes(dst) + 16, rng);
  // Aligned to 16 plus `misalign`.
  std::size_t base = (16 - reinterpret_cast<std::uintptr_t>(d.data()) % 16) % 16 + misalign;
  d.resize(d.size() + 16);
  dst.ptr = d.data() + base;
  std::vector<std::byte> expected = d;
  // host_fill: whole patterns along each row of the region.
  std::size_t mem[3] = {1, 1, 1}, off[3] = {0, 0, 0}, rng3[3] = {1, 1, 1};
  for (int k = 0; k < dst.dimensions; ++k) {
    int j = 3 - dst.dimensions + k;
    mem[j] = dst.mem[k];
    off[j] = dst.offset[k];
    rng3[j] = dst.range[k];
  }
  std::size_t row = rng3[2] * dst.element_size;
  for (std::size_t i = 0; i < rng3[0]; ++i)
    for (std::size_t j = 0; j < rng3[1]; ++j) {
      std::size_t first =
          (((off[0] + i) * mem[1] + off[1] + j) * mem[2] + off[2]) * dst.element_size;
      for (std::size_t b = 0; b + pattern.size() <= row; b += pattern.size())
        std::memcpy(expected.data() + base + first + b, pattern.data(), pattern.size());
    }
  auto ops = plan_fill(dst, pattern.data(), pattern.size(), max_pitch);
  run(ops, pattern.data(), pattern.size());
  ASSERT_EQ(d, expected) << "pattern of " << pattern.size() << " bytes, " << ops.size() << " ops";
}

TEST(transfer_plan, layouts_merge_packed_dimensions) {
  char buf[1];
  byte_layout l = layout_of(region(buf, 4, 1, {100}, {10}, {50}));
  EXPECT_TRUE(l.contiguous());
  EXPECT_EQ(l.width, 200u);
  EXPECT_EQ(l.first, reinterpret_cast<std::byte*>(buf) + 40);

  // A whole 2-D buffer, and full-width rows of one: contiguous.
  EXPECT_TRUE(layout_of(region(buf, 8, 2, {16, 32}, {0, 0}, {16, 32})).contiguous());
  l = layout_of(region(buf, 8, 2, {16, 32}, {3, 0}, {5, 32}));
  EXPECT_TRUE(l.contiguous());
  EXPECT_EQ(l.width, 5u * 32 * 8);

  // Part of each row: a 2-D layout.
  l = layout_of(region(buf, 4, 2, {16, 32}, {1, 2}, {5, 10}));
  EXPECT_EQ(l.width, 40u);
  EXPECT_EQ(l.height, 5u);
  EXPECT_EQ(l.pitch, 128u);
  EXPECT_EQ(l.depth, 1u);
  EXPECT_EQ(l.first, reinterpret_cast<std::byte*>(buf) + (1 * 32 + 2) * 4);

  // 3-D: whole slices of a box are one row; whole rows of partial slices are 2-D.
  l = layout_of(region(buf, 1, 3, {4, 8, 16}, {1, 0, 0}, {2, 8, 16}));
  EXPECT_TRUE(l.contiguous());
  l = layout_of(region(buf, 1, 3, {4, 8, 16}, {0, 2, 0}, {3, 4, 16}));
  EXPECT_EQ(l.width, 64u);
  EXPECT_EQ(l.height, 3u);
  EXPECT_EQ(l.pitch, 128u);
  l = layout_of(region(buf, 1, 3, {4, 8, 16}, {0, 2, 1}, {3, 4, 8}));
  EXPECT_EQ(l.width, 8u);
  EXPECT_EQ(l.height, 4u);
  EXPECT_EQ(l.pitch, 16u);
  EXPECT_EQ(l.depth, 3u);
  EXPECT_EQ(l.rows, 8u);

  // Single rows of several slices are rows of slice pitch.
  l = layout_of(region(buf, 1, 3, {4, 8, 16}, {0, 2, 1}, {3, 1, 8}));
  EXPECT_EQ(l.height, 3u);
  EXPECT_EQ(l.pitch, 128u);
  EXPECT_EQ(l.depth, 1u);
}

TEST(transfer_plan, contiguous_copy_is_one_memcpy) {
  char a[1], b[1];
  auto ops = plan_copy(region(a, 4, 1, {100}, {0}, {100}),
                       region(b, 4, 2, {10, 10}, {0, 0}, {10, 10}), 1u << 30);
  ASSERT_EQ(ops.size(), 1u);
  const auto& c = std::get<copy_op>(ops[0]);
  EXPECT_EQ(c.width, 400u);
  EXPECT_EQ(c.height, 1u);
  EXPECT_EQ(c.depth, 1u);
}

TEST(transfer_plan, strided_copy_is_one_3d_copy) {
  char a[1], b[1];
  // A sub-range of a 2-D buffer to a packed host array, and a 3-D box between two buffers.
  auto ops = plan_copy(region(a, 4, 2, {64, 64}, {8, 8}, {16, 16}),
                       region(b, 4, 1, {256}, {0}, {256}), 1u << 30);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(std::get<copy_op>(ops[0]).height, 16u);
  ops = plan_copy(region(a, 8, 3, {8, 8, 8}, {1, 1, 1}, {4, 4, 4}),
                  region(b, 8, 3, {6, 6, 6}, {2, 2, 2}, {4, 4, 4}), 1u << 30);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(std::get<copy_op>(ops[0]).depth, 4u);
}

TEST(transfer_plan, copies_match_the_reference) {
  std::mt19937 rng(1234);
  auto pick = [&](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  };
  for (int iter = 0; iter < 400; ++iter) {
    int dims = static_cast<int>(pick(1, 3));
    std::size_t elem = std::vector<std::size_t>{1, 2, 4, 8, 12}[pick(0, 4)];
    std::vector<std::size_t> rngs(3), smem(3), soff(3), dmem(3), doff(3);
    for (int d = 0; d < dims; ++d) {
      rngs[d] = pick(0, 6) == 0 ? 1 : pick(1, 9);
      smem[d] = rngs[d] + (pick(0, 1) ? 0 : pick(1, 4));
      soff[d] = pick(0, smem[d] - rngs[d]);
      dmem[d] = rngs[d] + (pick(0, 1) ? 0 : pick(1, 4));
      doff[d] = pick(0, dmem[d] - rngs[d]);
    }
    mem_region src = region(nullptr, elem, dims, smem, soff, rngs);
    mem_region dst = region(nullptr, elem, dims, dmem, doff, rngs);
    check_copy(src, dst, rng);
    // Tiny pitch limit: row by row.
    check_copy(src, dst, rng, elem);
    // Same elements into a packed array, and from one.
    std::size_t n = 1;
    for (int d = 0; d < dims; ++d) n *= rngs[d];
    mem_region flat = region(nullptr, elem, 1, {n}, {0}, {n});
    check_copy(src, flat, rng);
    check_copy(flat, dst, rng);
    // Different shapes on both sides with the same element count.
    if (dims == 2 && rngs[0] % 2 == 0) {
      mem_region other = region(nullptr, elem, 2, {rngs[0] / 2 + 1, rngs[1] * 2 + 3}, {1, 2},
                                {rngs[0] / 2, rngs[1] * 2});
      check_copy(src, other, rng);
    }
  }
}

TEST(transfer_plan, fill_patterns_choose_memsets) {
  alignas(16) char buf[1];
  mem_region flat = region(buf, 8, 1, {1000}, {0}, {1000});
  // Zeros of any size: one byte memset.
  unsigned char zeros[8] = {};
  auto ops = plan_fill(flat, zeros, 8, 1u << 30);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(std::get<memset_op>(ops[0]).unit, 1u);
  EXPECT_EQ(std::get<memset_op>(ops[0]).width, 8000u);
  // A float repeated: 32-bit memset.
  float f = 1.5f;
  ops = plan_fill(region(buf, 4, 1, {1000}, {0}, {1000}), &f, 4, 1u << 30);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(std::get<memset_op>(ops[0]).unit, 4u);
  EXPECT_EQ(std::get<memset_op>(ops[0]).width, 1000u);
  // A double: two strided 32-bit memsets.
  double x = 3.25;
  ops = plan_fill(flat, &x, 8, 1u << 30);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(std::get<memset_op>(ops[0]).pitch, 8u);
  EXPECT_EQ(std::get<memset_op>(ops[0]).height, 1000u);
  // A long pattern: written once, then doubled: 1 + log2(count) operations.
  unsigned char big[200];
  for (int i = 0; i < 200; ++i) big[i] = static_cast<unsigned char>(i);
  ops = plan_fill(region(buf, 200, 1, {1024}, {0}, {1024}), big, 200, 1u << 30);
  ASSERT_EQ(ops.size(), 11u);
  EXPECT_TRUE(std::holds_alternative<pattern_op>(ops[0]));
}

TEST(transfer_plan, fills_match_the_reference) {
  std::mt19937 rng(99);
  auto pick = [&](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  };
  for (int iter = 0; iter < 400; ++iter) {
    int dims = static_cast<int>(pick(1, 3));
    std::size_t elem = std::vector<std::size_t>{1, 2, 3, 4, 8, 12, 16, 40, 200}[pick(0, 8)];
    std::vector<std::size_t> rngs(3), mem(3), off(3);
    for (int d = 0; d < dims; ++d) {
      rngs[d] = pick(0, 5) == 0 ? 1 : pick(1, dims == 1 ? 300 : 12);
      mem[d] = rngs[d] + (pick(0, 1) ? 0 : pick(1, 5));
      off[d] = pick(0, mem[d] - rngs[d]);
    }
    mem_region dst = region(nullptr, elem, dims, mem, off, rngs);
    std::vector<unsigned char> pattern(elem);
    switch (pick(0, 3)) {
    case 0:
      break; // zeros
    case 1:
      for (auto& b : pattern) b = static_cast<unsigned char>(rng());
      break;
    case 2: // a repeated 2-byte unit when it fits
      for (std::size_t i = 0; i < elem; ++i) pattern[i] = i % 2 ? 0x12 : 0x34;
      break;
    default:
      for (std::size_t i = 0; i < elem; ++i) pattern[i] = static_cast<unsigned char>(0xa0 + i % 4);
    }
    std::size_t misalign = pick(0, 3) == 0 ? pick(1, 3) : 0;
    check_fill(dst, pattern, rng, misalign);
    check_fill(dst, pattern, rng, misalign, elem * 2);
  }
}

TEST(transfer_plan, empty_regions_plan_nothing) {
  char buf[1];
  unsigned char p = 1;
  EXPECT_TRUE(plan_copy(region(buf, 4, 2, {4, 4}, {0, 0}, {0, 4}), region(buf, 4, 1, {0}, {0}, {0}),
                        1u << 30)
                  .empty());
  EXPECT_TRUE(plan_fill(region(buf, 1, 1, {4}, {0}, {0}), &p, 1, 1u << 30).empty());
  // A pattern longer than the row: nothing fits, nothing is written (as host_fill).
  EXPECT_TRUE(plan_fill(region(buf, 1, 1, {4}, {0}, {3}), "abcd", 4, 1u << 30).empty());
}

} // namespace
