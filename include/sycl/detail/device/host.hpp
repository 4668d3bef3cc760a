// Host CPU device builtins. Work-item state lives in the host backend (src/backends/host), which
// runs nd_range work-items as fibers; these entry points reach it from inlined kernel code.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/host_loops.hpp>
#include <sycl/detail/device/rmw_op.hpp>

#include <cstddef>
#include <cstdint>

SYCLONE_BEGIN_NAMESPACE
namespace detail::host {
// Blocks the calling work-item until every work-item of its work-group arrived (SYCL 2020
// 4.17.3 group_barrier). Must be called from an nd_range kernel running on the host device.
SYCLONE_EXPORT void work_group_barrier();
// Base of the current work-group's local memory (SYCL 2020 4.7.6.11 local_accessor).
SYCLONE_EXPORT std::byte* local_memory() noexcept;
// sycl::stream (SYCL 2020 4.16): whether the launch running on this thread writes to a stream;
// then each logical work-item of a parallel_for_work_item runs between enter and leave, with
// its own stream state.
SYCLONE_EXPORT bool streams_active() noexcept;
SYCLONE_EXPORT void enter_logical_work_item();
SYCLONE_EXPORT void leave_logical_work_item() noexcept;
} // namespace detail::host

namespace detail::dev {
inline constexpr bool is_host = true;
// Kernels running on this thread: each host entry point of a kernel object (kernel_launch.hpp,
// reduction.hpp, hierarchical.hpp) holds a host_kernel_scope while the kernel's code runs. Copies
// an accessor makes there cannot outlive the kernel, whose object the command owns: they
// need neither count as owners (object_identity.hpp) nor bind to a command group.
inline thread_local unsigned host_kernel_depth = 0;
inline bool in_host_kernel() noexcept {
  return host_kernel_depth != 0;
}
struct host_kernel_scope {
  host_kernel_scope() noexcept { ++host_kernel_depth; }
  ~host_kernel_scope() { --host_kernel_depth; }
  host_kernel_scope(const host_kernel_scope&) = delete;
  host_kernel_scope& operator=(const host_kernel_scope&) = delete;
};
// Through the names the work-item loop compiler knows (host_loops.hpp).
inline void work_group_barrier() {
  __syclone_host_barrier();
}
// sycl_ext_oneapi_root_group: the work-group's leader waits for every other work-group's
// (src/backends/host/host_executor.cpp); errc::invalid outside a use_root_sync launch.
inline void root_group_barrier() {
  __syclone_host_root_barrier();
}
inline std::byte* local_memory() noexcept {
  return __syclone_host_local_memory();
}
// Hardware work-item ids exist only on GPU targets; on the host the executor passes ids to the
// kernel object. Declared so target-independent templates resolve the names; never called here.
std::size_t local_id(int hw_dim);
std::size_t group_id(int hw_dim);
std::size_t local_range(int hw_dim);
std::size_t group_range(int hw_dim);
inline std::size_t nd_offset[3]; // (GPU targets: the offset for khr::this_nd_item)
// sycl_ext_oneapi_local_memory: memory of the calling work-group for one group_local_memory call,
// which the host compile's pass plugin gives each call (a thread-local variable: a thread runs one
// work-group at a time).
// (Constants in the call: the pass reads them, even at -O0.)
template <std::size_t Bytes, std::size_t Alignment>
[[gnu::always_inline]] inline void* group_local_allocation() {
  return __syclone_host_group_local_memory(Bytes, Alignment);
}
// sycl_ext_oneapi_work_group_static: the calling work-group's storage of the variable at
// `object` (a thread-local variable per work_group_static variable, from the same pass plugin).
template <std::size_t Bytes, std::size_t Alignment>
[[gnu::always_inline]] inline void* work_group_static_storage(const void* object) {
  return __syclone_host_work_group_static(object, Bytes, Alignment);
}
// The host runs work-group scope once and each parallel_for_work_item as a loop.
inline constexpr bool hierarchical_spread = false;
inline void hierarchical_group_scope() {}
inline void hierarchical_work_item_scope() {}
inline void hierarchical_private(const void*) {}
// Only GPU targets spread work-group scope over threads and report private_memory misuse
// through an error slot (nvptx.hpp); named here so target-independent code resolves the names.
inline void hierarchical_set_error_slot(std::uint64_t*) {}
inline void hierarchical_report_misuse(std::size_t, std::size_t) {}
inline std::uint32_t hierarchical_item_serial() {
  return 0;
}
inline std::size_t hierarchical_local_linear_id() {
  return 0;
}
inline bool hierarchical_stream_items() noexcept {
  return host::streams_active();
}
inline void hierarchical_enter_item() {
  host::enter_logical_work_item();
}
inline void hierarchical_leave_item() noexcept {
  host::leave_logical_work_item();
}
// Only the GPU targets read specialization constants through the JIT; named here so that
// target-independent templates resolve the name (the host path never calls it).
extern "C" void __syclone_spec_constant(const char* name, void* value, std::size_t size);
} // namespace detail::dev
SYCLONE_END_NAMESPACE

#include <sycl/detail/device/host_group.hpp>

#include <cmath> // lgammaf_r, lgamma_r: thread-safe lgamma

// SYCL 2020 4.17.5 math builtins on the host: the C library, reached through clang's builtins.
// math.hpp builds every public function from these primitives (float and double; half is
// computed in float there). Declared by each target header with the same signatures.
SYCLONE_BEGIN_NAMESPACE
namespace detail::dev::math {
#define SYCLONE_HOST_MATH1(name)                                                                   \
  inline float name(float x) {                                                                     \
    return __builtin_##name##f(x);                                                                 \
  }                                                                                                \
  inline double name(double x) {                                                                   \
    return __builtin_##name(x);                                                                    \
  }
#define SYCLONE_HOST_MATH2(name)                                                                   \
  inline float name(float x, float y) {                                                            \
    return __builtin_##name##f(x, y);                                                              \
  }                                                                                                \
  inline double name(double x, double y) {                                                         \
    return __builtin_##name(x, y);                                                                 \
  }
SYCLONE_HOST_MATH1(acos)
SYCLONE_HOST_MATH1(acosh)
SYCLONE_HOST_MATH1(asin)
SYCLONE_HOST_MATH1(asinh)
SYCLONE_HOST_MATH1(atan)
SYCLONE_HOST_MATH1(atanh)
SYCLONE_HOST_MATH1(ceil)
SYCLONE_HOST_MATH1(cos)
SYCLONE_HOST_MATH1(cosh)
SYCLONE_HOST_MATH1(erf)
SYCLONE_HOST_MATH1(erfc)
SYCLONE_HOST_MATH1(exp)
SYCLONE_HOST_MATH1(exp2)
SYCLONE_HOST_MATH1(exp10)
SYCLONE_HOST_MATH1(expm1)
SYCLONE_HOST_MATH1(fabs)
SYCLONE_HOST_MATH1(floor)
SYCLONE_HOST_MATH1(log)
SYCLONE_HOST_MATH1(log10)
SYCLONE_HOST_MATH1(log1p)
SYCLONE_HOST_MATH1(log2)
SYCLONE_HOST_MATH1(logb)
SYCLONE_HOST_MATH1(rint)
SYCLONE_HOST_MATH1(round)
SYCLONE_HOST_MATH1(sin)
SYCLONE_HOST_MATH1(sinh)
SYCLONE_HOST_MATH1(sqrt)
SYCLONE_HOST_MATH1(tan)
SYCLONE_HOST_MATH1(tanh)
SYCLONE_HOST_MATH1(tgamma)
SYCLONE_HOST_MATH1(trunc)
SYCLONE_HOST_MATH2(atan2)
SYCLONE_HOST_MATH2(copysign)
SYCLONE_HOST_MATH2(fdim)
SYCLONE_HOST_MATH2(fmax)
SYCLONE_HOST_MATH2(fmin)
SYCLONE_HOST_MATH2(fmod)
SYCLONE_HOST_MATH2(hypot)
SYCLONE_HOST_MATH2(nextafter)
SYCLONE_HOST_MATH2(pow)
SYCLONE_HOST_MATH2(remainder)
#undef SYCLONE_HOST_MATH1
#undef SYCLONE_HOST_MATH2

inline float fma(float a, float b, float c) {
  return __builtin_fmaf(a, b, c);
}
inline double fma(double a, double b, double c) {
  return __builtin_fma(a, b, c);
}
// The product of two halves is exact in double, so only the sum rounds before the final
// rounding to half (x86-64 has no binary16 fma without AVX512-FP16).
inline _Float16 fma(_Float16 a, _Float16 b, _Float16 c) {
  return static_cast<_Float16>(static_cast<double>(a) * static_cast<double>(b) +
                               static_cast<double>(c));
}
// lgamma_r: glibc's lgamma writes the global signgam, a data race between work-items.
inline float lgamma(float x) {
  int sign;
  return ::lgammaf_r(x, &sign);
}
inline double lgamma(double x) {
  int sign;
  return ::lgamma_r(x, &sign);
}
// glibc's cbrt is up to 3-4 ulp off for double, SYCL allows 2: one Newton step in long double
// brings it to the correctly rounded result or its neighbour.
inline float cbrt(float x) {
  return __builtin_cbrtf(x);
}
inline double cbrt(double x) {
  long double y = __builtin_cbrt(x);
  if (y == 0 || __builtin_isinf(y) || __builtin_isnan(y)) return static_cast<double>(y);
  y -= (y * y * y - x) / (3 * y * y);
  return static_cast<double>(y);
}
inline float rsqrt(float x) {
  return 1.0f / __builtin_sqrtf(x);
}
inline double rsqrt(double x) {
  return 1.0 / __builtin_sqrt(x);
}
inline float frexp(float x, int* e) {
  return __builtin_frexpf(x, e);
}
inline double frexp(double x, int* e) {
  return __builtin_frexp(x, e);
}
inline float ldexp(float x, int e) {
  return __builtin_ldexpf(x, e);
}
inline double ldexp(double x, int e) {
  return __builtin_ldexp(x, e);
}
inline int ilogb(float x) {
  return __builtin_ilogbf(x);
}
inline int ilogb(double x) {
  return __builtin_ilogb(x);
}
inline float modf(float x, float* i) {
  return __builtin_modff(x, i);
}
inline double modf(double x, double* i) {
  return __builtin_modf(x, i);
}
inline float remquo(float x, float y, int* q) {
  return __builtin_remquof(x, y, q);
}
inline double remquo(double x, double y, int* q) {
  return __builtin_remquo(x, y, q);
}
inline float sincos(float x, float* c) {
  *c = __builtin_cosf(x);
  return __builtin_sinf(x);
}
inline double sincos(double x, double* c) {
  *c = __builtin_cos(x);
  return __builtin_sin(x);
}
// x^n for an integer n: pow with an exactly representable exponent (double holds every int).
inline float pown(float x, int n) {
  return static_cast<float>(__builtin_pow(static_cast<double>(x), static_cast<double>(n)));
}
inline double pown(double x, int n) {
  return __builtin_pow(x, static_cast<double>(n));
}

// sin(pi x) and cos(pi x), which glibc lacks: x = n + r with n an integer and |r| <= 1/2 is
// exact, and |r| is folded to [0, 1/4] so that the argument of sin/cos stays small.
inline double sinpi(double x) {
  if (__builtin_isinf(x)) return x - x;
  double n = __builtin_rint(x), r = x - n;
  if (r == 0) return __builtin_copysign(0.0, x);
  double ar = __builtin_fabs(r);
  constexpr double pi = 3.141592653589793238462643383279502884;
  double v = ar <= 0.25 ? __builtin_sin(pi * ar) : __builtin_cos(pi * (0.5 - ar));
  v = __builtin_copysign(v, r);
  return __builtin_fmod(n, 2.0) != 0 ? -v : v;
}
inline double cospi(double x) {
  if (__builtin_isinf(x)) return x - x;
  double n = __builtin_rint(x), ar = __builtin_fabs(x - n);
  constexpr double pi = 3.141592653589793238462643383279502884;
  double v = ar <= 0.25 ? __builtin_cos(pi * ar) : __builtin_sin(pi * (0.5 - ar));
  if (v == 0) return 0.0;
  return __builtin_fmod(n, 2.0) != 0 ? -v : v;
}
inline float sinpi(float x) {
  return static_cast<float>(sinpi(static_cast<double>(x)));
}
inline float cospi(float x) {
  return static_cast<float>(cospi(static_cast<double>(x)));
}

// SYCL 2020 4.17.5 native:: functions: the host has no faster variants than the precise ones.
inline float native_cos(float x) {
  return __builtin_cosf(x);
}
inline float native_sin(float x) {
  return __builtin_sinf(x);
}
inline float native_tan(float x) {
  return __builtin_tanf(x);
}
inline float native_exp(float x) {
  return __builtin_expf(x);
}
inline float native_exp2(float x) {
  return __builtin_exp2f(x);
}
inline float native_exp10(float x) {
  return __builtin_exp10f(x);
}
inline float native_log(float x) {
  return __builtin_logf(x);
}
inline float native_log2(float x) {
  return __builtin_log2f(x);
}
inline float native_log10(float x) {
  return __builtin_log10f(x);
}
inline float native_powr(float x, float y) {
  return __builtin_powf(x, y);
}
inline float native_sqrt(float x) {
  return __builtin_sqrtf(x);
}
inline float native_rsqrt(float x) {
  return 1.0f / __builtin_sqrtf(x);
}
inline float native_recip(float x) {
  return 1.0f / x;
}
inline float native_divide(float x, float y) {
  return x / y;
}
} // namespace detail::dev::math
SYCLONE_END_NAMESPACE

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
// SYCL 2020 4.15 atomics: clang's scoped atomic builtins honour order and scope here, so
// atomic_ref issues them directly.
inline constexpr bool atomic_rmw_needs_fences = false;
// Floating-point fetch_add/sub/min/max are native read-modify-writes; atomic_rmw_loop, which a
// target without them defines, is only declared.
inline constexpr bool atomic_float_rmw_native = true;
template <typename T, typename Compute>
T atomic_rmw_loop(T* p, Compute compute, int order, int scope);
// Device-scope read-modify-writes are the builtins' own; atomic_rmw_system, which a target that
// widens them defines, is only declared.
inline constexpr bool atomic_rmw_system_scope_for_device = false;
template <rmw_op Op, typename T, typename V, typename Compute>
T atomic_rmw_system(T* p, V v, Compute compute);
inline void atomic_fence(int order, int scope) {
  __scoped_atomic_thread_fence(order, scope);
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE

// sycl::ext::oneapi::experimental::printf (<sycl/ext/oneapi/experimental/builtins.hpp>): the C
// library's printf, called at once by the work-item's thread (stdout's own buffering applies).
// The host has no constant address space: __SYCL_CONSTANT_AS, which DPC++ programs put on their
// format strings, is empty.
#ifndef __SYCL_CONSTANT_AS
#define __SYCL_CONSTANT_AS
#endif
#include <cstdio>
SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
template <typename... Args>
inline int device_printf(const char* format, Args... args) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
  return std::printf(format, args...);
#pragma GCC diagnostic pop
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE
