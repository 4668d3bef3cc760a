// SYCL 2020 4.14.3. Math array types: sycl::marray and the m<type><N> aliases.
//
// Unlike vec, marray has the natural layout of DataT[N] (no extra alignment), any positive size,
// and its comparisons and logical operators give marray<bool, N>.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/half.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

template <typename DataT, std::size_t NumElements>
class marray;
namespace ext::oneapi {
class bfloat16; // sycl_ext_oneapi_bfloat16: <sycl/ext/oneapi/bfloat16.hpp>
} // namespace ext::oneapi

namespace detail {
template <typename T>
inline constexpr bool is_marray_v = false;
template <typename T, std::size_t N>
inline constexpr bool is_marray_v<marray<T, N>> = true;

// SYCL 2020 4.14.3.1: marray holds any NumericType (arithmetic types, half, and user types with
// the arithmetic operators). Every operator exists for every element type but these: %, the
// bitwise and shift operators and ~ need a non-floating-point type (bfloat16 is floating-point),
// ++ and -- a non-bool one.
template <typename T>
inline constexpr bool marray_floating_v = std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                                          std::is_same_v<T, ext::oneapi::bfloat16>;
template <typename T>
inline constexpr bool marray_arith_v = true;
template <typename T>
inline constexpr bool marray_integral_v = !marray_floating_v<T>;
template <typename T>
inline constexpr bool marray_bitwise_v = !marray_floating_v<T>;
template <typename T>
inline constexpr bool marray_incdec_v = !std::is_same_v<T, bool>;

template <typename DataT, typename Arg>
constexpr std::size_t marray_arg_count() {
  if constexpr (is_marray_v<Arg>) {
    return std::is_same_v<typename Arg::value_type, DataT> ? Arg::size() : 0;
  } else if constexpr (std::is_convertible_v<Arg, DataT>) {
    // Scalars, and anything else that converts to one (a one-element swizzle or vec).
    return 1;
  } else {
    return 0;
  }
}
template <typename DataT, std::size_t N, typename... Args>
inline constexpr bool marray_args_fit_v =
    sizeof...(Args) > 1 && ((marray_arg_count<DataT, Args>() > 0) && ...) &&
    (marray_arg_count<DataT, Args>() + ...) == N;
} // namespace detail

// SYCL 2020 4.14.3.1. The marray class template.
template <typename DataT, std::size_t NumElements>
class marray {
  static_assert(NumElements > 0, "sycl::marray has at least one element");
  static_assert(std::is_object_v<DataT> && !std::is_const_v<DataT> && !std::is_volatile_v<DataT> &&
                    std::is_default_constructible_v<DataT> && std::is_copy_assignable_v<DataT>,
                "sycl::marray elements are numeric types: arithmetic types, sycl::half or "
                "copyable user types with the arithmetic operators");
  using bool_array = marray<bool, NumElements>;

public:
  using value_type = DataT;
  using reference = DataT&;
  using const_reference = const DataT&;
  using iterator = DataT*;
  using const_iterator = const DataT*;

  // Elements are value-initialized (zero), as for vec.
  constexpr marray() : m_data{} {}
  explicit constexpr marray(const DataT& arg) : m_data{} {
    for (std::size_t i = 0; i < NumElements; ++i) m_data[i] = arg;
  }
  // Any mix of scalars and marrays of DataT whose element counts add up to NumElements.
  template <typename... ArgTN,
            std::enable_if_t<detail::marray_args_fit_v<DataT, NumElements, ArgTN...>>* = nullptr>
  constexpr marray(const ArgTN&... args) : m_data{} {
    std::size_t pos = 0;
    (fill(pos, args), ...);
  }
  constexpr marray(const marray&) = default;
  constexpr marray(marray&&) = default;
  constexpr marray& operator=(const marray&) = default;
  constexpr marray& operator=(marray&&) = default;
  constexpr marray& operator=(const DataT& rhs) {
    for (std::size_t i = 0; i < NumElements; ++i) m_data[i] = rhs;
    return *this;
  }

  template <std::size_t N = NumElements, std::enable_if_t<N == 1>* = nullptr>
  constexpr operator DataT() const {
    return m_data[0];
  }

  static constexpr std::size_t size() noexcept { return NumElements; }

  constexpr reference operator[](std::size_t index) { return m_data[index]; }
  constexpr const_reference operator[](std::size_t index) const { return m_data[index]; }

  constexpr iterator begin() { return m_data; }
  constexpr const_iterator begin() const { return m_data; }
  constexpr iterator end() { return m_data + NumElements; }
  constexpr const_iterator end() const { return m_data + NumElements; }

#define SYCLONE_MARRAY_BINARY(op, cond)                                                            \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr marray operator op(const marray& a, const marray& b) {                          \
    marray r;                                                                                      \
    for (std::size_t i = 0; i < NumElements; ++i)                                                  \
      r.m_data[i] = static_cast<DataT>(a.m_data[i] op b.m_data[i]);                                \
    return r;                                                                                      \
  }                                                                                                \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr marray operator op(const marray& a, const DataT& b) {                           \
    marray r;                                                                                      \
    for (std::size_t i = 0; i < NumElements; ++i)                                                  \
      r.m_data[i] = static_cast<DataT>(a.m_data[i] op b);                                          \
    return r;                                                                                      \
  }                                                                                                \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr marray operator op(const DataT& a, const marray& b) {                           \
    marray r;                                                                                      \
    for (std::size_t i = 0; i < NumElements; ++i)                                                  \
      r.m_data[i] = static_cast<DataT>(a op b.m_data[i]);                                          \
    return r;                                                                                      \
  }                                                                                                \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr marray& operator op## = (marray & a, const marray& b) {                         \
    return a = a op b;                                                                             \
  }                                                                                                \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr marray& operator op## = (marray & a, const DataT& b) {                          \
    return a = a op b;                                                                             \
  }
  SYCLONE_MARRAY_BINARY(+, detail::marray_arith_v)
  SYCLONE_MARRAY_BINARY(-, detail::marray_arith_v)
  SYCLONE_MARRAY_BINARY(*, detail::marray_arith_v)
  SYCLONE_MARRAY_BINARY(/, detail::marray_arith_v)
  SYCLONE_MARRAY_BINARY(%, detail::marray_integral_v)
  SYCLONE_MARRAY_BINARY(&, detail::marray_bitwise_v)
  SYCLONE_MARRAY_BINARY(|, detail::marray_bitwise_v)
  SYCLONE_MARRAY_BINARY(^, detail::marray_bitwise_v)
  SYCLONE_MARRAY_BINARY(<<, detail::marray_integral_v)
  SYCLONE_MARRAY_BINARY(>>, detail::marray_integral_v)
#undef SYCLONE_MARRAY_BINARY

#define SYCLONE_MARRAY_COMPARE(op)                                                                 \
  friend constexpr bool_array operator op(const marray& a, const marray& b) {                      \
    bool_array r;                                                                                  \
    for (std::size_t i = 0; i < NumElements; ++i) r[i] = a.m_data[i] op b.m_data[i];               \
    return r;                                                                                      \
  }                                                                                                \
  friend constexpr bool_array operator op(const marray& a, const DataT& b) {                       \
    bool_array r;                                                                                  \
    for (std::size_t i = 0; i < NumElements; ++i) r[i] = a.m_data[i] op b;                         \
    return r;                                                                                      \
  }                                                                                                \
  friend constexpr bool_array operator op(const DataT& a, const marray& b) {                       \
    bool_array r;                                                                                  \
    for (std::size_t i = 0; i < NumElements; ++i) r[i] = a op b.m_data[i];                         \
    return r;                                                                                      \
  }
  SYCLONE_MARRAY_COMPARE(==)
  SYCLONE_MARRAY_COMPARE(!=)
  SYCLONE_MARRAY_COMPARE(<)
  SYCLONE_MARRAY_COMPARE(>)
  SYCLONE_MARRAY_COMPARE(<=)
  SYCLONE_MARRAY_COMPARE(>=)
  SYCLONE_MARRAY_COMPARE(&&)
  SYCLONE_MARRAY_COMPARE(||)
#undef SYCLONE_MARRAY_COMPARE

  template <typename T = DataT, std::enable_if_t<detail::marray_arith_v<T>>* = nullptr>
  friend constexpr marray operator+(const marray& a) {
    return a;
  }
  template <typename T = DataT, std::enable_if_t<detail::marray_arith_v<T>>* = nullptr>
  friend constexpr marray operator-(const marray& a) {
    marray r;
    for (std::size_t i = 0; i < NumElements; ++i) r.m_data[i] = static_cast<DataT>(-a.m_data[i]);
    return r;
  }
  template <typename T = DataT, std::enable_if_t<detail::marray_bitwise_v<T>>* = nullptr>
  friend constexpr marray operator~(const marray& a) {
    marray r;
    // marray<bool>: ~ of the promoted value converted back, as C++ (and std::valarray) do.
    for (std::size_t i = 0; i < NumElements; ++i) r.m_data[i] = static_cast<DataT>(~a.m_data[i]);
    return r;
  }
  friend constexpr bool_array operator!(const marray& a) {
    bool_array r;
    for (std::size_t i = 0; i < NumElements; ++i) r[i] = !a.m_data[i];
    return r;
  }
  template <typename T = DataT, std::enable_if_t<detail::marray_incdec_v<T>>* = nullptr>
  friend constexpr marray& operator++(marray& a) {
    return a += DataT(1);
  }
  template <typename T = DataT, std::enable_if_t<detail::marray_incdec_v<T>>* = nullptr>
  friend constexpr marray& operator--(marray& a) {
    return a -= DataT(1);
  }
  template <typename T = DataT, std::enable_if_t<detail::marray_incdec_v<T>>* = nullptr>
  friend constexpr marray operator++(marray& a, int) {
    marray old = a;
    a += DataT(1);
    return old;
  }
  template <typename T = DataT, std::enable_if_t<detail::marray_incdec_v<T>>* = nullptr>
  friend constexpr marray operator--(marray& a, int) {
    marray old = a;
    a -= DataT(1);
    return old;
  }

private:
  template <typename Arg>
  constexpr void fill(std::size_t& pos, const Arg& arg) {
    if constexpr (detail::is_marray_v<Arg>) {
      for (std::size_t i = 0; i < Arg::size(); ++i) m_data[pos++] = arg[i];
    } else {
      m_data[pos++] = static_cast<DataT>(arg);
    }
  }

  DataT m_data[NumElements];
};

// SYCL 2020 4.14.3.2. Aliases: m<type><N> for N in 2, 3, 4, 8, 16.
#define SYCLONE_MARRAY_ALIASES(name, type)                                                         \
  using m##name##2 = marray<type, 2>;                                                              \
  using m##name##3 = marray<type, 3>;                                                              \
  using m##name##4 = marray<type, 4>;                                                              \
  using m##name##8 = marray<type, 8>;                                                              \
  using m##name##16 = marray<type, 16>;
// The spec's aliases name fixed-width types: mchar is marray<int8_t, N> (not char), mlong
// marray<int64_t, N>. mschar, mlonglong and mulonglong are SYCL 1.2.1-style extras.
SYCLONE_MARRAY_ALIASES(bool, bool)
SYCLONE_MARRAY_ALIASES(char, std::int8_t)
SYCLONE_MARRAY_ALIASES(schar, signed char)
SYCLONE_MARRAY_ALIASES(uchar, std::uint8_t)
SYCLONE_MARRAY_ALIASES(short, std::int16_t)
SYCLONE_MARRAY_ALIASES(ushort, std::uint16_t)
SYCLONE_MARRAY_ALIASES(int, std::int32_t)
SYCLONE_MARRAY_ALIASES(uint, std::uint32_t)
SYCLONE_MARRAY_ALIASES(long, std::int64_t)
SYCLONE_MARRAY_ALIASES(ulong, std::uint64_t)
SYCLONE_MARRAY_ALIASES(longlong, long long)
SYCLONE_MARRAY_ALIASES(ulonglong, unsigned long long)
SYCLONE_MARRAY_ALIASES(half, half)
SYCLONE_MARRAY_ALIASES(float, float)
SYCLONE_MARRAY_ALIASES(double, double)
#undef SYCLONE_MARRAY_ALIASES

SYCLONE_END_NAMESPACE
