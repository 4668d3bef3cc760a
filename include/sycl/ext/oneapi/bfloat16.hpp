// sycl_ext_oneapi_bfloat16 (intel/llvm sycl/doc/extensions/supported/
// sycl_ext_oneapi_bfloat16.asciidoc, revision 7): sycl::ext::oneapi::bfloat16, the 16-bit
// floating-point type with float's 8-bit exponent and a 7-bit stored significand. Its math
// functions are in <sycl/ext/oneapi/bfloat16_math.hpp>.
//
// The value is kept as its bits and every operation is computed in float (or in a wider type an
// operand brings) and rounded once to bfloat16. That is plain integer and float arithmetic, the
// same on the host, on NVPTX and on SPIR-V: no target needs a native bfloat16 type. For + - * /
// float's 24-bit significand holds at least 2 * 8 + 2 bits, so rounding the float result to
// bfloat16 gives the correctly rounded bfloat16 result (double rounding is innocuous there).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/half.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

// float -> bfloat16 bits, rounded to nearest even (the extension's "RTE"). A NaN stays a NaN of
// the same sign, made quiet: truncating a signalling NaN whose payload lies in the low 16 bits
// would otherwise give an infinity. Overflow rounds to infinity through the carry into the
// exponent.
constexpr std::uint16_t float_to_bfloat16_bits(float value) {
  std::uint32_t bits = __builtin_bit_cast(std::uint32_t, value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x0040u);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>(bits >> 16);
}

// bfloat16 bits -> float: exact, the bits are float's upper half.
constexpr float bfloat16_bits_to_float(std::uint16_t bits) {
  return __builtin_bit_cast(float, static_cast<std::uint32_t>(bits) << 16);
}

// double -> bfloat16 bits with a single rounding: rounding to float first would round twice. The
// conversion to float is made round-to-odd (an inexact result with an even last bit moves one
// float step towards the exact value), which keeps the information that the value lay between
// two floats; float holds more than 8 + 2 bits, so rounding that to nearest even bfloat16 gives
// the correctly rounded result.
constexpr std::uint16_t double_to_bfloat16_bits(double value) {
  float rounded = static_cast<float>(value);
  if (value == value && static_cast<double>(rounded) != value) {
    std::uint32_t bits = __builtin_bit_cast(std::uint32_t, rounded);
    if ((bits & 1u) == 0) {
      // Overflow to infinity steps back to the largest float, underflow to zero up to the
      // smallest subnormal: both odd, both on the right side of the bfloat16 rounding points.
      bool away = __builtin_fabs(value) > __builtin_fabs(static_cast<double>(rounded));
      bits = away ? bits + 1 : bits - 1;
      rounded = __builtin_bit_cast(float, bits);
    }
  }
  return float_to_bfloat16_bits(rounded);
}

// The operands the mixed operators take (the extension: "Type T must be convertible to float"),
// and the type an operation with one of them is computed in: float, or a wider floating-point
// type that the operand brings, as C++'s usual arithmetic conversions with float would choose.
template <typename T, typename Self>
inline constexpr bool is_bfloat16_operand_v =
    !std::is_same_v<std::remove_cv_t<T>, Self> && std::is_convertible_v<const T&, float>;
template <typename T>
using bfloat16_compute_t =
    std::conditional_t<std::is_floating_point_v<T> && (sizeof(T) > sizeof(float)), T, float>;

} // namespace detail

namespace ext::oneapi {

class bfloat16 {
  // One rounding from the type an operation was computed in.
  template <typename C>
  static constexpr bfloat16 rounded(C value) {
    if constexpr (std::is_same_v<C, float>)
      return from_bits(::sycl::detail::float_to_bfloat16_bits(value));
    else
      return from_bits(::sycl::detail::double_to_bfloat16_bits(static_cast<double>(value)));
  }

public:
  bfloat16() = default;
  constexpr bfloat16(const bfloat16&) = default;
  constexpr bfloat16& operator=(const bfloat16&) = default;
  ~bfloat16() = default;

  // Table 1: from float (round to nearest even) and from sycl::half (exact in float, so rounded
  // once). Integers and double reach the float constructor through a standard conversion.
  constexpr bfloat16(const float& a) : m_bits(::sycl::detail::float_to_bfloat16_bits(a)) {}
  constexpr bfloat16& operator=(const float& a) {
    m_bits = ::sycl::detail::float_to_bfloat16_bits(a);
    return *this;
  }
  constexpr bfloat16(const half& a) : bfloat16(static_cast<float>(a)) {}
  constexpr bfloat16& operator=(const half& a) { return *this = static_cast<float>(a); }

  constexpr operator float() const { return ::sycl::detail::bfloat16_bits_to_float(m_bits); }
  // float -> half rounds once (to nearest even), as _Float16 conversions do on every target.
  constexpr operator half() const { return half(static_cast<float>(*this)); }
  // false for +0 and -0 only (a NaN is not zero). const, unlike the extension's synopsis, so
  // that a const bfloat16 converts too.
  explicit constexpr operator bool() const { return (m_bits & 0x7FFFu) != 0; }

  // The bits, as sycl::half offers them (the numeric limits and the math functions use them).
  static constexpr bfloat16 from_bits(std::uint16_t bits) { return bfloat16(bits_tag{}, bits); }
  constexpr std::uint16_t to_bits() const { return m_bits; }

  // The sign flips, also of zeros and NaNs. The synopsis takes `bfloat16&`; a const reference
  // accepts everything that does and const values as well.
  friend constexpr bfloat16 operator-(const bfloat16& bf) {
    return from_bits(static_cast<std::uint16_t>(bf.m_bits ^ 0x8000u));
  }

  friend constexpr bfloat16& operator++(bfloat16& bf) { return bf = bf + bfloat16(1.0f); }
  friend constexpr bfloat16& operator--(bfloat16& bf) { return bf = bf - bfloat16(1.0f); }
  friend constexpr bfloat16 operator++(bfloat16& bf, int) {
    bfloat16 old = bf;
    ++bf;
    return old;
  }
  friend constexpr bfloat16 operator--(bfloat16& bf, int) {
    bfloat16 old = bf;
    --bf;
    return old;
  }

  // + - * /: between two bfloat16 computed in float; with an operand of another type T in float
  // or in T where T is a wider floating-point type (double), then rounded once to bfloat16.
#define SYCLONE_BFLOAT16_ARITH(op)                                                                 \
  friend constexpr bfloat16 operator op(const bfloat16& lhs, const bfloat16& rhs) {                \
    return rounded(static_cast<float>(lhs) op static_cast<float>(rhs));                            \
  }                                                                                                \
  template <typename T,                                                                            \
            typename = std::enable_if_t<::sycl::detail::is_bfloat16_operand_v<T, bfloat16>>>       \
  friend constexpr bfloat16 operator op(const bfloat16& lhs, const T& rhs) {                       \
    using C = ::sycl::detail::bfloat16_compute_t<T>;                                               \
    return rounded(static_cast<C>(static_cast<float>(lhs)) op static_cast<C>(rhs));                \
  }                                                                                                \
  template <typename T,                                                                            \
            typename = std::enable_if_t<::sycl::detail::is_bfloat16_operand_v<T, bfloat16>>>       \
  friend constexpr bfloat16 operator op(const T& lhs, const bfloat16& rhs) {                       \
    using C = ::sycl::detail::bfloat16_compute_t<T>;                                               \
    return rounded(static_cast<C>(lhs) op static_cast<C>(static_cast<float>(rhs)));                \
  }                                                                                                \
  friend constexpr bfloat16& operator op## = (bfloat16 & lhs, const bfloat16& rhs) {               \
    return lhs = lhs op rhs;                                                                       \
  }
  SYCLONE_BFLOAT16_ARITH(+)
  SYCLONE_BFLOAT16_ARITH(-)
  SYCLONE_BFLOAT16_ARITH(*)
  SYCLONE_BFLOAT16_ARITH(/)
#undef SYCLONE_BFLOAT16_ARITH

  // == != < > <= >=: IEEE comparisons of the values (a NaN is unordered, -0 == +0), in float or
  // in a wider floating-point type T, where widening is exact.
#define SYCLONE_BFLOAT16_COMPARE(op)                                                               \
  friend constexpr bool operator op(const bfloat16& lhs, const bfloat16& rhs) {                    \
    return static_cast<float>(lhs) op static_cast<float>(rhs);                                     \
  }                                                                                                \
  template <typename T,                                                                            \
            typename = std::enable_if_t<::sycl::detail::is_bfloat16_operand_v<T, bfloat16>>>       \
  friend constexpr bool operator op(const bfloat16& lhs, const T& rhs) {                           \
    using C = ::sycl::detail::bfloat16_compute_t<T>;                                               \
    return static_cast<C>(static_cast<float>(lhs)) op static_cast<C>(rhs);                         \
  }                                                                                                \
  template <typename T,                                                                            \
            typename = std::enable_if_t<::sycl::detail::is_bfloat16_operand_v<T, bfloat16>>>       \
  friend constexpr bool operator op(const T& lhs, const bfloat16& rhs) {                           \
    using C = ::sycl::detail::bfloat16_compute_t<T>;                                               \
    return static_cast<C>(lhs) op static_cast<C>(static_cast<float>(rhs));                         \
  }
  SYCLONE_BFLOAT16_COMPARE(==)
  SYCLONE_BFLOAT16_COMPARE(!=)
  SYCLONE_BFLOAT16_COMPARE(<)
  SYCLONE_BFLOAT16_COMPARE(>)
  SYCLONE_BFLOAT16_COMPARE(<=)
  SYCLONE_BFLOAT16_COMPARE(>=)
#undef SYCLONE_BFLOAT16_COMPARE

private:
  struct bits_tag {};
  constexpr bfloat16(bits_tag, std::uint16_t bits) : m_bits(bits) {}

  std::uint16_t m_bits;
};

static_assert(sizeof(bfloat16) == 2 && alignof(bfloat16) == 2,
              "bfloat16 occupies 16 bits, as the extension's overview says");
static_assert(std::is_trivially_copyable_v<bfloat16> && std::is_standard_layout_v<bfloat16>,
              "bfloat16 is device copyable and bit_cast-able");

} // namespace ext::oneapi
SYCLONE_END_NAMESPACE

namespace std {
// bfloat16's limits: 8 significand bits (7 stored), float's exponent range, subnormals,
// infinities and NaNs, round to nearest even.
template <>
class numeric_limits<sycl::ext::oneapi::bfloat16> {
  using bfloat16 = sycl::ext::oneapi::bfloat16;

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
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  static constexpr bfloat16 min() noexcept { return bfloat16::from_bits(0x0080); }
  static constexpr bfloat16 lowest() noexcept { return bfloat16::from_bits(0xFF7F); }
  static constexpr bfloat16 max() noexcept { return bfloat16::from_bits(0x7F7F); }
  static constexpr bfloat16 epsilon() noexcept { return bfloat16::from_bits(0x3C00); }
  static constexpr bfloat16 round_error() noexcept { return bfloat16::from_bits(0x3F00); }
  static constexpr bfloat16 infinity() noexcept { return bfloat16::from_bits(0x7F80); }
  static constexpr bfloat16 quiet_NaN() noexcept { return bfloat16::from_bits(0x7FC0); }
  static constexpr bfloat16 signaling_NaN() noexcept { return bfloat16::from_bits(0x7FA0); }
  static constexpr bfloat16 denorm_min() noexcept { return bfloat16::from_bits(0x0001); }
};
} // namespace std
