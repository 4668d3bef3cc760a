// The grid and block shape of a kernel launch. Pure functions of the launch and the limits of
// the device and function, so that tests check them without a GPU.
//
// SYCL's last dimension varies fastest and maps to CUDA's x (include/sycl/detail/device/nvptx.hpp).
// An nd_range launch uses its work-group as the block and its group range as the grid. A range
// launch leaves the block shape to us: the device code computes each id as
// ctaid * ntid + tid per dimension and returns beyond the range, so the grid only has to cover it.
#pragma once

#include <sycl/detail/kernel_launch.hpp>

#include <cstddef>
#include <string>

namespace syclone::cuda {

struct device_limits {
  unsigned max_threads_per_block = 1024;
  unsigned max_block[3] = {1024, 1024, 64};             // x, y, z
  unsigned max_grid[3] = {2147483647u, 65535u, 65535u}; // x, y, z
  unsigned multiprocessors = 1;
  unsigned warp_size = 32;
};

struct function_limits {
  // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: lower than the device's when registers run out.
  unsigned max_threads_per_block = 1024;
  // The block size that reaches the highest occupancy (cuOccupancyMaxPotentialBlockSize), or 0.
  unsigned occupancy_block_size = 0;
};

struct launch_geometry {
  unsigned grid[3] = {1, 1, 1};  // x, y, z
  unsigned block[3] = {1, 1, 1}; // x, y, z
};

// The largest block a range launch uses. Measured on an H200 with a float triad over 2^27
// elements, one element per thread: 128 -> 2.52 TB/s, 256 -> 3.45, 512 -> 3.24, 1024 -> 2.96
// (the occupancy API answers 1024 for such kernels). 256 also keeps the 32 resident blocks per
// SM of sm_80/sm_90 enough for full occupancy.
inline constexpr unsigned max_range_block = 256;

// The block size for a range launch of a function: the occupancy API's choice capped at
// max_range_block (same occupancy, finer tail), a multiple of the warp size; the
// SYCLONE_CUDA_BLOCK_SIZE environment variable overrides it when set (tuning).
unsigned range_block_size(const device_limits& device, const function_limits& function);

// Chooses the launch shape. Throws sycl::exception with errc::nd_range for an nd_range the device
// or the function cannot run (work-group too large, global size not a multiple of the local
// size, too many groups), naming the limit and the fix; `kernel` and `device_name` name the
// launch in messages.
launch_geometry choose_geometry(const sycl::detail::kernel_launch& launch,
                                const device_limits& device, const function_limits& function,
                                const std::string& kernel, const std::string& device_name);

} // namespace syclone::cuda
