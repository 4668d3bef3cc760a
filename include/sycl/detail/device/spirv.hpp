// SPIR-V device builtins (DESIGN.md "Target mapping", SPIR-V column), for kernels that
// syclone++ -fsycl-targets=spirv64 compiles with clang's SYCL device mode and LLVM's SPIR-V
// backend lowers. The backend recognizes a call to a declared function by its demangled name:
// __spirv_BuiltIn<X>(dim) becomes a load of the BuiltIn variable X (SPIR-V 1.6 section 3.21),
// __spirv_<Op>(...) the instruction Op, __spirv_ocl_<f>(...) OpExtInst of OpenCL.std. Every other
// external function is kept as an Import-linkage declaration: syclone's own markers
// (__syclone_spec_constant, __syclone_spirv_*prefetch), which the link step resolves.
//
// Dimensions: SYCL's last dimension is the fastest varying one and maps to SPIR-V's x (as on
// NVIDIA), so a work-group's linear local id is SPIR-V's LocalInvocationIndex.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/rmw_op.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

std::size_t __spirv_BuiltInLocalInvocationId(int dim);
std::size_t __spirv_BuiltInWorkgroupId(int dim);
std::size_t __spirv_BuiltInWorkgroupSize(int dim);
std::size_t __spirv_BuiltInNumWorkgroups(int dim);
// SPIR-V 3.32.20 OpControlBarrier(Execution scope, Memory scope, Memory semantics).
void __spirv_ControlBarrier(int execution, int memory, int semantics);
// SPIR-V 3.32.18 OpAtomicCompareExchange(Pointer, Memory scope, Equal semantics, Unequal
// semantics, Value, Comparator): the value before.
std::uint32_t __spirv_AtomicCompareExchange(std::uint32_t* p, int scope, int equal, int unequal,
                                            std::uint32_t value, std::uint32_t comparator);
std::uint64_t __spirv_AtomicCompareExchange(std::uint64_t* p, int scope, int equal, int unequal,
                                            std::uint64_t value, std::uint64_t comparator);

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
inline constexpr bool is_host = false;
// Only the host device runs kernels among host code (host.hpp).
inline constexpr bool in_host_kernel() noexcept {
  return false;
}
struct host_kernel_scope {
  host_kernel_scope() noexcept {}
};

// SPIR-V 3.27 Scope <id> values.
inline constexpr int spirv_scope_device = 1;
inline constexpr int spirv_scope_workgroup = 2;
inline constexpr int spirv_scope_subgroup = 3;
// SPIR-V 3.25 Memory Semantics bits: the ordering, and the storage classes it applies to.
inline constexpr int spirv_semantics_acq_rel = 0x8;
inline constexpr int spirv_semantics_workgroup_memory = 0x100;
inline constexpr int spirv_semantics_cross_workgroup_memory = 0x200;
// SYCL 2020 4.17.3 group_barrier: the barrier is also an acquire-release fence at the group's
// scope, and (SYCL 2020 3.8.3.1) covers both local and global memory.
inline constexpr int spirv_barrier_semantics = spirv_semantics_acq_rel |
                                               spirv_semantics_workgroup_memory |
                                               spirv_semantics_cross_workgroup_memory;

// The work-group's local memory (local accessors): a Workgroup-storage array that the link step
// turns into a kernel parameter sized at launch (as NVIDIA's dynamic shared memory). 16-byte
// aligned so that vector and double elements of local accessors are aligned.
extern "C" __attribute__((address_space(3), aligned(16))) std::byte __syclone_local_memory[];

SYCLONE_INLINE std::size_t local_id(int hw_dim) {
  return __spirv_BuiltInLocalInvocationId(hw_dim);
}
SYCLONE_INLINE std::size_t group_id(int hw_dim) {
  return __spirv_BuiltInWorkgroupId(hw_dim);
}
SYCLONE_INLINE std::size_t local_range(int hw_dim) {
  return __spirv_BuiltInWorkgroupSize(hw_dim);
}
SYCLONE_INLINE std::size_t group_range(int hw_dim) {
  return __spirv_BuiltInNumWorkgroups(hw_dim);
}
// The nd_range's (deprecated) offset, for khr::this_nd_item (as nvptx.hpp).
[[clang::loader_uninitialized]] inline __attribute__((address_space(3))) std::size_t nd_offset[3];
SYCLONE_INLINE void work_group_barrier() {
  __spirv_ControlBarrier(spirv_scope_workgroup, spirv_scope_workgroup, spirv_barrier_semantics);
}
// sycl_ext_oneapi_root_group: a barrier of every work-item of the kernel (execution and memory
// scope Device), for a device that launched the kernel with all its work-groups resident.
SYCLONE_INLINE void root_group_barrier() {
  __spirv_ControlBarrier(spirv_scope_device, spirv_scope_device, spirv_barrier_semantics);
}
// sycl_ext_oneapi_local_memory: memory of the work-group for one group_local_memory call. Each
// call becomes a shared-memory variable of its own (src/passes/group_local_memory.cpp, run by the
// JIT and by syclone++'s SPIR-V lowering).
extern "C" void* __syclone_group_local_memory(std::size_t bytes, std::size_t alignment) noexcept;
// (Constants in the call: the pass reads them, even at -O0.)
template <std::size_t Bytes, std::size_t Alignment>
SYCLONE_INLINE void* group_local_allocation() {
  return __syclone_group_local_memory(Bytes, Alignment);
}
// sycl_ext_oneapi_work_group_static: the work-group's storage of the variable at `object`, a
// shared-memory variable per work_group_static variable (the same pass).
extern "C" void* __syclone_work_group_static(const void* object, std::size_t bytes,
                                             std::size_t alignment) noexcept;
template <std::size_t Bytes, std::size_t Alignment>
SYCLONE_INLINE void* work_group_static_storage(const void* object) {
  return __syclone_work_group_static(object, Bytes, Alignment);
}
SYCLONE_INLINE std::byte* local_memory() noexcept {
  return (std::byte*)&__syclone_local_memory[0];
}
// Hierarchical kernels run one work-item per work-group here (no pass spreads them over the
// work-group yet); the hooks exist so that target-independent templates resolve them.
inline constexpr bool hierarchical_spread = false;
SYCLONE_INLINE void hierarchical_group_scope() {}
SYCLONE_INLINE void hierarchical_work_item_scope() {}
SYCLONE_INLINE void hierarchical_private(const void*) {}
// Only GPU targets spread work-group scope over threads and report private_memory misuse
// through an error slot (nvptx.hpp); named here so target-independent code resolves the names.
SYCLONE_INLINE void hierarchical_set_error_slot(std::uint64_t*) {}
SYCLONE_INLINE void hierarchical_report_misuse(std::size_t, std::size_t) {}
SYCLONE_INLINE std::uint32_t hierarchical_item_serial() {
  return 0;
}
SYCLONE_INLINE std::size_t hierarchical_local_linear_id() {
  return 0;
}
SYCLONE_INLINE bool hierarchical_stream_items() noexcept {
  return false;
}
SYCLONE_INLINE void hierarchical_enter_item() {}
SYCLONE_INLINE void hierarchical_leave_item() noexcept {}
// A specialization constant's value: the link step replaces each call with an OpSpecConstant
// load (DESIGN.md: native specialization on SPIR-V); `name` is the specialization_id's
// __builtin_sycl_unique_stable_name.
extern "C" void __syclone_spec_constant(const char* name, void* value, std::size_t size);
} // namespace detail::dev
SYCLONE_END_NAMESPACE

#include <sycl/detail/device/spirv_group.hpp>

// C library math called directly in kernels (sqrtf, exp ...; the seed examples do). The device
// has no C library: these declarations give the C functions the symbols of the OpenCL C
// built-ins of the same name and meaning (the Itanium-mangled sqrt(float) is _Z4sqrtf), which
// LLVM's SPIR-V backend lowers to the OpenCL.std extended instructions.
#include <math.h>
extern "C" {
#define SYCLONE_SPIRV_LIBM1(name, len)                                                             \
  float name##f(float) noexcept __asm__("_Z" #len #name "f");                                      \
  double name(double) noexcept __asm__("_Z" #len #name "d");
#define SYCLONE_SPIRV_LIBM2(name, len)                                                             \
  float name##f(float, float) noexcept __asm__("_Z" #len #name "ff");                              \
  double name(double, double) noexcept __asm__("_Z" #len #name "dd");
SYCLONE_SPIRV_LIBM1(acos, 4)
SYCLONE_SPIRV_LIBM1(acosh, 5)
SYCLONE_SPIRV_LIBM1(asin, 4)
SYCLONE_SPIRV_LIBM1(asinh, 5)
SYCLONE_SPIRV_LIBM1(atan, 4)
SYCLONE_SPIRV_LIBM1(atanh, 5)
SYCLONE_SPIRV_LIBM1(cbrt, 4)
SYCLONE_SPIRV_LIBM1(ceil, 4)
SYCLONE_SPIRV_LIBM1(cos, 3)
SYCLONE_SPIRV_LIBM1(cosh, 4)
SYCLONE_SPIRV_LIBM1(erf, 3)
SYCLONE_SPIRV_LIBM1(erfc, 4)
SYCLONE_SPIRV_LIBM1(exp, 3)
SYCLONE_SPIRV_LIBM1(exp2, 4)
SYCLONE_SPIRV_LIBM1(expm1, 5)
SYCLONE_SPIRV_LIBM1(fabs, 4)
SYCLONE_SPIRV_LIBM1(floor, 5)
SYCLONE_SPIRV_LIBM1(lgamma, 6)
SYCLONE_SPIRV_LIBM1(log, 3)
SYCLONE_SPIRV_LIBM1(log10, 5)
SYCLONE_SPIRV_LIBM1(log1p, 5)
SYCLONE_SPIRV_LIBM1(log2, 4)
SYCLONE_SPIRV_LIBM1(logb, 4)
SYCLONE_SPIRV_LIBM1(rint, 4)
SYCLONE_SPIRV_LIBM1(round, 5)
SYCLONE_SPIRV_LIBM1(sin, 3)
SYCLONE_SPIRV_LIBM1(sinh, 4)
SYCLONE_SPIRV_LIBM1(sqrt, 4)
SYCLONE_SPIRV_LIBM1(tan, 3)
SYCLONE_SPIRV_LIBM1(tanh, 4)
SYCLONE_SPIRV_LIBM1(tgamma, 6)
SYCLONE_SPIRV_LIBM1(trunc, 5)
SYCLONE_SPIRV_LIBM2(atan2, 5)
SYCLONE_SPIRV_LIBM2(copysign, 8)
SYCLONE_SPIRV_LIBM2(fdim, 4)
SYCLONE_SPIRV_LIBM2(fmax, 4)
SYCLONE_SPIRV_LIBM2(fmin, 4)
SYCLONE_SPIRV_LIBM2(fmod, 4)
SYCLONE_SPIRV_LIBM2(hypot, 5)
SYCLONE_SPIRV_LIBM2(nextafter, 9)
SYCLONE_SPIRV_LIBM2(pow, 3)
SYCLONE_SPIRV_LIBM2(remainder, 9)
float fmaf(float, float, float) noexcept __asm__("_Z3fmafff");
double fma(double, double, double) noexcept __asm__("_Z3fmaddd");
#undef SYCLONE_SPIRV_LIBM1
#undef SYCLONE_SPIRV_LIBM2
}

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
  X(acosh)                                                                                         \
  X(asin)                                                                                          \
  X(asinh)                                                                                         \
  X(atan)                                                                                          \
  X(atanh)                                                                                         \
  X(cbrt)                                                                                          \
  X(ceil) X(cos) X(cosh) X(cospi) X(erf) X(erfc) X(exp) X(exp2) X(exp10) X(expm1) X(fabs) X(floor) \
      X(lgamma) X(log) X(log10) X(log1p) X(log2) X(logb) X(rint) X(round) X(rsqrt) X(sin) X(sinh)  \
          X(sinpi) X(sqrt) X(tan) X(tanh) X(tgamma) X(trunc)
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
// Floating-point read-modify-writes (OpAtomicFAddEXT, OpAtomicFMinEXT ...) need
// SPV_EXT_shader_atomic_float_add / _min_max, which not every OpenCL device has; atomic_ref runs
// them as the OpAtomicCompareExchange loop below instead. The loop calls the instruction rather
// than clang's compare-exchange builtin: LLVM 22's SPIR-V backend rejects the {value, success}
// pair of cmpxchg once InstCombine has merged it into a loop phi ("PHI node operands are not
// the same type as the result").
inline constexpr bool atomic_float_rmw_native = false;

// SPIR-V 3.25 Memory Semantics for a clang memory order, on memory of any storage class.
SYCLONE_INLINE int spirv_semantics(int order) {
  int ordering = order == __ATOMIC_RELAXED   ? 0
                 : order == __ATOMIC_CONSUME ? 0x2
                 : order == __ATOMIC_ACQUIRE ? 0x2
                 : order == __ATOMIC_RELEASE ? 0x4
                 : order == __ATOMIC_ACQ_REL ? 0x8
                                             : 0x10;
  return ordering == 0
             ? 0
             : ordering | spirv_semantics_workgroup_memory | spirv_semantics_cross_workgroup_memory;
}

// *p = compute(*p) atomically, returning the old value: a compare-exchange loop on the bits.
// clang's memory scopes (__MEMORY_SCOPE_SYSTEM 0 ... SINGLE 4) have SPIR-V's Scope numbering
// (CrossDevice 0, Device 1, Workgroup 2, Subgroup 3, Invocation 4).
template <typename T, typename Compute>
SYCLONE_INLINE T atomic_rmw_loop(T* p, Compute compute, int order, int scope) {
  using B = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  B* bits = reinterpret_cast<B*>(p);
  B old = __scoped_atomic_load_n(bits, __ATOMIC_RELAXED, scope);
  for (;;) {
    B desired = __builtin_bit_cast(B, static_cast<T>(compute(__builtin_bit_cast(T, old))));
    B seen = __spirv_AtomicCompareExchange(bits, scope, spirv_semantics(order), 0, desired, old);
    if (seen == old) return __builtin_bit_cast(T, old);
    old = seen;
  }
}
// Device-scope read-modify-writes are the builtins' own; atomic_rmw_system, which a target that
// widens them defines, is only declared.
inline constexpr bool atomic_rmw_system_scope_for_device = false;
template <rmw_op Op, typename T, typename V, typename Compute>
T atomic_rmw_system(T* p, V v, Compute compute);
SYCLONE_INLINE void atomic_fence(int order, int scope) {
  __scoped_atomic_thread_fence(order, scope);
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE

// sycl::ext::oneapi::experimental::printf (<sycl/ext/oneapi/experimental/builtins.hpp>): a call
// of the C name printf, which LLVM's SPIR-V backend writes as OpenCL.std printf once syclone++'s
// SPIR-V lowering moved its format string to the constant address space OpenCL requires
// (tools/syclone++/spirv_lowering.cpp). __SYCL_CONSTANT_AS: DPC++'s spelling, token for token.
#ifndef __SYCL_CONSTANT_AS
#define __SYCL_CONSTANT_AS __attribute__((opencl_constant))
#endif
SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
template <typename FormatT, typename... Args>
SYCLONE_INLINE int device_printf(const FormatT* format, Args... args) {
  return __builtin_printf(format, args...);
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE
