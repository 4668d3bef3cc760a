// The bfloat16 math functions: sycl_ext_oneapi_bfloat16 revision 7, "Math Functions" (namespace
// sycl::ext::oneapi), which took them over from the experimental
// sycl_ext_oneapi_bfloat16_math_functions (namespace sycl::ext::oneapi::experimental, with
// aspect::ext_oneapi_bfloat16_math_functions and SYCL_EXT_ONEAPI_BFLOAT16_MATH_FUNCTIONS). Both
// spellings name the same functions here, for T = bfloat16 and T = sycl::marray<bfloat16, N>.
//
// Every device has them (the aspect is reported by all): fabs, isnan, fmin and fmax work on the
// bits; ceil, floor, rint, trunc and sqrt are computed in float, whose results are exact
// (integral values of a bfloat16 need at most 8 bits) or correctly rounded (sqrt: float holds
// 2 * 8 + 2 bits, so the second rounding is innocuous); fma is correctly rounded through double
// and round-to-odd; the transcendental functions take the target's float function
// (detail/device/<target>.hpp: libm, libdevice, OpenCL.std), a few float ulps, which rounding to
// bfloat16 turns into its nearest value but in rare cases next to a rounding point.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/ext/oneapi/bfloat16.hpp>
#include <sycl/marray.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

template <typename T>
inline constexpr bool is_bfloat16_math_type_v = std::is_same_v<T, ext::oneapi::bfloat16>;
template <std::size_t N>
inline constexpr bool is_bfloat16_math_type_v<marray<ext::oneapi::bfloat16, N>> = true;
template <typename T>
using enable_if_bfloat16_math_t = std::enable_if_t<is_bfloat16_math_type_v<T>, T>;

// f applied to the scalar, or to each element of the marrays.
template <typename T, typename F, typename... Rest>
SYCLONE_INLINE constexpr T bfloat16_elementwise(F f, const T& x, const Rest&... rest) {
  if constexpr (std::is_same_v<T, ext::oneapi::bfloat16>) {
    return f(x, rest...);
  } else {
    T r;
    for (std::size_t i = 0; i < T::size(); ++i) r[i] = f(x[i], rest[i]...);
    return r;
  }
}

// A float function's result rounded to bfloat16.
template <typename F>
SYCLONE_INLINE ext::oneapi::bfloat16 bfloat16_through_float(F f, ext::oneapi::bfloat16 x) {
  return ext::oneapi::bfloat16(f(static_cast<float>(x)));
}

SYCLONE_INLINE constexpr bool bfloat16_isnan(ext::oneapi::bfloat16 x) {
  return (x.to_bits() & 0x7FFFu) > 0x7F80u;
}

// fma with one rounding. The product of two 8-bit significands is exact in double (and far from
// its overflow and underflow); TwoSum gives the exact error of adding c; an inexact sum with an
// even last bit steps one double towards the exact value (round to odd), which keeps it on the
// same side of every bfloat16 rounding point, and double_to_bfloat16_bits rounds once more that
// way to float and then to nearest even.
SYCLONE_INLINE ext::oneapi::bfloat16 bfloat16_fma(ext::oneapi::bfloat16 a, ext::oneapi::bfloat16 b,
                                                  ext::oneapi::bfloat16 c) {
  double product = static_cast<double>(static_cast<float>(a)) * static_cast<float>(b);
  double addend = static_cast<float>(c);
  double sum = product + addend;
  if (__builtin_isfinite(sum)) {
    double addend_part = sum - product;
    double error = (product - (sum - addend_part)) + (addend - addend_part);
    std::uint64_t bits = __builtin_bit_cast(std::uint64_t, sum);
    if (error != 0 && (bits & 1u) == 0) {
      bool away = (error > 0) == (sum > 0);
      sum = __builtin_bit_cast(double, away ? bits + 1 : bits - 1);
    }
  }
  return ext::oneapi::bfloat16::from_bits(double_to_bfloat16_bits(sum));
}

} // namespace detail

namespace ext::oneapi {

// isnan: true for a NaN; the marray form gives marray<bool, N>.
SYCLONE_INLINE constexpr bool isnan(bfloat16 x) {
  return ::sycl::detail::bfloat16_isnan(x);
}
template <std::size_t N>
SYCLONE_INLINE constexpr marray<bool, N> isnan(marray<bfloat16, N> x) {
  marray<bool, N> r;
  for (std::size_t i = 0; i < N; ++i) r[i] = ::sycl::detail::bfloat16_isnan(x[i]);
  return r;
}

// fma: a * b + c rounded once.
template <typename T>
SYCLONE_INLINE ::sycl::detail::enable_if_bfloat16_math_t<T> fma(T a, T b, T c) {
  return ::sycl::detail::bfloat16_elementwise(::sycl::detail::bfloat16_fma, a, b, c);
}

// fmax: y if x < y, else x; with one NaN the other argument, with two a NaN.
template <typename T>
SYCLONE_INLINE constexpr ::sycl::detail::enable_if_bfloat16_math_t<T> fmax(T x, T y) {
  return ::sycl::detail::bfloat16_elementwise(
      [](bfloat16 a, bfloat16 b) {
        if (::sycl::detail::bfloat16_isnan(a)) return b;
        if (::sycl::detail::bfloat16_isnan(b)) return a;
        return a < b ? b : a;
      },
      x, y);
}

// fmin: y if y < x, else x; NaNs as for fmax.
template <typename T>
SYCLONE_INLINE constexpr ::sycl::detail::enable_if_bfloat16_math_t<T> fmin(T x, T y) {
  return ::sycl::detail::bfloat16_elementwise(
      [](bfloat16 a, bfloat16 b) {
        if (::sycl::detail::bfloat16_isnan(a)) return b;
        if (::sycl::detail::bfloat16_isnan(b)) return a;
        return b < a ? b : a;
      },
      x, y);
}

// fabs: the sign bit cleared (also of a NaN).
template <typename T>
SYCLONE_INLINE constexpr ::sycl::detail::enable_if_bfloat16_math_t<T> fabs(T x) {
  return ::sycl::detail::bfloat16_elementwise(
      [](bfloat16 a) {
        return bfloat16::from_bits(static_cast<std::uint16_t>(a.to_bits() & 0x7FFFu));
      },
      x);
}

// The functions computed by the target's float function, rounded to bfloat16.
#define SYCLONE_BFLOAT16_UNARY(name)                                                               \
  template <typename T>                                                                            \
  SYCLONE_INLINE ::sycl::detail::enable_if_bfloat16_math_t<T> name(T x) {                          \
    return ::sycl::detail::bfloat16_elementwise(                                                   \
        [](bfloat16 a) {                                                                           \
          return ::sycl::detail::bfloat16_through_float(                                           \
              [](float f) { return ::sycl::detail::dev::math::name(f); }, a);                      \
        },                                                                                         \
        x);                                                                                        \
  }
SYCLONE_BFLOAT16_UNARY(ceil)
SYCLONE_BFLOAT16_UNARY(floor)
SYCLONE_BFLOAT16_UNARY(rint)
SYCLONE_BFLOAT16_UNARY(trunc)
SYCLONE_BFLOAT16_UNARY(sqrt)
SYCLONE_BFLOAT16_UNARY(rsqrt)
SYCLONE_BFLOAT16_UNARY(cos)
SYCLONE_BFLOAT16_UNARY(sin)
SYCLONE_BFLOAT16_UNARY(exp)
SYCLONE_BFLOAT16_UNARY(exp2)
SYCLONE_BFLOAT16_UNARY(exp10)
SYCLONE_BFLOAT16_UNARY(log)
SYCLONE_BFLOAT16_UNARY(log2)
SYCLONE_BFLOAT16_UNARY(log10)
#undef SYCLONE_BFLOAT16_UNARY

// sycl_ext_oneapi_bfloat16_math_functions' names for the same functions.
namespace experimental {
using oneapi::ceil;
using oneapi::cos;
using oneapi::exp;
using oneapi::exp10;
using oneapi::exp2;
using oneapi::fabs;
using oneapi::floor;
using oneapi::fma;
using oneapi::fmax;
using oneapi::fmin;
using oneapi::isnan;
using oneapi::log;
using oneapi::log10;
using oneapi::log2;
using oneapi::rint;
using oneapi::rsqrt;
using oneapi::sin;
using oneapi::sqrt;
using oneapi::trunc;
} // namespace experimental

} // namespace ext::oneapi
SYCLONE_END_NAMESPACE
