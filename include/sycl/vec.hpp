// SYCL 2020 4.14.2. Vector types: sycl::vec, its swizzles (__swizzled_vec__), rounding_mode,
// elem, and the <type><N> aliases.
//
// vec<T, N> is a plain array with the alignment the spec asks for (4.14.2.1: the size and the
// alignment of vec<T, 3> equal those of vec<T, 4>), so it stays standard-layout and trivially
// copyable: kernels receive it as bytes. Element-wise loops inline and vectorize on every target.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/half.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>

SYCLONE_BEGIN_NAMESPACE

// SYCL 2020 4.14.2.1. Rounding modes of vec::convert.
enum class rounding_mode { automatic, rte, rtz, rtp, rtn };

// SYCL 2020 4.14.2.1. Names of the element indexes, for vec::swizzle<elem::x, elem::y>().
struct elem {
  static constexpr int x = 0;
  static constexpr int y = 1;
  static constexpr int z = 2;
  static constexpr int w = 3;
  static constexpr int r = 0;
  static constexpr int g = 1;
  static constexpr int b = 2;
  static constexpr int a = 3;
  static constexpr int s0 = 0;
  static constexpr int s1 = 1;
  static constexpr int s2 = 2;
  static constexpr int s3 = 3;
  static constexpr int s4 = 4;
  static constexpr int s5 = 5;
  static constexpr int s6 = 6;
  static constexpr int s7 = 7;
  static constexpr int s8 = 8;
  static constexpr int s9 = 9;
  static constexpr int sA = 10;
  static constexpr int sB = 11;
  static constexpr int sC = 12;
  static constexpr int sD = 13;
  static constexpr int sE = 14;
  static constexpr int sF = 15;
};

template <typename DataT, int NumElements>
class vec;

namespace detail {
template <typename VecT, int... Indexes>
class swizzled_vec;

template <typename T>
inline constexpr bool is_vec_v = false;
template <typename T, int N>
inline constexpr bool is_vec_v<vec<T, N>> = true;
template <typename T>
inline constexpr bool is_swizzle_v = false;
template <typename V, int... I>
inline constexpr bool is_swizzle_v<swizzled_vec<V, I...>> = true;

// The target of the conversion functions of vec and swizzles of more than one element: a type
// nobody uses, which keeps the one-element conversion to the element type a non-template.
template <int Which>
struct no_vec_conversion {};

// Element-type categories: which operators a vec of that element type has.
template <typename T>
inline constexpr bool is_vec_element_v =
    std::is_arithmetic_v<T> || std::is_same_v<T, half> || std::is_same_v<T, std::byte>;
// SYCL 2020 4.14.2.1: vec<bool> has the arithmetic, %, shift and unary operators (computed on the
// promoted values and converted back, as C++ does); ++ and -- exclude bool; std::byte has the
// bitwise and the relational operators only.
template <typename T>
inline constexpr bool vec_arith_v = std::is_arithmetic_v<T> || std::is_same_v<T, half>;
template <typename T>
inline constexpr bool vec_integral_v = std::is_integral_v<T>;
template <typename T>
inline constexpr bool vec_bitwise_v = std::is_integral_v<T> || std::is_same_v<T, std::byte>;
template <typename T>
inline constexpr bool vec_logical_v = !std::is_same_v<T, std::byte>;
template <typename T>
inline constexpr bool vec_incdec_v = vec_arith_v<T> && !std::is_same_v<T, bool>;

template <std::size_t Size>
struct signed_int_of_size;
template <>
struct signed_int_of_size<1> {
  using type = std::int8_t;
};
template <>
struct signed_int_of_size<2> {
  using type = std::int16_t;
};
template <>
struct signed_int_of_size<4> {
  using type = std::int32_t;
};
template <>
struct signed_int_of_size<8> {
  using type = std::int64_t;
};
template <std::size_t Size>
struct unsigned_int_of_size {
  using type = std::make_unsigned_t<typename signed_int_of_size<Size>::type>;
};
// SYCL 2020 4.14.2.1: comparisons and logical operators of vec<T, N> give vec<R, N>, R the signed
// integer of T's size, with -1 for true and 0 for false.
template <typename T>
using vec_compare_t = typename signed_int_of_size<sizeof(T)>::type;

constexpr int vec_storage(int n) {
  return n == 3 ? 4 : n;
}

template <typename T>
inline constexpr bool is_vec_fp_v = std::is_floating_point_v<T> || std::is_same_v<T, half>;

// How many elements a vec constructor argument contributes (0: not an allowed argument).
template <typename DataT, typename Arg>
constexpr int vec_arg_count() {
  if constexpr (is_vec_v<Arg> || is_swizzle_v<Arg>) {
    return std::is_same_v<typename Arg::element_type, DataT> ? static_cast<int>(Arg::size()) : 0;
  } else if constexpr ((std::is_arithmetic_v<Arg> || std::is_same_v<Arg, half> ||
                        std::is_same_v<Arg, std::byte>) &&
                       std::is_convertible_v<Arg, DataT>) {
    return 1;
  } else {
    return 0;
  }
}
template <typename DataT, int N, typename... Args>
inline constexpr bool vec_args_fit_v =
    sizeof...(Args) > 1 && ((vec_arg_count<DataT, Args>() > 0) && ...) &&
    (vec_arg_count<DataT, Args>() + ...) == N;

constexpr int max_index(std::initializer_list<int> indexes) {
  int m = 0;
  for (int i : indexes) m = i > m ? i : m;
  return m;
}
constexpr bool unique_indexes(std::initializer_list<int> indexes) {
  for (auto a = indexes.begin(); a != indexes.end(); ++a)
    for (auto b = a + 1; b != indexes.end(); ++b)
      if (*a == *b) return false;
  return true;
}

// Steps a binary floating-point value to its neighbour towards +inf (up) or -inf, through the
// bits; convert<> uses it to turn a round-to-nearest result into a directed rounding.
template <typename F>
constexpr F fp_step(F value, bool up) {
  if constexpr (std::is_same_v<F, half>) {
    std::uint16_t bits = value.to_bits();
    if ((bits & 0x7FFF) == 0) return half::from_bits(up ? 0x0001 : 0x8001);
    bool negative = bits >> 15;
    bits = up != negative ? bits + 1 : bits - 1;
    return half::from_bits(bits);
  } else {
    using U = typename unsigned_int_of_size<sizeof(F)>::type;
    U bits = __builtin_bit_cast(U, value);
    constexpr U sign = U(1) << (sizeof(F) * 8 - 1);
    if ((bits & ~sign) == 0) return __builtin_bit_cast(F, up ? U(1) : U(sign | 1));
    bool negative = (bits & sign) != 0;
    bits = up != negative ? bits + 1 : bits - 1;
    return __builtin_bit_cast(F, bits);
  }
}

// The exact sign of (rounded - source): rounded is the round-to-nearest conversion of source.
template <typename To, typename From>
constexpr int rounding_direction(To rounded, From source) {
  if constexpr (is_vec_fp_v<From>) {
    // From is at least as wide as To here, so widening `rounded` is exact.
    using W = std::conditional_t<std::is_same_v<From, half>, float, From>;
    W r = static_cast<W>(rounded), s = static_cast<W>(source);
    return r > s ? 1 : r < s ? -1 : 0;
  } else {
    // An integer source: `rounded` is integral-valued or infinite. Compare in double where that
    // is exact (sources up to 32 bits), else convert back within the source's range.
    double r = static_cast<double>(rounded);
    if constexpr (sizeof(From) <= 4) {
      double s = static_cast<double>(source);
      return r > s ? 1 : r < s ? -1 : 0;
    } else {
      constexpr double limit = std::is_signed_v<From> ? 0x1p63 : 0x1p64;
      if (r >= limit) return 1;
      if (r < -limit) return -1;
      From back = static_cast<From>(r);
      return back > source ? 1 : back < source ? -1 : 0;
    }
  }
}

// SYCL 2020 4.14.2.1 vec::convert, one element. rounding_mode::automatic is "the default
// rounding mode for the vec's element type": rte for a floating-point source (float to int
// rounds to nearest even), rtz for an integer source (int to float rounds toward zero).
template <typename To, rounding_mode RequestedMode, typename From>
constexpr To convert_element(From x) {
  constexpr rounding_mode Mode = RequestedMode != rounding_mode::automatic ? RequestedMode
                                 : is_vec_fp_v<From>                       ? rounding_mode::rte
                                                                           : rounding_mode::rtz;
  if constexpr (std::is_same_v<To, bool>) {
    return x != From(0);
  } else if constexpr (std::is_same_v<From, std::byte> || std::is_same_v<To, std::byte>) {
    return static_cast<To>(static_cast<unsigned char>(x));
  } else if constexpr (is_vec_fp_v<From> && !is_vec_fp_v<To>) {
    using W = std::conditional_t<std::is_same_v<From, double>, double, float>;
    W w = static_cast<W>(x);
    if constexpr (Mode == rounding_mode::rte) {
      w = std::is_same_v<W, double> ? __builtin_rint(w) : __builtin_rintf(w);
    } else if constexpr (Mode == rounding_mode::rtp) {
      w = std::is_same_v<W, double> ? __builtin_ceil(w) : __builtin_ceilf(w);
    } else if constexpr (Mode == rounding_mode::rtn) {
      w = std::is_same_v<W, double> ? __builtin_floor(w) : __builtin_floorf(w);
    }
    return static_cast<To>(w);
  } else if constexpr (is_vec_fp_v<To>) {
    To r = static_cast<To>(x);
    constexpr bool exact = is_vec_fp_v<From> && sizeof(From) <= sizeof(To);
    if constexpr (exact || Mode == rounding_mode::automatic || Mode == rounding_mode::rte) {
      return r;
    } else {
      int dir = rounding_direction(r, x);
      bool positive = x > From(0);
      if (dir > 0 && (Mode == rounding_mode::rtn || (Mode == rounding_mode::rtz && positive)))
        r = fp_step(r, false);
      else if (dir < 0 && (Mode == rounding_mode::rtp || (Mode == rounding_mode::rtz && !positive)))
        r = fp_step(r, true);
      return r;
    }
  } else {
    return static_cast<To>(x);
  }
}

template <typename T>
constexpr decltype(auto) swizzle_operand(const T& x) {
  if constexpr (is_swizzle_v<T>)
    return x.to_vec();
  else
    return (x);
}

// The accessors every vec and every swizzle has (SYCL 2020 4.14.2.1 "Swizzled vec class"):
// x() ... w(), r() ... a(), s0() ... sF(), lo() hi() odd() even(), and with SYCL_SIMPLE_SWIZZLES
// the 2- to 4-letter xyzw / rgba names. Each returns a swizzle over the same vec.
template <typename Derived, int N, int Storage>
class vec_accessors {
  friend Derived;
  vec_accessors() = default;

  static constexpr int half_size = Storage / 2;
  template <int Start, int Step, int... I>
  constexpr auto strided(std::integer_sequence<int, I...>) {
    return static_cast<Derived*>(this)->template swizzle_impl<(Start + Step * I)...>();
  }
  template <int Start, int Step, int... I>
  constexpr auto strided(std::integer_sequence<int, I...>) const {
    return static_cast<const Derived*>(this)->template swizzle_impl<(Start + Step * I)...>();
  }

public:
#define SYCLONE_SWIZZLE_FN(name, cond, ...)                                                        \
  template <int N_ = N, std::enable_if_t<(cond)>* = nullptr>                                       \
  constexpr auto name() {                                                                          \
    return static_cast<Derived*>(this)->template swizzle_impl<__VA_ARGS__>();                      \
  }                                                                                                \
  template <int N_ = N, std::enable_if_t<(cond)>* = nullptr>                                       \
  constexpr auto name() const {                                                                    \
    return static_cast<const Derived*>(this)->template swizzle_impl<__VA_ARGS__>();                \
  }
// The one-element names return a reference to the element, not a one-element swizzle (SYCL 2020
// rev. 10, "Member functions for the vec class template" and "... for the swizzled vector class
// templates"; DPC++, AdaptiveCpp and the CTS agree): `v.x() + 1` is scalar arithmetic and `&v.x()`
// is a DataT*. A swizzle's element belongs to its vec, so the reference is const only where that
// vec is.
#define SYCLONE_ELEMENT_FN(name, cond, index)                                                      \
  template <int N_ = N, std::enable_if_t<(cond)>* = nullptr>                                       \
  constexpr decltype(auto) name() {                                                                \
    return static_cast<Derived*>(this)->element_ref(index);                                        \
  }                                                                                                \
  template <int N_ = N, std::enable_if_t<(cond)>* = nullptr>                                       \
  constexpr decltype(auto) name() const {                                                          \
    return static_cast<const Derived*>(this)->element_ref(index);                                  \
  }
  SYCLONE_ELEMENT_FN(x, N_ <= 4, 0)
  SYCLONE_ELEMENT_FN(y, N_ >= 2 && N_ <= 4, 1)
  SYCLONE_ELEMENT_FN(z, N_ >= 3 && N_ <= 4, 2)
  SYCLONE_ELEMENT_FN(w, N_ == 4, 3)
  SYCLONE_ELEMENT_FN(r, N_ <= 4, 0)
  SYCLONE_ELEMENT_FN(g, N_ >= 2 && N_ <= 4, 1)
  SYCLONE_ELEMENT_FN(b, N_ >= 3 && N_ <= 4, 2)
  SYCLONE_ELEMENT_FN(a, N_ == 4, 3)
  SYCLONE_ELEMENT_FN(s0, N_ > 0, 0)
  SYCLONE_ELEMENT_FN(s1, N_ > 1, 1)
  SYCLONE_ELEMENT_FN(s2, N_ > 2, 2)
  SYCLONE_ELEMENT_FN(s3, N_ > 3, 3)
  SYCLONE_ELEMENT_FN(s4, N_ > 4, 4)
  SYCLONE_ELEMENT_FN(s5, N_ > 5, 5)
  SYCLONE_ELEMENT_FN(s6, N_ > 6, 6)
  SYCLONE_ELEMENT_FN(s7, N_ > 7, 7)
  SYCLONE_ELEMENT_FN(s8, N_ > 8, 8)
  SYCLONE_ELEMENT_FN(s9, N_ > 9, 9)
  SYCLONE_ELEMENT_FN(sA, N_ > 10, 10)
  SYCLONE_ELEMENT_FN(sB, N_ > 11, 11)
  SYCLONE_ELEMENT_FN(sC, N_ > 12, 12)
  SYCLONE_ELEMENT_FN(sD, N_ > 13, 13)
  SYCLONE_ELEMENT_FN(sE, N_ > 14, 14)
  SYCLONE_ELEMENT_FN(sF, N_ > 15, 15)
#undef SYCLONE_ELEMENT_FN

// lo/hi/even/odd: halves and interleaved halves; for 3 elements the fourth (padding) element
// takes part, as the spec's "vec<T, 3> has the size of vec<T, 4>" rule implies.
#define SYCLONE_SWIZZLE_HALF(name, start, step)                                                    \
  template <int N_ = N, std::enable_if_t<(N_ >= 2 && Storage % 2 == 0)>* = nullptr>                \
  constexpr auto name() {                                                                          \
    return strided<start, step>(std::make_integer_sequence<int, half_size>());                     \
  }                                                                                                \
  template <int N_ = N, std::enable_if_t<(N_ >= 2 && Storage % 2 == 0)>* = nullptr>                \
  constexpr auto name() const {                                                                    \
    return strided<start, step>(std::make_integer_sequence<int, half_size>());                     \
  }
  SYCLONE_SWIZZLE_HALF(lo, 0, 1)
  SYCLONE_SWIZZLE_HALF(hi, half_size, 1)
  SYCLONE_SWIZZLE_HALF(even, 0, 2)
  SYCLONE_SWIZZLE_HALF(odd, 1, 2)
#undef SYCLONE_SWIZZLE_HALF

#ifdef SYCL_SIMPLE_SWIZZLES
// Every 2-, 3- and 4-letter name over {x,y,z,w} and {r,g,b,a}, repeats included (SYCL 2020
// 4.14.2.1: available for NumElements <= 4 when SYCL_SIMPLE_SWIZZLES is defined). The
// preprocessor builds the names letter by letter; each level has its own macro because a macro
// cannot expand itself.
#define SYCLONE_SWIZZLE_NAMED(name, ...)                                                           \
  SYCLONE_SWIZZLE_FN(name, N_ <= 4 && max_index({__VA_ARGS__}) < N_, __VA_ARGS__)
#define SYCLONE_XYZW_1(F, p, ...)                                                                  \
  F(p##x, __VA_ARGS__, 0) F(p##y, __VA_ARGS__, 1) F(p##z, __VA_ARGS__, 2) F(p##w, __VA_ARGS__, 3)
#define SYCLONE_XYZW_2(F, p, ...)                                                                  \
  F(p##x, __VA_ARGS__, 0) F(p##y, __VA_ARGS__, 1) F(p##z, __VA_ARGS__, 2) F(p##w, __VA_ARGS__, 3)
#define SYCLONE_XYZW_3(F, p, ...)                                                                  \
  F(p##x, __VA_ARGS__, 0) F(p##y, __VA_ARGS__, 1) F(p##z, __VA_ARGS__, 2) F(p##w, __VA_ARGS__, 3)
#define SYCLONE_RGBA_1(F, p, ...)                                                                  \
  F(p##r, __VA_ARGS__, 0) F(p##g, __VA_ARGS__, 1) F(p##b, __VA_ARGS__, 2) F(p##a, __VA_ARGS__, 3)
#define SYCLONE_RGBA_2(F, p, ...)                                                                  \
  F(p##r, __VA_ARGS__, 0) F(p##g, __VA_ARGS__, 1) F(p##b, __VA_ARGS__, 2) F(p##a, __VA_ARGS__, 3)
#define SYCLONE_RGBA_3(F, p, ...)                                                                  \
  F(p##r, __VA_ARGS__, 0) F(p##g, __VA_ARGS__, 1) F(p##b, __VA_ARGS__, 2) F(p##a, __VA_ARGS__, 3)
#define SYCLONE_XYZW_L2(p, ...) SYCLONE_XYZW_1(SYCLONE_SWIZZLE_NAMED, p, __VA_ARGS__)
#define SYCLONE_XYZW_L3(p, ...) SYCLONE_XYZW_2(SYCLONE_XYZW_L2, p, __VA_ARGS__)
#define SYCLONE_XYZW_L4(p, ...) SYCLONE_XYZW_3(SYCLONE_XYZW_L3, p, __VA_ARGS__)
#define SYCLONE_RGBA_L2(p, ...) SYCLONE_RGBA_1(SYCLONE_SWIZZLE_NAMED, p, __VA_ARGS__)
#define SYCLONE_RGBA_L3(p, ...) SYCLONE_RGBA_2(SYCLONE_RGBA_L2, p, __VA_ARGS__)
#define SYCLONE_RGBA_L4(p, ...) SYCLONE_RGBA_3(SYCLONE_RGBA_L3, p, __VA_ARGS__)
#define SYCLONE_FIRST_LETTER(L)                                                                    \
  SYCLONE_XYZW_##L(x, 0) SYCLONE_XYZW_##L(y, 1) SYCLONE_XYZW_##L(z, 2) SYCLONE_XYZW_##L(w, 3)      \
      SYCLONE_RGBA_##L(r, 0) SYCLONE_RGBA_##L(g, 1) SYCLONE_RGBA_##L(b, 2) SYCLONE_RGBA_##L(a, 3)
  SYCLONE_FIRST_LETTER(L2)
  SYCLONE_FIRST_LETTER(L3)
  SYCLONE_FIRST_LETTER(L4)
#undef SYCLONE_FIRST_LETTER
#undef SYCLONE_XYZW_L2
#undef SYCLONE_XYZW_L3
#undef SYCLONE_XYZW_L4
#undef SYCLONE_RGBA_L2
#undef SYCLONE_RGBA_L3
#undef SYCLONE_RGBA_L4
#undef SYCLONE_XYZW_1
#undef SYCLONE_XYZW_2
#undef SYCLONE_XYZW_3
#undef SYCLONE_RGBA_1
#undef SYCLONE_RGBA_2
#undef SYCLONE_RGBA_3
#undef SYCLONE_SWIZZLE_NAMED
#endif
#undef SYCLONE_SWIZZLE_FN
};
} // namespace detail

// SYCL 2020 4.14.2.1. The vec class template.
template <typename DataT, int NumElements>
class alignas(sizeof(DataT) * detail::vec_storage(NumElements)) vec
    : public detail::vec_accessors<vec<DataT, NumElements>, NumElements,
                                   detail::vec_storage(NumElements)> {
  static_assert(NumElements == 1 || NumElements == 2 || NumElements == 3 || NumElements == 4 ||
                    NumElements == 8 || NumElements == 16,
                "sycl::vec has 1, 2, 3, 4, 8 or 16 elements");
  static_assert(detail::is_vec_element_v<DataT>,
                "sycl::vec elements are arithmetic types, sycl::half or std::byte");
  static constexpr int storage = detail::vec_storage(NumElements);
  using compare_vec = vec<detail::vec_compare_t<DataT>, NumElements>;

  template <typename, int, int>
  friend class detail::vec_accessors;
  template <typename, int...>
  friend class detail::swizzled_vec;

public:
  using element_type = DataT;
  using value_type = DataT;

  // Elements are value-initialized (zero), so that the padding element of vec<T, 3> and every
  // element read before being written have a defined value.
  constexpr vec() : m_data{} {}
  explicit constexpr vec(const DataT& arg) : m_data{} {
    for (int i = 0; i < NumElements; ++i) m_data[i] = arg;
  }
  // Any mix of scalars, vecs and swizzles of DataT whose element counts add up to NumElements.
  template <typename... ArgTN,
            std::enable_if_t<detail::vec_args_fit_v<DataT, NumElements, ArgTN...>>* = nullptr>
  constexpr vec(const ArgTN&... args) : m_data{} {
    int pos = 0;
    (fill(pos, args), ...);
  }
  template <typename V, int... I,
            std::enable_if_t<sizeof...(I) == NumElements &&
                             std::is_same_v<typename detail::swizzled_vec<V, I...>::element_type,
                                            DataT>>* = nullptr>
  constexpr vec(const detail::swizzled_vec<V, I...>& s) : vec(s.to_vec()) {}
  constexpr vec(const vec&) = default;
  constexpr vec& operator=(const vec&) = default;
  constexpr vec& operator=(const DataT& rhs) {
    for (int i = 0; i < NumElements; ++i) m_data[i] = rhs;
    return *this;
  }

  // A swizzle assigns through this overload: it is an exact match, where converting the swizzle
  // (to vec through the constructor, or to DataT for one element) would be ambiguous.
  template <typename V, int... I,
            std::enable_if_t<sizeof...(I) == NumElements &&
                             std::is_same_v<typename detail::swizzled_vec<V, I...>::element_type,
                                            DataT>>* = nullptr>
  constexpr vec& operator=(const detail::swizzled_vec<V, I...>& rhs) {
    return *this = rhs.to_vec();
  }

  // A one-element vec converts implicitly to its element, and on to other arithmetic types
  // ((int)v, static_cast<size_t>(v)): a non-template conversion function, with a type nobody can
  // use for other sizes.
  constexpr
  operator std::conditional_t<NumElements == 1, DataT, detail::no_vec_conversion<0>>() const {
    if constexpr (NumElements == 1)
      return m_data[0];
    else
      return {};
  }

  static constexpr std::size_t byte_size() noexcept { return sizeof(DataT) * storage; }
  static constexpr std::size_t size() noexcept { return NumElements; }
  // Deprecated in SYCL 2020 in favour of byte_size() and size().
  std::size_t get_size() const { return byte_size(); }
  std::size_t get_count() const { return size(); }

  template <typename ConvertT, rounding_mode RoundingMode = rounding_mode::automatic>
  constexpr vec<ConvertT, NumElements> convert() const {
    vec<ConvertT, NumElements> r;
    for (int i = 0; i < NumElements; ++i)
      r[i] = detail::convert_element<ConvertT, RoundingMode>(m_data[i]);
    return r;
  }

  // Reinterprets the bytes; vec<T, 3> counts as its 4-element storage (SYCL 2020 4.14.2.1).
  template <typename AsT>
  constexpr AsT as() const {
    static_assert(detail::is_vec_v<AsT>, "vec::as<T>() converts to another sycl::vec");
    static_assert(sizeof(AsT) == sizeof(vec), "vec::as<T>() needs a vec of the same byte size");
    return __builtin_bit_cast(AsT, *this);
  }

  template <int... SwizzleIndexes>
  constexpr auto swizzle() {
    static_assert(sizeof...(SwizzleIndexes) > 0, "a swizzle names at least one element");
    static_assert(((SwizzleIndexes >= 0 && SwizzleIndexes < NumElements) && ...),
                  "swizzle index out of range for this vec");
    return swizzle_impl<SwizzleIndexes...>();
  }
  template <int... SwizzleIndexes>
  constexpr auto swizzle() const {
    static_assert(sizeof...(SwizzleIndexes) > 0, "a swizzle names at least one element");
    static_assert(((SwizzleIndexes >= 0 && SwizzleIndexes < NumElements) && ...),
                  "swizzle index out of range for this vec");
    return swizzle_impl<SwizzleIndexes...>();
  }

  // SYCL 2020 4.14.2.1 load/store: elements [offset * NumElements, (offset + 1) * NumElements).
  // Raw pointers for now; the multi_ptr overloads arrive with multi_ptr (4.7.7.1).
  void load(std::size_t offset, const DataT* ptr) {
    for (int i = 0; i < NumElements; ++i) m_data[i] = ptr[offset * NumElements + i];
  }
  void store(std::size_t offset, DataT* ptr) const {
    for (int i = 0; i < NumElements; ++i) ptr[offset * NumElements + i] = m_data[i];
  }

  constexpr DataT& operator[](int index) { return m_data[index]; }
  constexpr const DataT& operator[](int index) const { return m_data[index]; }

#define SYCLONE_VEC_BINARY(op, cond)                                                               \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr vec operator op(const vec& a, const vec& b) {                                   \
    vec r;                                                                                         \
    for (int i = 0; i < NumElements; ++i)                                                          \
      r.m_data[i] = static_cast<DataT>(a.m_data[i] op b.m_data[i]);                                \
    return r;                                                                                      \
  }                                                                                                \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr vec operator op(const vec& a, const DataT& b) {                                 \
    vec r;                                                                                         \
    for (int i = 0; i < NumElements; ++i) r.m_data[i] = static_cast<DataT>(a.m_data[i] op b);      \
    return r;                                                                                      \
  }                                                                                                \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr vec operator op(const DataT& a, const vec& b) {                                 \
    vec r;                                                                                         \
    for (int i = 0; i < NumElements; ++i) r.m_data[i] = static_cast<DataT>(a op b.m_data[i]);      \
    return r;                                                                                      \
  }                                                                                                \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr vec& operator op## = (vec & a, const vec& b) {                                  \
    return a = a op b;                                                                             \
  }                                                                                                \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr vec& operator op## = (vec & a, const DataT& b) {                                \
    return a = a op b;                                                                             \
  }                                                                                                \
  /* An exact match for a swizzle of as many elements: for one element, converting the swizzle  */ \
  /* to vec and to DataT would be ambiguous.                                                    */ \
  template <typename V, int... I, typename T = DataT,                                              \
            std::enable_if_t<cond<T> && sizeof...(I) == NumElements &&                             \
                             std::is_same_v<typename detail::swizzled_vec<V, I...>::element_type,  \
                                            DataT>>* = nullptr>                                    \
  friend constexpr vec& operator op## = (vec & a, const detail::swizzled_vec<V, I...>& b) {        \
    return a = a op b.to_vec();                                                                    \
  }
  SYCLONE_VEC_BINARY(+, detail::vec_arith_v)
  SYCLONE_VEC_BINARY(-, detail::vec_arith_v)
  SYCLONE_VEC_BINARY(*, detail::vec_arith_v)
  SYCLONE_VEC_BINARY(/, detail::vec_arith_v)
  SYCLONE_VEC_BINARY(%, detail::vec_integral_v)
  SYCLONE_VEC_BINARY(&, detail::vec_bitwise_v)
  SYCLONE_VEC_BINARY(|, detail::vec_bitwise_v)
  SYCLONE_VEC_BINARY(^, detail::vec_bitwise_v)
  SYCLONE_VEC_BINARY(<<, detail::vec_integral_v)
  SYCLONE_VEC_BINARY(>>, detail::vec_integral_v)
#undef SYCLONE_VEC_BINARY

#define SYCLONE_VEC_COMPARE(op, cond)                                                              \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr compare_vec operator op(const vec& a, const vec& b) {                           \
    compare_vec r;                                                                                 \
    for (int i = 0; i < NumElements; ++i) r[i] = (a.m_data[i] op b.m_data[i]) ? -1 : 0;            \
    return r;                                                                                      \
  }                                                                                                \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr compare_vec operator op(const vec& a, const DataT& b) {                         \
    compare_vec r;                                                                                 \
    for (int i = 0; i < NumElements; ++i) r[i] = (a.m_data[i] op b) ? -1 : 0;                      \
    return r;                                                                                      \
  }                                                                                                \
  template <typename T = DataT, std::enable_if_t<cond<T>>* = nullptr>                              \
  friend constexpr compare_vec operator op(const DataT& a, const vec& b) {                         \
    compare_vec r;                                                                                 \
    for (int i = 0; i < NumElements; ++i) r[i] = (a op b.m_data[i]) ? -1 : 0;                      \
    return r;                                                                                      \
  }
  SYCLONE_VEC_COMPARE(==, detail::is_vec_element_v)
  SYCLONE_VEC_COMPARE(!=, detail::is_vec_element_v)
  SYCLONE_VEC_COMPARE(<, detail::is_vec_element_v)
  SYCLONE_VEC_COMPARE(>, detail::is_vec_element_v)
  SYCLONE_VEC_COMPARE(<=, detail::is_vec_element_v)
  SYCLONE_VEC_COMPARE(>=, detail::is_vec_element_v)
  SYCLONE_VEC_COMPARE(&&, detail::vec_logical_v)
  SYCLONE_VEC_COMPARE(||, detail::vec_logical_v)
#undef SYCLONE_VEC_COMPARE

  template <typename T = DataT, std::enable_if_t<detail::vec_arith_v<T>>* = nullptr>
  friend constexpr vec operator+(const vec& a) {
    return a;
  }
  template <typename T = DataT, std::enable_if_t<detail::vec_arith_v<T>>* = nullptr>
  friend constexpr vec operator-(const vec& a) {
    vec r;
    for (int i = 0; i < NumElements; ++i) r.m_data[i] = static_cast<DataT>(-a.m_data[i]);
    return r;
  }
  template <typename T = DataT, std::enable_if_t<detail::vec_bitwise_v<T>>* = nullptr>
  friend constexpr vec operator~(const vec& a) {
    vec r;
    for (int i = 0; i < NumElements; ++i) r.m_data[i] = static_cast<DataT>(~a.m_data[i]);
    return r;
  }
  template <typename T = DataT, std::enable_if_t<detail::vec_logical_v<T>>* = nullptr>
  friend constexpr compare_vec operator!(const vec& a) {
    compare_vec r;
    for (int i = 0; i < NumElements; ++i) r[i] = !a.m_data[i] ? -1 : 0;
    return r;
  }
  template <typename T = DataT, std::enable_if_t<detail::vec_incdec_v<T>>* = nullptr>
  friend constexpr vec& operator++(vec& a) {
    return a += DataT(1);
  }
  template <typename T = DataT, std::enable_if_t<detail::vec_incdec_v<T>>* = nullptr>
  friend constexpr vec& operator--(vec& a) {
    return a -= DataT(1);
  }
  template <typename T = DataT, std::enable_if_t<detail::vec_incdec_v<T>>* = nullptr>
  friend constexpr vec operator++(vec& a, int) {
    vec old = a;
    a += DataT(1);
    return old;
  }
  template <typename T = DataT, std::enable_if_t<detail::vec_incdec_v<T>>* = nullptr>
  friend constexpr vec operator--(vec& a, int) {
    vec old = a;
    a -= DataT(1);
    return old;
  }

private:
  template <typename Arg>
  constexpr void fill(int& pos, const Arg& arg) {
    if constexpr (detail::is_vec_v<Arg>) {
      for (std::size_t i = 0; i < Arg::size(); ++i) m_data[pos++] = arg[static_cast<int>(i)];
    } else if constexpr (detail::is_swizzle_v<Arg>) {
      auto v = arg.to_vec();
      for (std::size_t i = 0; i < Arg::size(); ++i) m_data[pos++] = v[static_cast<int>(i)];
    } else {
      m_data[pos++] = static_cast<DataT>(arg);
    }
  }
  constexpr DataT& element_ref(int i) { return m_data[i]; }
  constexpr const DataT& element_ref(int i) const { return m_data[i]; }
  template <int... I>
  constexpr auto swizzle_impl() {
    return detail::swizzled_vec<vec, I...>(*this);
  }
  template <int... I>
  constexpr auto swizzle_impl() const {
    return detail::swizzled_vec<const vec, I...>(*this);
  }

  DataT m_data[storage];
};

// SYCL 2020 4.14.2.1: vec{1.0f, 2.0f, 3.0f} is a vec<float, 3>; the element type is the first
// argument's.
template <class T, class... U>
vec(T, U...) -> vec<T, sizeof...(U) + 1>;

namespace detail {
// SYCL 2020 4.14.2.1 __swizzled_vec__: a view of some elements of a vec, in any order. It reads
// as a vec<DataT, sizeof...(Indexes)>, and writes through when the vec is not const and no
// index repeats. Its operators produce plain vecs.
template <typename VecT, int... Indexes>
class swizzled_vec
    : public vec_accessors<swizzled_vec<VecT, Indexes...>, static_cast<int>(sizeof...(Indexes)),
                           vec_storage(static_cast<int>(sizeof...(Indexes)))> {
  using base_vec = std::remove_const_t<VecT>;
  static constexpr int count = static_cast<int>(sizeof...(Indexes));
  static constexpr int index[] = {Indexes...};
  static constexpr bool writable = !std::is_const_v<VecT> && unique_indexes({Indexes...});

  template <typename, int, int>
  friend class vec_accessors;

public:
  using element_type = typename base_vec::element_type;
  using value_type = element_type;
  using vec_type = vec<element_type, count>;

  explicit constexpr swizzled_vec(VecT& v) : m_vec(&v) {}
  constexpr swizzled_vec(const swizzled_vec&) = default;

  constexpr vec_type to_vec() const {
    vec_type r;
    for (int i = 0; i < count; ++i) r[i] = (*m_vec)[index[i]];
    return r;
  }
  // vec converts a swizzle through its constructor from a swizzle (a conversion function to
  // vec_type as well would make vec's assignment and construction from a swizzle ambiguous). A
  // one-element swizzle converts implicitly to its element and on to other arithmetic types
  // ((int)v.x(), v.s0() == r.s0()).
  constexpr operator std::conditional_t<count == 1, element_type, no_vec_conversion<1>>() const {
    if constexpr (count == 1)
      return (*m_vec)[index[0]];
    else
      return {};
  }

  static constexpr std::size_t byte_size() noexcept { return vec_type::byte_size(); }
  static constexpr std::size_t size() noexcept { return count; }
  std::size_t get_size() const { return byte_size(); }
  std::size_t get_count() const { return size(); }

  template <typename ConvertT, rounding_mode RoundingMode = rounding_mode::automatic>
  constexpr vec<ConvertT, count> convert() const {
    return to_vec().template convert<ConvertT, RoundingMode>();
  }
  template <typename AsT>
  constexpr AsT as() const {
    return to_vec().template as<AsT>();
  }
  template <int... SwizzleIndexes>
  constexpr auto swizzle() const {
    static_assert(((SwizzleIndexes >= 0 && SwizzleIndexes < count) && ...),
                  "swizzle index out of range for this swizzle");
    return swizzle_impl<SwizzleIndexes...>();
  }

  void load(std::size_t offset, const element_type* ptr) const {
    vec_type v;
    v.load(offset, ptr);
    assign(v);
  }
  void store(std::size_t offset, element_type* ptr) const { to_vec().store(offset, ptr); }

  template <bool W = writable, std::enable_if_t<W>* = nullptr>
  constexpr element_type& operator[](int i) const {
    return (*m_vec)[index[i]];
  }
  template <bool W = writable, std::enable_if_t<!W>* = nullptr>
  constexpr element_type operator[](int i) const {
    return (*m_vec)[index[i]];
  }

  // Assignment writes the elements (reference semantics), never rebinds the view.
  constexpr const swizzled_vec& operator=(const swizzled_vec& rhs) const {
    assign(rhs.to_vec());
    return *this;
  }
  constexpr const swizzled_vec& operator=(const vec_type& rhs) const {
    assign(rhs);
    return *this;
  }
  constexpr const swizzled_vec& operator=(const element_type& rhs) const {
    assign(vec_type(rhs));
    return *this;
  }
  template <typename V2, int... I2,
            std::enable_if_t<sizeof...(I2) == count &&
                             std::is_same_v<typename swizzled_vec<V2, I2...>::element_type,
                                            element_type>>* = nullptr>
  constexpr const swizzled_vec& operator=(const swizzled_vec<V2, I2...>& rhs) const {
    assign(rhs.to_vec());
    return *this;
  }

#define SYCLONE_SWIZZLE_COMPOUND(op)                                                               \
  template <typename T, typename = decltype(std::declval<vec_type&>() op## =                       \
                                                swizzle_operand(std::declval<const T&>()))>        \
  constexpr const swizzled_vec& operator op## = (const T& rhs) const {                             \
    vec_type v = to_vec();                                                                         \
    v op## = swizzle_operand(rhs);                                                                 \
    assign(v);                                                                                     \
    return *this;                                                                                  \
  }
  SYCLONE_SWIZZLE_COMPOUND(+)
  SYCLONE_SWIZZLE_COMPOUND(-)
  SYCLONE_SWIZZLE_COMPOUND(*)
  SYCLONE_SWIZZLE_COMPOUND(/)
  SYCLONE_SWIZZLE_COMPOUND(%)
  SYCLONE_SWIZZLE_COMPOUND(&)
  SYCLONE_SWIZZLE_COMPOUND(|)
  SYCLONE_SWIZZLE_COMPOUND(^)
  SYCLONE_SWIZZLE_COMPOUND(<<)
  SYCLONE_SWIZZLE_COMPOUND(>>)
#undef SYCLONE_SWIZZLE_COMPOUND

  template <typename T = element_type, std::enable_if_t<vec_arith_v<T>>* = nullptr>
  constexpr const swizzled_vec& operator++() const {
    return *this += element_type(1);
  }
  template <typename T = element_type, std::enable_if_t<vec_arith_v<T>>* = nullptr>
  constexpr const swizzled_vec& operator--() const {
    return *this -= element_type(1);
  }
  template <typename T = element_type, std::enable_if_t<vec_arith_v<T>>* = nullptr>
  constexpr vec_type operator++(int) const {
    vec_type old = to_vec();
    *this += element_type(1);
    return old;
  }
  template <typename T = element_type, std::enable_if_t<vec_arith_v<T>>* = nullptr>
  constexpr vec_type operator--(int) const {
    vec_type old = to_vec();
    *this -= element_type(1);
    return old;
  }

  friend constexpr auto operator+(const swizzled_vec& s) { return +s.to_vec(); }
  friend constexpr auto operator-(const swizzled_vec& s) { return -s.to_vec(); }
  friend constexpr auto operator~(const swizzled_vec& s) { return ~s.to_vec(); }
  friend constexpr auto operator!(const swizzled_vec& s) { return !s.to_vec(); }

private:
  constexpr void assign(const vec_type& v) const {
    static_assert(writable, "this swizzle is read-only: its vec is const or an index repeats");
    for (int i = 0; i < count; ++i) (*m_vec)[index[i]] = v[i];
  }
  // lo/hi/odd/even of a 3-element swizzle name a fourth element, undefined as vec<T, 3>'s is
  // (SYCL 2020 4.14.2.1): it reads the third element again, which also makes a swizzle holding
  // it read-only, so no write lands on an element it does not name.
  template <int... I>
  constexpr auto swizzle_impl() const {
    return swizzled_vec<VecT, index[I < count ? I : count - 1]...>(*m_vec);
  }
  // The element behind position i; const exactly where the vec is.
  constexpr decltype(auto) element_ref(int i) const { return (*m_vec)[index[i]]; }

  VecT* m_vec;
};

// Binary operators with a swizzle on either side: evaluate the swizzle to its vec, then use the
// vec operators. Found by argument-dependent lookup through swizzled_vec.
#define SYCLONE_SWIZZLE_BINARY(op)                                                                 \
  template <typename A, typename B,                                                                \
            std::enable_if_t<is_swizzle_v<A> || is_swizzle_v<B>>* = nullptr>                       \
  constexpr auto operator op(const A& a, const B& b)                                               \
      ->decltype(swizzle_operand(a) op swizzle_operand(b)) {                                       \
    return swizzle_operand(a) op swizzle_operand(b);                                               \
  }
SYCLONE_SWIZZLE_BINARY(+)
SYCLONE_SWIZZLE_BINARY(-)
SYCLONE_SWIZZLE_BINARY(*)
SYCLONE_SWIZZLE_BINARY(/)
SYCLONE_SWIZZLE_BINARY(%)
SYCLONE_SWIZZLE_BINARY(&)
SYCLONE_SWIZZLE_BINARY(|)
SYCLONE_SWIZZLE_BINARY(^)
SYCLONE_SWIZZLE_BINARY(<<)
SYCLONE_SWIZZLE_BINARY(>>)
SYCLONE_SWIZZLE_BINARY(==)
SYCLONE_SWIZZLE_BINARY(!=)
SYCLONE_SWIZZLE_BINARY(<)
SYCLONE_SWIZZLE_BINARY(>)
SYCLONE_SWIZZLE_BINARY(<=)
SYCLONE_SWIZZLE_BINARY(>=)
SYCLONE_SWIZZLE_BINARY(&&)
SYCLONE_SWIZZLE_BINARY(||)
#undef SYCLONE_SWIZZLE_BINARY
} // namespace detail

// SYCL 2020 4.14.2.3. Aliases: <type><N> for N in 2, 3, 4, 8, 16.
#define SYCLONE_VEC_ALIASES(name, type)                                                            \
  using name##2 = vec<type, 2>;                                                                    \
  using name##3 = vec<type, 3>;                                                                    \
  using name##4 = vec<type, 4>;                                                                    \
  using name##8 = vec<type, 8>;                                                                    \
  using name##16 = vec<type, 16>;
SYCLONE_VEC_ALIASES(char, std::int8_t)
SYCLONE_VEC_ALIASES(uchar, std::uint8_t)
SYCLONE_VEC_ALIASES(short, std::int16_t)
SYCLONE_VEC_ALIASES(ushort, std::uint16_t)
SYCLONE_VEC_ALIASES(int, std::int32_t)
SYCLONE_VEC_ALIASES(uint, std::uint32_t)
SYCLONE_VEC_ALIASES(long, std::int64_t)
SYCLONE_VEC_ALIASES(ulong, std::uint64_t)
SYCLONE_VEC_ALIASES(half, half)
SYCLONE_VEC_ALIASES(float, float)
SYCLONE_VEC_ALIASES(double, double)

// SYCL 1.2.1 4.10.2.1 (the deprecated interoperability names SYCL 1.2.1 code still uses):
// cl_<type><N> is vec<opencl::cl_<type>, N>.
SYCLONE_VEC_ALIASES(cl_char, std::int8_t)
SYCLONE_VEC_ALIASES(cl_uchar, std::uint8_t)
SYCLONE_VEC_ALIASES(cl_short, std::int16_t)
SYCLONE_VEC_ALIASES(cl_ushort, std::uint16_t)
SYCLONE_VEC_ALIASES(cl_int, std::int32_t)
SYCLONE_VEC_ALIASES(cl_uint, std::uint32_t)
SYCLONE_VEC_ALIASES(cl_long, std::int64_t)
SYCLONE_VEC_ALIASES(cl_ulong, std::uint64_t)
SYCLONE_VEC_ALIASES(cl_half, half)
SYCLONE_VEC_ALIASES(cl_float, float)
SYCLONE_VEC_ALIASES(cl_double, double)
#undef SYCLONE_VEC_ALIASES

SYCLONE_END_NAMESPACE
