// SYCL 2020 5.8.1 [[sycl::reqd_sub_group_size(N)]]: the argument may be a template parameter or a
// named constant (the clang plugin used to crash on an identifier argument), any positive N
// compiles, and submitting a kernel whose N the device does not support throws
// errc::kernel_not_supported (seed 004's [[intel::sub_group_size]] keeps
// errc::feature_not_supported). A supported N runs with that size.
// kernel_device_specific::compile_sub_group_size: 0 for a kernel that requires no size (SYCL
// 2020), N for a required N, the primary size for seed 004's named primary.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

constexpr int named_size = 32;

template <int N>
struct templated {
  int* out;
  [[sycl::reqd_sub_group_size(N)]] void operator()(sycl::nd_item<1> it) const {
    out[it.get_global_linear_id()] = static_cast<int>(it.get_sub_group().get_max_local_range()[0]);
  }
};

struct named {
  int* out;
  [[sycl::reqd_sub_group_size(named_size)]] void operator()(sycl::nd_item<1> it) const {
    out[it.get_global_linear_id()] = static_cast<int>(it.get_sub_group().get_max_local_range()[0]);
  }
};

template <int N>
struct seed_spelling {
  [[intel::sub_group_size(N)]] void operator()(sycl::nd_item<1>) const {}
};

class unstated_kernel;
class primary_kernel;

// The errc a submission threw, or errc::success when it ran.
template <typename Submit>
sycl::errc submission_error(sycl::queue& q, Submit submit) {
  try {
    submit();
    q.wait();
  } catch (const sycl::exception& e) {
    std::printf("expected: %s\n", e.what());
    return static_cast<sycl::errc>(e.code().value());
  }
  return sycl::errc::success;
}
} // namespace

int main() {
  sycl::queue q;
  auto sizes = q.get_device().get_info<sycl::info::device::sub_group_sizes>();
  bool has32 = std::find(sizes.begin(), sizes.end(), std::size_t(32)) != sizes.end();
  int* out = sycl::malloc_shared<int>(64, q);

  // A size no device has (3): compiles, rejected at submission with kernel_not_supported.
  CHECK(submission_error(q, [&] {
          q.parallel_for(sycl::nd_range<1>(12, 12), templated<3>{out});
        }) == sycl::errc::kernel_not_supported);
  // The seed 004 spelling keeps its errc.
  CHECK(submission_error(q, [&] {
          q.parallel_for(sycl::nd_range<1>(64, 64), seed_spelling<64>{});
        }) == sycl::errc::feature_not_supported);

  // Supported sizes run with the size asked for, from a template parameter and a named constant.
  if (has32) {
    std::fill(out, out + 64, 0);
    CHECK(submission_error(q, [&] {
            q.parallel_for(sycl::nd_range<1>(64, 64), templated<32>{out});
          }) == sycl::errc::success);
    CHECK(std::all_of(out, out + 64, [](int s) { return s == 32; }));
    std::fill(out, out + 64, 0);
    CHECK(submission_error(q, [&] { q.parallel_for(sycl::nd_range<1>(64, 64), named{out}); }) ==
          sycl::errc::success);
    CHECK(std::all_of(out, out + 64, [](int s) { return s == 32; }));
  }

  // compile_sub_group_size.
  q.parallel_for<unstated_kernel>(sycl::nd_range<1>(8, 8), [=](sycl::nd_item<1>) {});
  q.parallel_for<primary_kernel>(
      sycl::nd_range<1>(8, 8), [=] [[intel::named_sub_group_size(primary)]] (sycl::nd_item<1>) {});
  q.wait();
  sycl::device d = q.get_device();
  auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context(), {d});
  using sycl::info::kernel_device_specific::compile_sub_group_size;
  CHECK(bundle.get_kernel<unstated_kernel>().get_info<compile_sub_group_size>(d) == 0);
  CHECK(bundle.get_kernel<primary_kernel>().get_info<compile_sub_group_size>(d) ==
        d.get_info<sycl::info::device::primary_sub_group_size>());
  if (has32) {
    auto k32 = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context(), {d})
                   .get_kernel(sycl::get_kernel_id<templated<32>>());
    CHECK(k32.get_info<compile_sub_group_size>(d) == 32);
  }

  sycl::free(out, q);
  if (g_failures) return 1;
  std::printf("reqd_sub_group_size_core: ok\n");
  return 0;
}
