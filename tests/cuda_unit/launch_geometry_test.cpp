// Unit tests of the CUDA backend's launch shapes (src/backends/cuda/launch_geometry.hpp): which
// grid and block a single_task, range or nd_range launch gets, and the errors for shapes a GPU
// cannot run.
#include "backends/cuda/launch_geometry.hpp"

#include <sycl/exception.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

using sycl::detail::kernel_kind;
using sycl::detail::kernel_launch;
using syclone::cuda::choose_geometry;
using syclone::cuda::device_limits;
using syclone::cuda::function_limits;
using syclone::cuda::launch_geometry;
using syclone::cuda::range_block_size;

// An H100: 132 SMs, 1024 threads per block.
device_limits h100() {
  device_limits d;
  d.multiprocessors = 132;
  return d;
}

kernel_launch range_launch(int dims, std::size_t a, std::size_t b = 1, std::size_t c = 1) {
  kernel_launch l;
  l.kind = kernel_kind::range;
  l.dimensions = dims;
  std::size_t g[3] = {a, b, c};
  for (int d = 0; d < dims; ++d) l.global[d] = g[d];
  return l;
}

kernel_launch nd_launch(int dims, const std::size_t* global, const std::size_t* local) {
  kernel_launch l;
  l.kind = kernel_kind::nd_range;
  l.dimensions = dims;
  for (int d = 0; d < dims; ++d) {
    l.global[d] = global[d];
    l.local[d] = local[d];
  }
  return l;
}

launch_geometry geometry(const kernel_launch& l, const device_limits& d = h100(),
                         const function_limits& f = {}) {
  return choose_geometry(l, d, f, "K", "Test GPU");
}

// The number of work-items the grid covers in CUDA dimension h.
std::size_t covered(const launch_geometry& g, int h) {
  return std::size_t(g.grid[h]) * g.block[h];
}

std::size_t threads(const launch_geometry& g) {
  return std::size_t(g.block[0]) * g.block[1] * g.block[2];
}

template <typename F>
std::string nd_range_error(F f) {
  try {
    f();
  } catch (const sycl::exception& e) {
    EXPECT_EQ(e.code(), sycl::errc::nd_range);
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return {};
}

TEST(launch_geometry, single_task_is_one_thread) {
  kernel_launch l;
  l.kind = kernel_kind::single_task;
  launch_geometry g = geometry(l);
  for (int h = 0; h < 3; ++h) {
    EXPECT_EQ(g.grid[h], 1u);
    EXPECT_EQ(g.block[h], 1u);
  }
}

TEST(launch_geometry, block_size_follows_occupancy_capped) {
  device_limits d = h100();
  EXPECT_EQ(range_block_size(d, {1024, 0}), 256u);    // no occupancy answer: 256
  EXPECT_EQ(range_block_size(d, {1024, 1024}), 256u); // capped
  EXPECT_EQ(range_block_size(d, {1024, 384}), 256u);
  EXPECT_EQ(range_block_size(d, {1024, 200}), 192u); // a multiple of the warp
  EXPECT_EQ(range_block_size(d, {128, 1024}), 128u); // the function's register limit
  EXPECT_EQ(range_block_size(d, {20, 1024}), 20u);   // below a warp: as is
}

TEST(launch_geometry, large_1d_range) {
  launch_geometry g = geometry(range_launch(1, std::size_t(1) << 27), h100(), {1024, 1024});
  EXPECT_EQ(g.block[0], 256u);
  EXPECT_EQ(g.block[1], 1u);
  EXPECT_EQ(g.block[2], 1u);
  EXPECT_EQ(g.grid[0], (1u << 27) / 256);
  EXPECT_EQ(g.grid[1], 1u);
  EXPECT_EQ(g.grid[2], 1u);
}

TEST(launch_geometry, range_not_a_multiple_of_the_block_is_covered) {
  launch_geometry g = geometry(range_launch(1, 1000003), h100(), {1024, 512});
  EXPECT_EQ(g.block[0], 256u);
  EXPECT_GE(covered(g, 0), 1000003u);
  EXPECT_LT(covered(g, 0) - 1000003u, g.block[0]);
}

TEST(launch_geometry, small_ranges_spread_over_the_sms) {
  // 8192 items: 32 blocks of 256 would leave most of 132 SMs idle; blocks of 64 give 128.
  launch_geometry g = geometry(range_launch(1, 8192), h100(), {1024, 1024});
  EXPECT_EQ(g.block[0], 64u);
  EXPECT_EQ(g.grid[0], 128u);
  // Tiny ranges: one block of exactly that size.
  g = geometry(range_launch(1, 10), h100(), {1024, 1024});
  EXPECT_EQ(g.grid[0], 1u);
  EXPECT_EQ(g.block[0], 10u);
  // Two warps per block at least, so that accesses stay coalesced.
  g = geometry(range_launch(1, 100), h100(), {1024, 1024});
  EXPECT_EQ(g.block[0], 64u);
  EXPECT_EQ(g.grid[0], 2u);
}

TEST(launch_geometry, two_d_range_maps_the_last_dimension_to_x) {
  // SYCL range {rows, cols} = {4096, 4096}: x covers the columns.
  launch_geometry g = geometry(range_launch(2, 4096, 4096), h100(), {1024, 1024});
  EXPECT_EQ(threads(g), 256u);
  EXPECT_EQ(g.block[0], 256u);
  EXPECT_GE(covered(g, 0), 4096u);
  EXPECT_GE(covered(g, 1), 4096u);
  EXPECT_EQ(g.grid[2], 1u);
  // Rows narrower than a warp: exact width, the rest of the block to y.
  g = geometry(range_launch(2, 100000, 16), h100(), {1024, 1024});
  EXPECT_EQ(g.block[0], 16u);
  EXPECT_EQ(g.block[1], 16u);
  EXPECT_GE(covered(g, 0), 16u);
  EXPECT_GE(covered(g, 1), 100000u);
}

TEST(launch_geometry, three_d_range) {
  launch_geometry g = geometry(range_launch(3, 64, 64, 64), h100(), {1024, 1024});
  EXPECT_LE(threads(g), 256u);
  EXPECT_GE(covered(g, 0), 64u);
  EXPECT_GE(covered(g, 1), 64u);
  EXPECT_GE(covered(g, 2), 64u);
  EXPECT_LE(g.block[2], 64u);
}

TEST(launch_geometry, tall_ranges_grow_the_block_in_y) {
  // 50 million rows of 1: a grid y of at most 65535 needs blocks of at least 763 rows.
  launch_geometry g = geometry(range_launch(2, 50000000, 1), h100(), {1024, 1024});
  EXPECT_LE(g.grid[1], 65535u);
  EXPECT_GE(covered(g, 1), 50000000u);
  EXPECT_EQ(g.block[1], 763u);
  EXPECT_LE(threads(g), 1024u);
}

TEST(launch_geometry, empty_range_launches_nothing) {
  launch_geometry g = geometry(range_launch(2, 0, 100));
  EXPECT_EQ(std::size_t(g.grid[0]) * g.grid[1] * g.grid[2], 0u);
}

TEST(launch_geometry, range_too_large_for_the_grid) {
  device_limits d = h100();
  std::string msg = nd_range_error([&] { geometry(range_launch(3, 100000000, 1, 1), d); });
  EXPECT_NE(msg.find("kernel `K`"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Test GPU"), std::string::npos) << msg;
}

TEST(launch_geometry, nd_range_uses_the_work_group_reversed) {
  std::size_t global[3] = {8, 64, 256}, local[3] = {2, 4, 32};
  launch_geometry g = geometry(nd_launch(3, global, local));
  EXPECT_EQ(g.block[0], 32u);
  EXPECT_EQ(g.block[1], 4u);
  EXPECT_EQ(g.block[2], 2u);
  EXPECT_EQ(g.grid[0], 8u);
  EXPECT_EQ(g.grid[1], 16u);
  EXPECT_EQ(g.grid[2], 4u);
}

TEST(launch_geometry, nd_range_1d) {
  std::size_t global[1] = {1 << 20}, local[1] = {256};
  launch_geometry g = geometry(nd_launch(1, global, local));
  EXPECT_EQ(g.block[0], 256u);
  EXPECT_EQ(g.grid[0], 4096u);
  EXPECT_EQ(g.block[1] * g.block[2] * g.grid[1] * g.grid[2], 1u);
}

TEST(launch_geometry, nd_range_errors) {
  std::size_t global[2] = {100, 100}, bad_local[2] = {3, 10};
  std::string msg = nd_range_error([&] { geometry(nd_launch(2, global, bad_local)); });
  EXPECT_NE(msg.find("not a multiple"), std::string::npos) << msg;

  std::size_t g2[1] = {4096}, l2[1] = {2048};
  msg = nd_range_error([&] { geometry(nd_launch(1, g2, l2)); });
  EXPECT_NE(msg.find("2048"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1024"), std::string::npos) << msg;

  // The function's own limit (registers) is lower than the device's.
  std::size_t l3[1] = {1024};
  msg = nd_range_error([&] { geometry(nd_launch(1, g2, l3), h100(), {512, 0}); });
  EXPECT_NE(msg.find("register"), std::string::npos) << msg;

  // z holds at most 64 work-items.
  std::size_t g4[3] = {128, 1, 1}, l4[3] = {128, 1, 1};
  msg = nd_range_error([&] { geometry(nd_launch(3, g4, l4)); });
  EXPECT_NE(msg.find("dimension 0"), std::string::npos) << msg;

  // Too many groups in y.
  std::size_t g5[2] = {100000, 1}, l5[2] = {1, 1};
  msg = nd_range_error([&] { geometry(nd_launch(2, g5, l5)); });
  EXPECT_NE(msg.find("65535"), std::string::npos) << msg;
}

} // namespace
