// NVIDIA PTX device builtins (llvm.nvvm.* through clang's __nvvm_* builtins).
// SYCL's last dimension is the fastest varying one and maps to CUDA's x.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/rmw_op.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

// assert() in device code: the C library's <assert.h> calls __assert_fail, which NVIDIA GPUs get
// from the CUDA driver as __assertfail (message, file, line, function, character size): the
// failed assertion is printed and the kernel stops with an error (CUDA_ERROR_ASSERT).
extern "C" void __assertfail(const char* message, const char* file, unsigned int line,
                             const char* function, std::size_t char_size);
extern "C" __attribute__((noreturn)) inline void __assert_fail(const char* assertion,
                                                               const char* file, unsigned int line,
                                                               const char* function) noexcept {
  __assertfail(assertion, file, line, function, 1);
  __builtin_trap();
}

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

// The work-group's local memory: CUDA dynamic shared memory, sized at launch.
// 16-byte aligned so that vector and double elements of local accessors are aligned even when
// the kernel also has static shared memory.
extern "C" __attribute__((address_space(3), aligned(16))) std::byte __syclone_local_memory[];

template <int Dimensions>
SYCLONE_INLINE std::size_t cuda_dim(int sycl_dim) {
  return static_cast<std::size_t>(Dimensions - 1 - sycl_dim);
}
SYCLONE_INLINE std::size_t local_id(int cuda_dim) {
  return cuda_dim == 0   ? __nvvm_read_ptx_sreg_tid_x()
         : cuda_dim == 1 ? __nvvm_read_ptx_sreg_tid_y()
                         : __nvvm_read_ptx_sreg_tid_z();
}
SYCLONE_INLINE std::size_t group_id(int cuda_dim) {
  return cuda_dim == 0   ? __nvvm_read_ptx_sreg_ctaid_x()
         : cuda_dim == 1 ? __nvvm_read_ptx_sreg_ctaid_y()
                         : __nvvm_read_ptx_sreg_ctaid_z();
}
SYCLONE_INLINE std::size_t local_range(int cuda_dim) {
  return cuda_dim == 0   ? __nvvm_read_ptx_sreg_ntid_x()
         : cuda_dim == 1 ? __nvvm_read_ptx_sreg_ntid_y()
                         : __nvvm_read_ptx_sreg_ntid_z();
}
SYCLONE_INLINE std::size_t group_range(int cuda_dim) {
  return cuda_dim == 0   ? __nvvm_read_ptx_sreg_nctaid_x()
         : cuda_dim == 1 ? __nvvm_read_ptx_sreg_nctaid_y()
                         : __nvvm_read_ptx_sreg_nctaid_z();
}
// The nd_range's (deprecated) offset, for khr::this_nd_item: every thread of the block stores
// the same value as an nd_range kernel starts (kernel_launch.hpp); kernels that never read it
// keep no store (the JIT internalizes the module, and the optimizer deletes stores to a variable
// nothing loads).
[[clang::loader_uninitialized]] inline __attribute__((address_space(3))) std::size_t nd_offset[3];
SYCLONE_INLINE void work_group_barrier() {
  __nvvm_barrier_sync(0);
}
// sycl_ext_oneapi_root_group: one thread of each block (the work-group's leader, between two
// work-group barriers) waits here until every block of the grid arrived. The kernel was launched
// cooperatively (use_root_sync), so every block is resident, and the driver gives the launch a
// zeroed workspace whose address the environment registers %envreg2 (low half) and %envreg1
// (high half) hold; its second 32-bit word is the arrival counter. Each block adds 1, except
// block 0, which adds 2^31 - (blocks - 1): a whole round adds exactly 2^31, so the top bit flips
// once when the last block arrives, and the counter is ready for the next round without a reset.
// Outside a cooperative launch the workspace is null: the kernel traps.
SYCLONE_INLINE void root_group_barrier() {
  std::uint32_t low, high;
  asm volatile("mov.u32 %0, %%envreg2;" : "=r"(low));
  asm volatile("mov.u32 %0, %%envreg1;" : "=r"(high));
  auto* counter = reinterpret_cast<volatile std::uint32_t*>(((std::uint64_t(high) << 32) | low) +
                                                            sizeof(std::uint32_t));
  if (low == 0 && high == 0) __builtin_trap();
  const std::uint32_t blocks = __nvvm_read_ptx_sreg_nctaid_x() * __nvvm_read_ptx_sreg_nctaid_y() *
                               __nvvm_read_ptx_sreg_nctaid_z();
  const bool first = (__nvvm_read_ptx_sreg_ctaid_x() | __nvvm_read_ptx_sreg_ctaid_y() |
                      __nvvm_read_ptx_sreg_ctaid_z()) == 0;
  const std::uint32_t add = first ? 0x80000000u - (blocks - 1) : 1u;
  __nvvm_membar_gl(); // this block's writes before the arrival
  std::uint32_t before;
  asm volatile("atom.release.gpu.add.u32 %0, [%1], %2;"
               : "=r"(before)
               : "l"(counter), "r"(add)
               : "memory");
  std::uint32_t now;
  do {
    asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(now) : "l"(counter) : "memory");
  } while (((before ^ now) & 0x80000000u) == 0);
  __nvvm_membar_gl(); // the other blocks' writes after it
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

// Hierarchical parallelism (SYCL 2020 4.9.4.2.3): a work-group is a CUDA block, one thread per
// physical work-item. The JIT's hierarchical pass (src/jit/hierarchical.cpp) finds the kernels
// and the parallel_for_work_item bodies by these markers, then runs the work-group-scope code on
// thread 0 of the block with its variables in shared memory and barriers around each
// parallel_for_work_item; each marker call is removed.
inline constexpr bool hierarchical_spread = true;
extern "C" void __syclone_hierarchical_group_scope();
extern "C" void __syclone_hierarchical_work_item_scope();
extern "C" void __syclone_hierarchical_private(const void* object);
SYCLONE_INLINE void hierarchical_group_scope() {
  __syclone_hierarchical_group_scope();
}
SYCLONE_INLINE void hierarchical_work_item_scope() {
  __syclone_hierarchical_work_item_scope();
}
SYCLONE_INLINE void hierarchical_private(const void* object) {
  __syclone_hierarchical_private(object);
}
// SYCL 2020 4.10.7.3: where a hierarchical kernel reports a private_memory used outside its
// work-group (src/runtime/hierarchical.cpp): 8 bytes of host memory the runtime reads once the
// kernel completed. The work-group scope stores the kernel's slot here (shared memory, so the
// hierarchical pass stores it once per block, before the first parallel_for_work_item).
using hierarchical_slot_ptr = std::uint64_t*;
inline __attribute__((address_space(3))) hierarchical_slot_ptr hierarchical_misuse_slot;
SYCLONE_INLINE void hierarchical_set_error_slot(std::uint64_t* slot) {
  hierarchical_misuse_slot = slot;
}
// Records the misuse (both ids are below 2^31: a launch has fewer blocks, and they differ, so the
// record is never zero) and returns: the work-item goes on with its own value, and the runtime
// reports the error when the kernel completed. One 8-byte store: concurrent misuses leave one
// whole record.
SYCLONE_INLINE void hierarchical_report_misuse(std::size_t group, std::size_t expected_group) {
  std::uint64_t* slot = hierarchical_misuse_slot;
  if (!slot) return;
  std::uint64_t record = (std::uint64_t(group) << 32) | std::uint64_t(expected_group & 0xffffffffu);
  __scoped_atomic_store_n(slot, record, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
}
// The physical work-item of a hierarchical kernel: hierarchical kernels launch 1-D blocks.
SYCLONE_INLINE std::size_t hierarchical_local_linear_id() {
  return __nvvm_read_ptx_sreg_tid_x();
}
// Each logical work-item of parallel_for_work_item has its own sycl::stream state (SYCL 2020
// 4.16), also where one thread runs several of them (a flexible range larger than the block).
// A thread's item serial tells the stream which one runs: odd inside a logical work-item, even in
// the work-group scope, and different for each work-item the thread runs. The JIT's
// hierarchical pass turns the markers into a counter per thread in shared memory, which it adds
// only to hierarchical kernels whose work-items read it (a stream's); elsewhere the serial is 0.
extern "C" std::uint32_t __syclone_hierarchical_item_serial();
extern "C" void __syclone_hierarchical_next_item();
SYCLONE_INLINE std::uint32_t hierarchical_item_serial() {
  return __syclone_hierarchical_item_serial();
}
SYCLONE_INLINE bool hierarchical_stream_items() noexcept {
  return true;
}
SYCLONE_INLINE void hierarchical_enter_item() {
  __syclone_hierarchical_next_item();
}
SYCLONE_INLINE void hierarchical_leave_item() noexcept {
  __syclone_hierarchical_next_item();
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE

#include <sycl/detail/device/nvptx_group.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
// A specialization constant's value. The JIT replaces every call with the value set for the
// launch before optimizing (DESIGN.md: native specialization on NVIDIA); `name` is the
// specialization_id's __builtin_sycl_unique_stable_name.
extern "C" void __syclone_spec_constant(const char* name, void* value, std::size_t size);
} // namespace detail::dev
SYCLONE_END_NAMESPACE

// SYCL 2020 4.17.5 math builtins on NVIDIA GPUs. What the NVPTX backend lowers to one instruction
// goes through clang's __builtin_* (sqrt.rn, fma.rn, abs, min, max, cvt.rni/rmi/rpi/rzi,
// copysign); everything else calls CUDA's libdevice (__nv_*), which the CUDA backend links into
// the module before optimizing. Host libm names (expf ...) must never reach this target: NVPTX
// cannot resolve them.
extern "C" {
#define SYCLONE_NV_DECLARE1(name)                                                                  \
  float __nv_##name##f(float);                                                                     \
  double __nv_##name(double);
#define SYCLONE_NV_DECLARE2(name)                                                                  \
  float __nv_##name##f(float, float);                                                              \
  double __nv_##name(double, double);
SYCLONE_NV_DECLARE1(acos)
SYCLONE_NV_DECLARE1(acosh)
SYCLONE_NV_DECLARE1(asin)
SYCLONE_NV_DECLARE1(asinh)
SYCLONE_NV_DECLARE1(atan)
SYCLONE_NV_DECLARE1(atanh)
SYCLONE_NV_DECLARE1(cbrt)
SYCLONE_NV_DECLARE1(cos)
SYCLONE_NV_DECLARE1(cosh)
SYCLONE_NV_DECLARE1(cospi)
SYCLONE_NV_DECLARE1(erf)
SYCLONE_NV_DECLARE1(erfc)
SYCLONE_NV_DECLARE1(exp)
SYCLONE_NV_DECLARE1(exp2)
SYCLONE_NV_DECLARE1(exp10)
SYCLONE_NV_DECLARE1(expm1)
SYCLONE_NV_DECLARE1(lgamma)
SYCLONE_NV_DECLARE1(log)
SYCLONE_NV_DECLARE1(log10)
SYCLONE_NV_DECLARE1(log1p)
SYCLONE_NV_DECLARE1(log2)
SYCLONE_NV_DECLARE1(logb)
SYCLONE_NV_DECLARE1(rsqrt)
SYCLONE_NV_DECLARE1(sin)
SYCLONE_NV_DECLARE1(sinh)
SYCLONE_NV_DECLARE1(sinpi)
SYCLONE_NV_DECLARE1(tan)
SYCLONE_NV_DECLARE1(tanh)
SYCLONE_NV_DECLARE1(tgamma)
SYCLONE_NV_DECLARE2(atan2)
SYCLONE_NV_DECLARE2(fmod)
SYCLONE_NV_DECLARE2(hypot)
SYCLONE_NV_DECLARE2(nextafter)
SYCLONE_NV_DECLARE2(pow)
SYCLONE_NV_DECLARE2(remainder)
#undef SYCLONE_NV_DECLARE1
#undef SYCLONE_NV_DECLARE2
float __nv_frexpf(float, int*);
double __nv_frexp(double, int*);
float __nv_ldexpf(float, int);
double __nv_ldexp(double, int);
int __nv_ilogbf(float);
int __nv_ilogb(double);
float __nv_modff(float, float*);
double __nv_modf(double, double*);
float __nv_remquof(float, float, int*);
double __nv_remquo(double, double, int*);
void __nv_sincosf(float, float*, float*);
void __nv_sincos(double, double*, double*);
float __nv_fast_cosf(float);
float __nv_fast_sinf(float);
float __nv_fast_tanf(float);
float __nv_fast_expf(float);
float __nv_fast_exp10f(float);
float __nv_fast_logf(float);
float __nv_fast_log2f(float);
float __nv_fast_log10f(float);
float __nv_fast_powf(float, float);
float __nv_fast_fdividef(float, float);
}

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev::math {
#define SYCLONE_NV_MATH1(name)                                                                     \
  SYCLONE_INLINE float name(float x) {                                                             \
    return __nv_##name##f(x);                                                                      \
  }                                                                                                \
  SYCLONE_INLINE double name(double x) {                                                           \
    return __nv_##name(x);                                                                         \
  }
#define SYCLONE_NV_MATH2(name)                                                                     \
  SYCLONE_INLINE float name(float x, float y) {                                                    \
    return __nv_##name##f(x, y);                                                                   \
  }                                                                                                \
  SYCLONE_INLINE double name(double x, double y) {                                                 \
    return __nv_##name(x, y);                                                                      \
  }
#define SYCLONE_NV_NATIVE1(name)                                                                   \
  SYCLONE_INLINE float name(float x) {                                                             \
    return __builtin_##name##f(x);                                                                 \
  }                                                                                                \
  SYCLONE_INLINE double name(double x) {                                                           \
    return __builtin_##name(x);                                                                    \
  }
#define SYCLONE_NV_NATIVE2(name)                                                                   \
  SYCLONE_INLINE float name(float x, float y) {                                                    \
    return __builtin_##name##f(x, y);                                                              \
  }                                                                                                \
  SYCLONE_INLINE double name(double x, double y) {                                                 \
    return __builtin_##name(x, y);                                                                 \
  }
SYCLONE_NV_MATH1(acos)
SYCLONE_NV_MATH1(acosh)
SYCLONE_NV_MATH1(asin)
SYCLONE_NV_MATH1(asinh)
SYCLONE_NV_MATH1(atan)
SYCLONE_NV_MATH1(atanh)
SYCLONE_NV_MATH1(cbrt)
SYCLONE_NV_MATH1(cos)
SYCLONE_NV_MATH1(cosh)
SYCLONE_NV_MATH1(cospi)
SYCLONE_NV_MATH1(erf)
SYCLONE_NV_MATH1(erfc)
SYCLONE_NV_MATH1(exp)
SYCLONE_NV_MATH1(exp2)
SYCLONE_NV_MATH1(exp10)
SYCLONE_NV_MATH1(expm1)
SYCLONE_NV_MATH1(lgamma)
SYCLONE_NV_MATH1(log)
SYCLONE_NV_MATH1(log10)
SYCLONE_NV_MATH1(log1p)
SYCLONE_NV_MATH1(log2)
SYCLONE_NV_MATH1(logb)
SYCLONE_NV_MATH1(rsqrt)
SYCLONE_NV_MATH1(sin)
SYCLONE_NV_MATH1(sinh)
SYCLONE_NV_MATH1(sinpi)
SYCLONE_NV_MATH1(tan)
SYCLONE_NV_MATH1(tanh)
SYCLONE_NV_MATH1(tgamma)
SYCLONE_NV_MATH2(atan2)
// fdim in plain IR, not libdevice's __nv_fdimf: that one subtracts in inline PTX
// (sub.rn.f32), which LLVM cannot fold, and with constant operands the CUDA 13 driver's JIT
// folds it to the wrong neighbour at a round-to-nearest-even tie (H100: fdim(0x3F664803,
// 0x3E2AC6B6) gave 0x3F3B9655, IEEE 0x3F3B9656; the CTS's math_builtin_float_base_1). LLVM
// folds a plain subtraction exactly, and at run time the GPU rounds it right.
SYCLONE_INLINE float fdim(float x, float y) {
  return x > y ? x - y : (x != x || y != y) ? x + y : 0.0f;
}
SYCLONE_INLINE double fdim(double x, double y) {
  return x > y ? x - y : (x != x || y != y) ? x + y : 0.0;
}
SYCLONE_NV_MATH2(fmod)
SYCLONE_NV_MATH2(hypot)
SYCLONE_NV_MATH2(nextafter)
SYCLONE_NV_MATH2(pow)
SYCLONE_NV_MATH2(remainder)
SYCLONE_NV_NATIVE1(ceil)
SYCLONE_NV_NATIVE1(fabs)
SYCLONE_NV_NATIVE1(floor)
SYCLONE_NV_NATIVE1(rint)
SYCLONE_NV_NATIVE1(round)
SYCLONE_NV_NATIVE1(sqrt)
SYCLONE_NV_NATIVE1(trunc)
SYCLONE_NV_NATIVE2(copysign)
SYCLONE_NV_NATIVE2(fmax)
SYCLONE_NV_NATIVE2(fmin)
#undef SYCLONE_NV_MATH1
#undef SYCLONE_NV_MATH2
#undef SYCLONE_NV_NATIVE1
#undef SYCLONE_NV_NATIVE2

SYCLONE_INLINE float fma(float a, float b, float c) {
  return __builtin_fmaf(a, b, c);
}
SYCLONE_INLINE double fma(double a, double b, double c) {
  return __builtin_fma(a, b, c);
}
SYCLONE_INLINE _Float16 fma(_Float16 a, _Float16 b, _Float16 c) {
  return __builtin_fmaf16(a, b, c);
}
SYCLONE_INLINE float frexp(float x, int* e) {
  return __nv_frexpf(x, e);
}
SYCLONE_INLINE double frexp(double x, int* e) {
  return __nv_frexp(x, e);
}
SYCLONE_INLINE float ldexp(float x, int e) {
  return __nv_ldexpf(x, e);
}
SYCLONE_INLINE double ldexp(double x, int e) {
  return __nv_ldexp(x, e);
}
SYCLONE_INLINE int ilogb(float x) {
  return __nv_ilogbf(x);
}
SYCLONE_INLINE int ilogb(double x) {
  return __nv_ilogb(x);
}
SYCLONE_INLINE float modf(float x, float* i) {
  return __nv_modff(x, i);
}
SYCLONE_INLINE double modf(double x, double* i) {
  return __nv_modf(x, i);
}
SYCLONE_INLINE float remquo(float x, float y, int* q) {
  return __nv_remquof(x, y, q);
}
SYCLONE_INLINE double remquo(double x, double y, int* q) {
  return __nv_remquo(x, y, q);
}
SYCLONE_INLINE float sincos(float x, float* c) {
  float s;
  __nv_sincosf(x, &s, c);
  return s;
}
SYCLONE_INLINE double sincos(double x, double* c) {
  double s;
  __nv_sincos(x, &s, c);
  return s;
}
// x^n: a float exponent is exact up to 2^24; beyond that the parity of n would be lost, so
// those (rare) calls take the double path.
SYCLONE_INLINE float pown(float x, int n) {
  if (n >= -(1 << 24) && n <= (1 << 24)) return __nv_powf(x, static_cast<float>(n));
  return static_cast<float>(__nv_pow(static_cast<double>(x), static_cast<double>(n)));
}
SYCLONE_INLINE double pown(double x, int n) {
  return __nv_pow(x, static_cast<double>(n));
}

// SYCL 2020 4.17.5 native:: functions: the SFU approximations (ex2/lg2/sin/cos.approx ...).
SYCLONE_INLINE float native_cos(float x) {
  return __nv_fast_cosf(x);
}
SYCLONE_INLINE float native_sin(float x) {
  return __nv_fast_sinf(x);
}
SYCLONE_INLINE float native_tan(float x) {
  return __nv_fast_tanf(x);
}
SYCLONE_INLINE float native_exp(float x) {
  return __nv_fast_expf(x);
}
SYCLONE_INLINE float native_exp2(float x) {
  return __nvvm_ex2_approx_f(x);
}
SYCLONE_INLINE float native_exp10(float x) {
  return __nv_fast_exp10f(x);
}
SYCLONE_INLINE float native_log(float x) {
  return __nv_fast_logf(x);
}
SYCLONE_INLINE float native_log2(float x) {
  return __nv_fast_log2f(x);
}
SYCLONE_INLINE float native_log10(float x) {
  return __nv_fast_log10f(x);
}
SYCLONE_INLINE float native_powr(float x, float y) {
  return __nv_fast_powf(x, y);
}
SYCLONE_INLINE float native_sqrt(float x) {
  return __nvvm_sqrt_approx_f(x);
}
SYCLONE_INLINE float native_rsqrt(float x) {
  return __nvvm_rsqrt_approx_f(x);
}
SYCLONE_INLINE float native_recip(float x) {
  return __nv_fast_fdividef(1.0f, x);
}
SYCLONE_INLINE float native_divide(float x, float y) {
  return __nv_fast_fdividef(x, y);
}
} // namespace detail::dev::math
SYCLONE_END_NAMESPACE

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
// SYCL 2020 4.15 atomics. LLVM 22's NVPTX backend honours order and scope (syncscope) on loads,
// stores, compare-exchange and fences, but emits every other read-modify-write as a plain atom.*
// -- relaxed, GPU scope -- whatever order the IR asked for; and clang maps no memory scope onto
// NVPTX, so its fences are all .sys. atomic_ref therefore brackets read-modify-writes with the
// scoped fences below (release: fence before, acquire: fence after), and runs device- and
// system-scope ones as the .sys-scope atom of atomic_rmw_system.
inline constexpr bool atomic_rmw_needs_fences = true;
// Floating-point fetch_add/sub/min/max are native read-modify-writes; atomic_rmw_loop, which a
// target without them defines, is only declared.
inline constexpr bool atomic_float_rmw_native = true;
template <typename T, typename Compute>
T atomic_rmw_loop(T* p, Compute compute, int order, int scope);

// Read-modify-writes of device scope run at PTX's system scope (.sys), as system-scope ones do.
// A shared (managed) allocation is accessed atomically by the host and a running kernel at once
// (aspect::usm_atomic_shared_allocations, SYCL 2020 4.6.4.3), and programs and the CTS's
// usm_atomic_access do so with memory_scope::device: there a .gpu-scope atom loses updates
// against the host's (about 2 % of 30000 adds, any type) and a .sys one loses none, while on
// device memory .sys costs what .gpu does (1 to 16M addresses, 32 and 64 bits). Measured on the
// H100: bench/cuda_native_host_atomics.cu, bench/cuda_native_atomic_scope.cu,
// bench/results/atomic_scope.md. Fences keep the scope asked for.
inline constexpr bool atomic_rmw_system_scope_for_device = true;
template <rmw_op Op, typename T, typename V, typename Compute>
SYCLONE_INLINE T atomic_rmw_system(T* p, V v, Compute compute) {
  if constexpr (Op == rmw_op::sub) {
    if constexpr (__is_floating_point(T)) {
      return atomic_rmw_system<rmw_op::add>(p, -v, compute);
    } else {
      // Two's complement negation without signed overflow (pointers: a byte difference).
      using U = std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>;
      return atomic_rmw_system<rmw_op::add>(p, static_cast<V>(U(0) - static_cast<U>(v)), compute);
    }
  } else if constexpr (__is_floating_point(T) && (Op == rmw_op::min || Op == rmw_op::max)) {
    // PTX has no floating-point atom.min/max: a system-scope compare-exchange loop.
    T old;
    __scoped_atomic_load(p, &old, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
    for (;;) {
      T desired = compute(old);
      if (__scoped_atomic_compare_exchange(p, &old, &desired, true, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM))
        return old;
    }
  } else if constexpr (sizeof(T) == 4) {
    std::uint32_t b = __builtin_bit_cast(std::uint32_t, v), r;
    constexpr bool is_signed = __is_integral(T) && T(-1) < T(0);
    if constexpr (Op == rmw_op::exchange)
      asm volatile("atom.relaxed.sys.exch.b32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(b) : "memory");
    else if constexpr (Op == rmw_op::add && __is_floating_point(T))
      asm volatile("atom.relaxed.sys.add.f32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(b) : "memory");
    else if constexpr (Op == rmw_op::add)
      asm volatile("atom.relaxed.sys.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(b) : "memory");
    else if constexpr (Op == rmw_op::min && is_signed)
      asm volatile("atom.relaxed.sys.min.s32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(b) : "memory");
    else if constexpr (Op == rmw_op::min)
      asm volatile("atom.relaxed.sys.min.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(b) : "memory");
    else if constexpr (Op == rmw_op::max && is_signed)
      asm volatile("atom.relaxed.sys.max.s32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(b) : "memory");
    else if constexpr (Op == rmw_op::max)
      asm volatile("atom.relaxed.sys.max.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(b) : "memory");
    else if constexpr (Op == rmw_op::bit_and)
      asm volatile("atom.relaxed.sys.and.b32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(b) : "memory");
    else if constexpr (Op == rmw_op::bit_or)
      asm volatile("atom.relaxed.sys.or.b32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(b) : "memory");
    else
      asm volatile("atom.relaxed.sys.xor.b32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(b) : "memory");
    return __builtin_bit_cast(T, r);
  } else {
    std::uint64_t b = __builtin_bit_cast(std::uint64_t, v), r;
    constexpr bool is_signed = __is_integral(T) && T(-1) < T(0);
    if constexpr (Op == rmw_op::exchange)
      asm volatile("atom.relaxed.sys.exch.b64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(b) : "memory");
    else if constexpr (Op == rmw_op::add && __is_floating_point(T))
      asm volatile("atom.relaxed.sys.add.f64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(b) : "memory");
    else if constexpr (Op == rmw_op::add)
      asm volatile("atom.relaxed.sys.add.u64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(b) : "memory");
    else if constexpr (Op == rmw_op::min && is_signed)
      asm volatile("atom.relaxed.sys.min.s64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(b) : "memory");
    else if constexpr (Op == rmw_op::min)
      asm volatile("atom.relaxed.sys.min.u64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(b) : "memory");
    else if constexpr (Op == rmw_op::max && is_signed)
      asm volatile("atom.relaxed.sys.max.s64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(b) : "memory");
    else if constexpr (Op == rmw_op::max)
      asm volatile("atom.relaxed.sys.max.u64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(b) : "memory");
    else if constexpr (Op == rmw_op::bit_and)
      asm volatile("atom.relaxed.sys.and.b64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(b) : "memory");
    else if constexpr (Op == rmw_op::bit_or)
      asm volatile("atom.relaxed.sys.or.b64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(b) : "memory");
    else
      asm volatile("atom.relaxed.sys.xor.b64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(b) : "memory");
    return __builtin_bit_cast(T, r);
  }
}
SYCLONE_INLINE void atomic_fence(int order, int scope) {
  if (order == __ATOMIC_RELAXED) return;
  bool sc = order == __ATOMIC_SEQ_CST;
  if (scope == __MEMORY_SCOPE_SYSTEM) {
    if (sc)
      asm volatile("fence.sc.sys;" ::: "memory");
    else
      asm volatile("fence.acq_rel.sys;" ::: "memory");
  } else if (scope == __MEMORY_SCOPE_DEVICE) {
    if (sc)
      asm volatile("fence.sc.gpu;" ::: "memory");
    else
      asm volatile("fence.acq_rel.gpu;" ::: "memory");
  } else {
    // work-group, sub-group and work-item scopes all live within one CTA.
    if (sc)
      asm volatile("fence.sc.cta;" ::: "memory");
    else
      asm volatile("fence.acq_rel.cta;" ::: "memory");
  }
}
} // namespace detail::dev
SYCLONE_END_NAMESPACE

// sycl::ext::oneapi::experimental::printf (<sycl/ext/oneapi/experimental/builtins.hpp>): clang
// lowers __builtin_printf for NVPTX to CUDA's vprintf, with the arguments packed as CUDA's printf
// packs them (promoted as for a C variadic call). The driver prints the device's printf buffer at
// its synchronization points (cuda_event.cpp makes one after a printing kernel completed).
// __SYCL_CONSTANT_AS is DPC++'s spelling, token for token, so that programs defining it
// themselves redefine it identically; clang places such a string in global memory here.
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
