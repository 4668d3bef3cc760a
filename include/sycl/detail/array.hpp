// The common storage and operators of sycl::id and sycl::range (SYCL 2020 4.9.1.1, 4.9.1.3).
#pragma once

#include <sycl/detail/config.hpp>

#include <cstddef>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

// The target of id<1>'s and item<1>'s conversion to size_t; other dimensions convert to a type
// nobody can use, which keeps the conversion operator a non-template.
struct no_size_t_conversion {
  no_size_t_conversion(std::size_t) {}
};
template <int Dimensions>
using size_t_if_one = std::conditional_t<Dimensions == 1, std::size_t, no_size_t_conversion>;

template <int Dimensions, typename Derived>
class array {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "SYCL ids and ranges have 1 to 3 dimensions");

public:
  array() = default;
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>>
  array(std::size_t d0) : m_data{d0} {}
  template <int D = Dimensions, typename = std::enable_if_t<D == 2>>
  array(std::size_t d0, std::size_t d1) : m_data{d0, d1} {}
  template <int D = Dimensions, typename = std::enable_if_t<D == 3>>
  array(std::size_t d0, std::size_t d1, std::size_t d2) : m_data{d0, d1, d2} {}

  std::size_t get(int dimension) const { return m_data[dimension]; }
  std::size_t& operator[](int dimension) { return m_data[dimension]; }
  std::size_t operator[](int dimension) const { return m_data[dimension]; }

  // The left operand is the class itself, never one converted to it: `n == id` with an integer
  // n compares n with the 1-dimensional id's value (its conversion to size_t), as in DPC++,
  // instead of being ambiguous between that and converting n to an id.
  template <typename L, std::enable_if_t<std::is_same_v<L, Derived>, int> = 0>
  friend bool operator==(const L& a, const Derived& b) {
    for (int i = 0; i < Dimensions; ++i)
      if (a.m_data[i] != b.m_data[i]) return false;
    return true;
  }
  template <typename L, std::enable_if_t<std::is_same_v<L, Derived>, int> = 0>
  friend bool operator!=(const L& a, const Derived& b) {
    return !(a == b);
  }
  // An id or range against an integer (`it.get_local_id() == 0`): every component equals it (for
  // one dimension, the value). An exact match, where converting the integer to the class and the
  // 1-dimensional class to size_t would be ambiguous; DPC++ accepts it and the CTS's root-group
  // test writes it for 1 to 3 dimensions.
  template <typename L, typename T,
            std::enable_if_t<std::is_same_v<L, Derived> && std::is_integral_v<T>, int> = 0>
  friend bool operator==(const L& a, const T& b) {
    for (int i = 0; i < Dimensions; ++i)
      if (a.m_data[i] != static_cast<std::size_t>(b)) return false;
    return true;
  }
  template <typename L, typename T,
            std::enable_if_t<std::is_same_v<L, Derived> && std::is_integral_v<T>, int> = 0>
  friend bool operator!=(const L& a, const T& b) {
    return !(a == b);
  }

#define SYCLONE_ARRAY_BINARY(op)                                                                   \
  friend Derived operator op(const Derived& a, const Derived& b) {                                 \
    Derived r = a;                                                                                 \
    for (int i = 0; i < Dimensions; ++i) r.m_data[i] = a.m_data[i] op b.m_data[i];                 \
    return r;                                                                                      \
  }                                                                                                \
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>                        \
  friend Derived operator op(const Derived& a, const T& b) {                                       \
    Derived r = a;                                                                                 \
    for (int i = 0; i < Dimensions; ++i) r.m_data[i] = a.m_data[i] op b;                           \
    return r;                                                                                      \
  }                                                                                                \
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>                        \
  friend Derived operator op(const T& a, const Derived& b) {                                       \
    Derived r = b;                                                                                 \
    for (int i = 0; i < Dimensions; ++i) r.m_data[i] = a op b.m_data[i];                           \
    return r;                                                                                      \
  }
  SYCLONE_ARRAY_BINARY(+)
  SYCLONE_ARRAY_BINARY(-)
  SYCLONE_ARRAY_BINARY(*)
  SYCLONE_ARRAY_BINARY(/)
  SYCLONE_ARRAY_BINARY(%)
  SYCLONE_ARRAY_BINARY(<<)
  SYCLONE_ARRAY_BINARY(>>)
  SYCLONE_ARRAY_BINARY(&)
  SYCLONE_ARRAY_BINARY(|)
  SYCLONE_ARRAY_BINARY(^)
  SYCLONE_ARRAY_BINARY(&&)
  SYCLONE_ARRAY_BINARY(||)
  SYCLONE_ARRAY_BINARY(<)
  SYCLONE_ARRAY_BINARY(>)
  SYCLONE_ARRAY_BINARY(<=)
  SYCLONE_ARRAY_BINARY(>=)
#undef SYCLONE_ARRAY_BINARY

#define SYCLONE_ARRAY_COMPOUND(op)                                                                 \
  friend Derived& operator op(Derived& a, const Derived& b) {                                      \
    for (int i = 0; i < Dimensions; ++i) a.m_data[i] op b.m_data[i];                               \
    return a;                                                                                      \
  }                                                                                                \
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>                        \
  friend Derived& operator op(Derived& a, const T& b) {                                            \
    for (int i = 0; i < Dimensions; ++i) a.m_data[i] op b;                                         \
    return a;                                                                                      \
  }
  SYCLONE_ARRAY_COMPOUND(+=)
  SYCLONE_ARRAY_COMPOUND(-=)
  SYCLONE_ARRAY_COMPOUND(*=)
  SYCLONE_ARRAY_COMPOUND(/=)
  SYCLONE_ARRAY_COMPOUND(%=)
  SYCLONE_ARRAY_COMPOUND(<<=)
  SYCLONE_ARRAY_COMPOUND(>>=)
  SYCLONE_ARRAY_COMPOUND(&=)
  SYCLONE_ARRAY_COMPOUND(|=)
  SYCLONE_ARRAY_COMPOUND(^=)
#undef SYCLONE_ARRAY_COMPOUND

  friend Derived operator+(const Derived& a) { return a; }
  friend Derived operator-(const Derived& a) {
    Derived r = a;
    for (int i = 0; i < Dimensions; ++i) r.m_data[i] = -a.m_data[i];
    return r;
  }
  friend Derived& operator++(Derived& a) { return a += 1; }
  friend Derived& operator--(Derived& a) { return a -= 1; }
  friend Derived operator++(Derived& a, int) {
    Derived old = a;
    a += 1;
    return old;
  }
  friend Derived operator--(Derived& a, int) {
    Derived old = a;
    a -= 1;
    return old;
  }

protected:
  std::size_t m_data[Dimensions] = {};
};

} // namespace detail
SYCLONE_END_NAMESPACE
