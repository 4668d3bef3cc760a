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
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("reduction_buffer_readback: all passed\n");
  return 0;
}
