// Three oneAPI extensions about devices and launch sizes (issue 30).
// sycl_ext_oneapi_current_device: each host thread has its own current device, the default
// selector's until the thread sets one. sycl_ext_oneapi_composite_device: syclone has no
// composite devices, so every query says so (and composite_device throws errc::invalid).
// sycl_ext_oneapi_auto_local_range: an nd_range with auto_range() gets a work-group size that
// divides the global range (checked from inside the kernel: the group's range, and a per-group
// reduce_over_group that adds every work-item's id), the required one for a kernel with
// [[sycl::reqd_work_group_size]], and one within the device's limits for a prime size.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <thread>

#ifndef SYCL_EXT_ONEAPI_CURRENT_DEVICE
#error "SYCL_EXT_ONEAPI_CURRENT_DEVICE is not defined"
#endif
#ifndef SYCL_EXT_ONEAPI_COMPOSITE_DEVICE
#error "SYCL_EXT_ONEAPI_COMPOSITE_DEVICE is not defined"
#endif
#ifndef SYCL_EXT_ONEAPI_AUTO_LOCAL_RANGE
#error "SYCL_EXT_ONEAPI_AUTO_LOCAL_RANGE is not defined"
#endif

namespace syclex = sycl::ext::oneapi::experimental;

namespace {

void current_device() {
  const sycl::device chosen{sycl::default_selector_v};
  EXPECT(syclex::this_thread::get_current_device() == chosen);
  const auto devices = sycl::device::get_devices();
  for (const auto& d : devices) {
    syclex::this_thread::set_current_device(d);
    EXPECT(syclex::this_thread::get_current_device() == d);
  }
  // Another thread has its own: the default until it sets one.
  sycl::device seen_first, seen_after;
  std::thread other([&] {
    seen_first = syclex::this_thread::get_current_device();
    syclex::this_thread::set_current_device(devices.front());
    seen_after = syclex::this_thread::get_current_device();
  });
  other.join();
  EXPECT(seen_first == chosen);
  EXPECT(seen_after == devices.front());
  EXPECT(syclex::this_thread::get_current_device() == devices.back());
  syclex::this_thread::set_current_device(chosen);
}

void composite_device() {
  EXPECT(syclex::get_composite_devices().empty());
  static_assert(!sycl::any_device_has_v<sycl::aspect::ext_oneapi_is_composite>);
  static_assert(!sycl::any_device_has_v<sycl::aspect::ext_oneapi_is_component>);
  for (const auto& p : sycl::platform::get_platforms())
    EXPECT(p.ext_oneapi_get_composite_devices().empty());
  for (const auto& d : sycl::device::get_devices()) {
    EXPECT(!d.has(sycl::aspect::ext_oneapi_is_composite));
    EXPECT(!d.has(sycl::aspect::ext_oneapi_is_component));
    EXPECT(d.get_info<syclex::info::device::component_devices>().empty());
    try {
      (void)d.get_info<syclex::info::device::composite_device>();
      EXPECT(false);
    } catch (const sycl::exception& e) {
      EXPECT(e.code() == sycl::errc::invalid);
    }
  }
}

// Runs an nd_range of `global` with auto_range(); every work-item writes its group's local range
// and the sum over its group of the work-items' linear global ids.
template <int D>
void auto_range(sycl::queue& q, sycl::range<D> global) {
  static_assert(std::is_same_v<decltype(syclex::auto_range<D>()), sycl::range<D>>);
  const std::size_t n = global.size();
  std::size_t* sums = sycl::malloc_shared<std::size_t>(n, q);
  std::size_t* locals = sycl::malloc_shared<std::size_t>(n * D, q);
  q.parallel_for(sycl::nd_range<D>{global, syclex::auto_range<D>()}, [=](sycl::nd_item<D> it) {
     std::size_t me = it.get_global_linear_id();
     sums[me] = sycl::reduce_over_group(it.get_group(), me, sycl::plus<>());
     for (int d = 0; d < D; ++d) locals[me * D + d] = it.get_local_range(d);
   }).wait();
  // The size chosen: the same for every work-item, dividing the global range, within limits.
  sycl::range<D> local = global;
  for (int d = 0; d < D; ++d) local[d] = locals[d];
  const auto max_items = q.get_device().get_info<sycl::info::device::max_work_group_size>();
  EXPECT(local.size() <= max_items);
  for (int d = 0; d < D; ++d) EXPECT(local[d] >= 1 && global[d] % local[d] == 0);
  bool same = true;
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < D; ++d) same &= locals[i * D + d] == local[d];
  EXPECT(same);
  // Each group's sum, computed here from the chosen size.
  bool sums_right = true;
  for (std::size_t i = 0; i < n; ++i) {
    sycl::id<D> me;
    std::size_t rest = i;
    for (int d = D - 1; d >= 0; --d) {
      me[d] = rest % global[d];
      rest /= global[d];
    }
    std::size_t expected = 0;
    sycl::id<D> first;
    for (int d = 0; d < D; ++d) first[d] = me[d] / local[d] * local[d];
    for (std::size_t j = 0; j < local.size(); ++j) {
      std::size_t r = j, linear = 0;
      sycl::id<D> at;
      for (int d = D - 1; d >= 0; --d) {
        at[d] = first[d] + r % local[d];
        r /= local[d];
      }
      for (int d = 0; d < D; ++d) linear = linear * global[d] + at[d];
      expected += linear;
    }
    sums_right &= sums[i] == expected;
  }
  EXPECT(sums_right);
  sycl::free(sums, q);
  sycl::free(locals, q);
}

// auto_range with a reduction (the reduction's own launch path).
void auto_range_reduction(sycl::queue& q) {
  long* sum = sycl::malloc_shared<long>(1, q);
  std::size_t* local = sycl::malloc_shared<std::size_t>(1, q);
  *sum = 0;
  q.parallel_for(sycl::nd_range<1>{sycl::range<1>{1000}, syclex::auto_range<1>()},
                 sycl::reduction(sum, sycl::plus<long>()),
                 [=](sycl::nd_item<1> it, auto& s) {
                   s += long(it.get_global_id(0));
                   if (it.get_global_id(0) == 0) *local = it.get_local_range(0);
                 })
      .wait();
  EXPECT(*sum == 1000L * 999 / 2);
  EXPECT(*local >= 1 && 1000 % *local == 0);
  sycl::free(sum, q);
  sycl::free(local, q);
}

class required_size_kernel;

void auto_range_required(sycl::queue& q) {
  std::size_t* seen = sycl::malloc_shared<std::size_t>(2, q);
  q.parallel_for<required_size_kernel>(sycl::nd_range<2>{{8, 12}, syclex::auto_range<2>()},
                                       [=](sycl::nd_item<2> it)
                                           [[sycl::reqd_work_group_size(2, 4)]] {
                                             if (it.get_global_linear_id() == 0) {
                                               seen[0] = it.get_local_range(0);
                                               seen[1] = it.get_local_range(1);
                                             }
                                           })
      .wait();
  EXPECT(seen[0] == 2 && seen[1] == 4);
  sycl::free(seen, q);
}

} // namespace

int main() {
  current_device();
  composite_device();
  sycl::queue q;
  auto_range<1>(q, sycl::range<1>{1});
  auto_range<1>(q, sycl::range<1>{200});
  auto_range<1>(q, sycl::range<1>{251}); // prime
  auto_range<1>(q, sycl::range<1>{4096});
  auto_range<2>(q, sycl::range<2>{10, 2});
  auto_range<2>(q, sycl::range<2>{64, 48});
  auto_range<3>(q, sycl::range<3>{3, 2, 1});
  auto_range<3>(q, sycl::range<3>{6, 10, 14});
  auto_range_required(q);
  auto_range_reduction(q);
  if (failures == 0) std::printf("oneapi_device_extensions: all checks passed\n");
  return failures;
}
