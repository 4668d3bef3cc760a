// SYCL 2020 4.14.3 marray and 4.14.2 vec breadth: the m<type><N> aliases name fixed-width types
// (mchar is marray<int8_t, N>), marray holds any NumericType (a user type with the arithmetic
// operators too), marray<bool> and vec<bool> have the arithmetic, shift and unary operators,
// vec<std::byte> the relational ones, and vec's deduction guide; checked on the host and in a
// kernel.
#include <sycl/sycl.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// A NumericType that is not an arithmetic type.
struct fixed {
  int raw = 0;
  fixed() = default;
  constexpr fixed(int v) : raw(v) {}
  friend constexpr fixed operator+(fixed a, fixed b) { return fixed(a.raw + b.raw); }
  friend constexpr fixed operator-(fixed a, fixed b) { return fixed(a.raw - b.raw); }
  friend constexpr fixed operator*(fixed a, fixed b) { return fixed(a.raw * b.raw); }
  friend constexpr fixed operator/(fixed a, fixed b) { return fixed(a.raw / b.raw); }
  friend constexpr fixed operator%(fixed a, fixed b) { return fixed(a.raw % b.raw); }
  friend constexpr fixed operator&(fixed a, fixed b) { return fixed(a.raw & b.raw); }
  friend constexpr fixed operator|(fixed a, fixed b) { return fixed(a.raw | b.raw); }
  friend constexpr fixed operator^(fixed a, fixed b) { return fixed(a.raw ^ b.raw); }
  // Through unsigned: a left shift of a negative value is undefined before C++20 (UBSan).
  friend constexpr fixed operator<<(fixed a, fixed b) {
    return fixed(static_cast<decltype(a.raw)>(static_cast<unsigned long long>(a.raw) << b.raw));
  }
  friend constexpr fixed operator>>(fixed a, fixed b) { return fixed(a.raw >> b.raw); }
  constexpr fixed operator-() const { return fixed(-raw); }
  constexpr fixed operator~() const { return fixed(~raw); }
  constexpr bool operator!() const { return !raw; }
  friend constexpr bool operator&&(fixed a, fixed b) { return a.raw && b.raw; }
  friend constexpr bool operator||(fixed a, fixed b) { return a.raw || b.raw; }
  friend constexpr bool operator==(fixed a, fixed b) { return a.raw == b.raw; }
  friend constexpr bool operator!=(fixed a, fixed b) { return a.raw != b.raw; }
  friend constexpr bool operator<(fixed a, fixed b) { return a.raw < b.raw; }
  friend constexpr bool operator>(fixed a, fixed b) { return a.raw > b.raw; }
  friend constexpr bool operator<=(fixed a, fixed b) { return a.raw <= b.raw; }
  friend constexpr bool operator>=(fixed a, fixed b) { return a.raw >= b.raw; }
};

#define ALIASES(name, type)                                                                        \
  static_assert(std::is_same_v<sycl::m##name##2, sycl::marray<type, 2>>);                          \
  static_assert(std::is_same_v<sycl::m##name##3, sycl::marray<type, 3>>);                          \
  static_assert(std::is_same_v<sycl::m##name##4, sycl::marray<type, 4>>);                          \
  static_assert(std::is_same_v<sycl::m##name##8, sycl::marray<type, 8>>);                          \
  static_assert(std::is_same_v<sycl::m##name##16, sycl::marray<type, 16>>);
ALIASES(bool, bool)
ALIASES(char, std::int8_t)
ALIASES(uchar, std::uint8_t)
ALIASES(short, std::int16_t)
ALIASES(ushort, std::uint16_t)
ALIASES(int, std::int32_t)
ALIASES(uint, std::uint32_t)
ALIASES(long, std::int64_t)
ALIASES(ulong, std::uint64_t)
ALIASES(half, sycl::half)
ALIASES(float, float)
ALIASES(double, double)
static_assert(!std::is_same_v<sycl::mchar4, sycl::marray<char, 4>>);

// Deduction guides.
static_assert(std::is_same_v<decltype(sycl::vec{1.0f, 2.0f, 3.0f}), sycl::vec<float, 3>>);
static_assert(std::is_same_v<decltype(sycl::vec{1}), sycl::vec<int, 1>>);
static_assert(
    std::is_same_v<decltype(sycl::vec(std::int8_t(1), std::int8_t(2))), sycl::vec<std::int8_t, 2>>);

template <typename T, typename = void>
struct has_pre_increment : std::false_type {};
template <typename T>
struct has_pre_increment<T, std::void_t<decltype(++std::declval<T&>())>> : std::true_type {};
template <typename T, typename = void>
struct has_less : std::false_type {};
template <typename T>
struct has_less<T, std::void_t<decltype(std::declval<T>() < std::declval<T>())>> : std::true_type {
};
template <typename T, typename = void>
struct has_logical_and : std::false_type {};
template <typename T>
struct has_logical_and<T, std::void_t<decltype(std::declval<T>() && std::declval<T>())>>
    : std::true_type {};
template <typename T, typename = void>
struct has_modulo : std::false_type {};
template <typename T>
struct has_modulo<T, std::void_t<decltype(std::declval<T>() % std::declval<T>())>>
    : std::true_type {};
// ++/-- exist for neither vec<bool> nor marray<bool>; % not for floating point; && not for byte.
static_assert(!has_pre_increment<sycl::vec<bool, 4>>::value);
static_assert(!has_pre_increment<sycl::marray<bool, 4>>::value);
static_assert(
    has_pre_increment<sycl::marray<fixed, 2>>::value == false ||
    std::is_same_v<decltype(++std::declval<sycl::marray<fixed, 2>&>()), sycl::marray<fixed, 2>&>);
static_assert(!has_modulo<sycl::marray<float, 2>>::value);
static_assert(has_modulo<sycl::marray<fixed, 2>>::value);
static_assert(has_less<sycl::vec<std::byte, 4>>::value);
static_assert(!has_logical_and<sycl::vec<std::byte, 4>>::value);

struct results {
  bool marray_bool_ok, marray_fixed_ok, vec_bool_ok, vec_byte_ok, vec_conversions_ok;
};

// A one-element vec or swizzle converts implicitly to its element type and on to other
// arithmetic types; vec = swizzle is unambiguous for any size (SYCL 2020 4.14.2.1).
static_assert(std::is_convertible_v<sycl::vec<float, 1>, int>);
static_assert(!std::is_convertible_v<sycl::vec<float, 2>, float>);

results compute() {
  results r{};
  {
    // marray<bool>: arithmetic on the promoted values, converted back to bool.
    sycl::mbool4 a(true, false, true, false), b(true, true, false, false);
    sycl::mbool4 sum = a + b, diff = a - b, prod = a * b, shl = a << b, neg = -a, bnot = ~a;
    sycl::mbool4 x = a ^ b, o = a | b;
    sycl::mbool4 acc = a;
    acc += b;
    auto lt = a < b;
    static_assert(std::is_same_v<decltype(lt), sycl::marray<bool, 4>>);
    r.marray_bool_ok = sum[0] && sum[1] && sum[2] && !sum[3] && !diff[0] && diff[1] && prod[0] &&
                       !prod[1] && shl[0] && shl[2] && !shl[1] && neg[0] && !neg[1] && bnot[0] &&
                       bnot[1] && !x[0] && x[1] && x[2] && !x[3] && o[2] && !o[3] && acc[0] &&
                       acc[1] && !acc[3] && !lt[0] && lt[1] && !lt[2] && !(+a)[1];
  }
  {
    sycl::marray<fixed, 3> f(fixed(7), fixed(12), fixed(-3)), g(fixed(2));
    auto s = f + g, m = f % g, sh = f << g, n = -f, c = ~f;
    auto eq = f == fixed(12);
    auto pre = ++f;
    r.marray_fixed_ok = s[0].raw == 9 && s[1].raw == 14 && s[2].raw == -1 && m[0].raw == 1 &&
                        m[1].raw == 0 && sh[1].raw == 48 && n[2].raw == 3 && c[0].raw == ~7 &&
                        !eq[0] && eq[1] && pre[0].raw == 8 && f[2].raw == -2;
  }
  {
    sycl::vec<bool, 4> a(true, false, true, false), b(true, true, false, false);
    sycl::vec<bool, 4> sum = a + b, prod = a * b, sh = a >> b, neg = -a, bnot = ~a;
    sycl::vec<bool, 4> md = a % sycl::vec<bool, 4>(true);
    auto lt = a < b;
    static_assert(std::is_same_v<decltype(lt), sycl::vec<std::int8_t, 4>>);
    r.vec_bool_ok = sum[0] && sum[1] && sum[2] && !sum[3] && prod[0] && !prod[2] && !sh[0] &&
                    sh[2] && neg[0] && !neg[1] && bnot[0] && bnot[1] && !md[0] && !md[1] &&
                    lt[0] == 0 && lt[1] == -1 && !(+a)[1];
  }
  {
    sycl::vec<std::byte, 4> a(std::byte{1}, std::byte{5}, std::byte{9}, std::byte{200});
    sycl::vec<std::byte, 4> b(std::byte{2});
    auto lt = a<b, ge = a >= b, gt = a> std::byte{8}, le = std::byte{5} <= a;
    auto bx = a ^ b;
    r.vec_byte_ok = lt[0] == -1 && lt[1] == 0 && ge[1] == -1 && ge[0] == 0 && gt[2] == -1 &&
                    gt[1] == 0 && gt[3] == -1 && le[0] == 0 && le[1] == -1 && bx[0] == std::byte{3};
  }
  {
    sycl::vec<float, 4> v(1.5f, 2.5f, 3.5f, 4.5f), w(1.5f, 0.0f, 0.0f, 0.0f);
    sycl::vec<float, 1> one(7.25f);
    int i = (int)v.x();
    auto s = static_cast<std::size_t>(v.s3());
    bool same = v.s0() == w.s0(); // compares the elements
    double d = one;
    long l = static_cast<long>(one);
    sycl::vec<float, 1> from_swizzle(0.0f);
    from_swizzle = v.y(); // vec<T, 1> = one-element swizzle
    // vec<T, 1> op= one-element swizzle (converting the swizzle to vec or to float was
    // ambiguous), and the same for a swizzle as long as the vec.
    sycl::vec<float, 1> acc(1.0f);
    acc += v.y();
    acc *= v.swizzle<sycl::elem::s0>();
    sycl::vec<int, 1> bits(6);
    bits &= sycl::vec<int, 2>(3, 12).x();
    bits <<= sycl::vec<int, 1>(1).x();
    sycl::vec<float, 2> pair2(1.0f, 2.0f);
    pair2 -= v.lo();
    bool compound_ok = acc[0] == 5.25f && bits[0] == 4 && pair2[0] == -0.5f && pair2[1] == -0.5f;
    sycl::vec<float, 2> pair;
    pair = v.hi(); // vec = swizzle
    sycl::vec<float, 4> rev;
    rev = v.swizzle<3, 2, 1, 0>();
    // lo/hi/odd/even of a 3-element vec and of a 3-element swizzle (the fourth element is
    // undefined and not checked).
    sycl::vec<int, 3> v3(10, 20, 30);
    sycl::vec<int, 2> lo3 = v3.lo(), even3 = v3.even();
    sycl::vec<int, 2> slo = v3.swizzle<2, 1, 0>().lo(), shi = v3.swizzle<2, 1, 0>().hi();
    sycl::vec<int, 2> sodd = v3.swizzle<2, 1, 0>().odd(), seven = v3.swizzle<2, 1, 0>().even();
    v3.swizzle<2, 1, 0>().lo() = sycl::vec<int, 2>(1, 2); // writes v3[2], v3[1]
    bool three_ok = lo3[0] == 10 && lo3[1] == 20 && even3[1] == 30 && slo[0] == 30 &&
                    slo[1] == 20 && shi[0] == 10 && sodd[0] == 20 && seven[0] == 30 &&
                    seven[1] == 10 && v3[2] == 1 && v3[1] == 2 && v3[0] == 10;
    r.vec_conversions_ok = three_ok && compound_ok && i == 1 && s == 4 && same && d == 7.25 &&
                           l == 7 && from_swizzle[0] == 2.5f && pair[0] == 3.5f &&
                           pair[1] == 4.5f && rev[0] == 4.5f && rev[3] == 1.5f;
  }
  return r;
}
} // namespace

int main() {
  results host = compute();
  CHECK(host.marray_bool_ok);
  CHECK(host.marray_fixed_ok);
  CHECK(host.vec_bool_ok);
  CHECK(host.vec_byte_ok);
  CHECK(host.vec_conversions_ok);

  sycl::queue q;
  results* dev = sycl::malloc_shared<results>(1, q);
  q.single_task([=] { *dev = compute(); }).wait();
  CHECK(dev->marray_bool_ok);
  CHECK(dev->marray_fixed_ok);
  CHECK(dev->vec_bool_ok);
  CHECK(dev->vec_byte_ok);
  CHECK(dev->vec_conversions_ok);
  sycl::free(dev, q);

  if (g_failures) return 1;
  std::printf("marray_vec_breadth: all checks passed\n");
  return 0;
}
