// sycl_ext_oneapi_bfloat16 with its math functions (and the experimental
// sycl_ext_oneapi_bfloat16_math_functions' names, macro and aspect), computed in kernels and in
// host code and checked against a reference that shares no code with the implementation: a
// binary search over the bfloat16 bit patterns for the neighbours of the exact value (in double),
// the nearer one, the even one at a tie.
// - float -> bfloat16: chosen values (ties to even at 1.0, at the largest finite value and among
//   the subnormals, just above and below ties, overflow to infinity, the smallest normal, the
//   smallest subnormal, zeros, infinities, quiet and signalling NaNs staying NaNs of their sign)
//   and 2^18 pseudo-random float bit patterns; bfloat16 -> float and -> sycl::half, and
//   sycl::half -> bfloat16, for all 65536 bit patterns.
// - + - * / between bfloat16 (correctly rounded, chosen ties and 4096 random pairs), with float,
//   int, double (a double operand computed in double and rounded once) and sycl::half; unary -,
//   ++ and -- (both forms), += -= *= /=; == != < > <= >= with bfloat16, float, int, double, half,
//   bool, std::size_t and char, NaNs unordered, -0 == +0; explicit bool.
// - every math function (fabs fmin fmax fma isnan ceil floor rint trunc sqrt rsqrt cos sin exp
//   exp2 exp10 log log2 log10) on 30 inputs: the exact ones equal to the correctly rounded
//   result, the transcendental ones within one bfloat16 step of it (the target's float function
//   is a few float ulps off); fma correctly rounded where a float fma would round twice; fmin and
//   fmax with NaNs; the marray<bfloat16, N> forms equal the scalar ones, element by element, and
//   the sycl::ext::oneapi::experimental names are the same functions.
// - marray<bfloat16, N> arithmetic and comparisons, a buffer of bfloat16, the aspect (every
//   device has it, a kernel with device_has of it runs), numeric_limits and the type traits.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#if !defined(SYCL_EXT_ONEAPI_BFLOAT16) || SYCL_EXT_ONEAPI_BFLOAT16 != 1
#error "SYCL_EXT_ONEAPI_BFLOAT16 is not 1"
#endif
#if !defined(SYCL_EXT_ONEAPI_BFLOAT16_MATH_FUNCTIONS) ||                                           \
    SYCL_EXT_ONEAPI_BFLOAT16_MATH_FUNCTIONS != 1
#error "SYCL_EXT_ONEAPI_BFLOAT16_MATH_FUNCTIONS is not 1"
#endif

using sycl::ext::oneapi::bfloat16;
namespace oneapi = sycl::ext::oneapi;
namespace experimental = sycl::ext::oneapi::experimental;

// ---------------------------------------------------------------------------------------------
// The type.
static_assert(sizeof(bfloat16) == 2);
static_assert(std::is_trivially_copyable_v<bfloat16> && sycl::is_device_copyable_v<bfloat16>);
static_assert(std::is_default_constructible_v<bfloat16> && std::is_copy_constructible_v<bfloat16>);
static_assert(std::is_convertible_v<float, bfloat16> &&
              std::is_convertible_v<sycl::half, bfloat16>);
static_assert(std::is_convertible_v<bfloat16, float> &&
              std::is_convertible_v<bfloat16, sycl::half>);
static_assert(std::is_constructible_v<bool, bfloat16>);
static_assert(std::is_same_v<decltype(bfloat16() + bfloat16()), bfloat16>);
static_assert(std::is_same_v<decltype(bfloat16() * 2), bfloat16>);
static_assert(std::is_same_v<decltype(2.0 / bfloat16()), bfloat16>);
static_assert(std::is_same_v<decltype(bfloat16() - sycl::half()), bfloat16>);
static_assert(std::is_same_v<decltype(bfloat16() < 1.0f), bool>);
static_assert(std::is_same_v<decltype(-bfloat16()), bfloat16>);
static_assert(std::is_same_v<decltype(++std::declval<bfloat16&>()), bfloat16&>);
static_assert(std::is_same_v<decltype(std::declval<bfloat16&>()--), bfloat16>);
static_assert(std::is_same_v<decltype(std::declval<bfloat16&>() /= bfloat16()), bfloat16&>);
static_assert(
    std::is_same_v<decltype(oneapi::isnan(sycl::marray<bfloat16, 3>())), sycl::marray<bool, 3>>);
static_assert(
    std::is_same_v<decltype(experimental::fma(bfloat16(), bfloat16(), bfloat16())), bfloat16>);
using limits = std::numeric_limits<bfloat16>;
static_assert(limits::is_specialized && limits::digits == 8 && limits::has_quiet_NaN &&
              limits::max_exponent == 128 && limits::min_exponent == -125);
static_assert(sycl::bit_cast<std::uint16_t>(limits::max()) == 0x7F7F &&
              sycl::bit_cast<std::uint16_t>(limits::min()) == 0x0080 &&
              sycl::bit_cast<std::uint16_t>(limits::lowest()) == 0xFF7F &&
              sycl::bit_cast<std::uint16_t>(limits::denorm_min()) == 0x0001 &&
              sycl::bit_cast<std::uint16_t>(limits::epsilon()) == 0x3C00 &&
              sycl::bit_cast<std::uint16_t>(limits::infinity()) == 0x7F80);

// ---------------------------------------------------------------------------------------------
// The reference.

std::uint16_t bits_of(bfloat16 x) {
  return sycl::bit_cast<std::uint16_t>(x);
}
bfloat16 from_bits(std::uint16_t b) {
  return sycl::bit_cast<bfloat16>(b);
}
float float_of_bits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
// The value of a bfloat16 bit pattern, by its definition: float's upper 16 bits.
double value_of(std::uint16_t b) {
  return float_of_bits(std::uint32_t(b) << 16);
}
bool is_nan_bits(std::uint16_t b) {
  return (b & 0x7FFF) > 0x7F80;
}

// x rounded to the nearest bfloat16, ties to even; NaN gives 0x7FC0 with x's sign.
std::uint16_t reference(double x) {
  std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return sign | 0x7FC0;
  double m = std::fabs(x);
  // Beyond the largest finite value plus half a step (2^127 * (2 - 2^-8)) lies infinity; that
  // point itself is a tie whose even neighbour is infinity.
  if (m >= std::ldexp(2.0 - std::ldexp(1.0, -8), 127)) return sign | 0x7F80;
  unsigned lo = 0, hi = 0x7F7F; // value_of(lo) <= m, find the largest such pattern
  while (lo < hi) {
    unsigned mid = (lo + hi + 1) / 2;
    if (value_of(mid) <= m)
      lo = mid;
    else
      hi = mid - 1;
  }
  if (value_of(lo) == m) return sign | lo;
  double below = m - value_of(lo), above = value_of(lo + 1) - m; // exact (Sterbenz)
  unsigned r = below < above ? lo : above < below ? lo + 1 : (lo % 2 == 0 ? lo : lo + 1);
  return static_cast<std::uint16_t>(sign | r);
}

// Steps between two non-NaN bfloat16 values (their bit patterns ordered like their values).
int steps_between(std::uint16_t a, std::uint16_t b) {
  auto ordered = [](std::uint16_t v) { return v & 0x8000 ? -int(v & 0x7FFF) : int(v); };
  return std::abs(ordered(a) - ordered(b));
}

int reported = 0;
void report(const char* what, double in, std::uint16_t got, std::uint16_t want) {
  ++failures;
  if (++reported <= 40)
    std::printf("FAIL %s(%a): got 0x%04X (%g), want 0x%04X (%g)\n", what, in, got, value_of(got),
                want, value_of(want));
}
// Exact: the same bits, or both NaN.
void check_exact(const char* what, double in, std::uint16_t got, std::uint16_t want) {
  if (got != want && !(is_nan_bits(got) && is_nan_bits(want))) report(what, in, got, want);
}

// ---------------------------------------------------------------------------------------------
// Conversions.

std::uint32_t xorshift(std::uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

void conversions(sycl::queue& q) {
  struct chosen {
    std::uint32_t in;
    std::uint16_t want;
  };
  const chosen cases[] = {
      {0x3F800000, 0x3F80}, // 1
      {0x3F808000, 0x3F80}, // 1 + 2^-8: the tie between 0x3F80 and 0x3F81 goes to even 0x3F80
      {0x3F808001, 0x3F81}, // just above the tie
      {0x3F807FFF, 0x3F80}, // just below it
      {0x3F818000, 0x3F82}, // the tie between 0x3F81 and 0x3F82 goes to even 0x3F82
      {0xBF818000, 0xBF82}, // and with the sign
      {0x41033333, 0x4103}, // 8.2
      {0x7F7F0000, 0x7F7F}, // the largest bfloat16
      {0x7F7F7FFF, 0x7F7F}, // below the tie with infinity
      {0x7F7F8000, 0x7F80}, // the tie: 0x7F7F is odd, infinity is even
      {0x7F7FFFFF, 0x7F80}, // FLT_MAX overflows
      {0xFF7FFFFF, 0xFF80}, {0x00800000, 0x0080}, // the smallest normal
      {0x00810000, 0x0081}, {0x007F8000, 0x0080}, // a subnormal tie rounding up to the smallest
                                                  // normal (0x7F is odd)
      {0x00010000, 0x0001},                       // the smallest subnormal
      {0x00008000, 0x0000},                       // tie between 0 and it: 0
      {0x00008001, 0x0001}, {0x00018000, 0x0002}, // tie between 1 and 2: 2
      {0x00028000, 0x0002},                       // tie between 2 and 3: 2
      {0x00000001, 0x0000},                       // the smallest float subnormal
      {0x80000001, 0x8000}, {0x00000000, 0x0000}, {0x80000000, 0x8000},
      {0x7F800000, 0x7F80}, {0xFF800000, 0xFF80}, {0x3DCCCCCD, 0x3DCD}, // 0.1
      {0xC2F6E979, 0xC2F7},                                             // -123.456
  };
  const std::uint32_t nans[] = {0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001,
                                0x7FA00000, 0x7F80FFFF, 0x7FFFFFFF, 0xFFFFFFFF};
  constexpr std::size_t n_cases = sizeof(cases) / sizeof(cases[0]);
  constexpr std::size_t n_nans = sizeof(nans) / sizeof(nans[0]);
  constexpr std::size_t n_random = 1 << 18;
  constexpr std::size_t n = n_cases + n_nans + n_random;

  std::uint32_t* in = sycl::malloc_shared<std::uint32_t>(n, q);
  bfloat16* out = sycl::malloc_shared<bfloat16>(n, q);
  for (std::size_t i = 0; i < n_cases; ++i) in[i] = cases[i].in;
  for (std::size_t i = 0; i < n_nans; ++i) in[n_cases + i] = nans[i];
  std::uint32_t seed = 0x12345678;
  for (std::size_t i = 0; i < n_random; ++i) in[n_cases + n_nans + i] = xorshift(seed);
  // Assignment and construction both convert.
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
     float f = sycl::bit_cast<float>(in[i]);
     if (i % 2)
       out[i] = bfloat16(f);
     else
       out[i] = f;
   }).wait();

  for (std::size_t i = 0; i < n_cases; ++i) {
    check_exact("convert", float_of_bits(cases[i].in), bits_of(out[i]), cases[i].want);
    // The same conversion in host code.
    check_exact("host convert", float_of_bits(cases[i].in),
                bits_of(bfloat16(float_of_bits(cases[i].in))), cases[i].want);
  }
  for (std::size_t i = 0; i < n_nans; ++i) {
    std::uint16_t got = bits_of(out[n_cases + i]);
    // A NaN of the same sign, quiet (the top significand bit set).
    bool ok = is_nan_bits(got) && (got & 0x0040) && (got >> 15) == (nans[i] >> 31);
    if (!ok) report("convert NaN", float_of_bits(nans[i]), got, 0x7FC0);
  }
  for (std::size_t i = n_cases + n_nans; i < n; ++i) {
    float f = float_of_bits(in[i]);
    std::uint16_t got = bits_of(out[i]);
    if (std::isnan(f)) {
      if (!is_nan_bits(got)) report("convert random NaN", f, got, 0x7FC0);
    } else {
      check_exact("convert random", f, got, reference(f));
    }
  }
  sycl::free(in, q);
  sycl::free(out, q);

  // All 65536 bit patterns: to float (exact: the upper half of the float), back again (the same
  // bits, a NaN quiet), to half (float -> half, once), and every half pattern to bfloat16.
  constexpr std::size_t all = 65536;
  float* to_float = sycl::malloc_shared<float>(all, q);
  bfloat16* round_trip = sycl::malloc_shared<bfloat16>(all, q);
  sycl::half* to_half = sycl::malloc_shared<sycl::half>(all, q);
  bfloat16* from_half = sycl::malloc_shared<bfloat16>(all, q);
  q.parallel_for(sycl::range<1>(all), [=](sycl::id<1> i) {
     std::uint16_t b = static_cast<std::uint16_t>(i[0]);
     bfloat16 x = sycl::bit_cast<bfloat16>(b);
     float f = x;
     to_float[i] = f;
     round_trip[i] = bfloat16(f);
     to_half[i] = x; // operator sycl::half
     from_half[i] = sycl::bit_cast<sycl::half>(b);
   }).wait();
  int bad_float = 0, bad_trip = 0, bad_half = 0, bad_from_half = 0;
  for (std::size_t i = 0; i < all; ++i) {
    std::uint16_t b = static_cast<std::uint16_t>(i);
    std::uint32_t fb;
    std::memcpy(&fb, &to_float[i], 4);
    if (fb != std::uint32_t(b) << 16) ++bad_float;
    std::uint16_t trip = bits_of(round_trip[i]);
    if (is_nan_bits(b) ? !(is_nan_bits(trip) && (trip & 0x8000) == (b & 0x8000)) : trip != b)
      ++bad_trip;
    sycl::half want_half = static_cast<sycl::half>(float_of_bits(std::uint32_t(b) << 16));
    std::uint16_t got_h = sycl::bit_cast<std::uint16_t>(to_half[i]);
    std::uint16_t want_h = sycl::bit_cast<std::uint16_t>(want_half);
    bool half_nan = (want_h & 0x7FFF) > 0x7C00;
    if (half_nan ? (got_h & 0x7FFF) <= 0x7C00 : got_h != want_h) ++bad_half;
    float hf = static_cast<float>(sycl::bit_cast<sycl::half>(b));
    std::uint16_t want_fh = reference(hf), got_fh = bits_of(from_half[i]);
    if (std::isnan(hf) ? !is_nan_bits(got_fh) : got_fh != want_fh) ++bad_from_half;
  }
  EXPECT(bad_float == 0);
  EXPECT(bad_trip == 0);
  EXPECT(bad_half == 0);
  EXPECT(bad_from_half == 0);
  sycl::free(to_float, q);
  sycl::free(round_trip, q);
  sycl::free(to_half, q);
  sycl::free(from_half, q);
}

// ---------------------------------------------------------------------------------------------
// Operators. The same function runs in a kernel and in host code.

constexpr int n_ops = 4;
struct op_result {
  bfloat16 value[n_ops]; // a + b, a - b, a * b, a / b
  bfloat16 compound[n_ops];
};
op_result compute_ops(bfloat16 a, bfloat16 b) {
  op_result r;
  r.value[0] = a + b;
  r.value[1] = a - b;
  r.value[2] = a * b;
  r.value[3] = a / b;
  bfloat16 c = a;
  r.compound[0] = (c += b);
  c = a;
  r.compound[1] = (c -= b);
  c = a;
  r.compound[2] = (c *= b);
  c = a;
  r.compound[3] = (c /= b);
  return r;
}

// Mixed operands, increments, comparisons, conversions: each entry one value or one truth.
constexpr int n_mixed = 40;
void compute_mixed(bfloat16 a, std::uint16_t* bits, bool* truths) {
  int k = 0;
  auto put = [&](bfloat16 x) { bits[k++] = sycl::bit_cast<std::uint16_t>(x); };
  put(a + 0.25f);
  put(0.25f - a);
  put(a * 3);
  put(3 / a);
  put(a - 1.0);
  put(a + sycl::half(0.5f));
  // double: computed in double and rounded once. 2^-8 + 2^-40 is above the tie at 1 + 2^-8, in
  // float it would be the tie itself and round to even (1.0).
  put(a + (0x1p-8 + 0x1p-40));
  put(-a);
  bfloat16 c = a;
  put(c++);
  put(c);
  put(++c);
  put(c--);
  put(c);
  put(--c);
  int t = 0;
  auto truth = [&](bool v) { truths[t++] = v; };
  bfloat16 one = 1.0f, zero = 0.0f, neg_zero = -zero;
  bfloat16 nan = std::numeric_limits<bfloat16>::quiet_NaN();
  truth(a == one);
  truth(a != one);
  truth(a < 2.0f);
  truth(a > 0);
  truth(a <= 1.0);
  truth(a >= sycl::half(1.0f));
  truth(1 == a);
  truth(2.0f > a);
  truth(0.5 < a);
  truth(sycl::half(2.0f) >= a);
  truth(true == a);
  truth(std::size_t(1) <= a);
  truth(char(0) < a);
  truth(zero == neg_zero);
  truth(nan == nan);
  truth(nan != nan);
  truth(nan < one || nan > one || nan <= one || nan >= one);
  truth(static_cast<bool>(zero));
  truth(static_cast<bool>(neg_zero));
  truth(static_cast<bool>(a));
  truth(static_cast<bool>(nan));
  truth(static_cast<float>(a) == 1.0f);
  truth(static_cast<sycl::half>(a) == sycl::half(1.0f));
  // The extension's example: 7.0 + 8.1 through bfloat16 is 15.125.
  bfloat16 seven{7.0f}, eight{8.1f};
  truth(static_cast<float>(bfloat16(seven + eight)) == 15.125f);
  while (k < n_mixed) bits[k++] = 0;
  while (t < n_mixed) truths[t++] = false;
}

void operators(sycl::queue& q) {
  // Chosen pairs (as bits) and random ones with exponents from 2^-20 to 2^20, so that a + b is
  // exact in double and the reference rounds it once.
  std::vector<std::pair<std::uint16_t, std::uint16_t>> pairs = {
      {0x3F80, 0x3B80}, // 1 + 2^-8: tie, to even 1
      {0x3F81, 0x3B80}, // 0x3F81 + 2^-8: tie, to even 0x3F82
      {0x3F80, 0xBB80}, // 1 - 2^-8 is exact (the step below 1 is 2^-8)
      {0x7F7F, 0x7F7F}, // max + max: infinity; max * max: infinity
      {0x0080, 0x3F00}, // min normal * 0.5: a subnormal
      {0x0001, 0x3F00}, // the smallest subnormal * 0.5: a tie with 0, to 0
      {0x4040, 0x40E0}, // 3 and 7: 3/7
      {0x3F80, 0x4040}, // 1/3
      {0x3F80, 0x0000}, // 1/0 = inf
      {0x0000, 0x0000}, // 0/0 = NaN
      {0x7F80, 0xFF80}, // inf + -inf = NaN
      {0x7FC0, 0x3F80}, // NaN + 1
      {0x8000, 0x0000}, // -0 + 0 = 0
  };
  std::uint32_t seed = 0x9E3779B9;
  for (int i = 0; i < 4096; ++i) {
    auto random = [&] {
      std::uint32_t r = xorshift(seed);
      unsigned exponent = 127 - 20 + r % 41;
      return static_cast<std::uint16_t>(((r >> 8) & 0x8000) | (exponent << 7) | ((r >> 16) & 0x7F));
    };
    std::uint16_t a = random();
    pairs.push_back({a, random()});
  }
  const std::size_t n = pairs.size();
  bfloat16* a = sycl::malloc_shared<bfloat16>(n, q);
  bfloat16* b = sycl::malloc_shared<bfloat16>(n, q);
  op_result* device = sycl::malloc_shared<op_result>(n, q);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = from_bits(pairs[i].first);
    b[i] = from_bits(pairs[i].second);
  }
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
     device[i] = compute_ops(a[i], b[i]);
   }).wait();
  const char* names[n_ops] = {"+", "-", "*", "/"};
  for (std::size_t i = 0; i < n; ++i) {
    double x = value_of(pairs[i].first), y = value_of(pairs[i].second);
    double exact[n_ops] = {x + y, x - y, x * y, x / y};
    op_result host = compute_ops(a[i], b[i]);
    for (int op = 0; op < n_ops; ++op) {
      std::uint16_t want = reference(exact[op]);
      check_exact(names[op], x, bits_of(device[i].value[op]), want);
      check_exact(names[op], x, bits_of(device[i].compound[op]), want);
      check_exact(names[op], x, bits_of(host.value[op]), want);
      check_exact(names[op], x, bits_of(host.compound[op]), want);
    }
  }
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(device, q);

  // Mixed forms for a = 1 (and the comparisons' expected truths).
  std::uint16_t* bits = sycl::malloc_shared<std::uint16_t>(n_mixed, q);
  bool* truths = sycl::malloc_shared<bool>(n_mixed, q);
  q.single_task([=] { compute_mixed(bfloat16(1.0f), bits, truths); }).wait();
  std::uint16_t host_bits[n_mixed];
  bool host_truths[n_mixed];
  compute_mixed(bfloat16(1.0f), host_bits, host_truths);
  const std::uint16_t want_bits[] = {
      reference(1.25), reference(-0.75), reference(3.0), reference(3.0), 0x0000,
      reference(1.5),  0x3F81,           0xBF80,         0x3F80,         0x4000,
      0x4040,          0x4040,           0x4000,         0x3F80};
  const bool want_truths[] = {true,  false, true,  true, true, true, true,  true,
                              true,  true,  true,  true, true, true, false, true,
                              false, false, false, true, true, true, true,  true};
  for (std::size_t k = 0; k < sizeof(want_bits) / sizeof(want_bits[0]); ++k) {
    check_exact("mixed", double(k), bits[k], want_bits[k]);
    check_exact("host mixed", double(k), host_bits[k], want_bits[k]);
  }
  for (std::size_t k = 0; k < sizeof(want_truths) / sizeof(want_truths[0]); ++k) {
    if (truths[k] != want_truths[k] || host_truths[k] != want_truths[k]) {
      std::printf("FAIL comparison/conversion %zu: kernel %d, host %d, want %d\n", k, truths[k],
                  host_truths[k], want_truths[k]);
      ++failures;
    }
  }
  sycl::free(bits, q);
  sycl::free(truths, q);
}

// ---------------------------------------------------------------------------------------------
// Math functions.

enum fn {
  f_fabs,
  f_ceil,
  f_floor,
  f_rint,
  f_trunc,
  f_sqrt,
  f_rsqrt,
  f_cos,
  f_sin,
  f_exp,
  f_exp2,
  f_exp10,
  f_log,
  f_log2,
  f_log10,
  n_unary
};
const char* fn_names[n_unary] = {"fabs", "ceil", "floor", "rint",  "trunc", "sqrt", "rsqrt", "cos",
                                 "sin",  "exp",  "exp2",  "exp10", "log",   "log2", "log10"};
// The ones computed from an exactly or correctly rounded float result.
bool is_exact_fn(int f) {
  return f <= f_sqrt;
}

// The scalar form through sycl::ext::oneapi's names, the marray form through
// sycl::ext::oneapi::experimental's.
#define BF16_CASE(name)                                                                            \
  case f_##name:                                                                                   \
    if constexpr (std::is_same_v<T, bfloat16>)                                                     \
      return oneapi::name(x);                                                                      \
    else                                                                                           \
      return experimental::name(x);
template <typename T>
T apply(int f, T x) {
  switch (f) {
    BF16_CASE(fabs)
    BF16_CASE(ceil)
    BF16_CASE(floor)
    BF16_CASE(rint)
    BF16_CASE(trunc)
    BF16_CASE(sqrt)
    BF16_CASE(rsqrt)
    BF16_CASE(cos)
    BF16_CASE(sin)
    BF16_CASE(exp)
    BF16_CASE(exp2)
    BF16_CASE(exp10)
    BF16_CASE(log)
    BF16_CASE(log2)
  default:
    return oneapi::log10(x);
  }
}
#undef BF16_CASE

double exact_fn(int f, double x) {
  switch (f) {
  case f_fabs:
    return std::fabs(x);
  case f_ceil:
    return std::ceil(x);
  case f_floor:
    return std::floor(x);
  case f_rint:
    return std::rint(x);
  case f_trunc:
    return std::trunc(x);
  case f_sqrt:
    return std::sqrt(x);
  case f_rsqrt:
    return 1.0 / std::sqrt(x);
  case f_cos:
    return std::cos(x);
  case f_sin:
    return std::sin(x);
  case f_exp:
    return std::exp(x);
  case f_exp2:
    return std::exp2(x);
  case f_exp10:
    return std::pow(10.0, x);
  case f_log:
    return std::log(x);
  case f_log2:
    return std::log2(x);
  default:
    return std::log10(x);
  }
}

constexpr int n_lanes = 4; // the marray form takes the inputs four at a time
const std::uint16_t math_inputs[] = {
    0x0000, 0x8000, 0x3F00, 0x3F80, 0x3FC0, 0x4000, 0x4020, 0x4060, 0xBF00, 0xBFC0, 0xC020,
    0x4120, 0x42C8, 0x3DCD, 0x3A83, 0x1E3D, 0x42F7, 0xC0E8, 0x7149, 0x0080, 0x0001, 0x7F80,
    0xFF80, 0x7FC0, 0x3F40, 0xC2F7, 0x4B00, 0x4A7F, 0xBF40, 0x3E80, 0x40C9, 0x4049};
constexpr std::size_t n_math = sizeof(math_inputs) / sizeof(math_inputs[0]);
static_assert(n_math % n_lanes == 0);

struct math_out {
  bfloat16 unary[n_unary][n_math];
  bfloat16 unary_marray[n_unary][n_math];
  bool nan[n_math];
  bool nan_marray[n_math];
  bfloat16 fmin[n_math], fmax[n_math], fmin_marray[n_math], fmax_marray[n_math];
};

void compute_math(const bfloat16* in, math_out* out, std::size_t f, std::size_t lane_group) {
  using m4 = sycl::marray<bfloat16, n_lanes>;
  m4 x;
  for (int l = 0; l < n_lanes; ++l) x[l] = in[lane_group * n_lanes + l];
  m4 r = apply(static_cast<int>(f), x);
  for (int l = 0; l < n_lanes; ++l) {
    std::size_t i = lane_group * n_lanes + l;
    out->unary[f][i] = apply(static_cast<int>(f), x[l]);
    out->unary_marray[f][i] = r[l];
  }
  if (f == 0) {
    // isnan, fmin and fmax against the next input (wrapping around).
    m4 y;
    for (int l = 0; l < n_lanes; ++l) y[l] = in[(lane_group * n_lanes + l + 1) % n_math];
    sycl::marray<bool, n_lanes> nans = experimental::isnan(x);
    m4 lo = experimental::fmin(x, y), hi = experimental::fmax(x, y);
    for (int l = 0; l < n_lanes; ++l) {
      std::size_t i = lane_group * n_lanes + l;
      out->nan[i] = oneapi::isnan(x[l]);
      out->nan_marray[i] = nans[l];
      out->fmin[i] = oneapi::fmin(x[l], y[l]);
      out->fmax[i] = oneapi::fmax(x[l], y[l]);
      out->fmin_marray[i] = lo[l];
      out->fmax_marray[i] = hi[l];
    }
  }
}

void math(sycl::queue& q) {
  bfloat16* in = sycl::malloc_shared<bfloat16>(n_math, q);
  for (std::size_t i = 0; i < n_math; ++i) in[i] = from_bits(math_inputs[i]);
  math_out* out = sycl::malloc_shared<math_out>(1, q);
  q.parallel_for(sycl::range<2>(n_unary, n_math / n_lanes), [=](sycl::item<2> it) {
     compute_math(in, out, it[0], it[1]);
   }).wait();
  // Host code computes the same.
  math_out* host = new math_out;
  for (std::size_t f = 0; f < n_unary; ++f)
    for (std::size_t g = 0; g < n_math / n_lanes; ++g) compute_math(in, host, f, g);

  int exact_transcendental = 0, transcendental = 0;
  for (int f = 0; f < n_unary; ++f) {
    for (std::size_t i = 0; i < n_math; ++i) {
      double x = value_of(math_inputs[i]);
      std::uint16_t want = reference(exact_fn(f, x));
      for (const math_out* o : {out, host}) {
        std::uint16_t got = bits_of(o->unary[f][i]);
        if (bits_of(o->unary_marray[f][i]) != got) {
          std::printf("FAIL %s(%a): marray form 0x%04X, scalar form 0x%04X\n", fn_names[f], x,
                      bits_of(o->unary_marray[f][i]), got);
          ++failures;
        }
        if (is_exact_fn(f) || is_nan_bits(want) || is_nan_bits(got)) {
          check_exact(fn_names[f], x, got, want);
        } else {
          ++transcendental;
          int steps = steps_between(got, want);
          if (steps == 0) ++exact_transcendental;
          if (steps > 1) report(fn_names[f], x, got, want);
        }
      }
    }
  }
  std::printf("transcendental results correctly rounded: %d of %d (the rest one step off)\n",
              exact_transcendental, transcendental);

  for (std::size_t i = 0; i < n_math; ++i) {
    std::uint16_t x = math_inputs[i], y = math_inputs[(i + 1) % n_math];
    double vx = value_of(x), vy = value_of(y);
    // fmin/fmax: the other argument where one is NaN, else y if y < x (fmin) / x < y (fmax).
    std::uint16_t want_min = is_nan_bits(x) ? y : is_nan_bits(y) ? x : vy < vx ? y : x;
    std::uint16_t want_max = is_nan_bits(x) ? y : is_nan_bits(y) ? x : vx < vy ? y : x;
    for (const math_out* o : {out, host}) {
      EXPECT(o->nan[i] == is_nan_bits(x));
      EXPECT(o->nan_marray[i] == is_nan_bits(x));
      check_exact("fmin", vx, bits_of(o->fmin[i]), want_min);
      check_exact("fmax", vx, bits_of(o->fmax[i]), want_max);
      check_exact("fmin marray", vx, bits_of(o->fmin_marray[i]), want_min);
      check_exact("fmax marray", vx, bits_of(o->fmax_marray[i]), want_max);
    }
  }
  delete host;
  sycl::free(in, q);
  sycl::free(out, q);
}

// fma: chosen triples where a float fma would round twice, and random ones with exponents from
// 2^-10 to 2^10 (a * b + c exact in double, the reference rounds it once).
void fma(sycl::queue& q) {
  struct triple {
    std::uint16_t a, b, c;
  };
  std::vector<triple> cases = {
      {0x3F88, 0x3F88, 0x0000}, // 1.0625^2 = 1.125 + 2^-8: a tie, to even 0x3F90
      {0x3F88, 0x3F88, 0x0D80}, // + 2^-100: above the tie, 0x3F91 (a float fma gives 0x3F90)
      {0x3F88, 0x3F88, 0x8D80}, // - 2^-100: below it, 0x3F90
      {0xBF88, 0x3F88, 0x0D80}, // -(1.125 + 2^-8) + 2^-100: towards zero, -1.125
      {0x3F80, 0x3F80, 0xBF80}, // 1 * 1 - 1 = +0
      {0x7F7F, 0x4000, 0xFF7F}, // max * 2 - max = max (the product is beyond float's range)
      {0x0080, 0x3F00, 0x0000}, // a subnormal product
      {0x7F80, 0x0000, 0x3F80}, // inf * 0: NaN
      {0x7FC0, 0x3F80, 0x3F80}, // NaN
      {0x7F80, 0x3F80, 0xFF80}, // inf - inf: NaN
      {0x3F80, 0x3F80, 0x7F80}, // 1 + inf = inf
  };
  std::uint32_t seed = 0xC0FFEE11;
  auto random = [&] {
    std::uint32_t r = xorshift(seed);
    unsigned exponent = 127 - 10 + r % 21;
    return static_cast<std::uint16_t>(((r >> 8) & 0x8000) | (exponent << 7) | ((r >> 16) & 0x7F));
  };
  while (cases.size() < 2048 + 12) { // an even count: the kernel takes them two at a time
    std::uint16_t a = random(), b = random();
    cases.push_back({a, b, random()});
  }
  const std::size_t n = cases.size();
  triple* in = sycl::malloc_shared<triple>(n, q);
  bfloat16* out = sycl::malloc_shared<bfloat16>(n, q);
  bfloat16* out_marray = sycl::malloc_shared<bfloat16>(n, q);
  for (std::size_t i = 0; i < n; ++i) in[i] = cases[i];
  q.parallel_for(sycl::range<1>(n / 2), [=](sycl::id<1> id) {
     sycl::marray<bfloat16, 2> a, b, c;
     for (int l = 0; l < 2; ++l) {
       const triple& t = in[id[0] * 2 + l];
       a[l] = sycl::bit_cast<bfloat16>(t.a);
       b[l] = sycl::bit_cast<bfloat16>(t.b);
       c[l] = sycl::bit_cast<bfloat16>(t.c);
       out[id[0] * 2 + l] = oneapi::fma(a[l], b[l], c[l]);
     }
     sycl::marray<bfloat16, 2> r = experimental::fma(a, b, c);
     out_marray[id[0] * 2] = r[0];
     out_marray[id[0] * 2 + 1] = r[1];
   }).wait();
  const std::uint16_t chosen_want[] = {0x3F90, 0x3F91, 0x3F90, 0xBF90, 0x0000, 0x7F7F,
                                       0x0040, 0x7FC0, 0x7FC0, 0x7FC0, 0x7F80};
  for (std::size_t i = 0; i < n; ++i) {
    double a = value_of(in[i].a), b = value_of(in[i].b), c = value_of(in[i].c);
    std::uint16_t want =
        i < sizeof(chosen_want) / sizeof(chosen_want[0]) ? chosen_want[i] : reference(a * b + c);
    check_exact("fma", a, bits_of(out[i]), want);
    check_exact("fma marray", a, bits_of(out_marray[i]), want);
    check_exact("host fma", a,
                bits_of(oneapi::fma(from_bits(in[i].a), from_bits(in[i].b), from_bits(in[i].c))),
                want);
  }
  sycl::free(in, q);
  sycl::free(out, q);
  sycl::free(out_marray, q);
}

// ---------------------------------------------------------------------------------------------
// marray arithmetic, a buffer of bfloat16, the aspect.

void marrays_and_buffers(sycl::queue& q) {
  using m3 = sycl::marray<bfloat16, 3>;
  std::vector<bfloat16> data = {1.0f, 2.5f, -3.0f};
  m3 sum, product, negated;
  sycl::marray<bool, 3> less;
  {
    sycl::buffer<bfloat16> buf(data.data(), sycl::range<1>(3));
    sycl::buffer<m3> results{sycl::range<1>(4)};
    sycl::buffer<sycl::marray<bool, 3>> compare{sycl::range<1>(1)};
    q.submit([&](sycl::handler& h) {
      sycl::accessor in(buf, h, sycl::read_write);
      sycl::accessor out(results, h, sycl::write_only);
      sycl::accessor cmp(compare, h, sycl::write_only);
      h.single_task([=] {
        m3 x(in[0], in[1], in[2]);
        m3 y(bfloat16(0.5f));
        out[0] = x + y;
        out[1] = x * bfloat16(2.0f);
        out[2] = -x;
        m3 z = x;
        z += y;
        z++;
        out[3] = z;
        cmp[0] = x < y;
        for (int i = 0; i < 3; ++i) in[i] *= 2;
      });
    });
    sycl::host_accessor r(results, sycl::read_only);
    sum = r[0];
    product = r[1];
    negated = r[2];
    EXPECT(r[3][0] == 2.5f && r[3][1] == 4.0f && r[3][2] == -1.5f);
    less = sycl::host_accessor(compare, sycl::read_only)[0];
  }
  EXPECT(sum[0] == 1.5f && sum[1] == 3.0f && sum[2] == -2.5f);
  EXPECT(product[0] == 2.0f && product[1] == 5.0f && product[2] == -6.0f);
  EXPECT(negated[0] == -1.0f && negated[1] == -2.5f && negated[2] == 3.0f);
  EXPECT(!less[0] && !less[1] && less[2]);
  EXPECT(data[0] == 2.0f && data[1] == 5.0f && data[2] == -6.0f);
}

void aspect(sycl::queue& q) {
  for (const sycl::device& d : sycl::device::get_devices()) {
    EXPECT(d.has(sycl::aspect::ext_oneapi_bfloat16_math_functions));
    auto aspects = d.get_info<sycl::info::device::aspects>();
    EXPECT(std::find(aspects.begin(), aspects.end(),
                     sycl::aspect::ext_oneapi_bfloat16_math_functions) != aspects.end());
  }
  EXPECT(sycl::all_devices_have_v<sycl::aspect::ext_oneapi_bfloat16_math_functions>);
  // A kernel that requires the aspect runs.
  bfloat16* out = sycl::malloc_shared<bfloat16>(1, q);
  q.single_task([=]() [[sycl::device_has(sycl::aspect::ext_oneapi_bfloat16_math_functions)]] {
     *out = oneapi::sqrt(bfloat16(16.0f));
   }).wait();
  EXPECT(*out == 4);
  sycl::free(out, q);
}

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  conversions(q);
  operators(q);
  math(q);
  fma(q);
  marrays_and_buffers(q);
  aspect(q);
  if (failures == 0) std::printf("bfloat16: all checks passed\n");
  return failures;
}
