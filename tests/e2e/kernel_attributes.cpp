// SYCL 2020 5.8.1 kernel attributes, in both places SYCL writes them: on a functor's operator()
// and after a lambda's parameter list (`[](sycl::nd_item<1>) [[sycl::reqd_work_group_size(8)]]
// {}`, which C++ gives to the call operator's type; syclone++'s plugin applies it to the call
// operator), with template-parameter and constant arguments.
// - reqd_work_group_size (1-3 dimensions): a matching nd_range runs; another local range throws
//   errc::nd_range, a size beyond the device's limits errc::kernel_not_supported (5.7), both from
//   submit; compile_work_group_size reports it (0, 0, 0 without).
// - device_has: an aspect the device lacks, on the kernel or on a function it calls, throws
//   errc::kernel_not_supported and makes the kernel incompatible (is_compatible); aspects it
//   has, or none, run; info::kernel::attributes names the attributes.
// - a required sub-group size the device lacks makes the kernel incompatible.
// - parallel_for_work_group takes the required size as its work-group size, and throws
//   errc::nd_range for another size given.
// - work_group_size_hint compiles and runs; reqd_sub_group_size after the parameter list counts.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <limits>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

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

constexpr std::size_t named_size = 4;

template <std::size_t N0, std::size_t N1>
struct functor2 {
  int* out;
  [[sycl::reqd_work_group_size(N0, N1)]] void operator()(sycl::nd_item<2> it) const {
    out[it.get_global_linear_id()] =
        static_cast<int>(it.get_local_range(0) * 100 + it.get_local_range(1));
  }
  // Another overload, never launched: its attribute is not the kernel's.
  [[sycl::reqd_work_group_size(N0, N1, 1)]] void operator()(sycl::nd_item<3>) const {}
};

template <sycl::aspect A>
struct needs {
  int* out;
  [[sycl::device_has(A)]] void operator()() const { out[0] = 7; }
};

// SYCL 2020 5.7: a kernel needs the aspects of the device_has of every function it calls.
template <sycl::aspect A>
[[sycl::device_has(A)]] void decorated(int* out) {
  out[2] = 9;
}

template <std::size_t N>
class lambda_kernel;
class calls_decorated;
class hier_kernel;
class odd_sub_group;
template <int S>
class sub_group_kernel;
class lacking_kernel;
class plain_kernel;
class hint_kernel;
class three_d_kernel;

template <std::size_t N>
void lambda_reqd(sycl::queue& q, int* out) {
  auto kernel = [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(N)]] {
    out[it.get_global_linear_id()] = static_cast<int>(it.get_local_range(0));
  };
  CHECK(submission_error(q, [&] {
          q.parallel_for<lambda_kernel<N>>(sycl::nd_range<1>(4 * N, N), kernel);
        }) == sycl::errc::success);
  bool all = true;
  for (std::size_t i = 0; i < 4 * N; ++i) all = all && out[i] == static_cast<int>(N);
  CHECK(all);
  // Another local range: errc::nd_range.
  CHECK(submission_error(q, [&] {
          q.parallel_for<lambda_kernel<N>>(sycl::nd_range<1>(4 * N, 2 * N), kernel);
        }) == sycl::errc::nd_range);
}

template <int S>
void lambda_sub_group(sycl::queue& q) {
  q.parallel_for<sub_group_kernel<S>>(sycl::nd_range<1>(S, S),
                                      [=](sycl::nd_item<1>) [[sycl::reqd_sub_group_size(S)]] {});
  q.wait();
}
} // namespace

int main() {
  sycl::queue q;
  sycl::device d = q.get_device();
  int* out = sycl::malloc_shared<int>(64, q);

  lambda_reqd<named_size>(q, out);
  lambda_reqd<8>(q, out);

  // Functor, two dimensions; the launched overload's attribute counts.
  CHECK(submission_error(q, [&] {
          q.parallel_for(sycl::nd_range<2>({4, 8}, {2, 4}), functor2<2, 4>{out});
        }) == sycl::errc::success);
  CHECK(out[0] == 204 && out[31] == 204);
  CHECK(submission_error(q, [&] {
          q.parallel_for(sycl::nd_range<2>({4, 8}, {4, 2}), functor2<2, 4>{out});
        }) == sycl::errc::nd_range);

  // Three dimensions on a lambda; a size no device allows: kernel_not_supported, not nd_range.
  constexpr std::size_t huge = std::size_t(1) << 40;
  CHECK(submission_error(q, [&] {
          q.parallel_for<three_d_kernel>(sycl::nd_range<3>({1, 1, huge}, {1, 1, huge}),
                                         [=](sycl::nd_item<3>)
                                             [[sycl::reqd_work_group_size(1, 1, huge)]] {});
        }) == sycl::errc::kernel_not_supported);

  // device_has: an aspect no device of syclone has (custom); the device's own; none.
  CHECK(submission_error(q, [&] {
          q.single_task<lacking_kernel>(
              [=] [[sycl::device_has(sycl::aspect::custom)]] () { out[0] = 1; });
        }) == sycl::errc::kernel_not_supported);
  CHECK(submission_error(q, [&] { q.single_task(needs<sycl::aspect::accelerator>{out}); }) ==
        sycl::errc::kernel_not_supported);
  out[0] = 0;
  if (d.is_gpu()) {
    CHECK(submission_error(q, [&] { q.single_task(needs<sycl::aspect::gpu>{out}); }) ==
          sycl::errc::success);
  } else {
    CHECK(submission_error(q, [&] { q.single_task(needs<sycl::aspect::cpu>{out}); }) ==
          sycl::errc::success);
  }
  CHECK(out[0] == 7);
  CHECK(submission_error(q, [&] {
          q.single_task<plain_kernel>([=]() [[sycl::device_has()]] { out[1] = 3; });
        }) == sycl::errc::success);
  CHECK(out[1] == 3);
  CHECK(submission_error(q, [&] {
          q.single_task<calls_decorated>([=] { decorated<sycl::aspect::custom>(out); });
        }) == sycl::errc::kernel_not_supported);
  CHECK(!sycl::is_compatible({sycl::get_kernel_id<lacking_kernel>()}, d));
  CHECK(!sycl::is_compatible({sycl::get_kernel_id<calls_decorated>()}, d));
  CHECK(sycl::is_compatible({sycl::get_kernel_id<plain_kernel>()}, d));

  // parallel_for_work_group: the required size is the work-group size when none is given; another
  // size given throws errc::nd_range.
  auto hier = [=](sycl::group<1> g) [[sycl::reqd_work_group_size(4)]] {
    g.parallel_for_work_item([&](sycl::h_item<1> i) {
      out[i.get_global_id(0)] = static_cast<int>(g.get_local_range(0));
    });
  };
  for (int i = 0; i < 8; ++i) out[i] = 0;
  CHECK(submission_error(q, [&] {
          q.submit([&](sycl::handler& h) {
            h.parallel_for_work_group<hier_kernel>(sycl::range<1>(2), hier);
          });
        }) == sycl::errc::success);
  CHECK(out[0] == 4 && out[7] == 4);
  CHECK(submission_error(q, [&] {
          q.submit([&](sycl::handler& h) {
            h.parallel_for_work_group<hier_kernel>(sycl::range<1>(2), sycl::range<1>(8), hier);
          });
        }) == sycl::errc::nd_range);

  // A required sub-group size no device has: incompatible, and parallel_for_work_group throws
  // errc::kernel_not_supported before it looks at the (too large) work-group size.
  CHECK(submission_error(q, [&] {
          q.submit([&](sycl::handler& h) {
            h.parallel_for_work_group<odd_sub_group>(sycl::range<1>(1), sycl::range<1>(4099),
                                                     [=](sycl::group<1>)
                                                         [[sycl::reqd_sub_group_size(3)]] {});
          });
        }) == sycl::errc::kernel_not_supported);
  CHECK(!sycl::is_compatible({sycl::get_kernel_id<odd_sub_group>()}, d));

  // work_group_size_hint: a hint, any launch runs.
  CHECK(submission_error(q, [&] {
          q.parallel_for<hint_kernel>(sycl::nd_range<1>(16, 8),
                                      [=](sycl::nd_item<1> it) [[sycl::work_group_size_hint(4)]] {
                                        out[it.get_global_linear_id()] = 5;
                                      });
        }) == sycl::errc::success);
  CHECK(out[15] == 5);

  // reqd_sub_group_size after the parameter list, template argument.
  auto sizes = d.get_info<sycl::info::device::sub_group_sizes>();
  bool has1 = false;
  for (auto s : sizes) has1 = has1 || s == 1;
  if (has1) lambda_sub_group<1>(q);

  // Queries.
  auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context(), {d});
  using sycl::info::kernel_device_specific::compile_sub_group_size;
  using sycl::info::kernel_device_specific::compile_work_group_size;
  CHECK(bundle.get_kernel<lambda_kernel<8>>().get_info<compile_work_group_size>(d) ==
        sycl::range<3>(1, 1, 8));
  CHECK(bundle.get_kernel(sycl::get_kernel_id<functor2<2, 4>>())
            .get_info<compile_work_group_size>(d) == sycl::range<3>(1, 2, 4));
  CHECK(bundle.get_kernel<hint_kernel>().get_info<compile_work_group_size>(d) ==
        sycl::range<3>(0, 0, 0));
  CHECK(bundle.get_kernel<lambda_kernel<8>>().get_info<sycl::info::kernel::attributes>() ==
        "reqd_work_group_size(8)");
  CHECK(bundle.get_kernel<plain_kernel>().get_info<sycl::info::kernel::attributes>() ==
        "device_has()");
  CHECK(bundle.get_kernel<hint_kernel>().get_info<sycl::info::kernel::attributes>() ==
        "work_group_size_hint(4)");
  if (has1)
    CHECK(bundle.get_kernel<sub_group_kernel<1>>().get_info<compile_sub_group_size>(d) == 1);
  CHECK(bundle.get_kernel<hint_kernel>().get_info<compile_sub_group_size>(d) == 0);

  sycl::free(out, q);
  if (g_failures) return 1;
  std::printf("kernel_attributes: ok\n");
  return 0;
}
