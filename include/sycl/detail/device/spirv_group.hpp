// Sub-group and work-group primitives on SPIR-V (DESIGN.md "Target mapping": GroupNonUniform*
// instructions, SPV_INTEL_subgroups).
//
// Sub-group membership. On SPIR-V the device, not the kernel, forms the sub-groups: the
// SubgroupLocalInvocationId / SubgroupSize / SubgroupId / NumSubgroups built-ins (SPIR-V 1.6
// section 3.21) say which invocations share one, and every GroupNonUniform* instruction works on
// those. sg_info (group_types.hpp) describes sub-groups as consecutive linear local ids cut at
// SubgroupMaxSize, which is how OpenCL GPU devices form them from LocalInvocationIndex (seed 004
// "Sub-group Queries"), and LocalInvocationIndex is SYCL's linear local id here (spirv.hpp). The
// functions below still ask the device, not sg_info, wherever the answer decides which
// invocations exchange values (lane and size of shuffle trees, partial sub-groups, the sub-group
// structure of work-group algorithms), so that they stay correct on a device that forms its
// sub-groups differently; sg_info is what sub_group's query functions report.
//
// Sub-group algorithms use the GroupNonUniform arithmetic (SPIR-V 3.32.24) where SYCL's function
// object and the type map onto one: plus, multiplies, minimum, maximum, bit_and/or/xor on 32- and
// 64-bit integers and on float and double, logical_and/or on bool. Other operations and types
// (sycl::half, 8- and 16-bit integers, structs, user functions) combine by shuffles of 32-bit
// words. Work-group algorithms use the Group* instructions of the Groups capability and of
// SPV_KHR_uniform_group_instructions (SPIR-V 3.32.21) for the same operations, and otherwise
// combine sub-group results through Workgroup-storage scratch memory.
//
// Floating-point minimum/maximum through FMin/FMax differ from SYCL's `y < x ? y : x` only for
// NaN operands (FMin returns the other operand); SYCL 2020 4.17.4 leaves the combination order
// of a floating-point reduction unspecified anyway.
// Included by spirv.hpp only.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/nug_shuffle_algorithms.hpp>
#include <sycl/detail/group_types.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

std::uint32_t __spirv_BuiltInSubgroupMaxSize();
std::uint32_t __spirv_BuiltInSubgroupSize();
std::uint32_t __spirv_BuiltInSubgroupLocalInvocationId();
std::uint32_t __spirv_BuiltInSubgroupId();
std::uint32_t __spirv_BuiltInNumSubgroups();

// The instructions, one declaration per operand type: LLVM's SPIR-V backend takes the operand
// and result types from the call. Integers are passed as std::[u]int32_t / std::[u]int64_t, so
// that each C++ integer type reaches exactly one of these.
#define SYCLONE_SPIRV_FOR_WORD_TYPES(X)                                                            \
  X(std::uint32_t)                                                                                 \
  X(std::uint64_t)
#define SYCLONE_SPIRV_FOR_INT_TYPES(X)                                                             \
  X(std::int32_t) X(std::uint32_t) X(std::int64_t) X(std::uint64_t)
#define SYCLONE_SPIRV_FOR_FLOAT_TYPES(X) X(float) X(double)

// SPIR-V 3.32.24 shuffles (GroupNonUniformShuffle, GroupNonUniformShuffleRelative).
#define SYCLONE_SPIRV_SHUFFLES(T)                                                                  \
  T __spirv_GroupNonUniformShuffle(int scope, T x, std::uint32_t id);                              \
  T __spirv_GroupNonUniformShuffleXor(int scope, T x, std::uint32_t mask);                         \
  T __spirv_GroupNonUniformShuffleUp(int scope, T x, std::uint32_t delta);                         \
  T __spirv_GroupNonUniformShuffleDown(int scope, T x, std::uint32_t delta);                       \
  T __spirv_GroupBroadcast(int scope, T x, __attribute__((ext_vector_type(3))) std::size_t id);
SYCLONE_SPIRV_FOR_WORD_TYPES(SYCLONE_SPIRV_SHUFFLES)
#undef SYCLONE_SPIRV_SHUFFLES

// Arithmetic: (scope, GroupOperation, x). GroupNonUniform* for sub-groups, Group* (Groups
// capability; the *KHR ones from SPV_KHR_uniform_group_instructions) for work-groups.
#define SYCLONE_SPIRV_INT_ARITH(T)                                                                 \
  T __spirv_GroupNonUniformIAdd(int, int, T);                                                      \
  T __spirv_GroupNonUniformIMul(int, int, T);                                                      \
  T __spirv_GroupNonUniformSMin(int, int, T);                                                      \
  T __spirv_GroupNonUniformUMin(int, int, T);                                                      \
  T __spirv_GroupNonUniformSMax(int, int, T);                                                      \
  T __spirv_GroupNonUniformUMax(int, int, T);                                                      \
  T __spirv_GroupNonUniformBitwiseAnd(int, int, T);                                                \
  T __spirv_GroupNonUniformBitwiseOr(int, int, T);                                                 \
  T __spirv_GroupNonUniformBitwiseXor(int, int, T);                                                \
  T __spirv_GroupIAdd(int, int, T);                                                                \
  T __spirv_GroupIMulKHR(int, int, T);                                                             \
  T __spirv_GroupSMin(int, int, T);                                                                \
  T __spirv_GroupUMin(int, int, T);                                                                \
  T __spirv_GroupSMax(int, int, T);                                                                \
  T __spirv_GroupUMax(int, int, T);                                                                \
  T __spirv_GroupBitwiseAndKHR(int, int, T);                                                       \
  T __spirv_GroupBitwiseOrKHR(int, int, T);                                                        \
  T __spirv_GroupBitwiseXorKHR(int, int, T);
#define SYCLONE_SPIRV_FLOAT_ARITH(T)                                                               \
  T __spirv_GroupNonUniformFAdd(int, int, T);                                                      \
  T __spirv_GroupNonUniformFMul(int, int, T);                                                      \
  T __spirv_GroupNonUniformFMin(int, int, T);                                                      \
  T __spirv_GroupNonUniformFMax(int, int, T);                                                      \
  T __spirv_GroupFAdd(int, int, T);                                                                \
  T __spirv_GroupFMulKHR(int, int, T);                                                             \
  T __spirv_GroupFMin(int, int, T);                                                                \
  T __spirv_GroupFMax(int, int, T);
SYCLONE_SPIRV_FOR_INT_TYPES(SYCLONE_SPIRV_INT_ARITH)
SYCLONE_SPIRV_FOR_FLOAT_TYPES(SYCLONE_SPIRV_FLOAT_ARITH)
#undef SYCLONE_SPIRV_INT_ARITH
#undef SYCLONE_SPIRV_FLOAT_ARITH
#undef SYCLONE_SPIRV_FOR_WORD_TYPES
#undef SYCLONE_SPIRV_FOR_INT_TYPES
#undef SYCLONE_SPIRV_FOR_FLOAT_TYPES
bool __spirv_GroupNonUniformLogicalAnd(int, int, bool);
bool __spirv_GroupNonUniformLogicalOr(int, int, bool);
bool __spirv_GroupLogicalAndKHR(int, int, bool);
bool __spirv_GroupLogicalOrKHR(int, int, bool);
// SPIR-V 3.32.24 GroupNonUniformAny/All (GroupNonUniformVote), 3.32.21 GroupAny/All (Groups).
bool __spirv_GroupNonUniformAny(int scope, bool p);
// SPIR-V 3.32.24 GroupNonUniformBallot: bit i of the 128-bit result for invocation i.
__attribute__((ext_vector_type(4))) std::uint32_t __spirv_GroupNonUniformBallot(int scope, bool p);
bool __spirv_GroupNonUniformAll(int scope, bool p);
bool __spirv_GroupAny(int scope, bool p);
bool __spirv_GroupAll(int scope, bool p);

SYCLONE_BEGIN_NAMESPACE
template <typename T>
struct plus;
template <typename T>
struct multiplies;
template <typename T>
struct minimum;
template <typename T>
struct maximum;
template <typename T>
struct bit_and;
template <typename T>
struct bit_or;
template <typename T>
struct bit_xor;
template <typename T>
struct logical_and;
template <typename T>
struct logical_or;

namespace detail::dev {

// SPIR-V 3.28 Group Operation.
inline constexpr int spirv_group_reduce = 0;
inline constexpr int spirv_group_inclusive_scan = 1;
inline constexpr int spirv_group_exclusive_scan = 2;

// The device's sub-group size: the size the kernel was compiled for where it asked for one
// (seed 004 reqd_sub_group_size), else the device's choice. Uniform over the kernel.
SYCLONE_INLINE std::uint32_t sub_group_max_size() noexcept {
  return __spirv_BuiltInSubgroupMaxSize();
}
// This invocation's sub-group as the device formed it.
// The calling work-item's sub-group (seed 004 "Sub-group Queries") as the device formed it: on
// SPIR-V the consumer chooses sub-group membership, so the ids come from the SubgroupId,
// SubgroupLocalInvocationId, SubgroupSize and NumSubgroups built-ins (SPIR-V 1.6 section 3.21),
// which are also what makes a sub-group's id visibly uniform to consumers and validators.
SYCLONE_INLINE sg_info this_sub_group(std::uint32_t, std::uint32_t) {
  return {__spirv_BuiltInSubgroupId(), __spirv_BuiltInSubgroupLocalInvocationId(),
          __spirv_BuiltInSubgroupSize(), __spirv_BuiltInSubgroupMaxSize(),
          __spirv_BuiltInNumSubgroups()};
}

SYCLONE_INLINE std::uint32_t sub_group_lane() {
  return __spirv_BuiltInSubgroupLocalInvocationId();
}
SYCLONE_INLINE std::uint32_t sub_group_size() {
  return __spirv_BuiltInSubgroupSize();
}

SYCLONE_INLINE void sub_group_barrier(const sg_info&) {
  __spirv_ControlBarrier(spirv_scope_subgroup, spirv_scope_subgroup, spirv_barrier_semantics);
}

// A value moved as 32-bit words (or as one 64-bit word when it has 8 bytes): the shuffles are
// defined for integer scalars, and every trivially copyable T (SYCL 2020 4.17.3) fits in words.
template <typename T>
struct words {
  static constexpr std::size_t count = (sizeof(T) + 3) / 4;
  std::uint32_t w[count];
};
template <typename T, typename Shuffle>
SYCLONE_INLINE T shuffle_words(T x, Shuffle shfl) {
  if constexpr (sizeof(T) == 4) {
    return __builtin_bit_cast(T, shfl(__builtin_bit_cast(std::uint32_t, x)));
  } else if constexpr (sizeof(T) == 8) {
    return __builtin_bit_cast(T, shfl(__builtin_bit_cast(std::uint64_t, x)));
  } else {
    words<T> in{}, out;
    std::memcpy(in.w, &x, sizeof(T));
#pragma unroll
    for (std::size_t i = 0; i < words<T>::count; ++i) out.w[i] = shfl(in.w[i]);
    T r;
    std::memcpy(static_cast<void*>(&r), out.w, sizeof(T));
    return r;
  }
}

// Shuffle ids are SubgroupLocalInvocationIds (SPIR-V 3.32.24); SYCL's sub-group local ids are
// the same numbers (see the top of this file).
template <typename T>
SYCLONE_INLINE T shuffle(T x, std::uint32_t src) {
  return shuffle_words(
      x, [&](auto w) { return __spirv_GroupNonUniformShuffle(spirv_scope_subgroup, w, src); });
}
template <typename T>
SYCLONE_INLINE T shuffle_xor(T x, std::uint32_t mask) {
  return shuffle_words(
      x, [&](auto w) { return __spirv_GroupNonUniformShuffleXor(spirv_scope_subgroup, w, mask); });
}
template <typename T>
SYCLONE_INLINE T shuffle_up(T x, std::uint32_t delta) {
  return shuffle_words(
      x, [&](auto w) { return __spirv_GroupNonUniformShuffleUp(spirv_scope_subgroup, w, delta); });
}
template <typename T>
SYCLONE_INLINE T shuffle_down(T x, std::uint32_t delta) {
  return shuffle_words(x, [&](auto w) {
    return __spirv_GroupNonUniformShuffleDown(spirv_scope_subgroup, w, delta);
  });
}

template <typename T>
SYCLONE_INLINE T sub_group_shuffle(const sg_info&, T x, std::uint32_t src) {
  return shuffle(x, src);
}
template <typename T>
SYCLONE_INLINE T sub_group_shuffle_down(const sg_info&, T x, std::uint32_t delta) {
  return shuffle_down(x, delta);
}
template <typename T>
SYCLONE_INLINE T sub_group_shuffle_up(const sg_info&, T x, std::uint32_t delta) {
  return shuffle_up(x, delta);
}
template <typename T>
SYCLONE_INLINE T sub_group_shuffle_xor(const sg_info&, T x, std::uint32_t mask) {
  return shuffle_xor(x, mask);
}

// Which instruction, if any, computes `Op` on T.
enum class group_op {
  none,
  add,
  mul,
  min,
  max,
  bit_and,
  bit_or,
  bit_xor,
  logical_and,
  logical_or,
};
template <typename Op, template <typename> class Fn, typename T>
inline constexpr bool is_fn_v = std::is_same_v<Op, Fn<T>> || std::is_same_v<Op, Fn<void>>;

template <typename T>
inline constexpr bool is_native_int_v =
    std::is_integral_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);
template <typename T>
inline constexpr bool is_native_float_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

template <typename T, typename Op>
inline constexpr group_op native_group_op = [] {
  if constexpr (is_native_int_v<T> || is_native_float_v<T>) {
    if (is_fn_v<Op, plus, T>) return group_op::add;
    if (is_fn_v<Op, multiplies, T>) return group_op::mul;
    if (is_fn_v<Op, minimum, T>) return group_op::min;
    if (is_fn_v<Op, maximum, T>) return group_op::max;
  }
  if constexpr (is_native_int_v<T>) {
    if (is_fn_v<Op, bit_and, T>) return group_op::bit_and;
    if (is_fn_v<Op, bit_or, T>) return group_op::bit_or;
    if (is_fn_v<Op, bit_xor, T>) return group_op::bit_xor;
  }
  if constexpr (std::is_same_v<T, bool>) {
    if (is_fn_v<Op, logical_and, T>) return group_op::logical_and;
    if (is_fn_v<Op, logical_or, T>) return group_op::logical_or;
  }
  return group_op::none;
}();

// The integer type of T's width and signedness that the declarations above take.
template <typename T>
using spirv_int_t =
    std::conditional_t<sizeof(T) == 4,
                       std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>,
                       std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;

// One GroupNonUniform* (WorkGroup false) or Group* (WorkGroup true) instruction.
template <bool WorkGroup, group_op G, int Operation, typename T>
SYCLONE_INLINE T native_group(T x) {
  constexpr int s = WorkGroup ? spirv_scope_workgroup : spirv_scope_subgroup;
  constexpr int o = Operation;
  if constexpr (G == group_op::logical_and) {
    if constexpr (WorkGroup)
      return __spirv_GroupLogicalAndKHR(s, o, x);
    else
      return __spirv_GroupNonUniformLogicalAnd(s, o, x);
  } else if constexpr (G == group_op::logical_or) {
    if constexpr (WorkGroup)
      return __spirv_GroupLogicalOrKHR(s, o, x);
    else
      return __spirv_GroupNonUniformLogicalOr(s, o, x);
  } else if constexpr (is_native_float_v<T>) {
    if constexpr (G == group_op::add) {
      if constexpr (WorkGroup)
        return __spirv_GroupFAdd(s, o, x);
      else
        return __spirv_GroupNonUniformFAdd(s, o, x);
    } else if constexpr (G == group_op::mul) {
      if constexpr (WorkGroup)
        return __spirv_GroupFMulKHR(s, o, x);
      else
        return __spirv_GroupNonUniformFMul(s, o, x);
    } else if constexpr (G == group_op::min) {
      if constexpr (WorkGroup)
        return __spirv_GroupFMin(s, o, x);
      else
        return __spirv_GroupNonUniformFMin(s, o, x);
    } else {
      static_assert(G == group_op::max);
      if constexpr (WorkGroup)
        return __spirv_GroupFMax(s, o, x);
      else
        return __spirv_GroupNonUniformFMax(s, o, x);
    }
  } else {
    using I = spirv_int_t<T>;
    constexpr bool sgn = std::is_signed_v<T>;
    I v = static_cast<I>(x);
    I r;
    if constexpr (G == group_op::add) {
      if constexpr (WorkGroup)
        r = __spirv_GroupIAdd(s, o, v);
      else
        r = __spirv_GroupNonUniformIAdd(s, o, v);
    } else if constexpr (G == group_op::mul) {
      if constexpr (WorkGroup)
        r = __spirv_GroupIMulKHR(s, o, v);
      else
        r = __spirv_GroupNonUniformIMul(s, o, v);
    } else if constexpr (G == group_op::min && sgn) {
      if constexpr (WorkGroup)
        r = __spirv_GroupSMin(s, o, v);
      else
        r = __spirv_GroupNonUniformSMin(s, o, v);
    } else if constexpr (G == group_op::min) {
      if constexpr (WorkGroup)
        r = __spirv_GroupUMin(s, o, v);
      else
        r = __spirv_GroupNonUniformUMin(s, o, v);
    } else if constexpr (G == group_op::max && sgn) {
      if constexpr (WorkGroup)
        r = __spirv_GroupSMax(s, o, v);
      else
        r = __spirv_GroupNonUniformSMax(s, o, v);
    } else if constexpr (G == group_op::max) {
      if constexpr (WorkGroup)
        r = __spirv_GroupUMax(s, o, v);
      else
        r = __spirv_GroupNonUniformUMax(s, o, v);
    } else if constexpr (G == group_op::bit_and) {
      if constexpr (WorkGroup)
        r = __spirv_GroupBitwiseAndKHR(s, o, v);
      else
        r = __spirv_GroupNonUniformBitwiseAnd(s, o, v);
    } else if constexpr (G == group_op::bit_or) {
      if constexpr (WorkGroup)
        r = __spirv_GroupBitwiseOrKHR(s, o, v);
      else
        r = __spirv_GroupNonUniformBitwiseOr(s, o, v);
    } else {
      static_assert(G == group_op::bit_xor);
      if constexpr (WorkGroup)
        r = __spirv_GroupBitwiseXorKHR(s, o, v);
      else
        r = __spirv_GroupNonUniformBitwiseXor(s, o, v);
    }
    return static_cast<T>(r);
  }
}

// Shuffle trees over the device's sub-group, for what no instruction computes.
template <typename T, typename Op>
SYCLONE_INLINE T tree_reduce(T x, Op op) {
  std::uint32_t lane = sub_group_lane(), size = sub_group_size();
  if ((size & (size - 1)) == 0) {
    // Butterfly: every lane combines the same pairs (in mirrored order, which the commutative
    // SYCL function objects do not see), so all lanes hold the same result.
    for (std::uint32_t offset = size / 2; offset > 0; offset /= 2)
      x = op(x, shuffle_xor(x, offset));
    return x;
  }
  // A partial sub-group: a tree towards lane 0 over the lanes that exist, then lane 0's value.
  for (std::uint32_t offset = 1; offset < size; offset *= 2) {
    T y = shuffle_down(x, offset);
    if ((lane & (2 * offset - 1)) == 0 && lane + offset < size) x = op(x, y);
  }
  return shuffle(x, 0);
}
template <typename T, typename Op>
SYCLONE_INLINE T tree_inclusive_scan(T x, Op op) {
  // Hillis-Steele: after the step with `offset`, lane i holds lanes max(0, i-2*offset+1)..i.
  std::uint32_t lane = sub_group_lane(), size = sub_group_size();
  for (std::uint32_t offset = 1; offset < size; offset *= 2) {
    T y = shuffle_up(x, offset);
    if (lane >= offset) x = op(y, x);
  }
  return x;
}

template <typename T, typename Op>
SYCLONE_INLINE T sub_group_reduce(const sg_info&, T x, Op op) {
  constexpr group_op g = native_group_op<T, Op>;
  if constexpr (g != group_op::none)
    return native_group<false, g, spirv_group_reduce>(x);
  else
    return tree_reduce(x, op);
}

template <bool Exclusive, typename T, typename Op>
SYCLONE_INLINE opt<T> sub_group_scan(const sg_info&, T x, Op op) {
  constexpr group_op g = native_group_op<T, Op>;
  if constexpr (g != group_op::none) {
    // An exclusive scan gives lane 0 the operation's identity, which opt<T> reports as absent.
    if constexpr (Exclusive)
      return {native_group<false, g, spirv_group_exclusive_scan>(x), sub_group_lane() != 0};
    else
      return {native_group<false, g, spirv_group_inclusive_scan>(x), true};
  } else {
    T inclusive = tree_inclusive_scan(x, op);
    if constexpr (Exclusive)
      return {shuffle_up(inclusive, 1), sub_group_lane() != 0};
    else
      return {inclusive, true};
  }
}

SYCLONE_INLINE bool sub_group_any(const sg_info&, bool p) {
  return __spirv_GroupNonUniformAny(spirv_scope_subgroup, p);
}
SYCLONE_INLINE bool sub_group_all(const sg_info&, bool p) {
  return __spirv_GroupNonUniformAll(spirv_scope_subgroup, p);
}
SYCLONE_INLINE std::uint64_t sub_group_ballot(const sg_info&, bool p) {
  auto bits = __spirv_GroupNonUniformBallot(spirv_scope_subgroup, p);
  return std::uint64_t(bits[0]) | (std::uint64_t(bits[1]) << 32);
}

// Work-groups without an instruction: sub-groups combine with the functions above, then
// exchange through Workgroup-storage scratch memory, one block per value size. Slots:
// [0, 128) sub-group results, [128] the reduction, [129, 257) scan prefixes, [257] a broadcast
// value. 128 sub-groups cover every work-group of the GPUs this target serves (at most 1024
// work-items, sub-groups of at least 8). Every slot is written only after a barrier that all
// readers of its previous value passed, so operations may follow each other without extra
// barriers. Aligned for T, at least to 16 bytes.
inline constexpr std::uint32_t max_sub_groups = 128;
inline constexpr std::uint32_t slot_total = max_sub_groups;
inline constexpr std::uint32_t slot_prefix = max_sub_groups + 1;
inline constexpr std::uint32_t slot_broadcast = 2 * max_sub_groups + 1;
template <std::size_t Bytes, std::size_t Align>
alignas(Align) [[clang::loader_uninitialized]] inline
    __attribute__((address_space(3))) std::byte group_scratch[Bytes];

template <typename T>
SYCLONE_INLINE T* scratch_slots() {
  constexpr std::size_t align = alignof(T) > 16 ? alignof(T) : 16;
  return (T*)&group_scratch<(slot_broadcast + 1) * sizeof(T), align>[0];
}

// SYCL's linear local id as SPIR-V's three-component LocalInvocationId (x fastest).
SYCLONE_INLINE __attribute__((ext_vector_type(3))) std::size_t local_id_of(std::size_t linear) {
  std::size_t nx = __spirv_BuiltInWorkgroupSize(0), ny = __spirv_BuiltInWorkgroupSize(1);
  return {linear % nx, (linear / nx) % ny, linear / (nx * ny)};
}

template <typename T>
SYCLONE_INLINE T work_group_broadcast(const wg_info& wg, T x, std::uint32_t src) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    // OpGroupBroadcast (SPIR-V 3.32.21) of the value's bits.
    using W = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    return __builtin_bit_cast(
        T,
        __spirv_GroupBroadcast(spirv_scope_workgroup, __builtin_bit_cast(W, x), local_id_of(src)));
  } else {
    T* slots = scratch_slots<T>();
    if (wg.id == src) slots[slot_broadcast] = x;
    work_group_barrier();
    T r = slots[slot_broadcast];
    work_group_barrier();
    return r;
  }
}

template <typename T, typename Op>
SYCLONE_INLINE T work_group_reduce(const wg_info&, T x, Op op) {
  constexpr group_op g = native_group_op<T, Op>;
  if constexpr (g != group_op::none) {
    return native_group<true, g, spirv_group_reduce>(x);
  } else {
    T partial = tree_reduce(x, op);
    std::uint32_t count = __spirv_BuiltInNumSubgroups();
    if (count == 1) return partial;
    std::uint32_t sg = __spirv_BuiltInSubgroupId(), lane = sub_group_lane();
    T* slots = scratch_slots<T>();
    if (lane == 0) slots[sg] = partial;
    work_group_barrier();
    if (sg == 0) {
      // Sub-group 0 is full (there are others): lane i folds results i, i + size, ...
      std::uint32_t size = sub_group_size();
      opt_op<Op> oop{op};
      opt<T> acc{x, false};
      for (std::uint32_t i = lane; i < count; i += size) acc = oop(acc, opt<T>{slots[i], true});
      opt<T> total = tree_reduce(acc, oop);
      if (lane == 0) slots[slot_total] = total.value;
    }
    work_group_barrier();
    return slots[slot_total];
  }
}

template <bool Exclusive, typename T, typename Op>
SYCLONE_INLINE opt<T> work_group_scan(const wg_info& wg, T x, Op op) {
  constexpr group_op g = native_group_op<T, Op>;
  if constexpr (g != group_op::none) {
    if constexpr (Exclusive)
      return {native_group<true, g, spirv_group_exclusive_scan>(x), wg.id != 0};
    else
      return {native_group<true, g, spirv_group_inclusive_scan>(x), true};
  } else {
    std::uint32_t lane = sub_group_lane(), size = sub_group_size();
    T inclusive = tree_inclusive_scan(x, op);
    opt<T> result =
        Exclusive ? opt<T>{shuffle_up(inclusive, 1), lane != 0} : opt<T>{inclusive, true};
    std::uint32_t count = __spirv_BuiltInNumSubgroups();
    if (count == 1) return result;
    std::uint32_t sg = __spirv_BuiltInSubgroupId();
    T* slots = scratch_slots<T>();
    if (lane == size - 1) slots[sg] = inclusive;
    work_group_barrier();
    if (sg == 0) {
      // slots[slot_prefix + s]: the combination of sub-groups 0..s-1 (s >= 1), scanned by
      // sub-group 0 in chunks of its size; `carry` holds the chunks before.
      opt_op<Op> oop{op};
      opt<T> carry{x, false};
      for (std::uint32_t base = 0; base < count; base += size) {
        std::uint32_t i = base + lane;
        opt<T> v = i < count ? opt<T>{slots[i], true} : opt<T>{x, false};
        opt<T> prefix = oop(carry, tree_inclusive_scan(v, oop));
        if (i + 1 < count) slots[slot_prefix + i + 1] = prefix.value;
        carry = shuffle(prefix, size - 1);
      }
    }
    work_group_barrier();
    if (sg == 0) return result;
    T before = slots[slot_prefix + sg];
    if (!result.has) return {before, true};
    return {static_cast<T>(op(before, result.value)), true};
  }
}

// sycl_ext_oneapi_non_uniform_groups: GroupNonUniform instructions work on the invocations that
// execute them, so a group's members (in converged control flow, as the extension requires)
// reach them without the others: a tangle is the ballot of the active invocations, a ballot
// group's mask the ballot of the predicate, and values move by shuffles from the members' lanes.
// There is no barrier of a subset of a sub-group in SPIR-V: a group's barrier is the sub-group's
// OpControlBarrier, executed by the members only, which SPIR-V 1.3 leaves to the client API in
// non-uniform control flow. No SPIR-V device runs syclone kernels yet (README "SPIR-V").
SYCLONE_INLINE std::uint32_t nug_ballot_mask(const sg_info& sg, bool p) {
  std::uint32_t bits = static_cast<std::uint32_t>(sub_group_ballot(sg, p));
  std::uint32_t lanes = sg.size >= 32 ? ~0u : (1u << sg.size) - 1u;
  return p ? bits : ~bits & lanes;
}
SYCLONE_INLINE std::uint32_t nug_converged_mask(const sg_info& sg) {
  return static_cast<std::uint32_t>(sub_group_ballot(sg, true));
}
SYCLONE_INLINE void nug_barrier(const nug_info& g) {
  sub_group_barrier(g.sg);
}
template <typename T>
SYCLONE_INLINE T nug_shuffle(const nug_info& g, T x, std::uint32_t src) {
  return shuffle(x, src < nug_size(g) ? nug_lane_of(g, src) : g.sg.lane);
}
template <typename T>
SYCLONE_INLINE T nug_shuffle_down(const nug_info& g, T x, std::uint32_t delta) {
  std::uint32_t local = nug_local_id(g), to = local + delta;
  return nug_shuffle(g, x, to < local ? ~0u : to);
}
template <typename T>
SYCLONE_INLINE T nug_shuffle_up(const nug_info& g, T x, std::uint32_t delta) {
  std::uint32_t local = nug_local_id(g);
  return nug_shuffle(g, x, delta <= local ? local - delta : ~0u);
}
template <typename T>
SYCLONE_INLINE T nug_shuffle_xor(const nug_info& g, T x, std::uint32_t mask) {
  return nug_shuffle(g, x, nug_local_id(g) ^ mask);
}
template <typename T, typename Op>
SYCLONE_INLINE T nug_reduce(const nug_info& g, T x, Op op) {
  return nug_reduce_tree(g, x, op);
}
template <bool Exclusive, typename T, typename Op>
SYCLONE_INLINE opt<T> nug_scan(const nug_info& g, T x, Op op) {
  return nug_scan_tree<Exclusive>(g, x, op);
}
SYCLONE_INLINE bool nug_any(const nug_info& g, bool p) {
  return (static_cast<std::uint32_t>(sub_group_ballot(g.sg, p)) & g.mask) != 0;
}
SYCLONE_INLINE bool nug_all(const nug_info& g, bool p) {
  return (static_cast<std::uint32_t>(sub_group_ballot(g.sg, p)) & g.mask) == g.mask;
}

SYCLONE_INLINE bool work_group_any(const wg_info&, bool p) {
  return __spirv_GroupAny(spirv_scope_workgroup, p);
}
SYCLONE_INLINE bool work_group_all(const wg_info&, bool p) {
  return __spirv_GroupAll(spirv_scope_workgroup, p);
}

} // namespace detail::dev
SYCLONE_END_NAMESPACE
