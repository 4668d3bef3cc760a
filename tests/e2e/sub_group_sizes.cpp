// Seed 004 device queries, the default (primary) sub-group size, required sizes through the
// sub_group_size kernel property (launch argument, functor get(properties_tag), queue
// shortcuts, named primary/automatic), the synchronous errc::feature_not_supported for a size the
// device lacks, and the feature-test macros.
#include "expect.hpp"
#include "sub_group_common.hpp"

#include <algorithm>

#if !defined(SYCL_EXT_ONEAPI_SUB_GROUP) || SYCL_EXT_ONEAPI_SUB_GROUP != 1
#error "seed 004 requires SYCL_EXT_ONEAPI_SUB_GROUP == 1"
#endif
#if !defined(SYCL_EXT_ONEAPI_GROUP_ALGORITHMS) || !defined(SYCL_EXT_ONEAPI_KERNEL_PROPERTIES)
#error "group algorithm / kernel property feature-test macros missing"
#endif

using namespace sg_test;

struct declares_size {
  std::uint32_t* out;
  void operator()(sycl::nd_item<1> it) const {
    out[it.get_global_linear_id()] = it.get_sub_group().get_max_local_range()[0];
  }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::sub_group_size<32>}; }
};

class queried32;
class queried_automatic;

// The sub-group size each work-item of a 1-D launch saw.
template <typename Launch>
std::uint32_t observed(sycl::queue& q, Launch launch) {
  std::uint32_t* out = sycl::malloc_shared<std::uint32_t>(64, q);
  std::fill(out, out + 64, 0u);
  launch(out);
  q.wait();
  std::uint32_t first = out[0];
  for (int i = 1; i < 64; ++i)
    if (out[i] != first) first = 0;
  sycl::free(out, q);
  return first;
}

int main() {
  sycl::queue q;
  sycl::device d = q.get_device();
  auto sizes = d.get_info<sycl::info::device::sub_group_sizes>();
  std::size_t primary = d.get_info<sycl::info::device::primary_sub_group_size>();
  std::uint32_t max_sub_groups = d.get_info<sycl::info::device::max_num_sub_groups>();
  bool progress = d.get_info<sycl::info::device::sub_group_independent_forward_progress>();
  std::printf("device: %s, sub-group sizes:", d.get_info<sycl::info::device::name>().c_str());
  for (std::size_t s : sizes) std::printf(" %zu", s);
  std::printf(", primary %zu, max sub-groups %u, independent progress %d\n", primary,
              max_sub_groups, int(progress));

  // seed 004 "Device Descriptors".
  EXPECT(!sizes.empty());
  for (std::size_t s : sizes) EXPECT(s >= 1 && (s & (s - 1)) == 0);
  EXPECT(std::find(sizes.begin(), sizes.end(), primary) != sizes.end());
  EXPECT(max_sub_groups >= 1);
  EXPECT(std::size_t(max_sub_groups) * *std::min_element(sizes.begin(), sizes.end()) >=
         d.get_info<sycl::info::device::max_work_group_size>());
  if (d.is_cpu()) {
    // The host device: 1, 8, 16, 32 at least; primary = SIMD width for 32-bit lanes.
    for (std::size_t s : {1, 8, 16, 32}) EXPECT(supports(d, s));
    std::size_t simd = 4;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f"))
      simd = 16;
    else if (__builtin_cpu_supports("avx"))
      simd = 8;
#endif
    EXPECT(primary == simd);
  }
  if (d.is_gpu()) {
    EXPECT(sizes.size() == 1 && sizes[0] == 32 && primary == 32);
    EXPECT(max_sub_groups == 32);
  }

  // No requirement: the primary size (seed 004: as if named_sub_group_size(primary)).
  EXPECT(observed(q, [&](std::uint32_t* out) {
           q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) {
             out[it.get_global_linear_id()] = it.get_sub_group().get_max_local_range()[0];
           });
         }) == primary);
  // Named sizes.
  EXPECT(observed(q, [&](std::uint32_t* out) {
           q.parallel_for(
               sycl::nd_range<1>(64, 64), syclex::properties{syclex::sub_group_size_primary},
               [=](sycl::nd_item<1> it) {
                 out[it.get_global_linear_id()] = it.get_sub_group().get_max_local_range()[0];
               });
         }) == primary);
  std::uint32_t automatic = observed(q, [&](std::uint32_t* out) {
    q.submit([&](sycl::handler& h) {
      h.parallel_for(sycl::nd_range<1>(64, 32),
                     syclex::properties{syclex::sub_group_size_automatic},
                     [=](sycl::nd_item<1> it) {
                       out[it.get_global_linear_id()] = it.get_sub_group().get_max_local_range()[0];
                     });
    });
  });
  EXPECT(supports(d, automatic));

  // Required sizes the device supports: the property on the launch, or from the functor.
  if (supports(d, 32)) {
    EXPECT(observed(q, [&](std::uint32_t* out) {
             q.parallel_for(sycl::nd_range<1>(64, 64), declares_size{out});
           }) == 32);
    EXPECT(observed(q, [&](std::uint32_t* out) {
             q.parallel_for(sycl::nd_range<1>(64, 16),
                            syclex::properties{syclex::sub_group_size<32>},
                            [=](sycl::nd_item<1> it) {
                              // A work-group smaller than the sub-group size: one partial one.
                              auto sg = it.get_sub_group();
                              out[it.get_global_linear_id()] =
                                  sg.get_local_range()[0] == 16 ? sg.get_max_local_range()[0] : 0;
                            });
           }) == 32);
  }
  if (supports(d, 8)) {
    EXPECT(observed(q, [&](std::uint32_t* out) {
             q.submit([&](sycl::handler& h) {
               h.parallel_for(
                   sycl::nd_range<1>(64, 64), syclex::properties{syclex::sub_group_size<8>},
                   [=](sycl::nd_item<1> it) {
                     out[it.get_global_linear_id()] = it.get_sub_group().get_max_local_range()[0];
                   });
             });
           }) == 8);
  }

  // seed 004 "Kernel Descriptors" through sycl::kernel (the kernels run first, so that their
  // results are known to be right).
  if (supports(d, 32)) {
    EXPECT(observed(q, [&](std::uint32_t* out) {
             q.parallel_for<queried32>(
                 sycl::nd_range<1>(64, 64), syclex::properties{syclex::sub_group_size<32>},
                 [=](sycl::nd_item<1> it) {
                   out[it.get_global_linear_id()] = it.get_sub_group().get_max_local_range()[0];
                 });
           }) == 32);
    auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context(), {d});
    sycl::kernel k = bundle.get_kernel<queried32>();
    using namespace sycl::info;
    EXPECT(k.get_info<kernel_device_specific::compile_sub_group_size>(d) == 32);
    EXPECT(k.get_info<kernel_device_specific::max_sub_group_size>(d, sycl::range<1>(48)) == 32);
    EXPECT(k.get_info<kernel_device_specific::max_sub_group_size>(d, sycl::range<2>(4, 5)) == 20);
    EXPECT(k.get_info<kernel_device_specific::compile_num_sub_groups>(d) == 0);
    std::size_t limit = k.get_info<kernel_device_specific::work_group_size>(d);
    EXPECT(k.get_info<kernel_device_specific::max_num_sub_groups>(d) == (limit + 31) / 32);
  }
  {
    observed(q, [&](std::uint32_t* out) {
      q.parallel_for<queried_automatic>(
          sycl::nd_range<1>(64, 64), syclex::properties{syclex::sub_group_size_automatic},
          [=](sycl::nd_item<1> it) {
            out[it.get_global_linear_id()] = it.get_sub_group().get_max_local_range()[0];
          });
    });
    auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context(), {d});
    sycl::kernel k = bundle.get_kernel<queried_automatic>();
    using namespace sycl::info;
    // seed 004: 0 when the requested size was automatic.
    EXPECT(k.get_info<kernel_device_specific::compile_sub_group_size>(d) == 0);
    EXPECT(k.get_info<kernel_device_specific::max_sub_group_size>(d, sycl::range<1>(1)) == 1);
  }

  // A size the device does not support: errc::feature_not_supported from the submission, and
  // the kernel does not run.
  int* ran = sycl::malloc_shared<int>(1, q);
  *ran = 0;
  auto expect_unsupported = [&](auto submit) {
    bool thrown = false;
    try {
      submit();
      q.wait();
    } catch (const sycl::exception& e) {
      thrown = e.code() == sycl::errc::feature_not_supported;
      std::printf("expected: %s\n", e.what());
    }
    EXPECT(thrown);
    EXPECT(*ran == 0);
  };
  if (!supports(d, 64))
    expect_unsupported([&] {
      q.parallel_for(sycl::nd_range<1>(64, 64), syclex::properties{syclex::sub_group_size<64>},
                     [=](sycl::nd_item<1>) { *ran = 1; });
    });
  if (!supports(d, 16))
    expect_unsupported([&] {
      q.submit([&](sycl::handler& h) {
        h.parallel_for(sycl::range<1>(8), syclex::properties{syclex::sub_group_size<16>},
                       [=](sycl::item<1>) { *ran = 1; });
      });
    });
  if (!supports(d, 2))
    expect_unsupported(
        [&] { q.single_task(syclex::properties{syclex::sub_group_size<2>}, [=] { *ran = 1; }); });
  sycl::free(ran, q);

  std::printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
