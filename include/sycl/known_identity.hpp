// SYCL 2020 4.17.3 (group algorithms) / 4.9.2 (reductions): known_identity and
// has_known_identity, the identity values of the SYCL function objects (SYCL 2020 table
// "Identities of the SYCL function objects"), for arithmetic types, sycl::half, and vec and marray
// of them (element-wise identity).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/functional.hpp>
#include <sycl/half.hpp>
#include <sycl/marray.hpp>
#include <sycl/vec.hpp>

#include <functional>
#include <limits>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
namespace detail {
// The <functional> object that computes what a SYCL function object computes: DPC++ makes
// sycl::plus an alias of std::plus, so code written for it passes std::plus<T>() to reductions and
// group algorithms and expects the reducer's += and the known identity. Here the std object is the
// same operation (minimum and maximum have no std twin).
template <template <typename> class Op, typename BinaryOperation, typename AccumulatorT>
inline constexpr bool is_std_twin_v = false;
#define SYCLONE_STD_TWIN(op)                                                                       \
  template <typename BinaryOperation, typename AccumulatorT>                                       \
  inline constexpr bool is_std_twin_v<op, BinaryOperation, AccumulatorT> =                         \
      std::is_same_v<BinaryOperation, std::op<AccumulatorT>> ||                                    \
      std::is_same_v<BinaryOperation, std::op<void>>;
SYCLONE_STD_TWIN(plus)
SYCLONE_STD_TWIN(multiplies)
SYCLONE_STD_TWIN(bit_and)
SYCLONE_STD_TWIN(bit_or)
SYCLONE_STD_TWIN(bit_xor)
SYCLONE_STD_TWIN(logical_and)
SYCLONE_STD_TWIN(logical_or)
#undef SYCLONE_STD_TWIN

template <template <typename> class Op, typename BinaryOperation, typename AccumulatorT>
inline constexpr bool is_op_v =
    std::is_same_v<BinaryOperation, Op<AccumulatorT>> ||
    std::is_same_v<BinaryOperation, Op<void>> || is_std_twin_v<Op, BinaryOperation, AccumulatorT>;

// SYCL 2020 table "Identities of the SYCL function objects": bool is arithmetic and integral
// there too (plus: false, multiplies: true, bit_and: true, minimum: true, maximum: false).
template <typename T>
inline constexpr bool is_identity_arith_v = std::is_arithmetic_v<T> || std::is_same_v<T, half>;
template <typename T>
inline constexpr bool is_identity_integral_v = std::is_integral_v<T>;
template <typename T>
inline constexpr bool is_identity_fp_v = std::is_floating_point_v<T> || std::is_same_v<T, half>;

// The identity of BinaryOperation for a scalar T; `exists` is false where there is none.
template <typename BinaryOperation, typename T, typename = void>
struct scalar_identity {
  static constexpr bool exists = false;
};
template <typename Op, typename T>
struct scalar_identity<Op, T, std::enable_if_t<is_identity_arith_v<T> && (is_op_v<plus, Op, T>)>> {
  static constexpr bool exists = true;
  static constexpr T value() { return T(0); }
};
template <typename Op, typename T>
struct scalar_identity<Op, T,
                       std::enable_if_t<is_identity_arith_v<T> && (is_op_v<multiplies, Op, T>)>> {
  static constexpr bool exists = true;
  static constexpr T value() { return T(1); }
};
template <typename Op, typename T>
struct scalar_identity<Op, T,
                       std::enable_if_t<is_identity_integral_v<T> &&
                                        (is_op_v<bit_or, Op, T> || is_op_v<bit_xor, Op, T>)>> {
  static constexpr bool exists = true;
  static constexpr T value() { return T(0); }
};
template <typename Op, typename T>
struct scalar_identity<Op, T,
                       std::enable_if_t<is_identity_integral_v<T> && is_op_v<bit_and, Op, T>>> {
  static constexpr bool exists = true;
  static constexpr T value() { return static_cast<T>(~T(0)); }
};
template <typename Op, typename T>
struct scalar_identity<Op, T,
                       std::enable_if_t<std::is_same_v<T, bool> && is_op_v<logical_and, Op, T>>> {
  static constexpr bool exists = true;
  static constexpr T value() { return true; }
};
template <typename Op, typename T>
struct scalar_identity<Op, T,
                       std::enable_if_t<std::is_same_v<T, bool> && is_op_v<logical_or, Op, T>>> {
  static constexpr bool exists = true;
  static constexpr T value() { return false; }
};
// minimum: the largest value (+infinity for floating point); maximum: the smallest.
template <typename Op, typename T>
struct scalar_identity<Op, T, std::enable_if_t<is_identity_arith_v<T> && is_op_v<minimum, Op, T>>> {
  static constexpr bool exists = true;
  static constexpr T value() {
    if constexpr (is_identity_fp_v<T>)
      return std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::max();
  }
};
template <typename Op, typename T>
struct scalar_identity<Op, T, std::enable_if_t<is_identity_arith_v<T> && is_op_v<maximum, Op, T>>> {
  static constexpr bool exists = true;
  static constexpr T value() {
    if constexpr (is_identity_fp_v<T>)
      return -std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::lowest();
  }
};

template <typename BinaryOperation, typename T, typename = void>
struct identity : scalar_identity<BinaryOperation, T> {};

// vec and marray: the element's identity in every element. The operation is named for the
// accumulator type itself (plus<float4>) or is transparent (plus<>).
template <typename BinaryOperation, typename Acc, typename E>
struct element_op {
  using type = void;
};
#define SYCLONE_ELEMENT_OP(op)                                                                     \
  template <typename Acc, typename E>                                                              \
  struct element_op<op<Acc>, Acc, E> {                                                             \
    using type = op<E>;                                                                            \
  };                                                                                               \
  template <typename Acc, typename E>                                                              \
  struct element_op<op<void>, Acc, E> {                                                            \
    using type = op<void>;                                                                         \
  };
#define SYCLONE_STD_ELEMENT_OP(op)                                                                 \
  SYCLONE_ELEMENT_OP(op)                                                                           \
  template <typename Acc, typename E>                                                              \
  struct element_op<std::op<Acc>, Acc, E> {                                                        \
    using type = op<E>;                                                                            \
  };                                                                                               \
  template <typename Acc, typename E>                                                              \
  struct element_op<std::op<void>, Acc, E> {                                                       \
    using type = op<void>;                                                                         \
  };
SYCLONE_STD_ELEMENT_OP(plus)
SYCLONE_STD_ELEMENT_OP(multiplies)
SYCLONE_STD_ELEMENT_OP(bit_and)
SYCLONE_STD_ELEMENT_OP(bit_or)
SYCLONE_STD_ELEMENT_OP(bit_xor)
SYCLONE_STD_ELEMENT_OP(logical_and)
SYCLONE_STD_ELEMENT_OP(logical_or)
#undef SYCLONE_STD_ELEMENT_OP
SYCLONE_ELEMENT_OP(minimum)
SYCLONE_ELEMENT_OP(maximum)
#undef SYCLONE_ELEMENT_OP

template <typename BinaryOperation, typename Acc, typename E>
struct aggregate_identity {
  using op = typename element_op<BinaryOperation, Acc, E>::type;
  static constexpr bool exists = !std::is_same_v<op, void> && scalar_identity<op, E>::exists;
  static constexpr Acc value() { return Acc(scalar_identity<op, E>::value()); }
};
template <typename BinaryOperation, typename T, int N>
struct identity<BinaryOperation, vec<T, N>> : aggregate_identity<BinaryOperation, vec<T, N>, T> {};
template <typename BinaryOperation, typename T, std::size_t N>
struct identity<BinaryOperation, marray<T, N>>
    : aggregate_identity<BinaryOperation, marray<T, N>, T> {};

template <typename BinaryOperation, typename AccumulatorT, bool Exists>
struct known_identity_base {};
template <typename BinaryOperation, typename AccumulatorT>
struct known_identity_base<BinaryOperation, AccumulatorT, true> {
  static constexpr AccumulatorT value = identity<BinaryOperation, AccumulatorT>::value();
};
} // namespace detail

template <typename BinaryOperation, typename AccumulatorT>
struct has_known_identity
    : std::bool_constant<
          detail::identity<std::decay_t<BinaryOperation>, std::decay_t<AccumulatorT>>::exists> {};
template <typename BinaryOperation, typename AccumulatorT>
inline constexpr bool has_known_identity_v =
    has_known_identity<BinaryOperation, AccumulatorT>::value;

// `value` exists only where has_known_identity is true.
template <typename BinaryOperation, typename AccumulatorT>
struct known_identity
    : detail::known_identity_base<std::decay_t<BinaryOperation>, std::decay_t<AccumulatorT>,
                                  has_known_identity_v<BinaryOperation, AccumulatorT>> {};
template <typename BinaryOperation, typename AccumulatorT>
inline constexpr AccumulatorT known_identity_v =
    known_identity<BinaryOperation, AccumulatorT>::value;

SYCLONE_END_NAMESPACE
