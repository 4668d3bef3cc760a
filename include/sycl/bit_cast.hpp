// SYCL 2020 sycl::bit_cast (std::bit_cast for SYCL code) and 4.14.1 sycl::byte.
#pragma once

#include <sycl/detail/config.hpp>

#include <cstdint>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

// SYCL 2020's bit_cast: std::bit_cast, which SYCL offers for code that builds as C++17 too;
// usable in device code and in constant expressions.
template <
    typename To, typename From,
    typename = std::enable_if_t<sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<From> &&
                                std::is_trivially_copyable_v<To>>>
constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}

// SYCL 2020 4.14.1. Scalar data types: sycl::byte, deprecated in favour of std::byte.
using byte [[deprecated("use std::byte instead")]] = std::uint8_t;

SYCLONE_END_NAMESPACE
