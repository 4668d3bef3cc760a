// SYCL 2020 4.9.2 buffer reductions read back through a host_accessor after every kernel, as
// BabelStream's sycl2020-acc dot() does: the host accessor must see each kernel's result (on a
// GPU its copy to the host goes right behind the kernel, on the kernel's stream), with and
// without initialize_to_identity, with the host writing the variable in between (the next
// reduction without initialize_to_identity combines with what the host wrote), on in-order and
// out-of-order queues and with the kernel on another queue than the previous one.
#include <sycl/sycl.hpp>

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

// sum(a[i] * b[i]) for a[i] = i % 13 + round, b[i] = 2: exact in double.
static double expected_dot(std::size_t n, int round) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += double(i % 13 + round) * 2.0;
  return s;
}

static void run(sycl::queue& q, sycl::queue& other, const char* what) {
  constexpr std::size_t n = (1 << 20) + 17;
  sycl::buffer<double> a{sycl::range<1>(n)}, b{sycl::range<1>(n)};
  sycl::buffer<double> sum{sycl::range<1>(1)};
  sycl::buffer<long> count{sycl::range<1>(1)};
  {
    sycl::host_accessor c(count, sycl::write_only, sycl::no_init);
    c[0] = 5;
  }
  long expect_count = 5;
  for (int round = 0; round < 12; ++round) {
    sycl::queue& use = round % 3 == 2 ? other : q;
    // New inputs each round (written on the device), so a stale result shows.
    use.submit([&](sycl::handler& h) {
      sycl::accessor ka(a, h, sycl::write_only, sycl::no_init);
      sycl::accessor kb(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        ka[i] = double(i[0] % 13 + round);
        kb[i] = 2.0;
      });
    });
    // BabelStream's dot: initialize_to_identity, then a host accessor.
    use.submit([&](sycl::handler& h) {
      sycl::accessor ka(a, h, sycl::read_only);
      sycl::accessor kb(b, h, sycl::read_only);
      h.parallel_for(sycl::range<1>(n),
                     sycl::reduction(sum, h, sycl::plus<double>(),
                                     sycl::property::reduction::initialize_to_identity{}),
                     [=](sycl::id<1> i, auto& s) { s += ka[i] * kb[i]; });
    });
    double got;
    {
      sycl::host_accessor result(sum, sycl::read_only);
      got = result[0];
    }
    if (got != expected_dot(n, round))
      std::printf("%s round %d: dot %.17g, expected %.17g\n", what, round, got,
                  expected_dot(n, round));
    CHECK(got == expected_dot(n, round));

    // Without initialize_to_identity: the count goes on from its value, which the host changes
    // every other round through a read_write host accessor.
    use.submit([&](sycl::handler& h) {
      h.parallel_for(sycl::range<1>(n / 2 + round), sycl::reduction(count, h, sycl::plus<long>()),
                     [=](sycl::id<1>, auto& c) { c += 1; });
    });
    expect_count += static_cast<long>(n / 2 + round);
    long seen;
    if (round % 2) {
      sycl::host_accessor c(count, sycl::read_write);
      seen = c[0];
      c[0] += 1000;
    } else {
      sycl::host_accessor c(count, sycl::read_only);
      seen = c[0];
    }
    if (seen != expect_count)
      std::printf("%s round %d: count %ld, expected %ld\n", what, round, seen, expect_count);
    CHECK(seen == expect_count);
    if (round % 2) expect_count += 1000;
  }
}

// Small buffers a kernel writes and a host accessor then reads: on a GPU the bytes come back
// through syclone's own copy kernel up to 4096 bytes (8-byte words when aligned, else bytes),
// beyond it through a copy. Sizes around both paths' edges, odd element sizes, sub-buffers.
template <typename T>
static void small_buffer(sycl::queue& q, std::size_t n, const char* what) {
  sycl::buffer<T> buf{sycl::range<1>(n)};
  for (int round = 1; round <= 2; ++round) {
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(buf, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        a[i] = static_cast<T>((i[0] * 7 + static_cast<std::size_t>(round)) % 101);
      });
    });
    sycl::host_accessor r(buf, sycl::read_only);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (r[i] != static_cast<T>((i * 7 + static_cast<std::size_t>(round)) % 101)) ++wrong;
    if (wrong)
      std::printf("%s: %zu of %zu elements of %zu bytes wrong (round %d)\n", what, wrong, n,
                  sizeof(T), round);
    CHECK(wrong == 0);
  }
}

static void small_buffers(sycl::queue& q) {
  small_buffer<char>(q, 1, "1 char");
  small_buffer<char>(q, 3, "3 chars");
  small_buffer<short>(q, 7, "7 shorts");
  small_buffer<int>(q, 2, "2 ints");
  small_buffer<int>(q, 3, "3 ints");
  small_buffer<double>(q, 1, "1 double");
  small_buffer<double>(q, 511, "511 doubles");
  small_buffer<double>(q, 512, "512 doubles (4096 bytes)");
  small_buffer<double>(q, 513, "513 doubles");
  small_buffer<char>(q, 4095, "4095 chars");
  small_buffer<char>(q, 4097, "4097 chars");
  // A sub-buffer at an odd offset: the read-back covers the whole parent.
  sycl::buffer<char> parent{sycl::range<1>(64)};
  sycl::buffer<char> sub{parent, sycl::id<1>(3), sycl::range<1>(29)};
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(parent, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { a[i] = static_cast<char>(i[0]); });
  });
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(sub, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(29), [=](sycl::id<1> i) { a[i] += 100; });
  });
  {
    sycl::host_accessor r(parent, sycl::read_only);
    std::size_t wrong = 0;
    for (int i = 0; i < 64; ++i)
      if (r[i] != static_cast<char>(i >= 3 && i < 32 ? i + 100 : i)) ++wrong;
    CHECK(wrong == 0);
  }
}

// On a GPU a buffer reduction writes its result to pinned host memory as well (the buffer's
// mirror), which a host accessor then reads instead of copying. Whatever writes the buffer after
// the reduction must win over the mirror; a reduction whose buffer the command group also uses
// through another accessor, or an empty nd_range, must not leave a stale mirror behind.
static void mirror_cases(sycl::queue& q, const char* what) {
  constexpr std::size_t n = 4096 + 3;
  sycl::buffer<int> sum{sycl::range<1>(1)};
  auto reduce = [&](int add) {
    q.submit([&](sycl::handler& h) {
      h.parallel_for(sycl::range<1>(n),
                     sycl::reduction(sum, h, sycl::plus<int>(),
                                     sycl::property::reduction::initialize_to_identity{}),
                     [=](sycl::id<1>, auto& s) { s += add; });
    });
  };
  auto host_value = [&] {
    sycl::host_accessor r(sum, sycl::read_only);
    return r[0];
  };
  // A reduction, then a kernel that overwrites the result: the host sees the kernel's value.
  reduce(1);
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(sum, h, sycl::read_write);
    h.single_task([=] { a[0] = a[0] * 2 + 1; });
  });
  int v = host_value();
  if (v != 2 * int(n) + 1) std::printf("%s: after overwrite %d\n", what, v);
  CHECK(v == 2 * int(n) + 1);
  // A reduction, a kernel reading the result into another buffer, then the host: both agree.
  reduce(3);
  sycl::buffer<int> copy{sycl::range<1>(1)};
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(sum, h, sycl::read_only);
    sycl::accessor c(copy, h, sycl::write_only, sycl::no_init);
    h.single_task([=] { c[0] = a[0]; });
  });
  CHECK(host_value() == 3 * int(n));
  {
    sycl::host_accessor c(copy, sycl::read_only);
    CHECK(c[0] == 3 * int(n));
  }
  // The host writes the buffer, then a reduction without initialize_to_identity combines.
  {
    sycl::host_accessor w(sum, sycl::write_only, sycl::no_init);
    w[0] = 1000;
  }
  q.submit([&](sycl::handler& h) {
    h.parallel_for(sycl::range<1>(n), sycl::reduction(sum, h, sycl::plus<int>()),
                   [=](sycl::id<1>, auto& s) { s += 1; });
  });
  CHECK(host_value() == 1000 + int(n));
  // An empty nd_range: nothing runs, the variable keeps the host's value.
  {
    sycl::host_accessor w(sum, sycl::write_only, sycl::no_init);
    w[0] = 77;
  }
  q.submit([&](sycl::handler& h) {
    h.parallel_for(sycl::nd_range<1>(sycl::range<1>(0), sycl::range<1>(32)),
                   sycl::reduction(sum, h, sycl::plus<int>()),
                   [=](sycl::nd_item<1>, auto& s) { s += 1; });
  });
  v = host_value();
  if (v != 77) std::printf("%s: after an empty nd_range %d\n", what, v);
  CHECK(v == 77);
  // An nd_range reduction, read back.
  q.submit([&](sycl::handler& h) {
    h.parallel_for(sycl::nd_range<1>(sycl::range<1>(4096), sycl::range<1>(128)),
                   sycl::reduction(sum, h, sycl::maximum<int>(),
                                   sycl::property::reduction::initialize_to_identity{}),
                   [=](sycl::nd_item<1> it, auto& m) {
                     m.combine(static_cast<int>(it.get_global_linear_id() % 1000));
                   });
  });
  CHECK(host_value() == 999);
  // No identity and nothing combined: the variable keeps its value, the mirror too.
  {
    sycl::host_accessor w(sum, sycl::write_only, sycl::no_init);
    w[0] = 5;
  }
  struct larger {
    int operator()(int a, int b) const { return a > b ? a : b; }
  };
  larger custom;
  q.submit([&](sycl::handler& h) {
    h.parallel_for(sycl::range<1>(n), sycl::reduction(sum, h, custom), [=](sycl::id<1> i, auto& m) {
      if (i[0] == n + 1) m.combine(1); // never
    });
  });
  CHECK(host_value() == 5);
  // Two reductions in a row, then the host: the second one's result.
  reduce(2);
  reduce(4);
  CHECK(host_value() == 4 * int(n));
  // A buffer over host memory, destroyed right after the reduction: the write-back reads the
  // result.
  int out = -1;
  {
    sycl::buffer<int> b{&out, sycl::range<1>(1)};
    q.submit([&](sycl::handler& h) {
      h.parallel_for(sycl::range<1>(n),
                     sycl::reduction(b, h, sycl::plus<int>(),
                                     sycl::property::reduction::initialize_to_identity{}),
                     [=](sycl::id<1>, auto& s) { s += 5; });
    });
  }
  if (out != 5 * int(n)) std::printf("%s: write-back %d\n", what, out);
  CHECK(out == 5 * int(n));
}

int main() {
  sycl::queue in_order{sycl::property::queue::in_order{}};
  std::printf("device: %s\n", in_order.get_device().get_info<sycl::info::device::name>().c_str());
  sycl::queue in_order_other{in_order.get_context(), in_order.get_device(),
                             sycl::property::queue::in_order{}};
  run(in_order, in_order_other, "in-order");
  sycl::queue out_of_order{in_order.get_context(), in_order.get_device()};
  sycl::queue out_of_order_other{in_order.get_context(), in_order.get_device()};
  run(out_of_order, out_of_order_other, "out-of-order");
  small_buffers(in_order);
  small_buffers(out_of_order);
  mirror_cases(in_order, "in-order");
  mirror_cases(out_of_order, "out-of-order");
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("reduction_buffer_readback: all passed\n");
  return 0;
}
