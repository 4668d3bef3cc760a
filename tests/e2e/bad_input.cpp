// "Bad input gets a clear error and loses nothing": launch configurations the device cannot
// run are rejected at submit with errc::nd_range (global range not a multiple of the local
// range, a work-group larger than max_work_group_size or max_work_item_sizes, an empty local
// range) or errc::memory_allocation (too much local memory); the message names the numbers.
// After every error the queue keeps working, earlier results survive, and buffers write back.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// Runs f, which must throw sycl::exception with `code` and a message containing every needle.
template <typename F>
void expect_errc(sycl::errc code, std::vector<std::string> needles, F f, int line) {
  try {
    f();
    std::printf("FAILED line %d: no exception thrown\n", line);
    ++g_failures;
  } catch (const sycl::exception& e) {
    bool ok = e.code() == code;
    for (const std::string& n : needles) ok = ok && std::strstr(e.what(), n.c_str());
    if (!ok) {
      std::printf("FAILED line %d: errc %d \"%s\"\n", line, e.code().value(), e.what());
      ++g_failures;
    }
  }
}
#define EXPECT_ERRC(code, needles, ...) expect_errc(code, needles, [&] { __VA_ARGS__; }, __LINE__)

constexpr int N = 96;

// Adds `k` to every element through an nd_range kernel of the given shape.
template <int D>
void add(sycl::queue& q, sycl::buffer<int>& b, sycl::nd_range<D> ndr, int k) {
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h);
    h.parallel_for(ndr, [=](sycl::nd_item<D> it) {
      std::size_t i = it.get_global_linear_id();
      if (i < N) a[i] += k;
    });
  });
}

// A healthy round trip on the queue: nothing was left broken.
bool queue_works(sycl::queue& q) {
  int* p = sycl::malloc_shared<int>(8, q);
  q.parallel_for(sycl::nd_range<1>(sycl::range<1>(8), sycl::range<1>(4)), [=](sycl::nd_item<1> it) {
     p[it.get_global_id(0)] = 5;
   }).wait();
  bool ok = p[0] == 5 && p[7] == 5;
  sycl::free(p, q);
  return ok;
}
} // namespace

int main() {
  sycl::queue q;
  const std::size_t max_wg = q.get_device().get_info<sycl::info::device::max_work_group_size>();
  const auto max_items = q.get_device().get_info<sycl::info::device::max_work_item_sizes<3>>();
  const std::size_t local_mem = q.get_device().get_info<sycl::info::device::local_mem_size>();
  const std::string wg_text = std::to_string(max_wg);

  std::vector<int> data(N, 0);
  {
    sycl::buffer<int> b(data.data(), sycl::range<1>(N));
    add(q, b, sycl::nd_range<1>(sycl::range<1>(N), sycl::range<1>(32)), 1); // succeeds

    // Global range not a multiple of the local range.
    EXPECT_ERRC(sycl::errc::nd_range, (std::vector<std::string>{"100", "7", "multiple"}),
                add(q, b, sycl::nd_range<1>(sycl::range<1>(100), sycl::range<1>(7)), 1000));
    EXPECT_ERRC(sycl::errc::nd_range, (std::vector<std::string>{"dimension 1", "multiple"}),
                add(q, b, sycl::nd_range<2>(sycl::range<2>(8, 12), sycl::range<2>(4, 5)), 1000));
    EXPECT_ERRC(
        sycl::errc::nd_range, (std::vector<std::string>{"dimension 2"}),
        add(q, b, sycl::nd_range<3>(sycl::range<3>(2, 2, 9), sycl::range<3>(1, 1, 2)), 1000));
    // A local range of 0 in one dimension (0 in all of them is sycl_ext_oneapi_auto_local_range's
    // auto_range(): the runtime chooses).
    EXPECT_ERRC(sycl::errc::nd_range, (std::vector<std::string>{"local range 0", "dimension 1"}),
                add(q, b, sycl::nd_range<2>(sycl::range<2>(8, 12), sycl::range<2>(4, 0)), 1000));
    // Work-groups larger than the device allows: in total (2-D) and in one dimension (1-D).
    std::size_t side = 1;
    while (side * side <= max_wg) side *= 2; // side * side > max_wg, side <= max_items
    EXPECT_ERRC(
        sycl::errc::nd_range,
        (std::vector<std::string>{std::to_string(side * side), wg_text, "max_work_group_size"}),
        add(q, b, sycl::nd_range<2>(sycl::range<2>(side, side), sycl::range<2>(side, side)), 1000));
    std::size_t too_long = max_items[2] * 2;
    EXPECT_ERRC(
        sycl::errc::nd_range, (std::vector<std::string>{std::to_string(too_long)}),
        add(q, b, sycl::nd_range<1>(sycl::range<1>(too_long), sycl::range<1>(too_long)), 1000));
    // Through the queue shortcut as well.
    EXPECT_ERRC(sycl::errc::nd_range, (std::vector<std::string>{"multiple"}),
                q.parallel_for(sycl::nd_range<1>(sycl::range<1>(10), sycl::range<1>(4)),
                               [](sycl::nd_item<1>) {}));
    // More local memory than a work-group has.
    EXPECT_ERRC(sycl::errc::memory_allocation,
                (std::vector<std::string>{std::to_string(local_mem), "local_mem_size"}),
                q.submit([&](sycl::handler& h) {
                  sycl::accessor a(b, h);
                  sycl::local_accessor<char> big(sycl::range<1>(local_mem + 1), h);
                  h.parallel_for(sycl::nd_range<1>(sycl::range<1>(N), sycl::range<1>(32)),
                                 [=](sycl::nd_item<1> it) {
                                   big[it.get_local_id(0)] = 1;
                                   a[it.get_global_id()] = 1000;
                                 });
                }));
    // A user exception from the command group function.
    try {
      q.submit([&](sycl::handler& h) {
        sycl::accessor a(b, h);
        throw std::runtime_error("user error");
      });
      CHECK(!"no exception");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "user error");
    }

    // Nothing of the failed submissions ran; the earlier result is intact; the queue works.
    {
      sycl::host_accessor h(b, sycl::read_only);
      bool ok = true;
      for (int i = 0; i < N; ++i) ok = ok && h[i] == 1;
      CHECK(ok);
    }
    CHECK(queue_works(q));
    // Later commands on the same buffer run and are written back.
    add(q, b, sycl::nd_range<2>(sycl::range<2>(8, 12), sycl::range<2>(4, 4)), 10);
    add(q, b,
        sycl::nd_range<1>(sycl::range<1>(N), sycl::range<1>(std::min<std::size_t>(max_wg, 96))),
        100);
  }
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && data[i] == 111;
  CHECK(ok);

  // An in-order queue stays in order after a rejected submission.
  sycl::queue io{sycl::property::queue::in_order{}};
  int* p = sycl::malloc_shared<int>(1, io);
  *p = 0;
  io.single_task([=] { *p = 1; });
  EXPECT_ERRC(sycl::errc::nd_range, (std::vector<std::string>{}),
              io.parallel_for(sycl::nd_range<1>(sycl::range<1>(3), sycl::range<1>(2)),
                              [=](sycl::nd_item<1>) { *p = 100; }));
  io.single_task([=] { *p *= 7; });
  io.wait();
  CHECK(*p == 7);
  sycl::free(p, io);

  if (g_failures) {
    std::printf("bad_input: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("bad_input: PASSED\n");
  return 0;
}
