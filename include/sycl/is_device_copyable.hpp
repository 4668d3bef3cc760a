// SYCL 2020 3.13.1. Device copyable: the types whose bytes may be copied between host and device
// (buffer elements, kernel arguments, specialization constants). A user marks a type that is not
// trivially copyable by specializing sycl::is_device_copyable for it.
#pragma once

#include <sycl/detail/config.hpp>

#include <array>
#include <cstddef>
#include <optional>
#if __has_include(<span>)
#include <span>
#endif
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

// SYCL 2020 5.6: defined to 1 because sycl::is_device_copyable specializations are honored (a
// buffer, kernel argument or specialization constant of such a type is accepted and copied
// bytewise); portable code tests this macro before specializing the trait.
#define SYCL_DEVICE_COPYABLE 1

SYCLONE_BEGIN_NAMESPACE

template <typename T>
struct is_device_copyable : std::is_trivially_copyable<T> {};

template <typename T>
inline constexpr bool is_device_copyable_v = is_device_copyable<T>::value;

// The standard types the specification names device copyable when their members are.
template <typename T>
struct is_device_copyable<const T> : is_device_copyable<T> {};
template <typename T>
struct is_device_copyable<std::array<T, 0>> : std::true_type {};
template <typename T, std::size_t N>
struct is_device_copyable<std::array<T, N>> : is_device_copyable<T> {};
template <typename T>
struct is_device_copyable<std::optional<T>> : is_device_copyable<T> {};
template <typename T1, typename T2>
struct is_device_copyable<std::pair<T1, T2>>
    : std::bool_constant<is_device_copyable_v<T1> && is_device_copyable_v<T2>> {};
template <typename... Ts>
struct is_device_copyable<std::tuple<Ts...>>
    : std::bool_constant<(is_device_copyable_v<Ts> && ...)> {};
template <typename... Ts>
struct is_device_copyable<std::variant<Ts...>>
    : std::bool_constant<(is_device_copyable_v<Ts> && ...)> {};
template <typename CharT, typename Traits>
struct is_device_copyable<std::basic_string_view<CharT, Traits>> : std::true_type {};
#if defined(__cpp_lib_span)
template <typename T, std::size_t Extent>
struct is_device_copyable<std::span<T, Extent>> : std::true_type {};
#endif

SYCLONE_END_NAMESPACE
