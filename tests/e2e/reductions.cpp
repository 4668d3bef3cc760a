// SYCL 2020 4.9.2 reductions, by value: every form of sycl::reduction (USM scalar, buffer,
// span, with and without identity, initialize_to_identity), several reductions in one kernel,
// range (1-, 2-, 3-D, sizes that are multiples of nothing, empty) and nd_range kernels, every
// reducer operator, a custom type and operation without a known identity, queue shortcuts.
#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

static int failures = 0;
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                  \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

// A type without a known identity, with its own operation.
struct minmax {
  int lo, hi;
};
struct minmax_op {
  minmax operator()(const minmax& a, const minmax& b) const {
    return {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
  }
};

static std::int64_t sum_to(std::int64_t n) {
  return n * (n - 1) / 2;
}

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  static_assert(sycl::has_known_identity_v<sycl::plus<int>, int>);
  static_assert(!sycl::has_known_identity_v<minmax_op, minmax>);
  static_assert(sycl::known_identity_v<sycl::maximum<int>, int> == INT32_MIN);

  // USM scalar, plus, original value kept; sizes around the launch shapes.
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(255),
                        std::size_t(256), std::size_t(1000003), std::size_t(5000000)}) {
    std::int64_t* sum = sycl::malloc_shared<std::int64_t>(1, q);
    *sum = 42;
    q.submit([&](sycl::handler& h) {
       h.parallel_for(sycl::range<1>(n), sycl::reduction(sum, sycl::plus<std::int64_t>()),
                      [=](sycl::id<1> i, auto& s) { s += static_cast<std::int64_t>(i[0]); });
     }).wait();
    if (*sum != 42 + sum_to(static_cast<std::int64_t>(n)))
      std::printf("n=%zu: got %lld want %lld\n", n, (long long)*sum,
                  (long long)(42 + sum_to(static_cast<std::int64_t>(n))));
    CHECK(*sum == 42 + sum_to(static_cast<std::int64_t>(n)));
    sycl::free(sum, q);
  }

  // 4-byte values: a GPU thread combines four consecutive elements per step into four sets of
  // partial values. Sizes around multiples of the threads a GPU launch has (compute units x 2048)
  // reach every remainder of that loop; count, sum and maximum show an element missed or
  // combined twice.
  {
    std::size_t threads = q.get_device().get_info<sycl::info::device::max_compute_units>() * 2048;
    std::vector<std::size_t> sizes{1, 3, 1000, 1000003};
    for (std::size_t k : {1, 3, 4, 5, 8})
      for (std::size_t d : {std::size_t(0), std::size_t(1), std::size_t(2)})
        sizes.push_back(k * threads + d - 1);
    int* r = sycl::malloc_shared<int>(3, q);
    for (std::size_t n : sizes) {
      r[0] = r[1] = 0;
      r[2] = -1;
      q.parallel_for(sycl::range<1>(n), sycl::reduction(r, sycl::plus<int>()),
                     sycl::reduction(r + 1, sycl::plus<int>()),
                     sycl::reduction(r + 2, sycl::maximum<int>()),
                     [=](sycl::id<1> i, auto& count, auto& sum, auto& max) {
                       count += 1;
                       sum += static_cast<int>(i[0] % 7);
                       max.combine(static_cast<int>(i[0]));
                     })
          .wait();
      long long want = 0;
      for (std::size_t i = 0; i < n % 7; ++i) want += static_cast<long long>(i);
      want += static_cast<long long>(n / 7) * 21;
      if (r[0] != static_cast<int>(n) || r[1] != want || r[2] != static_cast<int>(n) - 1)
        std::printf("n=%zu: count %d sum %d max %d\n", n, r[0], r[1], r[2]);
      CHECK(r[0] == static_cast<int>(n) && r[1] == want && r[2] == static_cast<int>(n) - 1);
    }
    sycl::free(r, q);
  }

  // initialize_to_identity on an empty range writes the identity.
  {
    int* v = sycl::malloc_shared<int>(1, q);
    *v = 99;
    q.parallel_for(
         sycl::range<1>(0),
         sycl::reduction(v, sycl::plus<int>(), sycl::property::reduction::initialize_to_identity{}),
         [=](sycl::item<1>, auto& r) { r += 1; })
        .wait();
    CHECK(*v == 0);
    sycl::free(v, q);
  }

  // Several reductions in one kernel, every operator, 2-D range of odd sizes.
  {
    constexpr std::size_t rows = 37, cols = 101;
    int* s = sycl::malloc_shared<int>(8, q);
    s[0] = 0;     // +=
    s[1] = 5;     // *= (kept small: every value is 1 or 2 once)
    s[2] = 0;     // |=
    s[3] = ~0;    // &=
    s[4] = 0;     // ^=
    s[5] = 0;     // ++
    s[6] = 1000;  // minimum
    s[7] = -1000; // maximum
    q.submit([&](sycl::handler& h) {
       h.parallel_for(sycl::range<2>(rows, cols), sycl::reduction(s + 0, sycl::plus<int>()),
                      sycl::reduction(s + 1, sycl::multiplies<int>()),
                      sycl::reduction(s + 2, sycl::bit_or<int>()),
                      sycl::reduction(s + 3, sycl::bit_and<int>()),
                      sycl::reduction(s + 4, sycl::bit_xor<int>()),
                      sycl::reduction(s + 5, sycl::plus<int>()),
                      sycl::reduction(s + 6, sycl::minimum<int>()),
                      sycl::reduction(s + 7, sycl::maximum<int>()),
                      [=](sycl::item<2> it, auto& add, auto& mul, auto& bor, auto& band, auto& bxor,
                          auto& count, auto& lo, auto& hi) {
                        int lin = static_cast<int>(it.get_linear_id());
                        add += lin;
                        mul *= (lin == 17 || lin == 3000) ? 2 : 1;
                        bor |= 1 << (lin % 31);
                        band &= ~(1 << (lin % 29));
                        bxor ^= lin;
                        ++count;
                        lo.combine(lin - 3);
                        hi.combine(lin * 2);
                      });
     }).wait();
    int n = rows * cols, x = 0;
    for (int i = 0; i < n; ++i) x ^= i;
    CHECK(s[0] == n * (n - 1) / 2);
    CHECK(s[1] == 20);
    CHECK(s[2] == 0x7fffffff);
    CHECK(s[3] == (~0 & ~((1 << 29) - 1)));
    CHECK(s[4] == x);
    CHECK(s[5] == n);
    CHECK(s[6] == -3);
    CHECK(s[7] == 2 * (n - 1));
    sycl::free(s, q);
  }

  // Buffer reductions (BabelStream's dot), with and without initialize_to_identity, double.
  {
    constexpr std::size_t n = (1 << 20) + 3;
    std::vector<double> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = 0.5 + double(i % 7);
      b[i] = 2.0;
    }
    double expect = 0;
    for (std::size_t i = 0; i < n; ++i) expect += a[i] * b[i];
    double result = 123.0, kept = 10.0;
    {
      sycl::buffer<double> ba(a.data(), sycl::range<1>(n)), bb(b.data(), sycl::range<1>(n));
      sycl::buffer<double> sum(&result, sycl::range<1>(1)), keep(&kept, sycl::range<1>(1));
      q.submit([&](sycl::handler& h) {
        sycl::accessor ka(ba, h, sycl::read_only);
        sycl::accessor kb(bb, h, sycl::read_only);
        h.parallel_for(sycl::range<1>(n),
                       sycl::reduction(sum, h, sycl::plus<double>(),
                                       sycl::property::reduction::initialize_to_identity{}),
                       [=](sycl::id<1> i, auto& s) { s += ka[i] * kb[i]; });
      });
      q.submit([&](sycl::handler& h) {
        sycl::accessor ka(ba, h, sycl::read_only);
        h.parallel_for(sycl::range<1>(n), sycl::reduction(keep, h, 0.0, sycl::plus<>()),
                       [=](sycl::id<1> i, auto& s) { s += ka[i]; });
      });
    }
    double expect_kept = 10.0;
    for (std::size_t i = 0; i < n; ++i) expect_kept += a[i];
    CHECK(std::fabs(result - expect) <= 1e-9 * expect);
    CHECK(std::fabs(kept - expect_kept) <= 1e-9 * expect_kept);
  }

  // float sum: within reassociation error.
  {
    constexpr std::size_t n = 3000017;
    float* f = sycl::malloc_shared<float>(1, q);
    *f = 1.0f;
    q.parallel_for(sycl::range<1>(n), sycl::reduction(f, sycl::plus<float>()),
                   [=](sycl::id<1> i, auto& s) { s += (i[0] % 3 == 0) ? 0.25f : 0.5f; })
        .wait();
    double expect = 1.0;
    for (std::size_t i = 0; i < n; ++i) expect += (i % 3 == 0) ? 0.25 : 0.5;
    CHECK(std::fabs(*f - expect) <= 1e-4 * expect);
    sycl::free(f, q);
  }

  // nd_range, 1-D and 3-D, with the nd_item; a custom operation without identity; an
  // identity given by the user for a custom operation.
  {
    int* s = sycl::malloc_shared<int>(1, q);
    minmax* mm = sycl::malloc_shared<minmax>(2, q);
    *s = 1;
    mm[0] = {500, -500};
    mm[1] = {0, 0};
    q.submit([&](sycl::handler& h) {
       h.parallel_for(sycl::nd_range<1>(sycl::range<1>(96 * 33), sycl::range<1>(96)),
                      sycl::reduction(s, sycl::plus<>()), sycl::reduction(mm, minmax_op()),
                      sycl::reduction(mm + 1, minmax{1 << 30, -(1 << 30)}, minmax_op(),
                                      sycl::property::reduction::initialize_to_identity{}),
                      [=](sycl::nd_item<1> it, auto& sum, auto& m, auto& m2) {
                        int g = static_cast<int>(it.get_global_id(0));
                        sum += g;
                        m.combine(minmax{g - 7, g + 7});
                        m2.combine(minmax{g, g});
                        static_assert(!std::is_copy_constructible_v<std::decay_t<decltype(m)>>);
                      });
     }).wait();
    int n = 96 * 33;
    CHECK(*s == 1 + n * (n - 1) / 2);
    CHECK(mm[0].lo == -7 && mm[0].hi == n + 6);
    CHECK(mm[1].lo == 0 && mm[1].hi == n - 1);

    std::int64_t* t = sycl::malloc_shared<std::int64_t>(1, q);
    *t = 0;
    sycl::range<3> local(2, 3, 5), groups(3, 2, 7);
    q.parallel_for(sycl::nd_range<3>(local * groups, local),
                   sycl::reduction(t, sycl::plus<std::int64_t>()),
                   [=](sycl::nd_item<3> it, auto& r) {
                     r += static_cast<std::int64_t>(it.get_global_linear_id());
                   })
        .wait();
    CHECK(*t == sum_to(static_cast<std::int64_t>(local.size() * groups.size())));
    sycl::free(t, q);
    sycl::free(s, q);
    sycl::free(mm, q);
  }

  // Small element types (the partials are 1 and 2 bytes): bool, char, short.
  {
    bool* flags = sycl::malloc_shared<bool>(2, q);
    char* c = sycl::malloc_shared<char>(1, q);
    short* sh = sycl::malloc_shared<short>(1, q);
    flags[0] = false;
    flags[1] = true;
    *c = 'a';
    *sh = -5;
    q.parallel_for(sycl::range<1>(100003), sycl::reduction(flags, sycl::logical_or<bool>()),
                   sycl::reduction(flags + 1, sycl::logical_and<bool>()),
                   sycl::reduction(c, sycl::maximum<char>()),
                   sycl::reduction(sh, sycl::maximum<short>()),
                   [=](sycl::id<1> i, auto& any, auto& all, auto& hi, auto& shi) {
                     any.combine(i[0] == 77777);
                     all.combine(i[0] != 5);
                     hi.combine(static_cast<char>('a' + i[0] % 20));
                     shi.combine(static_cast<short>(i[0] % 1000));
                   })
        .wait();
    CHECK(flags[0] == true);
    CHECK(flags[1] == false);
    CHECK(*c == 'a' + 19);
    CHECK(*sh == 999);
    sycl::free(flags, q);
    sycl::free(c, q);
    sycl::free(sh, q);
  }

  // Span reductions: a histogram of 16 bins.
  {
    constexpr std::size_t n = 100003;
    int* bins = sycl::malloc_shared<int>(16, q);
    for (int i = 0; i < 16; ++i) bins[i] = i;
    q.submit([&](sycl::handler& h) {
       h.parallel_for(sycl::range<1>(n),
                      sycl::reduction(sycl::span<int, 16>(bins, 16), sycl::plus<int>()),
                      [=](sycl::id<1> i, auto& hist) { hist[i[0] % 16] += 1; });
     }).wait();
    for (int b = 0; b < 16; ++b) {
      int want = b + static_cast<int>(n / 16 + (std::size_t(b) < n % 16 ? 1 : 0));
      CHECK(bins[b] == want);
    }
    // maximum over a span, identity reset.
    q.parallel_for(sycl::nd_range<1>(sycl::range<1>(512), sycl::range<1>(128)),
                   sycl::reduction(sycl::span<int, 16>(bins, 16), sycl::maximum<int>(),
                                   sycl::property::reduction::initialize_to_identity{}),
                   [=](sycl::nd_item<1> it, auto& hist) {
                     int g = static_cast<int>(it.get_global_id(0));
                     hist[g % 16].combine(g);
                   })
        .wait();
    for (int b = 0; b < 16; ++b) CHECK(bins[b] == 512 - 16 + b);
    sycl::free(bins, q);
  }

  // Bad input: a pointer the device cannot use, a buffer of the wrong size.
  {
    // The host device writes any host memory (1de9ca1: Celerity reduces into memory of another
    // context), so there the stack variable is a valid reduction variable; a GPU cannot reach it.
    int on_stack = 0;
    bool threw = false;
    try {
      q.parallel_for(sycl::range<1>(4), sycl::reduction(&on_stack, sycl::plus<int>()),
                     [=](sycl::id<1>, auto& r) { r += 1; })
          .wait();
    } catch (const sycl::exception& e) {
      threw = e.code() == sycl::errc::invalid;
      std::printf("expected: %s\n", e.what());
    }
    if (q.get_device().is_cpu())
      CHECK(!threw && on_stack == 4);
    else
      CHECK(threw && on_stack == 0);
    threw = false;
    sycl::buffer<int> two(sycl::range<1>(2));
    try {
      q.submit([&](sycl::handler& h) {
        h.parallel_for(sycl::range<1>(4), sycl::reduction(two, h, sycl::plus<int>()),
                       [=](sycl::id<1>, auto& r) { r += 1; });
      });
    } catch (const sycl::exception& e) {
      threw = e.code() == sycl::errc::invalid;
      std::printf("expected: %s\n", e.what());
    }
    CHECK(threw);
  }

  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("reductions: all passed\n");
  return 0;
}
