// sycl_ext_oneapi_enqueue_functions: every free function in its queue and its handler form, with
// results computed by the kernels and checked on the host. submit_with_event's event orders a
// dependent command group; the other functions return nothing. Reductions come after the kernel
// (parallel_for, nd_launch, with and without launch_config, one and two reductions);
// launch_config carries an nd_range and a sub_group_size property, which the kernel observes
// (also with a reduction). memcpy, copy, memset and fill move real data; prefetch (both
// directions) and mem_advise are ordered with the commands around them; barrier and
// partial_barrier hold back later commands of an out-of-order queue. Errors: an nd_range whose
// work-group size does not divide it throws errc::nd_range; the sycl::kernel forms throw
// errc::feature_not_supported.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <cstdio>
#include <numeric>
#include <type_traits>
#include <vector>

#ifndef SYCL_EXT_ONEAPI_ENQUEUE_FUNCTIONS
#error "SYCL_EXT_ONEAPI_ENQUEUE_FUNCTIONS is not defined"
#endif
static_assert(SYCL_EXT_ONEAPI_ENQUEUE_FUNCTIONS == 1);

namespace syclex = sycl::ext::oneapi::experimental;

// launch_config deduces its range and defaults to no properties.
static_assert(std::is_same_v<decltype(syclex::launch_config{sycl::range<2>(4, 4)}),
                             syclex::launch_config<sycl::range<2>, syclex::empty_properties_t>>);
static_assert(
    std::is_same_v<decltype(syclex::launch_config{sycl::nd_range<1>(8, 4),
                                                  syclex::properties{syclex::sub_group_size<32>}}),
                   syclex::launch_config<sycl::nd_range<1>, decltype(syclex::properties{
                                                                syclex::sub_group_size<32>})>>);
// The free functions return nothing but submit_with_event.
struct empty_cgf {
  void operator()(sycl::handler&) const {}
};
static_assert(std::is_void_v<decltype(syclex::submit(std::declval<sycl::queue>(), empty_cgf{}))>);
static_assert(
    std::is_same_v<decltype(syclex::submit_with_event(std::declval<sycl::queue>(), empty_cgf{})),
                   sycl::event>);

class named_task;

// A long single task, so that a command not ordered after it would see its flag unset.
static void slow_set(sycl::handler& h, int* flag) {
  syclex::single_task(h, [=] {
    float sum = 0;
    for (int i = 0; i < 20000; ++i) sum += sycl::sqrt(float(i));
    *flag = sum > 0 ? 1 : 2;
  });
}

int main() {
  sycl::queue q;
  const bool gpu = q.get_device().is_gpu();
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  constexpr int n = 256;
  int* a = sycl::malloc_shared<int>(n, q);
  int* b = sycl::malloc_shared<int>(n, q);
  int* sum = sycl::malloc_shared<int>(2, q);

  // single_task: queue and handler forms; submit / submit_with_event, with and without (empty)
  // properties.
  syclex::single_task(q, [=] { a[0] = 41; });
  q.wait();
  EXPECT(a[0] == 41);
  syclex::submit(q, [&](sycl::handler& h) { syclex::single_task<named_task>(h, [=] { a[0]++; }); });
  q.wait();
  EXPECT(a[0] == 42);
  syclex::submit(q, syclex::properties{},
                 [&](sycl::handler& h) { syclex::single_task(h, [=] { a[1] = 7; }); });
  sycl::event e7 =
      syclex::submit_with_event(q, syclex::empty_properties_t{}, [&](sycl::handler& h) {
        syclex::single_task(h, [=] { a[2] = 9; });
      });
  e7.wait();
  q.wait();
  EXPECT(a[1] == 7 && a[2] == 9);

  // submit_with_event: its event orders a dependent parallel_for (out-of-order queue).
  sycl::event filled = syclex::submit_with_event(q, [&](sycl::handler& h) {
    syclex::parallel_for(h, sycl::range<1>(n), [=](sycl::id<1> i) {
      float s = 0;
      for (int k = 0; k < 2000; ++k) s += sycl::sqrt(float(k));
      a[i] = int(i[0]) + (s > 0 ? 1 : 0);
    });
  });
  syclex::submit(q, [&](sycl::handler& h) {
    h.depends_on(filled);
    syclex::parallel_for(h, sycl::range<1>(n), [=](sycl::id<1> i) { b[i] = 3 * a[i]; });
  });
  q.wait();
  {
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += b[i] != 3 * (i + 1);
    EXPECT(bad == 0);
  }

  // parallel_for over a range<2> (queue form) and through a launch_config (handler form).
  syclex::parallel_for(q, sycl::range<2>(16, 16),
                       [=](sycl::item<2> it) { a[it.get_linear_id()] = int(it[0] * 100 + it[1]); });
  q.wait();
  EXPECT(a[0] == 0 && a[17] == 101 && a[255] == 1515);
  syclex::submit(q, [&](sycl::handler& h) {
    syclex::parallel_for(h, syclex::launch_config{sycl::range<1>(n)},
                         [=](sycl::id<1> i) { b[i] = a[i] + 1; });
  });
  q.wait();
  EXPECT(b[0] == 1 && b[17] == 102 && b[255] == 1516);

  // Reductions after the kernel: one (queue, range), two (handler, range), one through a
  // launch_config (queue).
  std::iota(a, a + n, 1);
  sum[0] = 0;
  syclex::parallel_for(
      q, sycl::range<1>(n), [=](sycl::id<1> i, auto& s) { s += a[i]; },
      sycl::reduction(sum, sycl::plus<int>()));
  q.wait();
  EXPECT(sum[0] == n * (n + 1) / 2);
  sum[0] = 0;
  sum[1] = 0;
  syclex::submit(q, [&](sycl::handler& h) {
    syclex::parallel_for(
        h, sycl::range<2>(16, 16),
        [=](sycl::item<2> it, auto& s, auto& m) {
          s += a[it.get_linear_id()];
          m.combine(a[it.get_linear_id()]);
        },
        sycl::reduction(sum, sycl::plus<int>()), sycl::reduction(sum + 1, sycl::maximum<int>()));
  });
  q.wait();
  EXPECT(sum[0] == n * (n + 1) / 2 && sum[1] == n);
  sum[0] = 5; // without initialize_to_identity the reduction adds to the value
  syclex::parallel_for(
      q, syclex::launch_config{sycl::range<1>(n)}, [=](sycl::id<1> i, auto& s) { s += 2 * a[i]; },
      sycl::reduction(sum, sycl::plus<int>()));
  q.wait();
  EXPECT(sum[0] == 5 + n * (n + 1));

  // nd_launch: queue form without reductions, handler form with one, launch_config forms.
  syclex::nd_launch(q, sycl::nd_range<1>(n, 32), [=](sycl::nd_item<1> it) {
    a[it.get_global_id(0)] = int(it.get_group(0) * 1000 + it.get_local_id(0));
  });
  q.wait();
  EXPECT(a[0] == 0 && a[33] == 1001 && a[255] == 7031);
  sum[0] = 0;
  syclex::submit(q, [&](sycl::handler& h) {
    syclex::nd_launch(
        h, sycl::nd_range<2>({16, 16}, {4, 8}),
        [=](sycl::nd_item<2> it, auto& s) { s += int(it.get_local_linear_id()); },
        sycl::reduction(sum, sycl::plus<int>()));
  });
  q.wait();
  EXPECT(sum[0] == 8 * (31 * 32 / 2)); // 8 work-groups of 32, local ids 0..31
  syclex::submit(q, [&](sycl::handler& h) {
    syclex::nd_launch(h, syclex::launch_config{sycl::nd_range<1>(n, 64)},
                      [=](sycl::nd_item<1> it) { b[it.get_global_id(0)] = int(it.get_group(0)); });
  });
  q.wait();
  EXPECT(b[0] == 0 && b[64] == 1 && b[255] == 3);

  // launch_config with properties: the kernel runs with sub-groups of 32, with and without a
  // reduction.
  syclex::nd_launch(q,
                    syclex::launch_config{sycl::nd_range<1>(n, 64),
                                          syclex::properties{syclex::sub_group_size<32>}},
                    [=](sycl::nd_item<1> it) {
                      a[it.get_global_id(0)] = int(it.get_sub_group().get_local_range()[0]);
                    });
  q.wait();
  {
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += a[i] != 32;
    EXPECT(bad == 0);
  }
  sum[0] = 0;
  syclex::submit(q, [&](sycl::handler& h) {
    syclex::nd_launch(
        h,
        syclex::launch_config{sycl::nd_range<1>(n, 64),
                              syclex::properties{syclex::sub_group_size<32>}},
        [=](sycl::nd_item<1> it, auto& s) { s += int(it.get_sub_group().get_local_range()[0]); },
        sycl::reduction(sum, sycl::plus<int>()));
  });
  q.wait();
  EXPECT(sum[0] == n * 32); // every work-item adds its sub-group's size
  syclex::parallel_for(
      q, syclex::launch_config{sycl::range<1>(n), syclex::properties{syclex::sub_group_size<32>}},
      [=](sycl::id<1> i) { b[i] = int(i[0]) * 2; });
  q.wait();
  EXPECT(b[100] == 200);

  // An nd_range whose work-group size does not divide it (SYCL 2020 4.9.4.2.2: errc::nd_range).
  {
    bool thrown = false;
    try {
      syclex::nd_launch(q, sycl::nd_range<1>(10, 4), [=](sycl::nd_item<1>) {});
    } catch (const sycl::exception& ex) {
      thrown = ex.code() == sycl::errc::nd_range;
    }
    EXPECT(thrown);
    thrown = false;
    try {
      syclex::submit(q, [&](sycl::handler& h) {
        syclex::nd_launch(
            h, syclex::launch_config{sycl::nd_range<2>({6, 6}, {4, 4})},
            [=](sycl::nd_item<2>, auto& s) { s += 1; }, sycl::reduction(sum, sycl::plus<int>()));
      });
    } catch (const sycl::exception& ex) {
      thrown = ex.code() == sycl::errc::nd_range;
    }
    EXPECT(thrown);
  }

  // The sycl::kernel forms: syclone has no kernels with host-set arguments.
  {
    auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context());
    sycl::kernel k = bundle.get_kernel(sycl::get_kernel_id<named_task>());
    int thrown = 0;
    auto expect_unsupported = [&](auto&& f) {
      try {
        f();
      } catch (const sycl::exception& ex) {
        thrown += ex.code() == sycl::errc::feature_not_supported;
      }
    };
    expect_unsupported([&] { syclex::single_task(q, k); });
    expect_unsupported([&] { syclex::parallel_for(q, sycl::range<1>(4), k, 1, 2); });
    expect_unsupported(
        [&] { syclex::parallel_for(q, syclex::launch_config{sycl::range<1>(4)}, k); });
    expect_unsupported([&] { syclex::nd_launch(q, sycl::nd_range<1>(4, 2), k, a); });
    expect_unsupported(
        [&] { syclex::nd_launch(q, syclex::launch_config{sycl::nd_range<1>(4, 2)}, k); });
    expect_unsupported(
        [&] { syclex::submit(q, [&](sycl::handler& h) { syclex::single_task(h, k, 3); }); });
    EXPECT(thrown == 6);
  }

  // Memory operations on device memory, each form once, checked through the host.
  {
    int* d = sycl::malloc_device<int>(n, q);
    int* host = sycl::malloc_host<int>(n, q);
    std::vector<int> out(n, -1);
    syclex::memset(q, d, 0x01, n * sizeof(int)); // every int 0x01010101
    q.wait(); // USM commands of an out-of-order queue are ordered only by events or waits
    syclex::memcpy(q, out.data(), d, n * sizeof(int));
    q.wait();
    EXPECT(out[0] == 0x01010101 && out[n - 1] == 0x01010101);
    syclex::fill(q, d, 17, n / 2);
    syclex::submit(q, [&](sycl::handler& h) { syclex::fill(h, d + n / 2, -3, n / 2); });
    q.wait();
    syclex::copy(q, static_cast<const int*>(d), out.data(), n);
    q.wait();
    EXPECT(out[0] == 17 && out[n / 2 - 1] == 17 && out[n / 2] == -3 && out[n - 1] == -3);
    std::iota(host, host + n, 100);
    syclex::submit(q,
                   [&](sycl::handler& h) { syclex::copy(h, static_cast<const int*>(host), d, n); });
    q.wait();
    syclex::submit(q, [&](sycl::handler& h) { syclex::memset(h, host, 0, n * sizeof(int)); });
    q.wait();
    EXPECT(host[5] == 0);
    syclex::submit(q, [&](sycl::handler& h) { syclex::memcpy(h, host, d, n * sizeof(int)); });
    q.wait();
    EXPECT(host[0] == 100 && host[n - 1] == 100 + n - 1);
    sycl::free(d, q);
    sycl::free(host, q);
  }

  // prefetch (to the device and to the host) and mem_advise are commands ordered with the
  // others; the data stays correct across them.
  {
    std::iota(a, a + n, 0);
    syclex::prefetch(q, a, n * sizeof(int));
    syclex::mem_advise(q, a, n * sizeof(int), 0);
    q.wait();
    syclex::parallel_for(q, sycl::range<1>(n), [=](sycl::id<1> i) { a[i] *= 2; });
    q.wait();
    syclex::submit(q, [&](sycl::handler& h) {
      syclex::prefetch(h, a, n * sizeof(int), syclex::prefetch_type::host);
    });
    syclex::prefetch(q, a, n * sizeof(int), syclex::prefetch_type::host);
    syclex::submit(q, [&](sycl::handler& h) { syclex::prefetch(h, a, n * sizeof(int)); });
    syclex::submit(q, [&](sycl::handler& h) { syclex::mem_advise(h, a, n * sizeof(int), 0); });
    q.wait();
    EXPECT(a[0] == 0 && a[n - 1] == 2 * (n - 1));
  }

  // barrier / partial_barrier: the later command sees what the earlier one wrote, in their queue
  // and their handler forms.
  {
    int* flag = sycl::malloc_shared<int>(4, q);
    int* seen = sycl::malloc_shared<int>(4, q);
    for (int i = 0; i < 4; ++i) flag[i] = seen[i] = 0;
    syclex::submit(q, [&](sycl::handler& h) { slow_set(h, flag + 0); });
    syclex::barrier(q);
    syclex::single_task(q, [=] { seen[0] = flag[0]; });
    syclex::submit(q, [&](sycl::handler& h) { slow_set(h, flag + 1); });
    syclex::submit(q, [&](sycl::handler& h) { syclex::barrier(h); });
    syclex::single_task(q, [=] { seen[1] = flag[1]; });
    sycl::event e2 = syclex::submit_with_event(q, [&](sycl::handler& h) { slow_set(h, flag + 2); });
    syclex::partial_barrier(q, {e2});
    syclex::single_task(q, [=] { seen[2] = flag[2]; });
    sycl::event e3 = syclex::submit_with_event(q, [&](sycl::handler& h) { slow_set(h, flag + 3); });
    syclex::submit(q, [&](sycl::handler& h) { syclex::partial_barrier(h, {e3}); });
    syclex::single_task(q, [=] { seen[3] = flag[3]; });
    q.wait();
    for (int i = 0; i < 4; ++i) EXPECT(flag[i] == 1 && seen[i] == 1);
    sycl::free(flag, q);
    sycl::free(seen, q);
  }

  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(sum, q);
  if (failures == 0) std::printf("enqueue_functions: all checks passed%s\n", gpu ? " (GPU)" : "");
  return failures;
}
