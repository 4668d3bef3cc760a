// sycl_ext_oneapi_group_load_store's blocked loads and stores on the targets where each
// work-item's own accesses are the fast form, the same functions nvptx_load_store.hpp has.
//
// Host CPU: the work-item loop compiler runs a work-group's work-items as a loop, which the
// vectorizer turns into vector accesses across work-items (blocked: an interleaved group of N
// streams, wide loads and shuffles; striped, in the public header: contiguous). Nothing passes
// between work-items, so there is no barrier and no exchange: the kernel stays one loop and
// never needs fibers. SPIR-V: each work-item's accesses (no sub-group block reads yet).
// Included by target.hpp only.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/group_types.hpp>

#include <cstddef>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
// out[i] = base[id * N + i] for the work-group's work-item `wg.id`.
template <std::size_t N, typename T>
SYCLONE_INLINE void group_load_blocked(const wg_info& wg, const T* base, T* out) {
  const T* mine = base + std::size_t(wg.id) * N;
  for (std::size_t i = 0; i < N; ++i) out[i] = mine[i];
}
// The same for a sub-group (Full: the caller asserts that the sub-group is full).
template <std::size_t N, bool Full, typename T>
SYCLONE_INLINE void group_load_blocked(const sg_info& sg, const T* base, T* out) {
  const T* mine = base + std::size_t(sg.lane) * N;
  for (std::size_t i = 0; i < N; ++i) out[i] = mine[i];
}
// base[id * N + i] = in[i].
template <std::size_t N, typename T>
SYCLONE_INLINE void group_store_blocked(const wg_info& wg, const T* in, T* base) {
  T* mine = base + std::size_t(wg.id) * N;
  for (std::size_t i = 0; i < N; ++i) mine[i] = in[i];
}
template <std::size_t N, bool Full, typename T>
SYCLONE_INLINE void group_store_blocked(const sg_info& sg, const T* in, T* base) {
  T* mine = base + std::size_t(sg.lane) * N;
  for (std::size_t i = 0; i < N; ++i) mine[i] = in[i];
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE
