// sycl_ext_oneapi_local_memory: group_local_memory<T>(group, args...) and
// group_local_memory_for_overwrite<T>(group), work-group memory for one object, asked for at the
// kernel's scope. Each call in the kernel is its own object: the calls become shared-memory
// variables on GPU targets and thread-local variables on the host device (a thread runs one
// work-group at a time), by a pass every compile of device code runs (src/passes). The group's
// leader constructs the object (all its work-items zero a trivial one that is value-initialized)
// and the group waits at a barrier for it.
#pragma once

#include <sycl/access.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/multi_ptr.hpp>
#include <sycl/nd_item.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

#define SYCL_EXT_ONEAPI_LOCAL_MEMORY 1

SYCLONE_BEGIN_NAMESPACE
namespace detail {
template <typename Group>
inline constexpr bool is_work_group = false;
template <int D>
inline constexpr bool is_work_group<group<D>> = true;

template <typename T>
[[gnu::always_inline]] inline multi_ptr<T, access::address_space::local_space>
local_object(T* object) {
  return multi_ptr<T, access::address_space::local_space>(
      address_cast<decorated_t<T, access::address_space::local_space>*>(object));
}
// Zeroes *object, work-item `me` of `count` taking every count-th word (of the widest size the
// type's alignment allows).
template <typename T>
[[gnu::always_inline]] inline void zero_cooperatively(T* object, std::size_t me,
                                                      std::size_t count) {
  using word = std::conditional_t<
      alignof(T) % 8 == 0 && sizeof(T) % 8 == 0, std::uint64_t,
      std::conditional_t<alignof(T) % 4 == 0 && sizeof(T) % 4 == 0, std::uint32_t, std::uint8_t>>;
  auto* words = reinterpret_cast<word*>(object);
  for (std::size_t i = me; i < sizeof(T) / sizeof(word); i += count) words[i] = 0;
}
} // namespace detail

namespace ext::oneapi {

template <typename T, typename Group, typename... Args>
[[gnu::always_inline]] inline multi_ptr<T, access::address_space::local_space>
group_local_memory(Group g, Args&&... args) {
  static_assert(sycl::detail::is_work_group<Group>, "group_local_memory takes a sycl::group");
  static_assert(std::is_trivially_destructible_v<T>,
                "group_local_memory holds trivially destructible types only");
  T* object = static_cast<T*>(sycl::detail::dev::group_local_allocation<sizeof(T), alignof(T)>());
  if constexpr (sizeof...(Args) == 0 && std::is_trivial_v<T>) {
    // Value-initialization of a trivial type is zero-initialization: the work-items share it.
    sycl::detail::zero_cooperatively(object, g.get_local_linear_id(), g.get_local_linear_range());
  } else if (g.leader()) {
    if constexpr (std::is_array_v<T>)
      ::new (static_cast<void*>(object)) T{std::forward<Args>(args)...};
    else
      ::new (static_cast<void*>(object)) T(std::forward<Args>(args)...); // () value-initializes
  }
  group_barrier(g);
  return sycl::detail::local_object(object);
}

template <typename T, typename Group>
[[gnu::always_inline]] inline multi_ptr<T, access::address_space::local_space>
group_local_memory_for_overwrite(Group g) {
  static_assert(sycl::detail::is_work_group<Group>,
                "group_local_memory_for_overwrite takes a sycl::group");
  static_assert(std::is_trivially_destructible_v<T>,
                "group_local_memory_for_overwrite holds trivially destructible types only");
  T* object = static_cast<T*>(sycl::detail::dev::group_local_allocation<sizeof(T), alignof(T)>());
  if constexpr (!std::is_trivially_default_constructible_v<T>) {
    if (g.leader()) ::new (static_cast<void*>(object)) T; // default-initialized
    group_barrier(g);
  }
  return sycl::detail::local_object(object);
}

} // namespace ext::oneapi
SYCLONE_END_NAMESPACE
