// Strided copies and fills between host-addressable regions (SYCL 2020 4.9.4.3 explicit copy).
#include "backend.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace syclone::runtime {

namespace {
// Calls fn(byte offset, bytes) for each contiguous row of a region, in row-major order.
template <typename Fn>
void for_each_row(const sycl::detail::mem_region& r, Fn fn) {
  std::size_t mem[3] = {1, 1, 1}, off[3] = {0, 0, 0}, rng[3] = {1, 1, 1};
  for (int d = 0; d < r.dimensions; ++d) {
    int k = 3 - r.dimensions + d;
    mem[k] = r.mem[d];
    off[k] = r.offset[d];
    rng[k] = r.range[d];
  }
  std::size_t row = rng[2] * r.element_size;
  for (std::size_t i = 0; i < rng[0]; ++i)
    for (std::size_t j = 0; j < rng[1]; ++j) {
      std::size_t first = ((off[0] + i) * mem[1] + (off[1] + j)) * mem[2] + off[2];
      fn(first * r.element_size, row);
    }
}
} // namespace

void host_copy(const sycl::detail::mem_region& src, const sycl::detail::mem_region& dst) {
  auto* s = static_cast<const std::byte*>(src.ptr);
  auto* d = static_cast<std::byte*>(dst.ptr);
  bool src_flat =
      src.dimensions == 1 || (src.range[src.dimensions - 1] == src.mem[src.dimensions - 1] &&
                              (src.dimensions < 3 || src.range[1] == src.mem[1]));
  bool dst_flat =
      dst.dimensions == 1 || (dst.range[dst.dimensions - 1] == dst.mem[dst.dimensions - 1] &&
                              (dst.dimensions < 3 || dst.range[1] == dst.mem[1]));
  if (src_flat && dst_flat) {
    auto first_byte = [](const sycl::detail::mem_region& r) {
      std::size_t lin = 0;
      for (int k = 0; k < r.dimensions; ++k) lin = lin * r.mem[k] + r.offset[k];
      return lin * r.element_size;
    };
    std::size_t n = src.element_size;
    for (int k = 0; k < src.dimensions; ++k) n *= src.range[k];
    std::size_t so = first_byte(src), doff = first_byte(dst);
    std::memmove(d + doff, s + so, n);
    return;
  }
  // General case: stream the source rows into the destination rows.
  std::vector<std::pair<std::size_t, std::size_t>> dst_rows;
  for_each_row(dst, [&](std::size_t o, std::size_t n) { dst_rows.emplace_back(o, n); });
  std::size_t di = 0, dpos = 0;
  for_each_row(src, [&](std::size_t o, std::size_t n) {
    std::size_t done = 0;
    while (done < n && di < dst_rows.size()) {
      std::size_t take = std::min(n - done, dst_rows[di].second - dpos);
      std::memmove(d + dst_rows[di].first + dpos, s + o + done, take);
      done += take;
      dpos += take;
      if (dpos == dst_rows[di].second) {
        ++di;
        dpos = 0;
      }
    }
  });
}

void host_fill(const sycl::detail::mem_region& dst, const void* pattern, std::size_t pattern_size) {
  auto* d = static_cast<std::byte*>(dst.ptr);
  for_each_row(dst, [&](std::size_t o, std::size_t n) {
    if (pattern_size == 1) {
      std::memset(d + o, *static_cast<const unsigned char*>(pattern), n);
      return;
    }
    for (std::size_t i = 0; i + pattern_size <= n; i += pattern_size)
      std::memcpy(d + o + i, pattern, pattern_size);
  });
}

} // namespace syclone::runtime
