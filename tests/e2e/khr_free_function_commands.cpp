// sycl_khr_free_function_commands: every function in namespace sycl::khr in its queue and its
// handler form, with results computed by the kernels and checked on the host. submit_tracked's
// event orders a dependent command group; launch, launch_reduce, launch_grouped and
// launch_grouped_reduce run in one, two and three dimensions (braced ranges pick the dimension);
// the memory operations move data between USM pointers, host memory and buffers through device
// accessors (placeholders with the queue forms); command_barrier and event_barrier hold back later
// commands of an out-of-order queue. Errors: launch_grouped with a work-group size that does not
// divide the range throws errc::nd_range, an accessor copy into fewer elements errc::invalid, and
// the sycl::kernel forms errc::feature_not_supported.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <cstdio>
#include <memory>
#include <numeric>
#include <type_traits>
#include <vector>

#ifndef SYCL_KHR_FREE_FUNCTION_COMMANDS
#error "SYCL_KHR_FREE_FUNCTION_COMMANDS is not defined"
#endif
static_assert(SYCL_KHR_FREE_FUNCTION_COMMANDS == 1);

struct empty_cgf {
  void operator()(sycl::handler&) const {}
};
static_assert(
    std::is_void_v<decltype(sycl::khr::submit(std::declval<sycl::queue>(), empty_cgf{}))>);
static_assert(
    std::is_same_v<decltype(sycl::khr::submit_tracked(std::declval<sycl::queue>(), empty_cgf{})),
                   sycl::event>);

class khr_named_task;

template <typename T, sycl::access_mode M>
using device_acc = sycl::accessor<T, 1, M, sycl::target::device>;

static void slow_set(sycl::handler& h, int* flag) {
  sycl::khr::launch_task(h, [=] {
    float sum = 0;
    for (int i = 0; i < 20000; ++i) sum += sycl::sqrt(float(i));
    *flag = sum > 0 ? 1 : 2;
  });
}

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  constexpr int n = 64;
  int* a = sycl::malloc_shared<int>(n, q);
  int* b = sycl::malloc_shared<int>(n, q);
  int* sum = sycl::malloc_shared<int>(2, q);

  // submit / submit_tracked, launch_task in both forms.
  sycl::khr::launch_task(q, [=] { a[0] = 1; });
  q.wait();
  sycl::khr::submit(q, [&](sycl::handler& h) { sycl::khr::launch_task(h, [=] { a[0] += 10; }); });
  q.wait();
  EXPECT(a[0] == 11);
  sycl::event filled = sycl::khr::submit_tracked(q, [&](sycl::handler& h) {
    sycl::khr::launch(h, sycl::range<1>(n), [=](sycl::id<1> i) {
      float s = 0;
      for (int k = 0; k < 2000; ++k) s += sycl::sqrt(float(k));
      a[i] = int(i[0]) + (s > 0 ? 1 : 0);
    });
  });
  sycl::khr::submit(q, [&](sycl::handler& h) {
    h.depends_on(filled);
    sycl::khr::launch(h, sycl::range<1>(n), [=](sycl::id<1> i) { b[i] = 5 * a[i]; });
  });
  q.wait();
  {
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += b[i] != 5 * (i + 1);
    EXPECT(bad == 0);
  }

  // launch in two and three dimensions, braced ranges.
  sycl::khr::launch(q, {8, 8},
                    [=](sycl::item<2> it) { a[it.get_linear_id()] = int(it[0] * 10 + it[1]); });
  q.wait();
  EXPECT(a[0] == 0 && a[9] == 11 && a[63] == 77);
  sycl::khr::launch(q, {4, 4, 4}, [=](sycl::item<3> it) {
    b[it.get_linear_id()] = int(it[0] * 100 + it[1] * 10 + it[2]);
  });
  q.wait();
  EXPECT(b[0] == 0 && b[21] == 111 && b[63] == 333);

  // launch_reduce: queue form with two reductions, handler form with a buffer reduction.
  std::iota(a, a + n, 1);
  sum[0] = 0;
  sum[1] = 1000;
  sycl::khr::launch_reduce(
      q, {4, 16},
      [=](sycl::item<2> it, auto& s, auto& m) {
        s += a[it.get_linear_id()];
        m.combine(a[it.get_linear_id()]);
      },
      sycl::reduction(sum, sycl::plus<int>()), sycl::reduction(sum + 1, sycl::minimum<int>()));
  q.wait();
  EXPECT(sum[0] == n * (n + 1) / 2 && sum[1] == 1);
  {
    int result = 0;
    {
      sycl::buffer<int> buf(&result, 1);
      q.submit([&](sycl::handler& h) {
        sycl::khr::launch_reduce(
            h, sycl::range<3>(4, 4, 4),
            [=](sycl::item<3> it, auto& s) { s += int(it.get_linear_id()); },
            sycl::reduction(buf, h, sycl::plus<int>()));
      });
    }
    EXPECT(result == (n - 1) * n / 2);
  }

  // launch_grouped and launch_grouped_reduce.
  sycl::khr::launch_grouped(q, sycl::range<1>(n), sycl::range<1>(16), [=](sycl::nd_item<1> it) {
    a[it.get_global_id(0)] = int(it.get_group(0) * 100 + it.get_local_id(0));
  });
  q.wait();
  EXPECT(a[0] == 0 && a[17] == 101 && a[63] == 315);
  q.submit([&](sycl::handler& h) {
    sycl::khr::launch_grouped(h, {4, 4, 4}, {2, 2, 2}, [=](sycl::nd_item<3> it) {
      b[it.get_global_linear_id()] = int(it.get_local_linear_id());
    });
  });
  q.wait();
  EXPECT(b[0] == 0 && b[1] == 1 && b[2] == 0 && b[63] == 7);
  sum[0] = 0;
  sycl::khr::launch_grouped_reduce(
      q, {8, 8}, {4, 2}, [=](sycl::nd_item<2> it, auto& s) { s += int(it.get_group_linear_id()); },
      sycl::reduction(sum, sycl::plus<int>()));
  q.wait();
  EXPECT(sum[0] == 8 * (7 * 8 / 2)); // 8 groups of 8 work-items, group ids 0..7
  sum[0] = 0;
  q.submit([&](sycl::handler& h) {
    sycl::khr::launch_grouped_reduce(
        h, sycl::range<1>(n), sycl::range<1>(32),
        [=](sycl::nd_item<1> it, auto& s) { s += int(it.get_global_id(0)); },
        sycl::reduction(sum, sycl::plus<int>()));
  });
  q.wait();
  EXPECT(sum[0] == (n - 1) * n / 2);

  // Errors the extension and SYCL 2020 name.
  {
    bool thrown = false;
    try {
      sycl::khr::launch_grouped(q, {6, 6}, {4, 4}, [=](sycl::nd_item<2>) {});
    } catch (const sycl::exception& ex) {
      thrown = ex.code() == sycl::errc::nd_range;
    }
    EXPECT(thrown);
    thrown = false;
    try {
      sycl::buffer<int> small(4), big(8);
      device_acc<int, sycl::access_mode::read> src(big);
      device_acc<int, sycl::access_mode::write> dst(small);
      sycl::khr::copy(q, src, dst);
    } catch (const sycl::exception& ex) {
      thrown = ex.code() == sycl::errc::invalid;
    }
    EXPECT(thrown);

    auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context());
    sycl::kernel k = bundle.get_kernel(sycl::get_kernel_id<khr_named_task>());
    int unsupported = 0;
    auto expect_unsupported = [&](auto&& f) {
      try {
        f();
      } catch (const sycl::exception& ex) {
        unsupported += ex.code() == sycl::errc::feature_not_supported;
      }
    };
    expect_unsupported([&] { sycl::khr::launch(q, sycl::range<1>(4), k, a, 3); });
    expect_unsupported([&] { sycl::khr::launch(q, {2, 2}, k); });
    expect_unsupported([&] { sycl::khr::launch_grouped(q, {4, 4, 4}, {2, 2, 2}, k, 1.0f); });
    expect_unsupported([&] { sycl::khr::launch_task(q, k); });
    expect_unsupported(
        [&] { sycl::khr::submit(q, [&](sycl::handler& h) { sycl::khr::launch_task(h, k, 1); }); });
    expect_unsupported([&] {
      sycl::khr::submit(q, [&](sycl::handler& h) {
        sycl::khr::launch_grouped(h, sycl::range<1>(4), sycl::range<1>(2), k);
      });
    });
    EXPECT(unsupported == 6);
    // khr_named_task itself runs.
    sycl::khr::submit(q,
                      [&](sycl::handler& h) { h.single_task<khr_named_task>([=] { a[0] = -1; }); });
    q.wait();
    EXPECT(a[0] == -1);
  }

  // USM memory operations, each form once, checked through the host.
  {
    int* d = sycl::malloc_device<int>(n, q);
    std::vector<int> out(n, -1);
    sycl::khr::memset(q, d, 0x02, n * sizeof(int));
    q.wait(); // USM commands of an out-of-order queue are ordered only by events or waits
    sycl::khr::memcpy(q, out.data(), d, n * sizeof(int));
    q.wait();
    EXPECT(out[0] == 0x02020202 && out[n - 1] == 0x02020202);
    sycl::khr::fill(q, d, 23, n / 2);
    sycl::khr::submit(q, [&](sycl::handler& h) { sycl::khr::fill(h, d + n / 2, -8, n / 2); });
    q.wait();
    sycl::khr::copy(q, static_cast<const int*>(d), out.data(), n);
    q.wait();
    EXPECT(out[0] == 23 && out[n / 2 - 1] == 23 && out[n / 2] == -8 && out[n - 1] == -8);
    std::iota(out.begin(), out.end(), 50);
    sycl::khr::submit(q, [&](sycl::handler& h) {
      sycl::khr::copy(h, static_cast<const int*>(out.data()), d, n);
    });
    q.wait();
    sycl::khr::submit(q, [&](sycl::handler& h) { sycl::khr::memset(h, b, 0, n * sizeof(int)); });
    q.wait();
    EXPECT(b[3] == 0);
    sycl::khr::submit(q, [&](sycl::handler& h) { sycl::khr::memcpy(h, b, d, n * sizeof(int)); });
    q.wait();
    EXPECT(b[0] == 50 && b[n - 1] == 50 + n - 1);
    sycl::free(d, q);
  }

  // Accessor memory operations: host to device, device to host, device to device, fill and
  // update_host; handler forms with accessors of the command group, queue forms with
  // placeholders.
  {
    std::vector<float> host(n), back(n, 0.f);
    std::iota(host.begin(), host.end(), 0.5f);
    auto shared_src = std::shared_ptr<float[]>(new float[n]);
    for (int i = 0; i < n; ++i) shared_src[i] = -float(i);
    auto shared_dst = std::shared_ptr<float[]>(new float[n]());
    sycl::buffer<float> x{sycl::range<1>(n)}, y{sycl::range<1>(n)};
    sycl::khr::submit(q, [&](sycl::handler& h) {
      device_acc<float, sycl::access_mode::write> acc(x, h);
      sycl::khr::copy(h, static_cast<const float*>(host.data()), acc);
    });
    device_acc<float, sycl::access_mode::read_write> y_all(y);
    sycl::khr::copy(q, shared_src, y_all);
    q.submit([&](sycl::handler& h) {
      device_acc<float, sycl::access_mode::read> acc(x, h);
      sycl::khr::copy(h, acc, back.data());
    });
    device_acc<float, sycl::access_mode::read> y_read(y);
    sycl::khr::copy(q, y_read, shared_dst);
    q.wait();
    EXPECT(back[0] == 0.5f && back[n - 1] == n - 0.5f);
    EXPECT(shared_dst[0] == 0.f && shared_dst[n - 1] == -float(n - 1));
    // Device to device (handler), then fill both ways, then read back with the other forms.
    q.submit([&](sycl::handler& h) {
      device_acc<float, sycl::access_mode::read> src(x, h);
      device_acc<float, sycl::access_mode::write> dst(y, h);
      sycl::khr::copy(h, src, dst);
    });
    sycl::khr::copy(q, static_cast<const float*>(back.data()), y_all); // overwritten below
    device_acc<float, sycl::access_mode::read> x_read(x);
    sycl::khr::copy(q, x_read, y_all); // device to device, queue form
    std::vector<float> y_host(n, 0.f);
    sycl::khr::copy(q, y_read, y_host.data());
    q.wait();
    EXPECT(y_host[0] == 0.5f && y_host[n - 1] == n - 0.5f);
    sycl::khr::fill(q, y_all, 4.25f);
    q.submit([&](sycl::handler& h) {
      device_acc<float, sycl::access_mode::write> acc(x, h);
      sycl::khr::fill(h, acc, -1.5f);
    });
    sycl::khr::copy(q, y_read, y_host.data());
    sycl::khr::copy(q, x_read, back.data());
    q.wait();
    EXPECT(y_host[0] == 4.25f && y_host[n - 1] == 4.25f && back[0] == -1.5f &&
           back[n - 1] == -1.5f);

    // update_host: the buffer's host memory holds the kernel's values while the buffer lives.
    std::vector<int> data(n, 0);
    {
      sycl::buffer<int> buf(data.data(), sycl::range<1>(n));
      q.submit([&](sycl::handler& h) {
        device_acc<int, sycl::access_mode::write> acc(buf, h);
        sycl::khr::launch(h, sycl::range<1>(n), [=](sycl::id<1> i) { acc[i] = int(i[0]) * 3; });
      });
      device_acc<int, sycl::access_mode::read> acc(buf);
      sycl::khr::update_host(q, acc);
      q.wait();
      EXPECT(data[0] == 0 && data[n - 1] == 3 * (n - 1));
      q.submit([&](sycl::handler& h) {
        device_acc<int, sycl::access_mode::read_write> rw(buf, h);
        sycl::khr::launch(h, sycl::range<1>(n), [=](sycl::id<1> i) { rw[i] += 1; });
      });
      q.submit([&](sycl::handler& h) {
        device_acc<int, sycl::access_mode::read> r(buf, h);
        sycl::khr::update_host(h, r);
      });
      q.wait();
      EXPECT(data[0] == 1 && data[n - 1] == 3 * (n - 1) + 1);
    }
  }

  // prefetch and mem_advise: ordered commands around which the data stays correct.
  {
    std::iota(a, a + n, 0);
    sycl::khr::prefetch(q, a, n * sizeof(int));
    sycl::khr::mem_advise(q, a, n * sizeof(int), 0);
    q.wait();
    sycl::khr::launch(q, sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 7; });
    q.wait();
    sycl::khr::submit(q, [&](sycl::handler& h) { sycl::khr::prefetch(h, a, n * sizeof(int)); });
    sycl::khr::submit(q,
                      [&](sycl::handler& h) { sycl::khr::mem_advise(h, a, n * sizeof(int), 0); });
    q.wait();
    EXPECT(a[0] == 7 && a[n - 1] == n + 6);
  }

  // command_barrier / event_barrier in both forms.
  {
    int* flag = sycl::malloc_shared<int>(4, q);
    int* seen = sycl::malloc_shared<int>(4, q);
    for (int i = 0; i < 4; ++i) flag[i] = seen[i] = 0;
    sycl::khr::submit(q, [&](sycl::handler& h) { slow_set(h, flag + 0); });
    sycl::khr::command_barrier(q);
    sycl::khr::launch_task(q, [=] { seen[0] = flag[0]; });
    sycl::khr::submit(q, [&](sycl::handler& h) { slow_set(h, flag + 1); });
    sycl::khr::submit(q, [&](sycl::handler& h) { sycl::khr::command_barrier(h); });
    sycl::khr::launch_task(q, [=] { seen[1] = flag[1]; });
    sycl::event e2 = sycl::khr::submit_tracked(q, [&](sycl::handler& h) { slow_set(h, flag + 2); });
    sycl::khr::event_barrier(q, {e2});
    sycl::khr::launch_task(q, [=] { seen[2] = flag[2]; });
    sycl::event e3 = sycl::khr::submit_tracked(q, [&](sycl::handler& h) { slow_set(h, flag + 3); });
    sycl::khr::submit(q, [&](sycl::handler& h) { sycl::khr::event_barrier(h, {e3}); });
    sycl::khr::launch_task(q, [=] { seen[3] = flag[3]; });
    q.wait();
    for (int i = 0; i < 4; ++i) EXPECT(flag[i] == 1 && seen[i] == 1);
    sycl::free(flag, q);
    sycl::free(seen, q);
  }

  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(sum, q);
  if (failures == 0) std::printf("khr_free_function_commands: all checks passed\n");
  return failures;
}
