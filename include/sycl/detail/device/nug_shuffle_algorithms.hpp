// sycl_ext_oneapi_non_uniform_groups on targets whose sub-group functions are shuffles between
// lanes (nvptx_group.hpp, spirv_group.hpp): reductions and scans of a group built from the
// target's nug_shuffle (the value of the member with a local id; every member shuffles at each
// step, as shuffle instructions require). Included by those headers after nug_shuffle.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/group_types.hpp>

#include <cstdint>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {

template <typename T>
SYCLONE_INLINE T nug_shuffle(const nug_info& g, T x, std::uint32_t src);

// A tree towards the member with local id 0 (log2 of the group's size steps), then its value.
template <typename T, typename Op>
SYCLONE_INLINE T nug_reduce_tree(const nug_info& g, T x, Op& op) {
  std::uint32_t size = nug_size(g), local = nug_local_id(g);
  for (std::uint32_t offset = 1; offset < size; offset *= 2) {
    T y = nug_shuffle(g, x, local + offset);
    if ((local & (2 * offset - 1)) == 0 && local + offset < size) x = op(x, y);
  }
  return nug_shuffle(g, x, 0);
}

// Hillis-Steele over local ids: after the step with `offset`, a member holds the members
// max(0, local - 2 * offset + 1) .. local.
template <bool Exclusive, typename T, typename Op>
SYCLONE_INLINE opt<T> nug_scan_tree(const nug_info& g, T x, Op& op) {
  std::uint32_t size = nug_size(g), local = nug_local_id(g);
  for (std::uint32_t offset = 1; offset < size; offset *= 2) {
    T y = nug_shuffle(g, x, local >= offset ? local - offset : ~0u);
    if (local >= offset) x = op(y, x);
  }
  if constexpr (Exclusive) {
    T y = nug_shuffle(g, x, local >= 1 ? local - 1 : ~0u);
    return {y, local != 0};
  } else {
    return {x, true};
  }
}

} // namespace detail::dev
SYCLONE_END_NAMESPACE
