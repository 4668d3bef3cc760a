// Shared by the sub-group e2e programs: the work-group shapes they run, the values work-items
// contribute, and the membership rule of seed 004 that every check is computed from.
#pragma once

#include <sycl/sycl.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace sg_test {

namespace syclex = sycl::ext::oneapi::experimental;

// The value of the work-item with local linear id `local` in work-group `group` of `wg` items:
// mixed signs, no two neighbours equal.
inline int value(std::uint32_t group, std::uint32_t local, std::uint32_t wg) {
  std::uint32_t key = group * wg + local;
  return int((key * 37u + 11u) % 97u) - 40;
}

// Seed 004: sub-groups hold consecutive linear local ids; only the last may be smaller.
struct member {
  std::uint32_t id, lane, size, count;
};
inline member membership(std::uint32_t local, std::uint32_t wg, std::uint32_t s) {
  std::uint32_t id = local / s;
  std::uint32_t size = wg - id * s < s ? wg - id * s : s;
  return {id, local - id * s, size, (wg + s - 1) / s};
}

// Whether the device supports sub-group size s.
inline bool supports(const sycl::device& d, std::size_t s) {
  for (std::size_t x : d.get_info<sycl::info::device::sub_group_sizes>())
    if (x == s) return true;
  return false;
}

// Each work-item writes 0 (all checks passed) or the number of the first failing check.
inline int report(const char* what, std::size_t size, const std::vector<int>& codes) {
  int failures = 0;
  for (std::size_t i = 0; i < codes.size(); ++i)
    if (codes[i] != 0) {
      if (failures < 8)
        std::printf("FAIL %s sub-group size %zu: work-item %zu failed check %d\n", what, size, i,
                    codes[i]);
      ++failures;
    }
  return failures;
}

} // namespace sg_test
