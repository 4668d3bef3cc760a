// SYCL 2020 4.17.2. Function objects for group algorithms and reductions: plus, multiplies,
// bit_and, bit_or, bit_xor, logical_and, logical_or, minimum, maximum. Each has a transparent
// <void> specialization (the default argument) that deduces its operand types.
#pragma once

#include <sycl/detail/config.hpp>

#include <type_traits>
#include <utility>

SYCLONE_BEGIN_NAMESPACE

#define SYCLONE_BINARY_FUNCTION(name, op)                                                          \
  template <typename T = void>                                                                     \
  struct name {                                                                                    \
    constexpr T operator()(const T& x, const T& y) const { return x op y; }                        \
  };                                                                                               \
  template <>                                                                                      \
  struct name<void> {                                                                              \
    using is_transparent = void;                                                                   \
    template <typename T, typename U>                                                              \
    constexpr auto operator()(T&& x, U&& y) const                                                  \
        -> decltype(std::forward<T>(x) op std::forward<U>(y)) {                                    \
      return std::forward<T>(x) op std::forward<U>(y);                                             \
    }                                                                                              \
  };
SYCLONE_BINARY_FUNCTION(plus, +)
SYCLONE_BINARY_FUNCTION(multiplies, *)
SYCLONE_BINARY_FUNCTION(bit_and, &)
SYCLONE_BINARY_FUNCTION(bit_or, |)
SYCLONE_BINARY_FUNCTION(bit_xor, ^)
#undef SYCLONE_BINARY_FUNCTION

// logical_and / logical_or give bool, as std::logical_and does.
template <typename T = void>
struct logical_and {
  constexpr bool operator()(const T& x, const T& y) const { return x && y; }
};
template <>
struct logical_and<void> {
  using is_transparent = void;
  template <typename T, typename U>
  constexpr auto operator()(T&& x, U&& y) const
      -> decltype(std::forward<T>(x) && std::forward<U>(y)) {
    return std::forward<T>(x) && std::forward<U>(y);
  }
};
template <typename T = void>
struct logical_or {
  constexpr bool operator()(const T& x, const T& y) const { return x || y; }
};
template <>
struct logical_or<void> {
  using is_transparent = void;
  template <typename T, typename U>
  constexpr auto operator()(T&& x, U&& y) const
      -> decltype(std::forward<T>(x) || std::forward<U>(y)) {
    return std::forward<T>(x) || std::forward<U>(y);
  }
};

// minimum / maximum: the first argument when neither is less than the other (std::min/max).
template <typename T = void>
struct minimum {
  constexpr T operator()(const T& x, const T& y) const { return y < x ? y : x; }
};
template <>
struct minimum<void> {
  using is_transparent = void;
  template <typename T, typename U>
  constexpr std::common_type_t<T&&, U&&> operator()(T&& x, U&& y) const {
    return y < x ? std::forward<U>(y) : std::forward<T>(x);
  }
};
template <typename T = void>
struct maximum {
  constexpr T operator()(const T& x, const T& y) const { return x < y ? y : x; }
};
template <>
struct maximum<void> {
  using is_transparent = void;
  template <typename T, typename U>
  constexpr std::common_type_t<T&&, U&&> operator()(T&& x, U&& y) const {
    return x < y ? std::forward<U>(y) : std::forward<T>(x);
  }
};

SYCLONE_END_NAMESPACE
