// SPIR-V device builtins (the SPIR-V target issue fills these in; kernels for spirv64 are not
// compiled by syclone++ yet, so nothing here is reachable today).
#pragma once

#include <sycl/detail/config.hpp>

#include <cstddef>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
inline constexpr bool is_host = false;
void work_group_barrier();
std::byte* local_memory() noexcept;
std::size_t local_id(int hw_dim);
std::size_t group_id(int hw_dim);
std::size_t local_range(int hw_dim);
// Only the GPU targets read specialization constants through the JIT; named here so that
// target-independent templates resolve the name (the host path never calls it).
extern "C" void __syclone_spec_constant(const char* name, void* value, std::size_t size);
} // namespace detail::dev
SYCLONE_END_NAMESPACE

#include <sycl/detail/device/spirv_group.hpp>

// SYCL 2020 4.17.5 math builtins on SPIR-V: the OpenCL.std extended instructions. LLVM's SPIR-V
// backend turns calls to these (Itanium-mangled) __spirv_ocl_* declarations into OpExtInst.
#define SYCLONE_SPIRV_DECLARE1(name)                                                               \
  float __spirv_ocl_##name(float);                                                                 \
  double __spirv_ocl_##name(double);
#define SYCLONE_SPIRV_DECLARE2(name)                                                               \
  float __spirv_ocl_##name(float, float);                                                          \
  double __spirv_ocl_##name(double, double);
#define SYCLONE_SPIRV_UNARY(X)                                                                     \
  X(acos)                                                                                          \
  X(acosh) X(asin) X(asinh) X(atan) X(atanh) X(cbrt) X(ceil) X(cos) X(cosh) X(cospi) X(erf)        \
      X(erfc) X(exp) X(exp2) X(exp10) X(expm1) X(fabs) X(floor) X(lgamma) X(log) X(log10) X(log1p) \
          X(log2) X(logb) X(rint) X(round) X(rsqrt) X(sin) X(sinh) X(sinpi) X(sqrt) X(tan) X(tanh) \
              X(tgamma) X(trunc)
#define SYCLONE_SPIRV_BINARY(X)                                                                    \
  X(atan2) X(copysign) X(fdim) X(fmax) X(fmin) X(fmod) X(hypot) X(nextafter) X(pow) X(remainder)
SYCLONE_SPIRV_UNARY(SYCLONE_SPIRV_DECLARE1)
SYCLONE_SPIRV_BINARY(SYCLONE_SPIRV_DECLARE2)
float __spirv_ocl_fma(float, float, float);
double __spirv_ocl_fma(double, double, double);
_Float16 __spirv_ocl_fma(_Float16, _Float16, _Float16);
float __spirv_ocl_frexp(float, int*);
double __spirv_ocl_frexp(double, int*);
float __spirv_ocl_ldexp(float, int);
double __spirv_ocl_ldexp(double, int);
int __spirv_ocl_ilogb(float);
int __spirv_ocl_ilogb(double);
float __spirv_ocl_modf(float, float*);
double __spirv_ocl_modf(double, double*);
float __spirv_ocl_remquo(float, float, int*);
double __spirv_ocl_remquo(double, double, int*);
float __spirv_ocl_sincos(float, float*);
double __spirv_ocl_sincos(double, double*);
float __spirv_ocl_pown(float, int);
double __spirv_ocl_pown(double, int);
float __spirv_ocl_native_cos(float);
float __spirv_ocl_native_sin(float);
float __spirv_ocl_native_tan(float);
float __spirv_ocl_native_exp(float);
float __spirv_ocl_native_exp2(float);
float __spirv_ocl_native_exp10(float);
float __spirv_ocl_native_log(float);
float __spirv_ocl_native_log2(float);
float __spirv_ocl_native_log10(float);
float __spirv_ocl_native_powr(float, float);
float __spirv_ocl_native_sqrt(float);
float __spirv_ocl_native_rsqrt(float);
float __spirv_ocl_native_recip(float);
float __spirv_ocl_native_divide(float, float);

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev::math {
#define SYCLONE_SPIRV_MATH1(name)                                                                  \
  SYCLONE_INLINE float name(float x) {                                                             \
    return __spirv_ocl_##name(x);                                                                  \
  }                                                                                                \
  SYCLONE_INLINE double name(double x) {                                                           \
    return __spirv_ocl_##name(x);                                                                  \
  }
#define SYCLONE_SPIRV_MATH2(name)                                                                  \
  SYCLONE_INLINE float name(float x, float y) {                                                    \
    return __spirv_ocl_##name(x, y);                                                               \
  }                                                                                                \
  SYCLONE_INLINE double name(double x, double y) {                                                 \
    return __spirv_ocl_##name(x, y);                                                               \
  }
SYCLONE_SPIRV_UNARY(SYCLONE_SPIRV_MATH1)
SYCLONE_SPIRV_BINARY(SYCLONE_SPIRV_MATH2)
#undef SYCLONE_SPIRV_MATH1
#undef SYCLONE_SPIRV_MATH2
SYCLONE_INLINE float fma(float a, float b, float c) {
  return __spirv_ocl_fma(a, b, c);
}
SYCLONE_INLINE double fma(double a, double b, double c) {
  return __spirv_ocl_fma(a, b, c);
}
SYCLONE_INLINE _Float16 fma(_Float16 a, _Float16 b, _Float16 c) {
  return __spirv_ocl_fma(a, b, c);
}
SYCLONE_INLINE float frexp(float x, int* e) {
  return __spirv_ocl_frexp(x, e);
}
SYCLONE_INLINE double frexp(double x, int* e) {
  return __spirv_ocl_frexp(x, e);
}
SYCLONE_INLINE float ldexp(float x, int e) {
  return __spirv_ocl_ldexp(x, e);
}
SYCLONE_INLINE double ldexp(double x, int e) {
  return __spirv_ocl_ldexp(x, e);
}
SYCLONE_INLINE int ilogb(float x) {
  return __spirv_ocl_ilogb(x);
}
SYCLONE_INLINE int ilogb(double x) {
  return __spirv_ocl_ilogb(x);
}
SYCLONE_INLINE float modf(float x, float* i) {
  return __spirv_ocl_modf(x, i);
}
SYCLONE_INLINE double modf(double x, double* i) {
  return __spirv_ocl_modf(x, i);
}
SYCLONE_INLINE float remquo(float x, float y, int* q) {
  return __spirv_ocl_remquo(x, y, q);
}
SYCLONE_INLINE double remquo(double x, double y, int* q) {
  return __spirv_ocl_remquo(x, y, q);
}
SYCLONE_INLINE float sincos(float x, float* c) {
  return __spirv_ocl_sincos(x, c);
}
SYCLONE_INLINE double sincos(double x, double* c) {
  return __spirv_ocl_sincos(x, c);
}
SYCLONE_INLINE float pown(float x, int n) {
  return __spirv_ocl_pown(x, n);
}
SYCLONE_INLINE double pown(double x, int n) {
  return __spirv_ocl_pown(x, n);
}
SYCLONE_INLINE float native_cos(float x) {
  return __spirv_ocl_native_cos(x);
}
SYCLONE_INLINE float native_sin(float x) {
  return __spirv_ocl_native_sin(x);
}
SYCLONE_INLINE float native_tan(float x) {
  return __spirv_ocl_native_tan(x);
}
SYCLONE_INLINE float native_exp(float x) {
  return __spirv_ocl_native_exp(x);
}
SYCLONE_INLINE float native_exp2(float x) {
  return __spirv_ocl_native_exp2(x);
}
SYCLONE_INLINE float native_exp10(float x) {
  return __spirv_ocl_native_exp10(x);
}
SYCLONE_INLINE float native_log(float x) {
  return __spirv_ocl_native_log(x);
}
SYCLONE_INLINE float native_log2(float x) {
  return __spirv_ocl_native_log2(x);
}
SYCLONE_INLINE float native_log10(float x) {
  return __spirv_ocl_native_log10(x);
}
SYCLONE_INLINE float native_powr(float x, float y) {
  return __spirv_ocl_native_powr(x, y);
}
SYCLONE_INLINE float native_sqrt(float x) {
  return __spirv_ocl_native_sqrt(x);
}
SYCLONE_INLINE float native_rsqrt(float x) {
  return __spirv_ocl_native_rsqrt(x);
}
SYCLONE_INLINE float native_recip(float x) {
  return __spirv_ocl_native_recip(x);
}
SYCLONE_INLINE float native_divide(float x, float y) {
  return __spirv_ocl_native_divide(x, y);
}
} // namespace detail::dev::math
SYCLONE_END_NAMESPACE
#undef SYCLONE_SPIRV_DECLARE1
#undef SYCLONE_SPIRV_DECLARE2
#undef SYCLONE_SPIRV_UNARY
#undef SYCLONE_SPIRV_BINARY

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
// SYCL 2020 4.15 atomics: clang's scoped atomic builtins become OpAtomic* / OpMemoryBarrier with
// the matching Scope and memory semantics, so atomic_ref issues them directly.
inline constexpr bool atomic_rmw_needs_fences = false;
SYCLONE_INLINE void atomic_fence(int order, int scope) {
  __scoped_atomic_thread_fence(order, scope);
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE
