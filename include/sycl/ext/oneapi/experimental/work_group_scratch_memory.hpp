// sycl_ext_oneapi_work_group_scratch_memory (intel/llvm sycl/doc/extensions/experimental): the
// work-group's local memory of a size given at launch, by the work_group_scratch_size property of
// an nd_range launch (handler::parallel_for(nd_range, properties, kernel), nd_launch with a
// launch_config), reached from any function the kernel calls through
// get_work_group_scratch_memory().
//
// The handler reserves the bytes after the command group's local accessors, in the launch's
// dynamic local memory (a CUDA launch's dynamic shared memory, the host device's block per
// work-group), so that the total is checked against the device's local memory as theirs is
// (errc::memory_allocation from the submission). The kernel object carries the offset, which each
// work-item stores at its start in a work_group_static slot that get_work_group_scratch_memory
// reads. A kernel that calls it without the property in its launch gets an unspecified pointer
// (the extension leaves the error optional).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/ext/oneapi/experimental/work_group_static.hpp>
#include <sycl/ext/oneapi/properties/properties.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

#define SYCL_EXT_ONEAPI_WORK_GROUP_SCRATCH_MEMORY 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

// The bytes of the launch's scratch memory (a runtime property of the kernel launch).
struct work_group_scratch_size {
  constexpr work_group_scratch_size(std::size_t bytes) : value(bytes) {}
  std::size_t value;
};
using work_group_scratch_size_key = work_group_scratch_size;
template <>
struct is_property_key<work_group_scratch_size_key> : std::true_type {};

} // namespace ext::oneapi::experimental

namespace detail {
// Whether a launch's compile-time property list carries work_group_scratch_size: only nd_range
// launches without reductions take it (the kernels with work-groups of the user's size).
template <typename Properties>
inline constexpr bool has_scratch_size_v =
    Properties::template has_property<ext::oneapi::experimental::work_group_scratch_size_key>();

// Where the launch's scratch memory starts in the work-group's local memory.
inline ext::oneapi::experimental::work_group_static<std::size_t> work_group_scratch_offset;

// The kernel functor of a launch with scratch memory: each work-item notes where it lies, then
// runs the user's functor.
template <typename F>
struct scratch_kernel {
  F m_f;
  std::size_t m_offset;

  template <typename... Args, typename = std::enable_if_t<std::is_invocable_v<const F&, Args...>>>
  SYCLONE_INLINE void operator()(Args&&... args) const {
    work_group_scratch_offset = m_offset;
    m_f(std::forward<Args>(args)...);
  }
};
} // namespace detail

namespace ext::oneapi::experimental {

// The scratch memory of the calling work-group (the same allocation for every call).
[[gnu::always_inline]] inline void* get_work_group_scratch_memory() {
  std::size_t offset = sycl::detail::work_group_scratch_offset;
  return sycl::detail::dev::local_memory() + offset;
}

} // namespace ext::oneapi::experimental
SYCLONE_END_NAMESPACE
