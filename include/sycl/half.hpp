// SYCL 2020 4.14.1. Scalar data types: sycl::half, the IEEE 754 binary16 type.
//
// clang-22 implements _Float16 natively on both targets we compile for: NVPTX has f16 registers
// and instructions (fma.rn.f16 ...), x86-64 computes in float and rounds back. A class around
// _Float16 (rather than an alias) lets us specialize std::numeric_limits and std::hash, which the
// standard library does not do for _Float16, and keeps mixed half/float arithmetic unambiguous.
#pragma once

#include <sycl/detail/config.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

class half;

namespace detail {
// Arithmetic types that combine with half: integers keep the result in half (as for float and
// int), wider floating-point types win the usual arithmetic conversions.
template <typename T>
inline constexpr bool is_half_operand_v = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;
template <typename T>
using half_result_t = std::conditional_t<std::is_floating_point_v<T>, T, half>;
} // namespace detail

class half {
public:
  half() = default;
  constexpr half(const half&) = default;
  constexpr half& operator=(const half&) = default;
  // Implicit from every arithmetic type: SYCL code writes `half h = 1.0f;` and `h = 2;`. A double
  // converts directly (one rounding), not through float.
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  constexpr half(T value) : m_value(static_cast<_Float16>(value)) {}

  constexpr operator float() const { return static_cast<float>(m_value); }

  // The raw IEEE binary16 bits, for as<>() and the numeric limits.
  static constexpr half from_bits(std::uint16_t bits) {
    return half(raw_tag{}, __builtin_bit_cast(_Float16, bits));
  }
  constexpr std::uint16_t to_bits() const { return __builtin_bit_cast(std::uint16_t, m_value); }
  constexpr _Float16 native() const { return m_value; }
  static constexpr half from_native(_Float16 v) { return half(raw_tag{}, v); }

  constexpr half operator+() const { return *this; }
  constexpr half operator-() const { return from_native(-m_value); }
  constexpr half& operator++() { return *this += half(1); }
  constexpr half& operator--() { return *this -= half(1); }
  constexpr half operator++(int) {
    half old = *this;
    ++*this;
    return old;
  }
  constexpr half operator--(int) {
    half old = *this;
    --*this;
    return old;
  }

#define SYCLONE_HALF_ARITH(op)                                                                     \
  friend constexpr half operator op(half a, half b) {                                              \
    return from_native(a.m_value op b.m_value);                                                    \
  }                                                                                                \
  template <typename T, typename = std::enable_if_t<detail::is_half_operand_v<T>>>                 \
  friend constexpr detail::half_result_t<T> operator op(half a, T b) {                             \
    using R = detail::half_result_t<T>;                                                            \
    return static_cast<R>(a) op static_cast<R>(b);                                                 \
  }                                                                                                \
  template <typename T, typename = std::enable_if_t<detail::is_half_operand_v<T>>>                 \
  friend constexpr detail::half_result_t<T> operator op(T a, half b) {                             \
    using R = detail::half_result_t<T>;                                                            \
    return static_cast<R>(a) op static_cast<R>(b);                                                 \
  }                                                                                                \
  constexpr half& operator op## = (half b) {                                                       \
    m_value = m_value op b.m_value;                                                                \
    return *this;                                                                                  \
  }                                                                                                \
  template <typename T, typename = std::enable_if_t<detail::is_half_operand_v<T>>>                 \
  constexpr half& operator op## = (T b) {                                                          \
    *this = half(*this op b);                                                                      \
    return *this;                                                                                  \
  }
  SYCLONE_HALF_ARITH(+)
  SYCLONE_HALF_ARITH(-)
  SYCLONE_HALF_ARITH(*)
  SYCLONE_HALF_ARITH(/)
#undef SYCLONE_HALF_ARITH

#define SYCLONE_HALF_COMPARE(op)                                                                   \
  friend constexpr bool operator op(half a, half b) { return a.m_value op b.m_value; }             \
  template <typename T, typename = std::enable_if_t<detail::is_half_operand_v<T>>>                 \
  friend constexpr bool operator op(half a, T b) {                                                 \
    using R = detail::half_result_t<T>;                                                            \
    return static_cast<R>(a) op static_cast<R>(b);                                                 \
  }                                                                                                \
  template <typename T, typename = std::enable_if_t<detail::is_half_operand_v<T>>>                 \
  friend constexpr bool operator op(T a, half b) {                                                 \
    using R = detail::half_result_t<T>;                                                            \
    return static_cast<R>(a) op static_cast<R>(b);                                                 \
  }
  SYCLONE_HALF_COMPARE(==)
  SYCLONE_HALF_COMPARE(!=)
  SYCLONE_HALF_COMPARE(<)
  SYCLONE_HALF_COMPARE(>)
  SYCLONE_HALF_COMPARE(<=)
  SYCLONE_HALF_COMPARE(>=)
#undef SYCLONE_HALF_COMPARE

private:
  struct raw_tag {};
  constexpr half(raw_tag, _Float16 v) : m_value(v) {}

  _Float16 m_value;
};

static_assert(sizeof(half) == 2 && alignof(half) == 2, "sycl::half must be binary16 storage");
static_assert(std::is_trivially_copyable_v<half> && std::is_standard_layout_v<half>);

SYCLONE_END_NAMESPACE

namespace std {
// The binary16 limits (IEEE 754: 11-bit significand, exponents -14..15).
template <>
class numeric_limits<sycl::half> {
  using half = sycl::half;

public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr float_denorm_style has_denorm = denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr float_round_style round_style = round_to_nearest;
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  static constexpr half min() noexcept { return half::from_bits(0x0400); }
  static constexpr half lowest() noexcept { return half::from_bits(0xFBFF); }
  static constexpr half max() noexcept { return half::from_bits(0x7BFF); }
  static constexpr half epsilon() noexcept { return half::from_bits(0x1400); }
  static constexpr half round_error() noexcept { return half::from_bits(0x3800); }
  static constexpr half infinity() noexcept { return half::from_bits(0x7C00); }
  static constexpr half quiet_NaN() noexcept { return half::from_bits(0x7E00); }
  static constexpr half signaling_NaN() noexcept { return half::from_bits(0x7D00); }
  static constexpr half denorm_min() noexcept { return half::from_bits(0x0001); }
};

template <>
struct hash<sycl::half> {
  size_t operator()(sycl::half h) const noexcept {
    // +0 and -0 compare equal, so they must hash equal.
    return h == sycl::half(0) ? 0 : static_cast<size_t>(h.to_bits());
  }
};
} // namespace std
