// Code written for DPC++ that relies on its reading of the specification (issue 30 item 5), each
// a compile error before: vec's one-element names (x(), s0(), ...) used as the element itself,
// a read-only accessor's get_pointer() passed on as DataT*, and reductions and group algorithms
// given the <functional> objects (DPC++'s sycl::plus is std::plus). Computed in kernels, checked
// here.
#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdio>
#include <functional>
#include <type_traits>

// Declared only, for the static_asserts below.
sycl::float4& v4();
const sycl::float4& cv4();

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// The one-element names are references into the vec (SYCL 2020 rev. 10); const where the vec or
// the swizzle's vec is.
static_assert(std::is_same_v<decltype(v4().x()), float&>);
static_assert(std::is_same_v<decltype(cv4().w()), const float&>);
static_assert(std::is_same_v<decltype(v4().s3()), float&>);
static_assert(std::is_same_v<decltype(v4().lo().y()), float&>);
static_assert(std::is_same_v<decltype(cv4().hi().x()), const float&>);
// swizzle<I>() with one index stays a swizzle.
static_assert(!std::is_reference_v<decltype(v4().swizzle<0>())>);
// The <functional> objects have the known identities of their SYCL twins.
static_assert(sycl::has_known_identity_v<std::plus<int>, int>);
static_assert(sycl::has_known_identity_v<std::plus<>, float>);
static_assert(sycl::known_identity_v<std::multiplies<float>, float> == 1.f);
static_assert(sycl::known_identity_v<std::bit_and<unsigned>, unsigned> == ~0u);
static_assert(sycl::has_known_identity_v<std::plus<sycl::int4>, sycl::int4>);
static_assert(!sycl::has_known_identity_v<std::minus<int>, int>);
} // namespace

int main() {
  sycl::queue q;

  // vec: scalar arithmetic on x(), a half2 built from comparisons (true is 1, as for scalars),
  // writes through &v.x() and through a swizzle's one-element name.
  {
    int k = -1;
    float m[2] = {-1, -1};
    float written[4] = {};
    {
      sycl::buffer<int> bk(&k, 1);
      sycl::buffer<float> bm(m, 2), bw(written, 4);
      q.submit([&](sycl::handler& h) {
        sycl::accessor ak(bk, h, sycl::write_only);
        sycl::accessor am(bm, h, sycl::write_only);
        sycl::accessor aw(bw, h, sycl::write_only);
        h.single_task([=] {
          sycl::float4 v{2.75f, 5.f, 6.f, 7.f};
          ak[0] = 8 * (v.x() - sycl::floor(v.x()));
          sycl::half2 a{1.5f, 2.f}, z{0.5f, 3.f};
          sycl::half2 cmp = {a.x() > z.x(), a.y() > z.y()};
          am[0] = cmp.x();
          am[1] = cmp.y();
          float* px = &v.x();
          *px = 10.f;
          v.hi().y() = 40.f; // the vec's w
          v.lo().s1() += 15.f;
          aw[0] = v.x();
          aw[1] = v.y();
          aw[2] = v.z();
          aw[3] = v.w();
        });
      });
    }
    CHECK(k == 6);
    CHECK(m[0] == 1.f && m[1] == 0.f);
    CHECK(written[0] == 10.f && written[1] == 20.f && written[2] == 6.f && written[3] == 40.f);
  }

  // get_pointer() of a read-only accessor, passed on as int*, as DPC++ code does (a warning says
  // the const is dropped); only read through.
  {
    int in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int out[8] = {};
    {
      sycl::buffer<int> bin(in, 8), bout(out, 8);
      q.submit([&](sycl::handler& h) {
        sycl::accessor ain(bin, h, sycl::read_only);
        sycl::accessor aout(bout, h, sycl::write_only);
        h.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
          int* raw = ain.get_pointer();
#pragma clang diagnostic pop
          const int* also = ain.get_pointer();
          aout[i] = raw[7 - i[0]] * 10 + also[i];
        });
      });
    }
    for (int i = 0; i < 8; ++i) CHECK(out[i] == (8 - i) * 10 + i + 1);
  }

  // Reductions with std::plus, std::multiplies, std::bit_or and their operators, over buffers
  // and USM, without an identity (known through the SYCL twin).
  {
    constexpr int n = 1000;
    int sum = 0;
    long long prod = 1;
    unsigned bits = 0;
    int* usm_sum = sycl::malloc_shared<int>(1, q);
    *usm_sum = 5;
    {
      sycl::buffer<int> bs(&sum, 1);
      sycl::buffer<long long> bp(&prod, 1);
      sycl::buffer<unsigned> bb(&bits, 1);
      q.submit([&](sycl::handler& h) {
        auto rs = sycl::reduction(bs, h, std::plus<int>());
        auto rp = sycl::reduction(bp, h, std::multiplies<long long>());
        auto rb = sycl::reduction(bb, h, std::bit_or<unsigned>());
        auto ru = sycl::reduction(usm_sum, std::plus<>());
        h.parallel_for(sycl::range<1>(n), rs, rp, rb, ru,
                       [=](sycl::id<1> i, auto& s, auto& p, auto& b, auto& u) {
                         int x = static_cast<int>(i[0]);
                         s += x;
                         if (x < 20) p *= (x % 3) + 1;
                         b |= 1u << (x % 32);
                         u += 2;
                       });
      });
    }
    long long expect_prod = 1;
    for (int x = 0; x < 20; ++x) expect_prod *= (x % 3) + 1;
    CHECK(sum == n * (n - 1) / 2);
    CHECK(prod == expect_prod);
    CHECK(bits == 0xffffffffu);
    CHECK(*usm_sum == 5 + 2 * n);
    sycl::free(usm_sum, q);
  }

  // Group algorithms with std::plus and std::bit_xor over work-groups and sub-groups.
  {
    constexpr int n = 256, wg = 64;
    int* out = sycl::malloc_shared<int>(2 * n, q);
    q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
       int x = static_cast<int>(it.get_global_linear_id());
       out[x] = sycl::reduce_over_group(it.get_group(), x, std::plus<>());
       out[n + x] = sycl::inclusive_scan_over_group(it.get_sub_group(), 1, std::plus<int>());
     }).wait();
    for (int x = 0; x < n; ++x) {
      int g0 = x / wg * wg;
      CHECK(out[x] == wg * g0 + wg * (wg - 1) / 2);
    }
    // The scan counts the work-item's position in its sub-group, from 1.
    CHECK(out[n] == 1);
    bool scan_ok = true;
    for (int x = 1; x < n; ++x) scan_ok &= out[n + x] == 1 || out[n + x] == out[n + x - 1] + 1;
    CHECK(scan_ok);
    sycl::free(out, q);
  }

  // `sycl::accessor acc = buf.get_host_access();` (DPC++'s host_accessor derives from accessor;
  // the CTS's root-group test writes it): a host_buffer accessor holding the same access.
  {
    using row = int[2];
    sycl::buffer<row, 1> b{sycl::range<1>(3)};
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(3), [=](sycl::id<1> i) {
        a[i][0] = static_cast<int>(i[0]);
        a[i][1] = 10;
      });
    });
    sycl::accessor acc = b.get_host_access();
    static_assert(
        std::is_same_v<decltype(acc), sycl::accessor<row, 1, sycl::access_mode::read_write,
                                                     sycl::target::host_buffer>>);
    int sum = 0;
    for (const auto& r : acc) sum += r[0] + r[1];
    CHECK(sum == 33);
  }

  // A 1-dimensional id or range against an integer: its value (was ambiguous).
  {
    sycl::id<1> zero(0);
    sycl::range<1> three(3);
    CHECK(zero == 0 && !(zero != 0) && three == 3u && 0 == zero);
    // More dimensions: every component (the CTS's root-group test: local id == 0).
    CHECK(sycl::id<2>(0, 0) == 0 && sycl::id<2>(0, 1) != 0 && sycl::range<3>(2, 2, 2) == 2);
  }

  if (g_failures) return 1;
  std::printf("dpcpp_compat: all checks passed\n");
  return 0;
}
