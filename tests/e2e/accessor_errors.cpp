// SYCL 2020 4.7.6.9 placeholder accessors and handler::require, and the errors of misused
// accessors: an accessor used in a command group it does not belong to (errc::kernel_argument),
// a local_accessor in a kernel launched over a range (errc::kernel_argument), an access range
// outside the buffer (errc::invalid). After each error the queue still runs commands and the
// buffers still write back.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

template <typename F>
void expect_errc(sycl::errc code, const char* needle, F f, int line) {
  try {
    f();
    std::printf("FAILED line %d: no exception thrown\n", line);
    ++g_failures;
  } catch (const sycl::exception& e) {
    if (e.code() != code || (needle && !std::strstr(e.what(), needle))) {
      std::printf("FAILED line %d: errc %d \"%s\"\n", line, e.code().value(), e.what());
      ++g_failures;
    }
  }
}
#define EXPECT_ERRC(code, needle, ...) expect_errc(code, needle, [&] { __VA_ARGS__; }, __LINE__)

constexpr int N = 32;
using placeholder_rw = sycl::accessor<int, 1, sycl::access_mode::read_write, sycl::target::device,
                                      sycl::access::placeholder::true_t>;

void test_placeholders(sycl::queue& q) {
  std::vector<int> data(N, 1);
  {
    sycl::buffer<int> b(data.data(), sycl::range<1>(N));
    placeholder_rw p(b);
    CHECK(p.is_placeholder());
    CHECK(p.get_range() == sycl::range<1>(N));
    // The same placeholder serves several command groups.
    for (int round = 0; round < 3; ++round)
      q.submit([&](sycl::handler& h) {
        h.require(p);
        h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { p[i] *= 2; });
      });
    // Deduction guides make placeholders from a buffer alone; ranged placeholders too.
    sycl::accessor ro(b, sycl::read_only);
    static_assert(
        std::is_same_v<decltype(ro),
                       sycl::accessor<int, 1, sycl::access_mode::read, sycl::target::device,
                                      sycl::access::placeholder::true_t>>);
    int* sum = sycl::malloc_shared<int>(1, q);
    q.submit([&](sycl::handler& h) {
       h.require(ro);
       h.single_task([=] {
         int s = 0;
         for (int i = 0; i < N; ++i) s += ro[i];
         *sum = s;
       });
     }).wait();
    CHECK(*sum == 8 * N);
    placeholder_rw part(b, sycl::range<1>(4), sycl::id<1>(N - 4));
    q.submit([&](sycl::handler& h) {
      h.require(part);
      h.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { part[i] = -1; });
    });
    // A placeholder in a host task.
    sycl::accessor<int, 1, sycl::access_mode::read_write, sycl::target::host_task,
                   sycl::access::placeholder::true_t>
        hp(b);
    q.submit([&](sycl::handler& h) {
      h.require(hp);
      h.host_task([=] { hp[0] = 77; });
    });
    // Without require(): the kernel's capture fails and nothing runs.
    EXPECT_ERRC(sycl::errc::kernel_argument, "require", q.submit([&](sycl::handler& h) {
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { p[i] = 12345; });
    }));
    EXPECT_ERRC(sycl::errc::kernel_argument, nullptr,
                q.submit([&](sycl::handler& h) { h.host_task([=] { hp[1] = 12345; }); }));
    sycl::free(sum, q);
  }
  CHECK(data[0] == 77 && data[1] == 8 && data[N - 5] == 8 && data[N - 4] == -1 &&
        data[N - 1] == -1);
}

void test_foreign_command_group(sycl::queue& q) {
  std::vector<int> a_data(N, 0), b_data(N, 0);
  {
    sycl::buffer<int> a(a_data.data(), sycl::range<1>(N));
    sycl::buffer<int> b(b_data.data(), sycl::range<1>(N));
    // An accessor created in one command group and smuggled into another.
    sycl::accessor<int, 1> stolen;
    q.submit([&](sycl::handler& h) {
      stolen = sycl::accessor<int, 1>(a, h);
      h.single_task([=] { stolen[0] = 1; });
    });
    EXPECT_ERRC(sycl::errc::kernel_argument, "does not belong", q.submit([&](sycl::handler& h) {
      sycl::accessor mine(b, h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
        mine[i] = 5;
        stolen[i] = 5;
      });
    }));
    // In an explicit copy too.
    std::vector<int> out(N, -1);
    EXPECT_ERRC(sycl::errc::kernel_argument, nullptr, q.submit([&](sycl::handler& h) {
      sycl::accessor mine(b, h);
      h.copy(stolen, out.data());
    }));
    CHECK(out[0] == -1);
    // The queue is fine: a proper command group over both buffers.
    q.submit([&](sycl::handler& h) {
      sycl::accessor x(a, h);
      sycl::accessor y(b, h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
        x[i] += 10;
        y[i] += 20;
      });
    });
  }
  // Nothing of the failed groups ran; everything else did and was written back.
  CHECK(a_data[0] == 11 && a_data[1] == 10 && b_data[0] == 20 && b_data[N - 1] == 20);
}

void test_local_accessor_in_range_kernel(sycl::queue& q) {
  std::vector<int> data(N, 3);
  {
    sycl::buffer<int> b(data.data(), sycl::range<1>(N));
    EXPECT_ERRC(sycl::errc::kernel_argument, "nd_range", q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      sycl::local_accessor<int> scratch(sycl::range<1>(16), h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
        scratch[0] = 1;
        a[i] = scratch[0];
      });
    }));
    // The same kernel over an nd_range is fine.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      sycl::local_accessor<int> scratch(sycl::range<1>(16), h);
      h.parallel_for(sycl::nd_range<1>(sycl::range<1>(N), sycl::range<1>(16)),
                     [=](sycl::nd_item<1> it) {
                       scratch[it.get_local_id(0)] = static_cast<int>(it.get_local_id(0));
                       a[it.get_global_id()] += scratch[it.get_local_id(0)];
                     });
    });
  }
  CHECK(data[0] == 3 && data[15] == 18 && data[16] == 3 && data[31] == 18);

  // A local accessor the kernel does not capture is no error in a single_task or range kernel
  // (the CTS's accessor_legacy constructor tests do this): only *using* one is.
  {
    sycl::buffer<int> b(data.data(), sycl::range<1>(N));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      sycl::local_accessor<int> unused(sycl::range<1>(16), h);
      sycl::accessor<float, 2, sycl::access_mode::read_write, sycl::target::local> unused2(
          sycl::range<2>(2, 2), h);
      sycl::local_accessor<int> copy = unused; // a copy outside the kernel does not count
      (void)copy;
      h.single_task([=] { a[0] = 100; });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      sycl::local_accessor<int, 0> unused(h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] += 1; });
    });
  }
  CHECK(data[0] == 101 && data[1] == 5 && data[15] == 19 && data[16] == 4);
}

void test_out_of_range(sycl::queue& q) {
  std::vector<int> data(N, 0);
  {
    sycl::buffer<int> b(data.data(), sycl::range<1>(N));
    EXPECT_ERRC(sycl::errc::invalid, "exceeds", q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::range<1>(N), sycl::id<1>(1));
      h.single_task([=] { a[0] = 1; });
    }));
    EXPECT_ERRC(sycl::errc::invalid, "exceeds", placeholder_rw(b, sycl::range<1>(N + 1)));
    EXPECT_ERRC(sycl::errc::invalid, "exceeds",
                sycl::host_accessor<int>(b, sycl::range<1>(4), sycl::id<1>(N - 3)));
    sycl::buffer<int, 2> m{sycl::range<2>(4, 4)};
    EXPECT_ERRC(sycl::errc::invalid, "dimension 1", q.submit([&](sycl::handler& h) {
      sycl::accessor a(m, h, sycl::range<2>(2, 3), sycl::id<2>(0, 2));
      h.single_task([=] { a[0][0] = 1; });
    }));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::range<1>(N - 1), sycl::id<1>(1));
      h.parallel_for(sycl::range<1>(N - 1), [=](sycl::id<1> i) { a[i] = 4; });
    });
  }
  CHECK(data[0] == 0 && data[1] == 4 && data[N - 1] == 4);
}
} // namespace

int main() {
  sycl::queue q;
  test_placeholders(q);
  test_foreign_command_group(q);
  test_local_accessor_in_range_kernel(q);
  test_out_of_range(q);
  if (g_failures) {
    std::printf("accessor_errors: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("accessor_errors: PASSED\n");
  return 0;
}
