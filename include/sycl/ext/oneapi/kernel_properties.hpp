// sycl_ext_oneapi_kernel_properties: the sub_group_size kernel property, the compile-time form of
// seed 004's [[intel::sub_group_size(N)]] (and of sycl_ext_named_sub_group_sizes' primary /
// automatic). A kernel gets it through a properties argument of parallel_for / single_task, or
// from its functor's `auto get(properties_tag) const`.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/kernel_launch.hpp>
#include <sycl/ext/oneapi/properties/properties.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

#define SYCL_EXT_ONEAPI_KERNEL_PROPERTIES 1
#define SYCL_EXT_ONEAPI_NAMED_SUB_GROUP_SIZES 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

struct sub_group_size_key {
  template <std::uint32_t Size>
  using value_t = property_value<sub_group_size_key, std::integral_constant<std::uint32_t, Size>>;
};
template <>
struct is_property_key<sub_group_size_key> : std::true_type {};

// The kernel must run with sub-groups of Size work-items; a device that does not support Size
// (info::device::sub_group_sizes) makes the submission throw errc::feature_not_supported.
template <std::uint32_t Size>
inline constexpr sub_group_size_key::value_t<Size> sub_group_size;
// The device's primary size (info::device::primary_sub_group_size), or the implementation's
// choice among the device's sizes.
inline constexpr sub_group_size_key::value_t<sycl::detail::sub_group_size_primary>
    sub_group_size_primary;
inline constexpr sub_group_size_key::value_t<sycl::detail::sub_group_size_automatic>
    sub_group_size_automatic;

// sycl_ext_oneapi_root_group: the kernel synchronizes its root group (group_barrier on
// nd_item::ext_oneapi_get_root_group()), so every work-group must run at once. A launch with more
// work-groups than info::kernel_queue_specific::max_num_work_groups throws errc::nd_range.
struct use_root_sync_key {
  using value_t = property_value<use_root_sync_key>;
};
template <>
struct is_property_key<use_root_sync_key> : std::true_type {};
inline constexpr use_root_sync_key::value_t use_root_sync;

// The argument of a kernel functor's `get` that returns its properties.
struct properties_tag {};

namespace detail {
template <std::uint32_t Size>
inline constexpr bool valid_sub_group_size =
    Size == sycl::detail::sub_group_size_primary ||
    Size == sycl::detail::sub_group_size_automatic || (Size != 0 && (Size & (Size - 1)) == 0);

// The sub-group size a property list requires: 0 when it has no sub_group_size.
template <typename P>
constexpr std::uint32_t sub_group_size_of() {
  if constexpr (P::template has_property<sub_group_size_key>()) {
    constexpr std::uint32_t size = P::template get_property<sub_group_size_key>().value;
    static_assert(valid_sub_group_size<size>,
                  "sub_group_size<N>: N must be a power of two (seed 004: sub-group sizes are "
                  "powers of 2)");
    return size;
  } else {
    return 0;
  }
}

// The properties a kernel functor declares through get(properties_tag), or none.
template <typename F, typename = void>
struct functor_properties {
  using type = empty_properties_t;
};
template <typename F>
struct functor_properties<F,
                          std::void_t<decltype(std::declval<const F&>().get(properties_tag{}))>> {
  using type = std::decay_t<decltype(std::declval<const F&>().get(properties_tag{}))>;
};

// The kernel's required sub-group size from the launch's properties and its functor's; both
// may name one only if they agree.
template <typename F, typename Properties = empty_properties_t>
constexpr std::uint32_t kernel_sub_group_size() {
  constexpr std::uint32_t given = sub_group_size_of<Properties>();
  constexpr std::uint32_t declared = sub_group_size_of<typename functor_properties<F>::type>();
  static_assert(given == 0 || declared == 0 || given == declared,
                "the sub_group_size property passed to the kernel launch differs from the one the "
                "kernel functor's get(properties_tag) returns");
  return given ? given : declared;
}

// Whether the launch's properties or its functor's ask for use_root_sync.
template <typename F, typename Properties = empty_properties_t>
constexpr bool kernel_uses_root_sync() {
  return Properties::template has_property<use_root_sync_key>() ||
         functor_properties<F>::type::template has_property<use_root_sync_key>();
}
} // namespace detail

} // namespace ext::oneapi::experimental

namespace detail {
// One specialization per kernel launch site: the kernel name, its functor and the sub-group size
// its properties require (0: none). syclone++'s clang plugin reads these specializations to
// record each kernel's requirement, together with the functor's sub-group size attributes.
template <typename Name, typename Functor, std::uint32_t Size>
struct kernel_sub_group_requirement {
  static constexpr std::uint32_t value = Size;
};

// The launch's required sub-group size; notes it for the plugin.
template <typename Name, typename Functor, typename Properties>
constexpr std::uint32_t note_sub_group_size() {
  constexpr std::uint32_t size =
      ext::oneapi::experimental::detail::kernel_sub_group_size<Functor, Properties>();
  return kernel_sub_group_requirement<unique_kernel_name_t<Name>, Functor, size>::value;
}
} // namespace detail
SYCLONE_END_NAMESPACE
