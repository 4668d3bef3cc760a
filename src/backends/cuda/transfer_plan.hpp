// How a SYCL copy or fill (SYCL 2020 4.9.4.3 explicit memory operations) becomes CUDA memory
// operations: as few cuMemcpyAsync / cuMemcpy3DAsync / cuMemsetD*Async calls as the regions'
// layouts allow. Planning is pure (tests run plans on host memory); cuda_stream executes them.
#pragma once

#include <sycl/handler.hpp>

#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

namespace syclone::cuda {

// Copies `depth` slices of `height` rows of `width` bytes. Rows are `*_pitch` bytes apart,
// slices `*_height` rows apart. One row and one slice: a plain cuMemcpyAsync; otherwise
// cuMemcpy3DAsync (unified addressing: either side may be host or device memory).
struct copy_op {
  const std::byte* src = nullptr;
  std::size_t src_pitch = 0, src_height = 0;
  std::byte* dst = nullptr;
  std::size_t dst_pitch = 0, dst_height = 0;
  std::size_t width = 0, height = 1, depth = 1;
};

// Sets `height` rows of `width` units of `unit` bytes (1, 2 or 4) to `value`, rows `pitch`
// bytes apart: cuMemsetD8/16/32Async for one row, cuMemsetD2D8/16/32Async for several.
struct memset_op {
  std::byte* dst = nullptr;
  std::size_t pitch = 0;
  unsigned unit = 1;
  std::uint32_t value = 0; // little-endian, as the unit's bytes lie in memory
  std::size_t width = 0, height = 1;
};

// Writes the fill pattern once at `dst` from a host staging copy of it (patterns too long to set
// with a few memsets); later copy_ops replicate it.
struct pattern_op {
  std::byte* dst = nullptr;
};

using transfer_op = std::variant<copy_op, memset_op, pattern_op>;

// A region's bytes: `depth` slices of `height` rows of `width` bytes, rows `pitch` bytes apart,
// slices `rows` rows apart; packed dimensions merged (a contiguous region is one row).
struct byte_layout {
  std::byte* first = nullptr;
  std::size_t width = 0, height = 1, depth = 1;
  std::size_t pitch = 0, rows = 1;
  std::size_t bytes() const { return width * height * depth; }
  bool contiguous() const { return height == 1 && depth == 1; }
};
byte_layout layout_of(const sycl::detail::mem_region& region);

// The copy of `src` into `dst`: elements flow in row-major order, as runtime::host_copy does, so
// regions of different shapes but equal size copy too. Pitches above `max_pitch` (the device's
// CU_DEVICE_ATTRIBUTE_MAX_PITCH) are copied row by row.
std::vector<transfer_op> plan_copy(const sycl::detail::mem_region& src,
                                   const sycl::detail::mem_region& dst, std::size_t max_pitch);

// The fill of `dst` with a pattern of `pattern_size` bytes, repeated along each row as
// runtime::host_fill does. Patterns made of one repeated 1-, 2- or 4-byte unit become memsets;
// other patterns are set unit by unit with strided memsets, or (when long) written once and
// replicated by doubling copies.
std::vector<transfer_op> plan_fill(const sycl::detail::mem_region& dst, const void* pattern,
                                   std::size_t pattern_size, std::size_t max_pitch);

} // namespace syclone::cuda
