// SYCL 2020 4.17.5 - 4.17.9 (rev 8 numbering 4.17.5 - 4.17.10). Built-in functions: math
// (with native:: and half_precision::), integer, common, geometric and relational functions,
// on scalars, vec, swizzles and marray.
//
// Every function is element-wise over one scalar implementation. The scalar floating-point
// primitives are per target (detail/device/{host,nvptx,spirv}.hpp, namespace dev::math: libm on
// the host, libdevice or single PTX instructions on NVIDIA, OpenCL.std on SPIR-V); what no target
// offers directly (acospi, powr, rootn, fract, ...) is composed here from those primitives.
// sycl::half is computed in float and rounded back, which SYCL's half accuracy allows.
//
// Output arguments (frexp, modf, sincos, ...) take a multi_ptr (any writable address space) or a
// raw pointer.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/half.hpp>
#include <sycl/marray.hpp>
#include <sycl/multi_ptr.hpp>
#include <sycl/vec.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

// ---------------------------------------------------------------------------------------------
// Generic types: what a builtin argument is made of.

enum class gen_kind { none, scalar, vec, marray };

template <typename T, typename = void>
struct gen_info {
  static constexpr gen_kind kind = gen_kind::none;
  static constexpr int size = 0;
  using element = void;
  using value = void;
};
template <typename T>
struct gen_info<T, std::enable_if_t<(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) ||
                                    std::is_same_v<T, half>>> {
  static constexpr gen_kind kind = gen_kind::scalar;
  static constexpr int size = 1;
  using element = T;
  using value = T;
  template <typename U>
  using rebind = U;
};
template <typename T, int N>
struct gen_info<vec<T, N>> {
  static constexpr gen_kind kind = gen_kind::vec;
  static constexpr int size = N;
  using element = T;
  using value = vec<T, N>;
  template <typename U>
  using rebind = vec<U, N>;
};
template <typename V, int... I>
struct gen_info<swizzled_vec<V, I...>> : gen_info<typename swizzled_vec<V, I...>::vec_type> {};
template <typename T, std::size_t N>
struct gen_info<marray<T, N>> {
  static constexpr gen_kind kind = gen_kind::marray;
  static constexpr int size = static_cast<int>(N);
  using element = T;
  using value = marray<T, N>;
  template <typename U>
  using rebind = marray<U, N>;
};

template <typename T>
using value_t = typename gen_info<T>::value;
template <typename T>
using element_t = typename gen_info<T>::element;
template <typename T, typename U>
using rebind_t = typename gen_info<T>::template rebind<U>;

template <typename T>
inline constexpr bool is_fp_element_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, half>;
template <typename T>
inline constexpr bool is_int_element_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T>
inline constexpr bool is_scalar_gen_v = gen_info<T>::kind == gen_kind::scalar;
template <typename T>
inline constexpr bool is_nonscalar_gen_v =
    gen_info<T>::kind == gen_kind::vec || gen_info<T>::kind == gen_kind::marray;
template <typename T>
inline constexpr bool is_genfloat_v =
    gen_info<T>::kind != gen_kind::none && is_fp_element_v<element_t<T>>;
template <typename T>
inline constexpr bool is_genfloatf_v =
    gen_info<T>::kind != gen_kind::none && std::is_same_v<element_t<T>, float>;
// The templates of the math and relational functions (SYCL 2020 4.17.5, 4.17.10) take vec,
// marray and swizzles; their scalar forms are the separate float/double/half overloads below,
// which, like the spec's non-template overloads, accept any argument convertible to the scalar
// (a one-element swizzle, a vec<T, 1>, an int).
template <typename T>
inline constexpr bool is_nonscalar_genfloat_v = is_genfloat_v<T> && is_nonscalar_gen_v<T>;
template <typename T>
inline constexpr bool is_nonscalar_genfloatf_v = is_genfloatf_v<T> && is_nonscalar_gen_v<T>;
template <typename T>
inline constexpr bool is_geninteger_v =
    gen_info<T>::kind != gen_kind::none && is_int_element_v<element_t<T>>;
template <typename T>
inline constexpr bool is_gentype_v = is_genfloat_v<T> || is_geninteger_v<T>;
// Geometric functions take scalars and 2- to 4-element vecs and marrays.
template <typename T>
inline constexpr bool is_gengeo_v = is_genfloat_v<T> && gen_info<T>::size <= 4;

// Both arguments have the same generic type (a swizzle counts as its vec).
template <typename T1, typename T2>
inline constexpr bool same_gen_v =
    gen_info<T1>::kind != gen_kind::none && std::is_same_v<value_t<T1>, value_t<T2>>;
// T2 is the element type of the vec/marray T1 (the "scalar second argument" overloads).
template <typename T1, typename T2>
inline constexpr bool scalar_of_v = is_nonscalar_gen_v<T1> && std::is_same_v<T2, element_t<T1>>;
template <typename T1, typename T2>
inline constexpr bool same_or_scalar_v = same_gen_v<T1, T2> || scalar_of_v<T1, T2>;

template <typename T>
SYCLONE_INLINE constexpr value_t<T> materialize(const T& x) {
  if constexpr (is_swizzle_v<T>)
    return x.to_vec();
  else
    return x;
}
template <typename T>
SYCLONE_INLINE constexpr decltype(auto) element_at(const T& x, int i) {
  if constexpr (gen_info<T>::kind == gen_kind::scalar)
    return (x);
  else
    return x[i];
}

// Applies f element by element; scalar arguments are broadcast.
template <typename Ret, typename F, typename... Args>
SYCLONE_INLINE constexpr Ret map(F f, const Args&... args) {
  if constexpr (gen_info<Ret>::kind == gen_kind::scalar) {
    return f(args...);
  } else {
    Ret r;
    for (int i = 0; i < gen_info<Ret>::size; ++i) r[i] = f(element_at(args, i)...);
    return r;
  }
}
// As map, with one pointer argument receiving a second result per element.
template <typename Ret, typename Out, typename F, typename... Args>
SYCLONE_INLINE Ret map_out(F f, Out* out, const Args&... args) {
  if constexpr (gen_info<Ret>::kind == gen_kind::scalar) {
    return f(out, args...);
  } else {
    Ret r;
    for (int i = 0; i < gen_info<Ret>::size; ++i) {
      element_t<Out> o;
      r[i] = f(&o, element_at(args, i)...);
      (*out)[i] = o;
    }
    return r;
  }
}
// Relational results: bool for scalars, -1/0 in the same-size signed integer for vec (SYCL 2020
// 4.17.10), bool for marray.
template <typename T>
using relational_t = std::conditional_t<
    gen_info<T>::kind == gen_kind::scalar, bool,
    std::conditional_t<gen_info<T>::kind == gen_kind::vec, rebind_t<T, vec_compare_t<element_t<T>>>,
                       rebind_t<T, bool>>>;
template <typename T, typename F, typename... Args>
SYCLONE_INLINE relational_t<T> map_relational(F f, const Args&... args) {
  if constexpr (gen_info<T>::kind == gen_kind::scalar) {
    return f(args...);
  } else {
    relational_t<T> r;
    for (int i = 0; i < gen_info<T>::size; ++i) {
      bool b = f(element_at(args, i)...);
      if constexpr (gen_info<T>::kind == gen_kind::vec)
        r[i] = b ? -1 : 0;
      else
        r[i] = b;
    }
    return r;
  }
}

// ---------------------------------------------------------------------------------------------
// Scalar floating-point functions (float, double, half).
namespace sm {
template <typename F>
using work_t = std::conditional_t<std::is_same_v<F, half>, float, F>;

#define SYCLONE_SM_UNARY(name)                                                                     \
  SYCLONE_INLINE float name(float x) {                                                             \
    return dev::math::name(x);                                                                     \
  }                                                                                                \
  SYCLONE_INLINE double name(double x) {                                                           \
    return dev::math::name(x);                                                                     \
  }                                                                                                \
  SYCLONE_INLINE half name(half x) {                                                               \
    return half(dev::math::name(static_cast<float>(x)));                                           \
  }
#define SYCLONE_SM_BINARY(name)                                                                    \
  SYCLONE_INLINE float name(float x, float y) {                                                    \
    return dev::math::name(x, y);                                                                  \
  }                                                                                                \
  SYCLONE_INLINE double name(double x, double y) {                                                 \
    return dev::math::name(x, y);                                                                  \
  }                                                                                                \
  SYCLONE_INLINE half name(half x, half y) {                                                       \
    return half(dev::math::name(static_cast<float>(x), static_cast<float>(y)));                    \
  }
SYCLONE_SM_UNARY(acos)
SYCLONE_SM_UNARY(acosh)
SYCLONE_SM_UNARY(asin)
SYCLONE_SM_UNARY(asinh)
SYCLONE_SM_UNARY(atan)
SYCLONE_SM_UNARY(atanh)
SYCLONE_SM_UNARY(cbrt)
SYCLONE_SM_UNARY(ceil)
SYCLONE_SM_UNARY(cos)
SYCLONE_SM_UNARY(cosh)
SYCLONE_SM_UNARY(cospi)
SYCLONE_SM_UNARY(erf)
SYCLONE_SM_UNARY(erfc)
SYCLONE_SM_UNARY(exp)
SYCLONE_SM_UNARY(exp2)
SYCLONE_SM_UNARY(exp10)
SYCLONE_SM_UNARY(expm1)
SYCLONE_SM_UNARY(fabs)
SYCLONE_SM_UNARY(floor)
SYCLONE_SM_UNARY(lgamma)
SYCLONE_SM_UNARY(log)
SYCLONE_SM_UNARY(log10)
SYCLONE_SM_UNARY(log1p)
SYCLONE_SM_UNARY(log2)
SYCLONE_SM_UNARY(logb)
SYCLONE_SM_UNARY(rint)
SYCLONE_SM_UNARY(round)
SYCLONE_SM_UNARY(rsqrt)
SYCLONE_SM_UNARY(sin)
SYCLONE_SM_UNARY(sinh)
SYCLONE_SM_UNARY(sinpi)
SYCLONE_SM_UNARY(sqrt)
SYCLONE_SM_UNARY(tan)
SYCLONE_SM_UNARY(tanh)
SYCLONE_SM_UNARY(tgamma)
SYCLONE_SM_UNARY(trunc)
SYCLONE_SM_BINARY(atan2)
SYCLONE_SM_BINARY(copysign)
SYCLONE_SM_BINARY(fdim)
SYCLONE_SM_BINARY(fmax)
SYCLONE_SM_BINARY(fmin)
SYCLONE_SM_BINARY(fmod)
SYCLONE_SM_BINARY(hypot)
SYCLONE_SM_BINARY(pow)
SYCLONE_SM_BINARY(remainder)
#undef SYCLONE_SM_UNARY
#undef SYCLONE_SM_BINARY

SYCLONE_INLINE float fma(float a, float b, float c) {
  return dev::math::fma(a, b, c);
}
SYCLONE_INLINE double fma(double a, double b, double c) {
  return dev::math::fma(a, b, c);
}
SYCLONE_INLINE half fma(half a, half b, half c) {
  return half::from_native(dev::math::fma(a.native(), b.native(), c.native()));
}

SYCLONE_INLINE bool isnan(float x) {
  return __builtin_isnan(x);
}
SYCLONE_INLINE bool isnan(double x) {
  return __builtin_isnan(x);
}
SYCLONE_INLINE bool isnan(half x) {
  return __builtin_isnan(static_cast<float>(x));
}
SYCLONE_INLINE bool isinf(float x) {
  return __builtin_isinf(x);
}
SYCLONE_INLINE bool isinf(double x) {
  return __builtin_isinf(x);
}
SYCLONE_INLINE bool isinf(half x) {
  return __builtin_isinf(static_cast<float>(x));
}
SYCLONE_INLINE bool isfinite(float x) {
  return __builtin_isfinite(x);
}
SYCLONE_INLINE bool isfinite(double x) {
  return __builtin_isfinite(x);
}
SYCLONE_INLINE bool isfinite(half x) {
  return __builtin_isfinite(static_cast<float>(x));
}
SYCLONE_INLINE bool isnormal(float x) {
  return __builtin_isnormal(x);
}
SYCLONE_INLINE bool isnormal(double x) {
  return __builtin_isnormal(x);
}
SYCLONE_INLINE bool isnormal(half x) {
  // A subnormal half is a normal float: classify on the half's own exponent field.
  std::uint16_t e = x.to_bits() & 0x7C00;
  return e != 0 && e != 0x7C00;
}
SYCLONE_INLINE bool signbit(float x) {
  return __builtin_signbit(x);
}
SYCLONE_INLINE bool signbit(double x) {
  return __builtin_signbit(x);
}
SYCLONE_INLINE bool signbit(half x) {
  return (x.to_bits() & 0x8000) != 0;
}

template <typename F>
SYCLONE_INLINE F quiet_nan() {
  return std::numeric_limits<F>::quiet_NaN();
}
template <typename F>
SYCLONE_INLINE F infinity() {
  return std::numeric_limits<F>::infinity();
}

// 1/pi to the precision of F.
template <typename F>
SYCLONE_INLINE F inv_pi() {
  return static_cast<F>(0.318309886183790671537767526745028724L);
}
template <typename F>
SYCLONE_INLINE F acospi(F x) {
  return acos(x) * inv_pi<work_t<F>>();
}
SYCLONE_INLINE half acospi(half x) {
  return half(acospi(static_cast<float>(x)));
}
template <typename F>
SYCLONE_INLINE F asinpi(F x) {
  return asin(x) * inv_pi<F>();
}
SYCLONE_INLINE half asinpi(half x) {
  return half(asinpi(static_cast<float>(x)));
}
template <typename F>
SYCLONE_INLINE F atanpi(F x) {
  return atan(x) * inv_pi<F>();
}
SYCLONE_INLINE half atanpi(half x) {
  return half(atanpi(static_cast<float>(x)));
}
template <typename F>
SYCLONE_INLINE F atan2pi(F y, F x) {
  return atan2(y, x) * inv_pi<F>();
}
SYCLONE_INLINE half atan2pi(half y, half x) {
  return half(atan2pi(static_cast<float>(y), static_cast<float>(x)));
}

// tan(pi x) = sin(pi r) / cos(pi r) with x = n + r, |r| <= 1/2 (the period is 1): exact
// reduction, and the poles at r = +-1/2 divide by an exact zero.
template <typename F>
SYCLONE_INLINE F tanpi(F x) {
  if (isinf(x)) return quiet_nan<F>();
  F n = rint(x), r = x - n;
  if (r == 0) {
    F zero = copysign(F(0), x);
    return fmod(n, F(2)) != 0 ? -zero : zero;
  }
  return sinpi(r) / cospi(r);
}
SYCLONE_INLINE half tanpi(half x) {
  return half(tanpi(static_cast<float>(x)));
}

template <typename F>
SYCLONE_INLINE F fract(F x, F* iptr) {
  F fl = floor(x);
  *iptr = fl;
  if (isnan(x)) return x;
  if (isinf(x)) return copysign(F(0), x);
  // The largest value below 1, so that fract never rounds up to 1.
  constexpr F below_one = F(1) - std::numeric_limits<F>::epsilon() / 2;
  return fmin(x - fl, below_one);
}
SYCLONE_INLINE half fract(half x, half* iptr) {
  float i;
  float r = fract(static_cast<float>(x), &i);
  *iptr = half(i);
  // fract < 1 in float can round up to 1 in half.
  return fmin(half(r), half::from_bits(0x3BFF));
}

SYCLONE_INLINE float frexp(float x, int* e) {
  return dev::math::frexp(x, e);
}
SYCLONE_INLINE double frexp(double x, int* e) {
  return dev::math::frexp(x, e);
}
SYCLONE_INLINE half frexp(half x, int* e) {
  return half(dev::math::frexp(static_cast<float>(x), e));
}
SYCLONE_INLINE float ldexp(float x, int e) {
  return dev::math::ldexp(x, e);
}
SYCLONE_INLINE double ldexp(double x, int e) {
  return dev::math::ldexp(x, e);
}
SYCLONE_INLINE half ldexp(half x, int e) {
  return half(dev::math::ldexp(static_cast<float>(x), e));
}
SYCLONE_INLINE int ilogb(float x) {
  return dev::math::ilogb(x);
}
SYCLONE_INLINE int ilogb(double x) {
  return dev::math::ilogb(x);
}
SYCLONE_INLINE int ilogb(half x) {
  return dev::math::ilogb(static_cast<float>(x));
}
SYCLONE_INLINE float modf(float x, float* i) {
  return dev::math::modf(x, i);
}
SYCLONE_INLINE double modf(double x, double* i) {
  return dev::math::modf(x, i);
}
SYCLONE_INLINE half modf(half x, half* i) {
  float fi;
  float r = dev::math::modf(static_cast<float>(x), &fi);
  *i = half(fi);
  return half(r);
}
// remquo's quotient: SYCL 2020 (as OpenCL) asks for at least its 3 low bits, and libm gives just
// those; syclone gives 7, as the CTS's reference does. x is reduced modulo 128 |y| (fmod is
// exact), the floor quotient (below 128) is taken by subtracting 2^k |y| (exact: Sterbenz), and
// the 3 bits of the target's remquo say whether rounding to nearest went one above it.
template <typename F>
SYCLONE_INLINE F remquo7(F x, F y, int* q) {
  int q3 = 0;
  F r = dev::math::remquo(x, y, &q3);
  if (!isfinite(x) || !isfinite(y) || y == F(0)) {
    *q = q3;
    return r;
  }
  F ax = fabs(x), ay = fabs(y);
  F m = ldexp(ay, 7);
  F xr = isinf(m) ? ax : fmod(ax, m);
  int n = 0;
  for (int k = 6; k >= 0; --k) {
    F step = ldexp(ay, k);
    if (!isinf(step) && xr >= step) {
      xr -= step;
      n |= 1 << k;
    }
  }
  int low3 = q3 < 0 ? -q3 : q3;
  if (((n ^ low3) & 7) != 0) n += 1;
  n &= 0x7F;
  *q = signbit(x) != signbit(y) ? -n : n;
  return r;
}
SYCLONE_INLINE float remquo(float x, float y, int* q) {
  return remquo7(x, y, q);
}
SYCLONE_INLINE double remquo(double x, double y, int* q) {
  return remquo7(x, y, q);
}
SYCLONE_INLINE half remquo(half x, half y, int* q) {
  return half(remquo7(static_cast<float>(x), static_cast<float>(y), q));
}
SYCLONE_INLINE float sincos(float x, float* c) {
  return dev::math::sincos(x, c);
}
SYCLONE_INLINE double sincos(double x, double* c) {
  return dev::math::sincos(x, c);
}
SYCLONE_INLINE half sincos(half x, half* c) {
  float fc;
  float s = dev::math::sincos(static_cast<float>(x), &fc);
  *c = half(fc);
  return half(s);
}
SYCLONE_INLINE float pown(float x, int n) {
  return dev::math::pown(x, n);
}
SYCLONE_INLINE double pown(double x, int n) {
  return dev::math::pown(x, n);
}
SYCLONE_INLINE half pown(half x, int n) {
  return half(dev::math::pown(static_cast<float>(x), n));
}

SYCLONE_INLINE float nextafter(float x, float y) {
  return dev::math::nextafter(x, y);
}
SYCLONE_INLINE double nextafter(double x, double y) {
  return dev::math::nextafter(x, y);
}
// The float neighbour is not the half neighbour: step the half's own bits.
SYCLONE_INLINE half nextafter(half x, half y) {
  if (isnan(x) || isnan(y)) return half(static_cast<float>(x) + static_cast<float>(y));
  if (x == y) return y;
  return fp_step(x, y > x);
}

template <typename F>
SYCLONE_INLINE F maxmag(F x, F y) {
  F ax = fabs(x), ay = fabs(y);
  return ax > ay ? x : ay > ax ? y : fmax(x, y);
}
template <typename F>
SYCLONE_INLINE F minmag(F x, F y) {
  F ax = fabs(x), ay = fabs(y);
  return ax < ay ? x : ay < ax ? y : fmin(x, y);
}

// x^y for x >= 0, with the OpenCL powr special cases (0^0, inf^0 and 1^inf are NaN).
template <typename F>
SYCLONE_INLINE F powr(F x, F y) {
  if (x < 0 || isnan(x) || isnan(y)) return quiet_nan<F>();
  if (x == 0) return y == 0 ? quiet_nan<F>() : y < 0 ? infinity<F>() : F(0);
  if (isinf(x)) return y == 0 ? quiet_nan<F>() : y < 0 ? F(0) : infinity<F>();
  if (x == 1) return isinf(y) ? quiet_nan<F>() : F(1);
  if (y == 0) return F(1);
  return pow(x, y);
}

// The n-th root. pow(|x|, 1/n) carries the rounding error of 1/n times log|x|, so one Newton
// step on y^n = |x| follows; float goes through double.
SYCLONE_INLINE double rootn(double x, int n) {
  if (n == 0 || isnan(x)) return quiet_nan<double>();
  bool odd = (n & 1) != 0;
  if (x < 0 && !odd) return quiet_nan<double>();
  double ax = fabs(x), y;
  if (ax == 0) {
    y = n > 0 ? 0.0 : infinity<double>();
  } else if (isinf(ax)) {
    y = n > 0 ? infinity<double>() : 0.0;
  } else if (n == 1) {
    y = ax;
  } else if (n == -1) {
    y = 1.0 / ax;
  } else if (n == 2) {
    y = sqrt(ax);
  } else if (n == 3) {
    y = cbrt(ax);
  } else {
    y = pow(ax, 1.0 / n);
    double yn = pown(y, n);
    if (isfinite(yn) && yn != 0) y -= y * (1.0 - ax / yn) / n;
  }
  return odd ? copysign(y, x) : y;
}
SYCLONE_INLINE float rootn(float x, int n) {
  return static_cast<float>(rootn(static_cast<double>(x), n));
}
SYCLONE_INLINE half rootn(half x, int n) {
  return half(rootn(static_cast<double>(static_cast<float>(x)), n));
}

// lgamma and the sign of gamma: negative exactly on (-2k-1, -2k) for k >= 0.
template <typename F>
SYCLONE_INLINE F lgamma_r(F x, int* sign) {
  F v = lgamma(x);
  if (x == 0) {
    *sign = signbit(x) ? -1 : 1;
  } else if (x < 0 && !isinf(x)) {
    F fl = floor(x);
    *sign = (fl != x && fmod(fl, F(2)) != 0) ? -1 : 1;
  } else {
    *sign = 1;
  }
  return v;
}

SYCLONE_INLINE float nan(std::uint32_t code) {
  return __builtin_bit_cast(float, 0x7FC00000u | (code & 0x003FFFFFu));
}
SYCLONE_INLINE double nan(std::uint64_t code) {
  return __builtin_bit_cast(double, 0x7FF8000000000000ull | (code & 0x0007FFFFFFFFFFFFull));
}
SYCLONE_INLINE half nan(std::uint16_t code) {
  return half::from_bits(static_cast<std::uint16_t>(0x7E00u | (code & 0x01FFu)));
}
// a * b + c, fused or not as the target finds fastest (SYCL 2020: "mad ... may be fused").
template <typename F>
SYCLONE_INLINE F mad(F a, F b, F c) {
  return F(a * b + c);
}
} // namespace sm

// ---------------------------------------------------------------------------------------------
// Scalar integer functions (SYCL 2020 4.17.6), on any integral type but bool.
namespace im {
template <typename T>
using uint_t = std::make_unsigned_t<T>;
template <typename T>
inline constexpr int bits_v = static_cast<int>(sizeof(T) * 8);

template <typename T>
SYCLONE_INLINE constexpr T abs(T x) {
  if constexpr (std::is_signed_v<T>)
    return static_cast<T>(x < 0 ? uint_t<T>(uint_t<T>(0) - uint_t<T>(x)) : uint_t<T>(x));
  else
    return x;
}
template <typename T>
SYCLONE_INLINE constexpr T abs_diff(T x, T y) {
  using U = uint_t<T>;
  return static_cast<T>(x > y ? U(U(x) - U(y)) : U(U(y) - U(x)));
}
template <typename T>
SYCLONE_INLINE constexpr T add_sat(T x, T y) {
  T r{};
  if (!__builtin_add_overflow(x, y, &r)) return r;
  if constexpr (std::is_signed_v<T>)
    return y > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
  else
    return std::numeric_limits<T>::max();
}
template <typename T>
SYCLONE_INLINE constexpr T sub_sat(T x, T y) {
  T r{};
  if (!__builtin_sub_overflow(x, y, &r)) return r;
  if constexpr (std::is_signed_v<T>)
    return y < 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
  else
    return T(0);
}
// (x + y) >> 1 and (x + y + 1) >> 1 without the intermediate overflow.
template <typename T>
SYCLONE_INLINE constexpr T hadd(T x, T y) {
  return static_cast<T>((x >> 1) + (y >> 1) + (x & y & 1));
}
template <typename T>
SYCLONE_INLINE constexpr T rhadd(T x, T y) {
  return static_cast<T>((x >> 1) + (y >> 1) + ((x | y) & 1));
}
template <typename T>
SYCLONE_INLINE constexpr T clz(T x) {
  return static_cast<T>(__builtin_clzg(static_cast<uint_t<T>>(x), bits_v<T>));
}
template <typename T>
SYCLONE_INLINE constexpr T ctz(T x) {
  return static_cast<T>(__builtin_ctzg(static_cast<uint_t<T>>(x), bits_v<T>));
}
template <typename T>
SYCLONE_INLINE constexpr T popcount(T x) {
  return static_cast<T>(__builtin_popcountg(static_cast<uint_t<T>>(x)));
}
// The product at twice the width: 64-bit types use __int128 (NVPTX lowers it to mul.hi).
template <typename T>
using wide_t =
    std::conditional_t<(sizeof(T) < 8),
                       std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>,
                       std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>>;
template <typename T>
SYCLONE_INLINE constexpr T mul_hi(T x, T y) {
  using W = wide_t<T>;
  return static_cast<T>((W(x) * W(y)) >> bits_v<T>);
}
template <typename T>
SYCLONE_INLINE constexpr T mad_hi(T a, T b, T c) {
  using U = uint_t<T>;
  return static_cast<T>(U(U(mul_hi(a, b)) + U(c)));
}
template <typename T>
SYCLONE_INLINE constexpr T mad_sat(T a, T b, T c) {
  using W = wide_t<T>;
  W r = W(a) * W(b) + W(c);
  if (r > W(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  if (r < W(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  return static_cast<T>(r);
}
template <typename T>
SYCLONE_INLINE constexpr T rotate(T v, T i) {
  using U = uint_t<T>;
  U u = static_cast<U>(v);
  unsigned s = static_cast<unsigned>(static_cast<U>(i) % static_cast<U>(bits_v<T>));
  if (s == 0) return v;
  return static_cast<T>(static_cast<U>((u << s) | (u >> (bits_v<T> - s))));
}
template <typename T>
SYCLONE_INLINE constexpr T max(T x, T y) {
  return x < y ? y : x;
}
template <typename T>
SYCLONE_INLINE constexpr T min(T x, T y) {
  return y < x ? y : x;
}
template <typename T>
SYCLONE_INLINE constexpr T clamp(T x, T lo, T hi) {
  return min(max(x, lo), hi);
}
template <typename T>
using upsample_t =
    std::conditional_t<std::is_signed_v<T>, typename signed_int_of_size<2 * sizeof(T)>::type,
                       typename unsigned_int_of_size<2 * sizeof(T)>::type>;
template <typename T>
SYCLONE_INLINE constexpr upsample_t<T> upsample(T hi, uint_t<T> lo) {
  using R = upsample_t<T>;
  using UR = std::make_unsigned_t<R>;
  return static_cast<R>(static_cast<UR>(static_cast<UR>(static_cast<uint_t<T>>(hi)) << bits_v<T>) |
                        static_cast<UR>(lo));
}
// mad24/mul24: defined for operands within 24 bits, where the 32-bit product is exact.
template <typename T>
SYCLONE_INLINE constexpr T mul24(T x, T y) {
  return static_cast<T>(std::uint32_t(x) * std::uint32_t(y));
}
template <typename T>
SYCLONE_INLINE constexpr T mad24(T x, T y, T z) {
  return static_cast<T>(std::uint32_t(x) * std::uint32_t(y) + std::uint32_t(z));
}
} // namespace im

// Scalar common/geometric helpers shared by float, double and half.
template <typename F>
SYCLONE_INLINE F sign_of(F x) {
  if (sm::isnan(x)) return F(0);
  if (x > F(0)) return F(1);
  if (x < F(0)) return F(-1);
  return x;
}

// SYCL 2020 4.17.9 length: sqrt of the sum of squares, rescaled by a power of two when the sum
// over- or underflows so that large and tiny vectors keep full precision.
template <typename V>
SYCLONE_INLINE element_t<V> geo_length(const V& x) {
  using F = element_t<V>;
  using W = sm::work_t<F>;
  constexpr int n = gen_info<V>::size;
  W sum = 0, amax = 0;
  for (int i = 0; i < n; ++i) {
    W e = static_cast<W>(element_at(x, i));
    sum += e * e;
    W a = sm::fabs(e);
    amax = a > amax ? a : amax;
  }
  if (sm::isinf(amax)) return F(sm::infinity<W>());
  if (sm::isinf(sum) ||
      (sum < std::numeric_limits<W>::min() / std::numeric_limits<W>::epsilon() && amax != 0)) {
    int e = sm::ilogb(amax);
    W scaled = 0;
    for (int i = 0; i < n; ++i) {
      W s = sm::ldexp(static_cast<W>(element_at(x, i)), -e);
      scaled += s * s;
    }
    return F(sm::ldexp(sm::sqrt(scaled), e));
  }
  return F(sm::sqrt(sum));
}
} // namespace detail

// =============================================================================================
// SYCL 2020 4.17.5. Math functions.

// The scalar overloads of SYCL 2020: float, double and half, each taking any argument that
// converts to its type (one template parameter that is never deduced, so that a non-template
// ::fmin(float, float) of <cmath> still wins an unqualified call under "using namespace sycl").
#define SYCLONE_SCALAR_UNARY(ret, name, F, expr)                                                   \
  template <typename = void>                                                                       \
  SYCLONE_INLINE ret name(F x) {                                                                   \
    return expr;                                                                                   \
  }
#define SYCLONE_SCALAR_BINARY(ret, name, F1, F2, expr)                                             \
  template <typename = void>                                                                       \
  SYCLONE_INLINE ret name(F1 x, F2 y) {                                                            \
    return expr;                                                                                   \
  }
#define SYCLONE_SCALAR_TERNARY(ret, name, F, expr)                                                 \
  template <typename = void>                                                                       \
  SYCLONE_INLINE ret name(F x, F y, F z) {                                                         \
    return expr;                                                                                   \
  }
#define SYCLONE_MATH_UNARY(name)                                                                   \
  SYCLONE_SCALAR_UNARY(float, name, float, detail::sm::name(x))                                    \
  SYCLONE_SCALAR_UNARY(double, name, double, detail::sm::name(x))                                  \
  SYCLONE_SCALAR_UNARY(half, name, half, detail::sm::name(x))                                      \
  template <typename T, std::enable_if_t<detail::is_nonscalar_genfloat_v<T>>* = nullptr>           \
  SYCLONE_INLINE detail::value_t<T> name(T x) {                                                    \
    return detail::map<detail::value_t<T>>([](auto a) { return detail::sm::name(a); },             \
                                           detail::materialize(x));                                \
  }
#define SYCLONE_MATH_SCALAR_BINARY(name)                                                           \
  SYCLONE_SCALAR_BINARY(float, name, float, float, detail::sm::name(x, y))                         \
  SYCLONE_SCALAR_BINARY(double, name, double, double, detail::sm::name(x, y))                      \
  SYCLONE_SCALAR_BINARY(half, name, half, half, detail::sm::name(x, y))
#define SYCLONE_MATH_BINARY(name)                                                                  \
  SYCLONE_MATH_SCALAR_BINARY(name)                                                                 \
  template <typename T1, typename T2,                                                              \
            std::enable_if_t<detail::is_nonscalar_genfloat_v<T1> && detail::same_gen_v<T1, T2>>* = \
                nullptr>                                                                           \
  SYCLONE_INLINE detail::value_t<T1> name(T1 x, T2 y) {                                            \
    return detail::map<detail::value_t<T1>>([](auto a, auto b) { return detail::sm::name(a, b); }, \
                                            detail::materialize(x), detail::materialize(y));       \
  }
// fmin/fmax (and the common min/max/clamp below) also take a scalar second operand.
#define SYCLONE_MATH_BINARY_OR_SCALAR(name)                                                        \
  SYCLONE_MATH_SCALAR_BINARY(name)                                                                 \
  template <typename T1, typename T2,                                                              \
            std::enable_if_t<detail::is_nonscalar_genfloat_v<T1> &&                                \
                             detail::same_or_scalar_v<T1, T2>>* = nullptr>                         \
  SYCLONE_INLINE detail::value_t<T1> name(T1 x, T2 y) {                                            \
    return detail::map<detail::value_t<T1>>([](auto a, auto b) { return detail::sm::name(a, b); }, \
                                            detail::materialize(x), detail::materialize(y));       \
  }

SYCLONE_MATH_UNARY(acos)
SYCLONE_MATH_UNARY(acosh)
SYCLONE_MATH_UNARY(acospi)
SYCLONE_MATH_UNARY(asin)
SYCLONE_MATH_UNARY(asinh)
SYCLONE_MATH_UNARY(asinpi)
SYCLONE_MATH_UNARY(atan)
SYCLONE_MATH_UNARY(atanh)
SYCLONE_MATH_UNARY(atanpi)
SYCLONE_MATH_UNARY(cbrt)
SYCLONE_MATH_UNARY(ceil)
SYCLONE_MATH_UNARY(cos)
SYCLONE_MATH_UNARY(cosh)
SYCLONE_MATH_UNARY(cospi)
SYCLONE_MATH_UNARY(erf)
SYCLONE_MATH_UNARY(erfc)
SYCLONE_MATH_UNARY(exp)
SYCLONE_MATH_UNARY(exp2)
SYCLONE_MATH_UNARY(exp10)
SYCLONE_MATH_UNARY(expm1)
SYCLONE_MATH_UNARY(fabs)
SYCLONE_MATH_UNARY(floor)
SYCLONE_MATH_UNARY(lgamma)
SYCLONE_MATH_UNARY(log)
SYCLONE_MATH_UNARY(log2)
SYCLONE_MATH_UNARY(log10)
SYCLONE_MATH_UNARY(log1p)
SYCLONE_MATH_UNARY(logb)
SYCLONE_MATH_UNARY(rint)
SYCLONE_MATH_UNARY(round)
SYCLONE_MATH_UNARY(rsqrt)
SYCLONE_MATH_UNARY(sin)
SYCLONE_MATH_UNARY(sinh)
SYCLONE_MATH_UNARY(sinpi)
SYCLONE_MATH_UNARY(sqrt)
SYCLONE_MATH_UNARY(tan)
SYCLONE_MATH_UNARY(tanh)
SYCLONE_MATH_UNARY(tanpi)
SYCLONE_MATH_UNARY(tgamma)
SYCLONE_MATH_UNARY(trunc)
SYCLONE_MATH_BINARY(atan2)
SYCLONE_MATH_BINARY(atan2pi)
SYCLONE_MATH_BINARY(copysign)
SYCLONE_MATH_BINARY(fdim)
SYCLONE_MATH_BINARY(fmod)
SYCLONE_MATH_BINARY(hypot)
SYCLONE_MATH_BINARY(maxmag)
SYCLONE_MATH_BINARY(minmag)
SYCLONE_MATH_BINARY(nextafter)
SYCLONE_MATH_BINARY(pow)
SYCLONE_MATH_BINARY(powr)
SYCLONE_MATH_BINARY(remainder)
SYCLONE_MATH_BINARY_OR_SCALAR(fmax)
SYCLONE_MATH_BINARY_OR_SCALAR(fmin)

SYCLONE_SCALAR_TERNARY(float, fma, float, detail::sm::fma(x, y, z))
SYCLONE_SCALAR_TERNARY(double, fma, double, detail::sm::fma(x, y, z))
SYCLONE_SCALAR_TERNARY(half, fma, half, detail::sm::fma(x, y, z))
template <typename T1, typename T2, typename T3,
          std::enable_if_t<detail::is_nonscalar_genfloat_v<T1> && detail::same_gen_v<T1, T2> &&
                           detail::same_gen_v<T1, T3>>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> fma(T1 a, T2 b, T3 c) {
  return detail::map<detail::value_t<T1>>(
      [](auto x, auto y, auto z) { return detail::sm::fma(x, y, z); }, detail::materialize(a),
      detail::materialize(b), detail::materialize(c));
}
// a * b + c, fused or not as the target finds fastest (SYCL 2020: "mad ... may be fused").
SYCLONE_SCALAR_TERNARY(float, mad, float, detail::sm::mad(x, y, z))
SYCLONE_SCALAR_TERNARY(double, mad, double, detail::sm::mad(x, y, z))
SYCLONE_SCALAR_TERNARY(half, mad, half, detail::sm::mad(x, y, z))
template <typename T1, typename T2, typename T3,
          std::enable_if_t<detail::is_nonscalar_genfloat_v<T1> && detail::same_gen_v<T1, T2> &&
                           detail::same_gen_v<T1, T3>>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> mad(T1 a, T2 b, T3 c) {
  return detail::map<detail::value_t<T1>>([](auto x, auto y, auto z) { return x * y + z; },
                                          detail::materialize(a), detail::materialize(b),
                                          detail::materialize(c));
}

// Functions with a second result written through a pointer (SYCL 2020 4.17.5): the pointer is a
// multi_ptr to a writable element in the global, local, private or generic space (any
// decoration), or a raw pointer. Like the spec's declarations, the scalar forms are
// template <typename Ptr> float f(float x, Ptr p) (and double, half: x converts), the others
// template <typename NonScalar, typename Ptr> f(NonScalar x, Ptr p), so f<Ptr>(x, p) and
// f<NonScalar, Ptr>(x, p) name them.
namespace detail {
template <typename Ptr>
struct out_ptr_info {
  static constexpr bool valid = false;
  using type = void;
};
template <typename T>
struct out_ptr_info<T*> {
  static constexpr bool valid = !std::is_const_v<T>;
  using type = T;
};
template <typename T, access::address_space Space, access::decorated Decorated>
struct out_ptr_info<multi_ptr<T, Space, Decorated>> {
  static constexpr bool valid =
      !std::is_const_v<T> && Space != access::address_space::constant_space;
  using type = T;
};
template <typename Ptr, typename Elem>
inline constexpr bool out_ptr_of_v =
    out_ptr_info<Ptr>::valid && std::is_same_v<typename out_ptr_info<Ptr>::type, Elem>;
template <typename T>
using int_out_t = rebind_t<T, int>;
template <typename Ptr>
SYCLONE_INLINE auto out_raw(Ptr p) {
  if constexpr (std::is_pointer_v<Ptr>)
    return p;
  else
    return p.get_raw();
}
} // namespace detail

#define SYCLONE_OUT_SCALAR(F, name, Elem)                                                          \
  template <typename Ptr, std::enable_if_t<detail::out_ptr_of_v<Ptr, Elem>>* = nullptr>            \
  SYCLONE_INLINE F name(F x, Ptr p) {                                                              \
    return detail::sm::name(x, detail::out_raw(p));                                                \
  }
// SameOut: the pointer's element is x's type; IntOut: int, or the int vector/marray of x's size.
#define SYCLONE_OUT_NONSCALAR(name, Out, ...)                                                      \
  template <typename T, typename Ptr,                                                              \
            std::enable_if_t<detail::is_nonscalar_genfloat_v<T> &&                                 \
                             detail::out_ptr_of_v<Ptr, Out>>* = nullptr>                           \
  SYCLONE_INLINE detail::value_t<T> name(T x, Ptr p) {                                             \
    return detail::map_out<detail::value_t<T>>(__VA_ARGS__, detail::out_raw(p),                    \
                                               detail::materialize(x));                            \
  }
#define SYCLONE_OUT_SAME(name, ...)                                                                \
  SYCLONE_OUT_SCALAR(float, name, float)                                                           \
  SYCLONE_OUT_SCALAR(double, name, double)                                                         \
  SYCLONE_OUT_SCALAR(half, name, half)                                                             \
  SYCLONE_OUT_NONSCALAR(name, detail::value_t<T>, __VA_ARGS__)
#define SYCLONE_OUT_INT(name, ...)                                                                 \
  SYCLONE_OUT_SCALAR(float, name, int)                                                             \
  SYCLONE_OUT_SCALAR(double, name, int)                                                            \
  SYCLONE_OUT_SCALAR(half, name, int)                                                              \
  SYCLONE_OUT_NONSCALAR(name, detail::int_out_t<T>, __VA_ARGS__)
SYCLONE_OUT_SAME(fract, [](auto* i, auto a) { return detail::sm::fract(a, i); })
SYCLONE_OUT_SAME(modf, [](auto* i, auto a) { return detail::sm::modf(a, i); })
SYCLONE_OUT_SAME(sincos, [](auto* c, auto a) { return detail::sm::sincos(a, c); })
SYCLONE_OUT_INT(frexp, [](int* e, auto a) { return detail::sm::frexp(a, e); })
SYCLONE_OUT_INT(lgamma_r, [](int* s, auto a) { return detail::sm::lgamma_r(a, s); })
#undef SYCLONE_OUT_SAME
#undef SYCLONE_OUT_INT
#undef SYCLONE_OUT_NONSCALAR
#undef SYCLONE_OUT_SCALAR

#define SYCLONE_REMQUO_SCALAR(F)                                                                   \
  template <typename Ptr, std::enable_if_t<detail::out_ptr_of_v<Ptr, int>>* = nullptr>             \
  SYCLONE_INLINE F remquo(F x, F y, Ptr quo) {                                                     \
    return detail::sm::remquo(x, y, detail::out_raw(quo));                                         \
  }
SYCLONE_REMQUO_SCALAR(float)
SYCLONE_REMQUO_SCALAR(double)
SYCLONE_REMQUO_SCALAR(half)
#undef SYCLONE_REMQUO_SCALAR
template <typename T1, typename T2, typename Ptr,
          std::enable_if_t<detail::is_nonscalar_genfloat_v<T1> && detail::same_gen_v<T1, T2> &&
                           detail::out_ptr_of_v<Ptr, detail::rebind_t<T1, int>>>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> remquo(T1 x, T2 y, Ptr quo) {
  return detail::map_out<detail::value_t<T1>>(
      [](int* q, auto a, auto b) { return detail::sm::remquo(a, b, q); }, detail::out_raw(quo),
      detail::materialize(x), detail::materialize(y));
}

SYCLONE_SCALAR_UNARY(int, ilogb, float, detail::sm::ilogb(x))
SYCLONE_SCALAR_UNARY(int, ilogb, double, detail::sm::ilogb(x))
SYCLONE_SCALAR_UNARY(int, ilogb, half, detail::sm::ilogb(x))
template <typename T, std::enable_if_t<detail::is_nonscalar_genfloat_v<T>>* = nullptr>
SYCLONE_INLINE detail::rebind_t<T, int> ilogb(T x) {
  return detail::map<detail::rebind_t<T, int>>([](auto a) { return detail::sm::ilogb(a); },
                                               detail::materialize(x));
}
// ldexp(x, k): k has x's shape, or is one int for every element.
#define SYCLONE_MATH_SCALAR_INT_ARG(name)                                                          \
  SYCLONE_SCALAR_BINARY(float, name, float, int, detail::sm::name(x, y))                           \
  SYCLONE_SCALAR_BINARY(double, name, double, int, detail::sm::name(x, y))                         \
  SYCLONE_SCALAR_BINARY(half, name, half, int, detail::sm::name(x, y))
SYCLONE_MATH_SCALAR_INT_ARG(ldexp)
SYCLONE_MATH_SCALAR_INT_ARG(pown)
SYCLONE_MATH_SCALAR_INT_ARG(rootn)
#undef SYCLONE_MATH_SCALAR_INT_ARG
template <
    typename T1, typename T2,
    std::enable_if_t<detail::is_nonscalar_genfloat_v<T1> &&
                     (detail::same_gen_v<detail::rebind_t<T1, int>, T2> ||
                      (detail::is_nonscalar_gen_v<T1> && std::is_same_v<T2, int>))>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> ldexp(T1 x, T2 k) {
  return detail::map<detail::value_t<T1>>([](auto a, int e) { return detail::sm::ldexp(a, e); },
                                          detail::materialize(x), detail::materialize(k));
}
template <typename T1, typename T2,
          std::enable_if_t<detail::is_nonscalar_genfloat_v<T1> &&
                           detail::same_gen_v<detail::rebind_t<T1, int>, T2>>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> pown(T1 x, T2 n) {
  return detail::map<detail::value_t<T1>>([](auto a, int e) { return detail::sm::pown(a, e); },
                                          detail::materialize(x), detail::materialize(n));
}
template <typename T1, typename T2,
          std::enable_if_t<detail::is_nonscalar_genfloat_v<T1> &&
                           detail::same_gen_v<detail::rebind_t<T1, int>, T2>>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> rootn(T1 x, T2 n) {
  return detail::map<detail::value_t<T1>>([](auto a, int e) { return detail::sm::rootn(a, e); },
                                          detail::materialize(x), detail::materialize(n));
}

namespace detail {
// nan(): unsigned 32-bit codes give float, 64-bit double, 16-bit half.
template <typename U>
using nan_result_element_t =
    std::conditional_t<sizeof(U) == 4, float, std::conditional_t<sizeof(U) == 8, double, half>>;
template <typename E>
constexpr bool is_nan_code_element() {
  if constexpr (std::is_integral_v<E> && std::is_unsigned_v<E> && !std::is_same_v<E, bool>)
    return sizeof(E) == 2 || sizeof(E) == 4 || sizeof(E) == 8;
  else
    return false;
}
template <typename T>
inline constexpr bool is_nan_code_v = is_nonscalar_gen_v<T> && is_nan_code_element<element_t<T>>();
} // namespace detail
// The scalar forms are SYCL 2020's float nan(uint32_t), double nan(uint64_t), half nan(uint16_t):
// an argument converting to one of them (a class with a conversion operator) selects it; the other
// 64-bit unsigned type (unsigned long long or unsigned long) has its own double overload.
SYCLONE_SCALAR_UNARY(float, nan, std::uint32_t, detail::sm::nan(x))
SYCLONE_SCALAR_UNARY(double, nan, std::uint64_t, detail::sm::nan(x))
SYCLONE_SCALAR_UNARY(half, nan, std::uint16_t, detail::sm::nan(x))
template <typename T, std::enable_if_t<std::is_same_v<T, unsigned long long> &&
                                       !std::is_same_v<T, std::uint64_t>>* = nullptr>
SYCLONE_INLINE double nan(T nancode) {
  return detail::sm::nan(static_cast<std::uint64_t>(nancode));
}
template <typename T,
          std::enable_if_t<std::is_same_v<T, unsigned long> && !std::is_same_v<T, std::uint64_t> &&
                           sizeof(T) == 8>* = nullptr>
SYCLONE_INLINE double nan(T nancode) {
  return detail::sm::nan(static_cast<std::uint64_t>(nancode));
}
template <typename T, std::enable_if_t<detail::is_nan_code_v<T>>* = nullptr>
SYCLONE_INLINE detail::rebind_t<T, detail::nan_result_element_t<detail::element_t<T>>>
nan(T nancode) {
  using R = detail::rebind_t<T, detail::nan_result_element_t<detail::element_t<T>>>;
  return detail::map<R>(
      [](auto c) {
        using C = decltype(c);
        using U =
            std::conditional_t<sizeof(C) == 2, std::uint16_t,
                               std::conditional_t<sizeof(C) == 4, std::uint32_t, std::uint64_t>>;
        return detail::sm::nan(static_cast<U>(c));
      },
      detail::materialize(nancode));
}

// SYCL 2020 4.17.5: native:: (implementation-defined accuracy, fastest) and half_precision::
// (at least 8192 ulp accuracy; the precise functions satisfy it) for float types.
#define SYCLONE_NATIVE_UNARY(ns, name, impl)                                                       \
  namespace ns {                                                                                   \
  SYCLONE_SCALAR_UNARY(float, name, float, impl(x))                                                \
  template <typename T, std::enable_if_t<detail::is_nonscalar_genfloatf_v<T>>* = nullptr>          \
  SYCLONE_INLINE detail::value_t<T> name(T x) {                                                    \
    return detail::map<detail::value_t<T>>([](float a) { return impl(a); },                        \
                                           detail::materialize(x));                                \
  }                                                                                                \
  }
#define SYCLONE_NATIVE_BINARY(ns, name, impl)                                                      \
  namespace ns {                                                                                   \
  SYCLONE_SCALAR_BINARY(float, name, float, float, impl(x, y))                                     \
  template <typename T1, typename T2,                                                              \
            std::enable_if_t<detail::is_nonscalar_genfloatf_v<T1> &&                               \
                             detail::same_gen_v<T1, T2>>* = nullptr>                               \
  SYCLONE_INLINE detail::value_t<T1> name(T1 x, T2 y) {                                            \
    return detail::map<detail::value_t<T1>>([](float a, float b) { return impl(a, b); },           \
                                            detail::materialize(x), detail::materialize(y));       \
  }                                                                                                \
  }
SYCLONE_NATIVE_UNARY(native, cos, detail::dev::math::native_cos)
SYCLONE_NATIVE_UNARY(native, exp, detail::dev::math::native_exp)
SYCLONE_NATIVE_UNARY(native, exp2, detail::dev::math::native_exp2)
SYCLONE_NATIVE_UNARY(native, exp10, detail::dev::math::native_exp10)
SYCLONE_NATIVE_UNARY(native, log, detail::dev::math::native_log)
SYCLONE_NATIVE_UNARY(native, log2, detail::dev::math::native_log2)
SYCLONE_NATIVE_UNARY(native, log10, detail::dev::math::native_log10)
SYCLONE_NATIVE_UNARY(native, recip, detail::dev::math::native_recip)
SYCLONE_NATIVE_UNARY(native, rsqrt, detail::dev::math::native_rsqrt)
SYCLONE_NATIVE_UNARY(native, sin, detail::dev::math::native_sin)
SYCLONE_NATIVE_UNARY(native, sqrt, detail::dev::math::native_sqrt)
SYCLONE_NATIVE_UNARY(native, tan, detail::dev::math::native_tan)
SYCLONE_NATIVE_BINARY(native, divide, detail::dev::math::native_divide)
SYCLONE_NATIVE_BINARY(native, powr, detail::dev::math::native_powr)

namespace detail::sm {
SYCLONE_INLINE float recip(float x) {
  return 1.0f / x;
}
SYCLONE_INLINE float divide(float x, float y) {
  return x / y;
}
} // namespace detail::sm
SYCLONE_NATIVE_UNARY(half_precision, cos, detail::sm::cos)
SYCLONE_NATIVE_UNARY(half_precision, exp, detail::sm::exp)
SYCLONE_NATIVE_UNARY(half_precision, exp2, detail::sm::exp2)
SYCLONE_NATIVE_UNARY(half_precision, exp10, detail::sm::exp10)
SYCLONE_NATIVE_UNARY(half_precision, log, detail::sm::log)
SYCLONE_NATIVE_UNARY(half_precision, log2, detail::sm::log2)
SYCLONE_NATIVE_UNARY(half_precision, log10, detail::sm::log10)
SYCLONE_NATIVE_UNARY(half_precision, recip, detail::sm::recip)
SYCLONE_NATIVE_UNARY(half_precision, rsqrt, detail::sm::rsqrt)
SYCLONE_NATIVE_UNARY(half_precision, sin, detail::sm::sin)
SYCLONE_NATIVE_UNARY(half_precision, sqrt, detail::sm::sqrt)
SYCLONE_NATIVE_UNARY(half_precision, tan, detail::sm::tan)
SYCLONE_NATIVE_BINARY(half_precision, divide, detail::sm::divide)
SYCLONE_NATIVE_BINARY(half_precision, powr, detail::sm::powr)
#undef SYCLONE_NATIVE_UNARY
#undef SYCLONE_NATIVE_BINARY

// =============================================================================================
// SYCL 2020 4.17.6. Integer functions.

#define SYCLONE_INT_UNARY(name)                                                                    \
  template <typename T, std::enable_if_t<detail::is_geninteger_v<T>>* = nullptr>                   \
  SYCLONE_INLINE detail::value_t<T> name(T x) {                                                    \
    return detail::map<detail::value_t<T>>([](auto a) { return detail::im::name(a); },             \
                                           detail::materialize(x));                                \
  }
#define SYCLONE_INT_BINARY(name)                                                                   \
  template <typename T1, typename T2,                                                              \
            std::enable_if_t<detail::is_geninteger_v<T1> && detail::same_gen_v<T1, T2>>* =         \
                nullptr>                                                                           \
  SYCLONE_INLINE detail::value_t<T1> name(T1 x, T2 y) {                                            \
    return detail::map<detail::value_t<T1>>([](auto a, auto b) { return detail::im::name(a, b); }, \
                                            detail::materialize(x), detail::materialize(y));       \
  }
#define SYCLONE_INT_TERNARY(name, cond)                                                            \
  template <typename T1, typename T2, typename T3,                                                 \
            std::enable_if_t<detail::is_geninteger_v<T1> && (cond) &&                              \
                             detail::same_gen_v<T1, T2> && detail::same_gen_v<T1, T3>>* = nullptr> \
  SYCLONE_INLINE detail::value_t<T1> name(T1 x, T2 y, T3 z) {                                      \
    return detail::map<detail::value_t<T1>>(                                                       \
        [](auto a, auto b, auto c) { return detail::im::name(a, b, c); }, detail::materialize(x),  \
        detail::materialize(y), detail::materialize(z));                                           \
  }
SYCLONE_INT_UNARY(abs)
SYCLONE_INT_UNARY(clz)
SYCLONE_INT_UNARY(ctz)
SYCLONE_INT_UNARY(popcount)
SYCLONE_INT_BINARY(abs_diff)
SYCLONE_INT_BINARY(add_sat)
SYCLONE_INT_BINARY(hadd)
SYCLONE_INT_BINARY(rhadd)
SYCLONE_INT_BINARY(mul_hi)
SYCLONE_INT_BINARY(rotate)
SYCLONE_INT_BINARY(sub_sat)
SYCLONE_INT_TERNARY(mad_hi, true)
SYCLONE_INT_TERNARY(mad_sat, true)
SYCLONE_INT_TERNARY(mad24, sizeof(detail::element_t<T1>) == 4)
#undef SYCLONE_INT_UNARY
#undef SYCLONE_INT_BINARY
#undef SYCLONE_INT_TERNARY

template <typename T1, typename T2,
          std::enable_if_t<detail::is_geninteger_v<T1> && detail::same_gen_v<T1, T2> &&
                           sizeof(detail::element_t<T1>) == 4>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> mul24(T1 x, T2 y) {
  return detail::map<detail::value_t<T1>>([](auto a, auto b) { return detail::im::mul24(a, b); },
                                          detail::materialize(x), detail::materialize(y));
}

// upsample(hi, lo) = (hi << bits) | lo at twice the width; lo is hi's unsigned counterpart.
template <typename T1, typename T2,
          std::enable_if_t<
              detail::is_geninteger_v<T1> && sizeof(detail::element_t<T1>) <= 4 &&
              detail::same_gen_v<detail::rebind_t<T1, std::make_unsigned_t<detail::element_t<T1>>>,
                                 T2>>* = nullptr>
SYCLONE_INLINE detail::rebind_t<T1, detail::im::upsample_t<detail::element_t<T1>>> upsample(T1 hi,
                                                                                            T2 lo) {
  using R = detail::rebind_t<T1, detail::im::upsample_t<detail::element_t<T1>>>;
  return detail::map<R>([](auto h, auto l) { return detail::im::upsample(h, l); },
                        detail::materialize(hi), detail::materialize(lo));
}

// =============================================================================================
// SYCL 2020 4.17.7. Common functions (min, max and clamp also serve the integer functions).

template <typename T1, typename T2,
          std::enable_if_t<detail::is_gentype_v<T1> && detail::same_or_scalar_v<T1, T2>>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> max(T1 x, T2 y) {
  return detail::map<detail::value_t<T1>>(
      [](auto a, auto b) {
        if constexpr (detail::is_fp_element_v<decltype(a)>)
          return detail::sm::fmax(a, b);
        else
          return detail::im::max(a, b);
      },
      detail::materialize(x), detail::materialize(y));
}
template <typename T1, typename T2,
          std::enable_if_t<detail::is_gentype_v<T1> && detail::same_or_scalar_v<T1, T2>>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> min(T1 x, T2 y) {
  return detail::map<detail::value_t<T1>>(
      [](auto a, auto b) {
        if constexpr (detail::is_fp_element_v<decltype(a)>)
          return detail::sm::fmin(a, b);
        else
          return detail::im::min(a, b);
      },
      detail::materialize(x), detail::materialize(y));
}
// clamp(x, lo, hi): lo and hi both of x's type, or both its element type.
template <
    typename T1, typename T2, typename T3,
    std::enable_if_t<detail::is_gentype_v<T1> &&
                     ((detail::same_gen_v<T1, T2> && detail::same_gen_v<T1, T3>) ||
                      (detail::scalar_of_v<T1, T2> && detail::scalar_of_v<T1, T3>))>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> clamp(T1 x, T2 minval, T3 maxval) {
  return detail::map<detail::value_t<T1>>(
      [](auto a, auto lo, auto hi) {
        if constexpr (detail::is_fp_element_v<decltype(a)>)
          return detail::sm::fmin(detail::sm::fmax(a, lo), hi);
        else
          return detail::im::clamp(a, lo, hi);
      },
      detail::materialize(x), detail::materialize(minval), detail::materialize(maxval));
}
template <typename T, std::enable_if_t<detail::is_genfloat_v<T>>* = nullptr>
SYCLONE_INLINE detail::value_t<T> degrees(T radians) {
  return detail::map<detail::value_t<T>>(
      [](auto r) {
        using F = decltype(r);
        return F(detail::sm::work_t<F>(57.295779513082320876798154814105170L) * r);
      },
      detail::materialize(radians));
}
template <typename T, std::enable_if_t<detail::is_genfloat_v<T>>* = nullptr>
SYCLONE_INLINE detail::value_t<T> radians(T degrees) {
  return detail::map<detail::value_t<T>>(
      [](auto d) {
        using F = decltype(d);
        return F(detail::sm::work_t<F>(0.017453292519943295769236907684886127L) * d);
      },
      detail::materialize(degrees));
}
// mix(x, y, a) = x + (y - x) * a; a has x's type or is its element type.
template <typename T1, typename T2, typename T3,
          std::enable_if_t<detail::is_genfloat_v<T1> && detail::same_gen_v<T1, T2> &&
                           detail::same_or_scalar_v<T1, T3>>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> mix(T1 x, T2 y, T3 a) {
  return detail::map<detail::value_t<T1>>(
      [](auto p, auto q, auto t) {
        using F = decltype(p);
        return F(p + (q - p) * t);
      },
      detail::materialize(x), detail::materialize(y), detail::materialize(a));
}
// step(edge, x): edge has x's type, or is the element type of a vec/marray/swizzle x; SYCL 2020
// declares the scalar-edge form as template <typename NonScalar> step(NonScalar::value_type,
// NonScalar), so step<V>(0.5f, v) names x's type first, and the edge converts to the element type.
template <typename T1, typename T2,
          std::enable_if_t<detail::is_genfloat_v<T2> && detail::same_gen_v<T2, T1>>* = nullptr>
SYCLONE_INLINE detail::value_t<T2> step(T1 edge, T2 x) {
  return detail::map<detail::value_t<T2>>(
      [](auto e, auto v) {
        using F = decltype(v);
        return v < e ? F(0) : F(1);
      },
      detail::materialize(edge), detail::materialize(x));
}
template <typename NonScalar,
          std::enable_if_t<detail::is_nonscalar_genfloat_v<NonScalar>>* = nullptr>
SYCLONE_INLINE detail::value_t<NonScalar> step(typename NonScalar::value_type edge, NonScalar x) {
  return detail::map<detail::value_t<NonScalar>>(
      [edge](auto v) {
        using F = decltype(v);
        return v < edge ? F(0) : F(1);
      },
      detail::materialize(x));
}
namespace detail {
// SYCL 2020 (OpenCL C's smoothstep): t = clamp((x - edge0) / (edge1 - edge0), 0, 1), then
// t * t * (3 - 2 * t), evaluated in the element type, each step rounded to it as a half, float
// or double unit computes it (for half not in float: the CTS's reference is the half formula).
template <typename F, typename E0, typename E1>
SYCLONE_INLINE F smoothstep_element(E0 e0, E1 e1, F v) {
  using W = sm::work_t<F>;
  F t = (v - F(e0)) / (F(e1) - F(e0));
  t = F(sm::fmin(sm::fmax(W(t), W(0)), W(1))); // exact: clamping rounds nothing
  return t * t * (F(3) - F(2) * t);
}
} // namespace detail
// smoothstep(edge0, edge1, x): both edges of x's type, or (template <typename NonScalar>
// smoothstep(NonScalar::value_type, NonScalar::value_type, NonScalar)) both x's element type.
template <typename T1, typename T2, typename T3,
          std::enable_if_t<detail::is_genfloat_v<T3> && detail::same_gen_v<T3, T1> &&
                           detail::same_gen_v<T3, T2>>* = nullptr>
SYCLONE_INLINE detail::value_t<T3> smoothstep(T1 edge0, T2 edge1, T3 x) {
  return detail::map<detail::value_t<T3>>(
      [](auto e0, auto e1, auto v) { return detail::smoothstep_element(e0, e1, v); },
      detail::materialize(edge0), detail::materialize(edge1), detail::materialize(x));
}
template <typename NonScalar,
          std::enable_if_t<detail::is_nonscalar_genfloat_v<NonScalar>>* = nullptr>
SYCLONE_INLINE detail::value_t<NonScalar> smoothstep(typename NonScalar::value_type edge0,
                                                     typename NonScalar::value_type edge1,
                                                     NonScalar x) {
  return detail::map<detail::value_t<NonScalar>>(
      [edge0, edge1](auto v) { return detail::smoothstep_element(edge0, edge1, v); },
      detail::materialize(x));
}
template <typename T, std::enable_if_t<detail::is_genfloat_v<T>>* = nullptr>
SYCLONE_INLINE detail::value_t<T> sign(T x) {
  return detail::map<detail::value_t<T>>([](auto a) { return detail::sign_of(a); },
                                         detail::materialize(x));
}

// =============================================================================================
// SYCL 2020 4.17.8. Geometric functions: scalars, and vec/marray of 2 to 4 elements.

template <typename T1, typename T2,
          std::enable_if_t<detail::is_gengeo_v<T1> && detail::same_gen_v<T1, T2>>* = nullptr>
SYCLONE_INLINE detail::element_t<T1> dot(T1 x, T2 y) {
  auto a = detail::materialize(x);
  auto b = detail::materialize(y);
  using F = detail::element_t<T1>;
  detail::sm::work_t<F> sum = 0;
  for (int i = 0; i < detail::gen_info<T1>::size; ++i)
    sum += detail::sm::work_t<F>(detail::element_at(a, i)) *
           detail::sm::work_t<F>(detail::element_at(b, i));
  return F(sum);
}
template <typename T1, typename T2,
          std::enable_if_t<detail::is_genfloat_v<T1> && detail::is_nonscalar_gen_v<T1> &&
                           (detail::gen_info<T1>::size == 3 || detail::gen_info<T1>::size == 4) &&
                           detail::same_gen_v<T1, T2>>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> cross(T1 x, T2 y) {
  auto a = detail::materialize(x);
  auto b = detail::materialize(y);
  detail::value_t<T1> r;
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
  if constexpr (detail::gen_info<T1>::size == 4) r[3] = 0;
  return r;
}
template <typename T, std::enable_if_t<detail::is_gengeo_v<T>>* = nullptr>
SYCLONE_INLINE detail::element_t<T> length(T x) {
  return detail::geo_length(detail::materialize(x));
}
template <typename T1, typename T2,
          std::enable_if_t<detail::is_gengeo_v<T1> && detail::same_gen_v<T1, T2>>* = nullptr>
SYCLONE_INLINE detail::element_t<T1> distance(T1 p0, T2 p1) {
  return detail::geo_length(detail::value_t<T1>(detail::materialize(p0) - detail::materialize(p1)));
}
// x / length(x); a zero vector stays zero, and infinite elements become +-1 (others +-0)
// before normalizing, as OpenCL's normalize specifies.
template <typename T, std::enable_if_t<detail::is_gengeo_v<T>>* = nullptr>
SYCLONE_INLINE detail::value_t<T> normalize(T x) {
  using V = detail::value_t<T>;
  using F = detail::element_t<T>;
  V v = detail::materialize(x);
  F len = detail::geo_length(v);
  if (len == F(0)) return v;
  if (detail::sm::isinf(len)) {
    v = detail::map<V>(
        [](F e) { return detail::sm::copysign(detail::sm::isinf(e) ? F(1) : F(0), e); }, v);
    len = detail::geo_length(v);
  }
  return detail::map<V>([len](F e) { return F(e / len); }, v);
}
// fast_*: float only, through the target's approximate square root.
template <typename T,
          std::enable_if_t<detail::is_gengeo_v<T> && detail::is_genfloatf_v<T>>* = nullptr>
SYCLONE_INLINE float fast_length(T x) {
  auto v = detail::materialize(x);
  return detail::dev::math::native_sqrt(dot(v, v));
}
template <typename T1, typename T2,
          std::enable_if_t<detail::is_gengeo_v<T1> && detail::is_genfloatf_v<T1> &&
                           detail::same_gen_v<T1, T2>>* = nullptr>
SYCLONE_INLINE float fast_distance(T1 p0, T2 p1) {
  return fast_length(detail::value_t<T1>(detail::materialize(p0) - detail::materialize(p1)));
}
template <typename T,
          std::enable_if_t<detail::is_gengeo_v<T> && detail::is_genfloatf_v<T>>* = nullptr>
SYCLONE_INLINE detail::value_t<T> fast_normalize(T x) {
  using V = detail::value_t<T>;
  V v = detail::materialize(x);
  float d = dot(v, v);
  if (d == 0.0f) return v;
  float s = detail::dev::math::native_rsqrt(d);
  return detail::map<V>([s](float e) { return e * s; }, v);
}

// =============================================================================================
// SYCL 2020 4.17.9 (rev 8: 4.17.10). Relational functions: bool for scalars, -1/0 integer
// vecs for vec, marray<bool> for marray.

#define SYCLONE_REL_BINARY(name, expr)                                                             \
  SYCLONE_SCALAR_BINARY(bool, name, float, float,                                                  \
                        [](float a, float b) -> bool { return expr; }(x, y))                       \
  SYCLONE_SCALAR_BINARY(bool, name, double, double,                                                \
                        [](double a, double b) -> bool { return expr; }(x, y))                     \
  SYCLONE_SCALAR_BINARY(bool, name, half, half, [](half a, half b) -> bool { return expr; }(x, y)) \
  template <typename T1, typename T2,                                                              \
            std::enable_if_t<detail::is_nonscalar_genfloat_v<T1> && detail::same_gen_v<T1, T2>>* = \
                nullptr>                                                                           \
  SYCLONE_INLINE detail::relational_t<T1> name(T1 x, T2 y) {                                       \
    return detail::map_relational<T1>([](auto a, auto b) -> bool { return expr; },                 \
                                      detail::materialize(x), detail::materialize(y));             \
  }
#define SYCLONE_REL_UNARY(name)                                                                    \
  SYCLONE_SCALAR_UNARY(bool, name, float, detail::sm::name(x))                                     \
  SYCLONE_SCALAR_UNARY(bool, name, double, detail::sm::name(x))                                    \
  SYCLONE_SCALAR_UNARY(bool, name, half, detail::sm::name(x))                                      \
  template <typename T, std::enable_if_t<detail::is_nonscalar_genfloat_v<T>>* = nullptr>           \
  SYCLONE_INLINE detail::relational_t<T> name(T x) {                                               \
    return detail::map_relational<T>([](auto a) -> bool { return detail::sm::name(a); },           \
                                     detail::materialize(x));                                      \
  }
SYCLONE_REL_BINARY(isequal, a == b)
SYCLONE_REL_BINARY(isnotequal, a != b)
SYCLONE_REL_BINARY(isgreater, a > b)
SYCLONE_REL_BINARY(isgreaterequal, a >= b)
SYCLONE_REL_BINARY(isless, a < b)
SYCLONE_REL_BINARY(islessequal, a <= b)
SYCLONE_REL_BINARY(islessgreater, a<b || a> b)
SYCLONE_REL_BINARY(isordered, a == a && b == b)
SYCLONE_REL_BINARY(isunordered, !(a == a && b == b))
SYCLONE_REL_UNARY(isfinite)
SYCLONE_REL_UNARY(isinf)
SYCLONE_REL_UNARY(isnan)
SYCLONE_REL_UNARY(isnormal)
SYCLONE_REL_UNARY(signbit)
#undef SYCLONE_REL_BINARY
#undef SYCLONE_REL_UNARY

namespace detail {
template <typename T>
SYCLONE_INLINE constexpr bool msb_set(T x) {
  return (static_cast<std::make_unsigned_t<T>>(x) >> (sizeof(T) * 8 - 1)) != 0;
}
template <typename T>
inline constexpr bool is_signed_int_vec_v =
    gen_info<T>::kind == gen_kind::vec && is_int_element_v<element_t<T>> &&
    std::is_signed_v<element_t<T>>;
} // namespace detail

// any/all: the most significant bit of the elements of a signed integer vec (int result, as in
// OpenCL), the elements of marray<bool>, or the sign bit of a signed integer scalar.
template <typename T, std::enable_if_t<detail::is_signed_int_vec_v<T>>* = nullptr>
SYCLONE_INLINE int any(T x) {
  auto v = detail::materialize(x);
  for (int i = 0; i < detail::gen_info<T>::size; ++i)
    if (detail::msb_set(v[i])) return 1;
  return 0;
}
template <typename T, std::enable_if_t<detail::is_signed_int_vec_v<T>>* = nullptr>
SYCLONE_INLINE int all(T x) {
  auto v = detail::materialize(x);
  for (int i = 0; i < detail::gen_info<T>::size; ++i)
    if (!detail::msb_set(v[i])) return 0;
  return 1;
}
namespace detail {
// any/all of an marray: its elements are signed integers (the most significant bit counts) or
// bools.
template <typename T>
inline constexpr bool is_any_all_marray_v = false;
template <typename T, std::size_t N>
inline constexpr bool is_any_all_marray_v<marray<T, N>> =
    std::is_same_v<T, bool> || (std::is_integral_v<T> && std::is_signed_v<T>);
template <typename T>
SYCLONE_INLINE constexpr bool any_all_true(T x) {
  if constexpr (std::is_same_v<T, bool>)
    return x;
  else
    return msb_set(x);
}
} // namespace detail
// SYCL 2020 4.17.10: template <typename NonScalar> bool any(NonScalar x) / all for an marray of
// signed integers, so any<decltype(m)>(m) names it.
template <typename T, std::enable_if_t<detail::is_any_all_marray_v<T>>* = nullptr>
SYCLONE_INLINE bool any(T x) {
  for (std::size_t i = 0; i < T::size(); ++i)
    if (detail::any_all_true(x[i])) return true;
  return false;
}
template <typename T, std::enable_if_t<detail::is_any_all_marray_v<T>>* = nullptr>
SYCLONE_INLINE bool all(T x) {
  for (std::size_t i = 0; i < T::size(); ++i)
    if (!detail::any_all_true(x[i])) return false;
  return true;
}
template <typename T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T> &&
                                       !std::is_same_v<T, bool>>* = nullptr>
SYCLONE_INLINE bool any(T x) {
  return detail::msb_set(x);
}
template <typename T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T> &&
                                       !std::is_same_v<T, bool>>* = nullptr>
SYCLONE_INLINE bool all(T x) {
  return detail::msb_set(x);
}

// bitselect(a, b, c): each result bit from b where c's bit is 1, else from a.
template <typename T1, typename T2, typename T3,
          std::enable_if_t<detail::is_gentype_v<T1> && detail::same_gen_v<T1, T2> &&
                           detail::same_gen_v<T1, T3>>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> bitselect(T1 a, T2 b, T3 c) {
  return detail::map<detail::value_t<T1>>(
      [](auto x, auto y, auto z) {
        using E = decltype(x);
        using U = typename detail::unsigned_int_of_size<sizeof(E)>::type;
        U ux = __builtin_bit_cast(U, x), uy = __builtin_bit_cast(U, y),
          uz = __builtin_bit_cast(U, z);
        return __builtin_bit_cast(E, static_cast<U>((ux & ~uz) | (uy & uz)));
      },
      detail::materialize(a), detail::materialize(b), detail::materialize(c));
}

// select(a, b, c): c ? b : a for scalars; per element of a vec, b where the most significant
// bit of c's element is set; per element of an marray, b where c's bool is true.
template <typename T, std::enable_if_t<detail::is_scalar_gen_v<T>>* = nullptr>
SYCLONE_INLINE T select(T a, T b, bool c) {
  return c ? b : a;
}
template <typename T1, typename T2, typename T3,
          std::enable_if_t<
              detail::gen_info<T1>::kind == detail::gen_kind::vec && detail::same_gen_v<T1, T2> &&
              detail::gen_info<T3>::kind == detail::gen_kind::vec &&
              detail::is_int_element_v<detail::element_t<T3>> &&
              detail::gen_info<T3>::size == detail::gen_info<T1>::size &&
              sizeof(detail::element_t<T3>) == sizeof(detail::element_t<T1>)>* = nullptr>
SYCLONE_INLINE detail::value_t<T1> select(T1 a, T2 b, T3 c) {
  return detail::map<detail::value_t<T1>>(
      [](auto x, auto y, auto z) { return detail::msb_set(z) ? y : x; }, detail::materialize(a),
      detail::materialize(b), detail::materialize(c));
}
// SYCL 2020 4.17.10 declares the marray form as select<NonScalar1, NonScalar2, NonScalar3>, so
// that select<M, M, marray<bool, N>>(a, b, c) names it with all three template arguments.
template <typename T1, typename T2, typename T3,
          std::enable_if_t<detail::is_marray_v<T1> && std::is_same_v<T1, T2> &&
                           std::is_same_v<T3, marray<bool, T1::size()>>>* = nullptr>
SYCLONE_INLINE T1 select(T1 a, T2 b, T3 c) {
  T1 r;
  for (std::size_t i = 0; i < T1::size(); ++i) r[i] = c[i] ? b[i] : a[i];
  return r;
}

#undef SYCLONE_MATH_UNARY
#undef SYCLONE_MATH_BINARY
#undef SYCLONE_MATH_BINARY_OR_SCALAR
#undef SYCLONE_MATH_SCALAR_BINARY
#undef SYCLONE_SCALAR_UNARY
#undef SYCLONE_SCALAR_BINARY
#undef SYCLONE_SCALAR_TERNARY

SYCLONE_END_NAMESPACE
