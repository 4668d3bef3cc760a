// SYCL 2020 4.9.1 id, range, item, nd_range: construction, deduction guides, arithmetic with
// ids and scalars (both sides), compound assignment, comparisons, size(), conversions, and the
// same arithmetic inside kernels.
#include <sycl/sycl.hpp>

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

void test_host_arithmetic() {
  sycl::range<3> r(2, 3, 4);
  CHECK(r.size() == 24 && r[0] == 2 && r.get(2) == 4);
  CHECK(sycl::range<1>(7).size() == 7);
  sycl::range r2(5, 6); // deduction guide
  static_assert(std::is_same_v<decltype(r2), sycl::range<2>>);
  sycl::id i3(1, 2, 3);
  static_assert(std::is_same_v<decltype(i3), sycl::id<3>>);
  CHECK(sycl::id<2>() == sycl::id<2>(0, 0));

  sycl::id<2> a(6, 9), b(2, 3);
  CHECK(a + b == sycl::id<2>(8, 12));
  CHECK(a - b == sycl::id<2>(4, 6));
  CHECK(a * b == sycl::id<2>(12, 27));
  CHECK(a / b == sycl::id<2>(3, 3));
  CHECK(a % b == sycl::id<2>(0, 0));
  CHECK((a << 1) == sycl::id<2>(12, 18));
  CHECK((a >> 1) == sycl::id<2>(3, 4));
  CHECK((a & 3) == sycl::id<2>(2, 1));
  CHECK((a | 1) == sycl::id<2>(7, 9));
  CHECK((a ^ b) == sycl::id<2>(4, 10));
  CHECK(a + 1 == sycl::id<2>(7, 10));
  CHECK(10 - b == sycl::id<2>(8, 7));
  CHECK(2 * b == sycl::id<2>(4, 6));
  CHECK((a > b) == sycl::id<2>(1, 1));
  CHECK((b < sycl::id<2>(2, 4)) == sycl::id<2>(0, 1));
  CHECK((a >= 9) == sycl::id<2>(0, 1));
  CHECK((a && sycl::id<2>(0, 1)) == sycl::id<2>(0, 1));
  CHECK((b || sycl::id<2>(0, 0)) == sycl::id<2>(1, 1));
  CHECK(a != b && !(a == b));
  CHECK(-sycl::id<1>(0) == sycl::id<1>(0));
  CHECK(+b == b);

  sycl::id<2> c = a;
  c += b;
  CHECK(c == sycl::id<2>(8, 12));
  c -= 2;
  CHECK(c == sycl::id<2>(6, 10));
  c *= b;
  CHECK(c == sycl::id<2>(12, 30));
  c /= 3;
  CHECK(c == sycl::id<2>(4, 10));
  c %= sycl::id<2>(3, 4);
  CHECK(c == sycl::id<2>(1, 2));
  c <<= 2;
  CHECK(c == sycl::id<2>(4, 8));
  c >>= 1;
  CHECK(c == sycl::id<2>(2, 4));
  c |= 1;
  c &= sycl::id<2>(7, 1);
  c ^= 1;
  CHECK(c == sycl::id<2>(2, 0));
  sycl::id<2> d = c++;
  CHECK(d == sycl::id<2>(2, 0) && c == sycl::id<2>(3, 1));
  --c;
  CHECK(c == sycl::id<2>(2, 0));
  c[1] = 42;
  CHECK(c[1] == 42 && c.get(1) == 42);

  // Ranges combine the same way.
  sycl::range<2> s(4, 6);
  CHECK(s * 2 == sycl::range<2>(8, 12));
  CHECK(s / sycl::range<2>(2, 3) == sycl::range<2>(2, 2));
  CHECK((s + s).size() == 8 * 12);
  s *= 3;
  CHECK(s == sycl::range<2>(12, 18));

  // Conversions: range -> id, id<1> -> size_t, item -> id.
  sycl::id<3> from_range(r);
  CHECK(from_range == sycl::id<3>(2, 3, 4));
  std::size_t as_size = sycl::id<1>(17);
  CHECK(as_size == 17);
  int array[4] = {0, 0, 0, 0};
  array[sycl::id<1>(2)] = 5; // id<1> indexes built-in arrays and pointers
  CHECK(array[2] == 5);

  // nd_range.
  sycl::nd_range<2> ndr(sycl::range<2>(64, 32), sycl::range<2>(8, 4));
  CHECK(ndr.get_global_range() == sycl::range<2>(64, 32));
  CHECK(ndr.get_local_range() == sycl::range<2>(8, 4));
  CHECK(ndr.get_group_range() == sycl::range<2>(8, 8));
  CHECK(ndr == sycl::nd_range<2>(sycl::range<2>(64, 32), sycl::range<2>(8, 4)));
  CHECK(ndr != sycl::nd_range<2>(sycl::range<2>(64, 32), sycl::range<2>(4, 4)));
  static_assert(sycl::nd_range<3>::dimensions == 3 && sycl::id<2>::dimensions == 2 &&
                sycl::range<1>::dimensions == 1);
}

void test_kernel_arithmetic(sycl::queue& q) {
  constexpr std::size_t R = 8, C = 16;
  std::size_t* out = sycl::malloc_shared<std::size_t>(R * C, q);
  q.parallel_for(sycl::range<2>(R, C), [=](sycl::item<2> it) {
     sycl::id<2> i = it.get_id();
     sycl::range<2> r = it.get_range();
     sycl::id<2> mirrored = sycl::id<2>(r) - i - 1; // (R-1-i0, C-1-i1)
     sycl::id<2> scaled = (mirrored * 3 + 1) % 5;
     std::size_t lin = it.get_linear_id();
     out[lin] = scaled[0] * 100 + scaled[1] + (lin == i[0] * C + i[1] ? 0 : 100000);
   }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t j = 0; j < C; ++j) {
      std::size_t e0 = ((R - 1 - i) * 3 + 1) % 5, e1 = ((C - 1 - j) * 3 + 1) % 5;
      ok = ok && out[i * C + j] == e0 * 100 + e1;
    }
  CHECK(ok);

  // item<1> converts to size_t and to id; it indexes pointers directly.
  int* v = sycl::malloc_shared<int>(32, q);
  q.parallel_for(sycl::range<1>(32), [=](sycl::item<1> it) {
     std::size_t k = it;
     sycl::id<1> i = it;
     v[it] = static_cast<int>(k + i[0]);
   }).wait();
  CHECK(v[0] == 0 && v[31] == 62);
  sycl::free(v, q);
  sycl::free(out, q);
}
} // namespace

int main() {
  test_host_arithmetic();
  sycl::queue q;
  test_kernel_arithmetic(q);
  if (g_failures) {
    std::printf("id_range_arith: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("id_range_arith: PASSED\n");
  return 0;
}
