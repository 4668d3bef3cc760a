#include "launch_geometry.hpp"

#include <sycl/exception.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace syclone::cuda {

namespace {

using sycl::detail::kernel_kind;

std::size_t ceil_div(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}

// SYCLONE_CUDA_BLOCK_SIZE, read once: 0 when unset or not a positive number.
unsigned block_size_override() {
  static const unsigned value = [] {
    const char* s = std::getenv("SYCLONE_CUDA_BLOCK_SIZE");
    if (!s || !*s) return 0u;
    long v = std::strtol(s, nullptr, 10);
    return v > 0 && v <= 1 << 20 ? static_cast<unsigned>(v) : 0u;
  }();
  return value;
}

// "{a, b, c}" in SYCL order.
std::string sizes(const std::size_t* s, int dimensions) {
  std::string out = "{";
  for (int d = 0; d < dimensions; ++d) out += (d ? ", " : "") + std::to_string(s[d]);
  return out + "}";
}

[[noreturn]] void fail(const std::string& message) {
  sycl::detail::throw_error(sycl::errc::nd_range, message);
}

launch_geometry nd_range_geometry(const sycl::detail::kernel_launch& l, const device_limits& dev,
                                  const function_limits& fn, const std::string& kernel,
                                  const std::string& device_name) {
  const int dims = l.dimensions;
  std::size_t threads = 1;
  for (int d = 0; d < dims; ++d) {
    if (l.local[d] == 0 || l.global[d] % l.local[d] != 0)
      fail("kernel `" + kernel + "`: the global range " + sizes(l.global, dims) +
           " is not a multiple of the local range " + sizes(l.local, dims) + " in dimension " +
           std::to_string(d) + "; choose a local range that divides the global range");
    threads *= l.local[d];
  }
  unsigned limit = std::min(fn.max_threads_per_block, dev.max_threads_per_block);
  if (threads > limit) {
    std::string why = fn.max_threads_per_block < dev.max_threads_per_block
                          ? " (the limit of this kernel, lower than the device's " +
                                std::to_string(dev.max_threads_per_block) +
                                " because of its register use)"
                          : "";
    fail("kernel `" + kernel + "`: the work-group size " + std::to_string(threads) + " (" +
         sizes(l.local, dims) + ") exceeds " + std::to_string(limit) + " work-items on " +
         device_name + why + "; use a smaller local range");
  }
  launch_geometry g;
  for (int d = 0; d < dims; ++d) {
    int h = dims - 1 - d;
    std::size_t groups = l.global[d] / l.local[d];
    if (l.local[d] > dev.max_block[h])
      fail("kernel `" + kernel + "`: the local range " + sizes(l.local, dims) + " is " +
           std::to_string(l.local[d]) + " in dimension " + std::to_string(d) + ", more than the " +
           std::to_string(dev.max_block[h]) + " " + device_name +
           " allows there; move work-items to the last dimension");
    if (groups > dev.max_grid[h])
      fail("kernel `" + kernel + "`: " + std::to_string(groups) + " work-groups in dimension " +
           std::to_string(d) + " of the nd_range exceed the " + std::to_string(dev.max_grid[h]) +
           " " + device_name + " allows there; use larger work-groups or put the larger extent " +
           "in the last dimension");
    g.block[h] = static_cast<unsigned>(l.local[d]);
    g.grid[h] = static_cast<unsigned>(groups);
  }
  return g;
}

launch_geometry range_geometry(const sycl::detail::kernel_launch& l, const device_limits& dev,
                               const function_limits& fn, const std::string& kernel,
                               const std::string& device_name) {
  const int dims = l.dimensions;
  std::size_t extent[3] = {1, 1, 1}; // x, y, z
  for (int d = 0; d < dims; ++d) extent[dims - 1 - d] = l.global[d];
  launch_geometry g;
  if (extent[0] == 0 || extent[1] == 0 || extent[2] == 0) {
    g.grid[0] = g.grid[1] = g.grid[2] = 0; // nothing to run
    return g;
  }

  const unsigned warp = std::max(1u, dev.warp_size);
  const unsigned budget = range_block_size(dev, fn);
  std::size_t block[3];
  // x first (coalesced accesses along SYCL's last dimension), the rest of the budget to y, z.
  // Rows narrower than a warp take their exact width: warps then span several rows.
  block[0] =
      extent[0] < warp
          ? extent[0]
          : std::min<std::size_t>({budget, ceil_div(extent[0], warp) * warp, dev.max_block[0]});
  block[1] = std::min<std::size_t>({budget / block[0], extent[1], dev.max_block[1]});
  block[2] = std::min<std::size_t>({budget / (block[0] * block[1]), extent[2], dev.max_block[2]});
  block[1] = std::max<std::size_t>(block[1], 1);
  block[2] = std::max<std::size_t>(block[2], 1);

  // A range too small to give every SM a block runs faster with smaller blocks: shrink z, y,
  // then x (not below two warps, so that accesses stay coalesced).
  auto blocks = [&] {
    return ceil_div(extent[0], block[0]) * ceil_div(extent[1], block[1]) *
           ceil_div(extent[2], block[2]);
  };
  while (blocks() < dev.multiprocessors) {
    if (block[2] > 1)
      block[2] = ceil_div(block[2], 2);
    else if (block[1] > 1)
      block[1] = ceil_div(block[1], 2);
    else if (block[0] >= 4 * warp)
      block[0] /= 2;
    else
      break;
  }

  // y and z grids are small (65535): grow the block there when the range needs it, taking
  // threads from x.
  for (int h = 1; h < 3; ++h) {
    if (ceil_div(extent[h], block[h]) <= dev.max_grid[h]) continue;
    block[h] = ceil_div(extent[h], dev.max_grid[h]);
    std::size_t others = block[1] * block[2];
    std::size_t limit = std::min(fn.max_threads_per_block, dev.max_threads_per_block);
    if (block[h] > dev.max_block[h] || others > limit)
      fail("kernel `" + kernel + "`: the range " + sizes(l.global, dims) + " exceeds what a " +
           device_name + " grid can cover in dimension " + std::to_string(dims - 1 - h) +
           "; put the largest extent in the last dimension or use a 1-D range");
    block[0] = std::max<std::size_t>(1, std::min(block[0], limit / others));
  }
  for (int h = 0; h < 3; ++h) {
    std::size_t grid = ceil_div(extent[h], block[h]);
    if (grid > dev.max_grid[h])
      fail("kernel `" + kernel + "`: the range " + sizes(l.global, dims) + " needs " +
           std::to_string(grid) + " blocks in CUDA dimension " + std::to_string(h) +
           ", more than the " + std::to_string(dev.max_grid[h]) + " " + device_name +
           " allows; split the launch");
    g.grid[h] = static_cast<unsigned>(grid);
    g.block[h] = static_cast<unsigned>(block[h]);
  }
  return g;
}

} // namespace

unsigned range_block_size(const device_limits& device, const function_limits& function) {
  const unsigned warp = std::max(1u, device.warp_size);
  const unsigned limit =
      std::max(1u, std::min(function.max_threads_per_block, device.max_threads_per_block));
  unsigned size = block_size_override();
  if (size == 0) {
    size = function.occupancy_block_size ? function.occupancy_block_size : 256;
    size = std::min(size, max_range_block);
  }
  size = std::min(size, limit);
  if (size >= warp) size -= size % warp;
  return std::max(size, 1u);
}

launch_geometry choose_geometry(const sycl::detail::kernel_launch& launch,
                                const device_limits& device, const function_limits& function,
                                const std::string& kernel, const std::string& device_name) {
  switch (launch.kind) {
  case kernel_kind::single_task:
    return {};
  case kernel_kind::range:
    return range_geometry(launch, device, function, kernel, device_name);
  case kernel_kind::nd_range:
    return nd_range_geometry(launch, device, function, kernel, device_name);
  }
  return {};
}

} // namespace syclone::cuda
