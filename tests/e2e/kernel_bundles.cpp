// SYCL 2020 4.11 kernel bundles and 4.9.4.4 handler::use_kernel_bundle on the queue's device:
// kernel ids, every get_kernel_bundle / has_kernel_bundle overload, bundle queries, device image
// iteration, join, compile / link / build, kernels and their info, specialization constants
// through bundles, and the errors SYCL 2020 names. kernel_bundles_host_only.cpp runs the same
// program built with -fsycl-targets=host (no device image).
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// The error code `f` throws (errc::success when it throws nothing).
template <typename F>
sycl::errc error_of(F f) {
  try {
    f();
  } catch (const sycl::exception& e) {
    return static_cast<sycl::errc>(e.code().value());
  }
  return sycl::errc::success;
}

// Which specialization constants a kernel reads is known with or without a device image: the
// image records it for the device code, syclone++'s plugin for the host compile.
constexpr bool k_images = true;

// "Only available if" (SYCL 2020 4.11.11): set_specialization_constant on input bundles,
// get_kernel on executable ones.
template <typename Bundle, typename = void>
struct can_set : std::false_type {};
constexpr sycl::specialization_id<int> probe_id(0);
template <typename Bundle>
struct can_set<Bundle,
               std::void_t<decltype(std::declval<Bundle&>()
                                        .template set_specialization_constant<probe_id>(1))>>
    : std::true_type {};
template <typename Bundle, typename = void>
struct can_get_kernel : std::false_type {};
template <typename Bundle>
struct can_get_kernel<Bundle, std::void_t<decltype(std::declval<const Bundle&>().get_kernel(
                                  std::declval<const sycl::kernel_id&>()))>> : std::true_type {};
static_assert(can_set<sycl::kernel_bundle<sycl::bundle_state::input>>::value);
static_assert(!can_set<sycl::kernel_bundle<sycl::bundle_state::object>>::value);
static_assert(!can_set<sycl::kernel_bundle<sycl::bundle_state::executable>>::value);
static_assert(can_get_kernel<sycl::kernel_bundle<sycl::bundle_state::executable>>::value);
static_assert(!can_get_kernel<sycl::kernel_bundle<sycl::bundle_state::input>>::value);
static_assert(!can_get_kernel<sycl::kernel_bundle<sycl::bundle_state::object>>::value);
} // namespace

class scale_kernel;  // reads `factor`
class offset_kernel; // reads `offset` through a helper function
class plain_kernel;  // reads none
class never_submitted;

struct pair_t {
  int a;
  float b;
};
constexpr sycl::specialization_id<int> factor(2);
constexpr sycl::specialization_id<pair_t> offset(pair_t{1, 0.5f});
constexpr sycl::specialization_id<double> unused(1.0);

namespace {
float offset_of(const sycl::kernel_handler& kh) {
  pair_t p = kh.get_specialization_constant<offset>();
  return static_cast<float>(p.a) + p.b;
}

// Each kernel is defined once (a kernel name names one kernel). scale_kernel writes out[0..n);
// `handler_value` != 0 sets the constant in the command group instead.
void run_scale(sycl::queue& q, int* out, int n,
               const sycl::kernel_bundle<sycl::bundle_state::executable>* kb,
               int handler_value = 0) {
  q.submit([&](sycl::handler& h) {
     if (kb) h.use_kernel_bundle(*kb);
     if (handler_value) h.set_specialization_constant<factor>(handler_value);
     h.parallel_for<scale_kernel>(sycl::range<1>(n), [=](sycl::id<1> i, sycl::kernel_handler kh) {
       out[i] = static_cast<int>(i[0]) * kh.get_specialization_constant<factor>();
     });
   }).wait();
}
void run_offset(sycl::queue& q, float* out,
                const sycl::kernel_bundle<sycl::bundle_state::executable>* kb) {
  q.submit([&](sycl::handler& h) {
     if (kb) h.use_kernel_bundle(*kb);
     h.single_task<offset_kernel>([=](sycl::kernel_handler kh) { out[0] = offset_of(kh); });
   }).wait();
}
void plain_in(sycl::handler& h, int* out) {
  h.single_task<plain_kernel>([=] { out[0] = 7; });
}
void run_plain(sycl::queue& q, int* out) {
  q.submit([&](sycl::handler& h) { plain_in(h, out); }).wait();
}

bool all_scaled(const int* out, int n, int f) {
  for (int i = 0; i < n; ++i)
    if (out[i] != i * f) return false;
  return true;
}

#ifdef SYCLONE_TEST_HOST_ONLY
// Built without device code, on a GPU: SYCL 2020 4.11.6 / 4.11.8 incompatibility.
int incompatible_device(sycl::queue& q) {
  sycl::context ctx = q.get_context();
  sycl::device dev = q.get_device();
  sycl::kernel_id scale_id = sycl::get_kernel_id<scale_kernel>();
  CHECK(!sycl::is_compatible({scale_id}, dev));
  CHECK(!sycl::is_compatible<plain_kernel>(dev));
  CHECK(!sycl::has_kernel_bundle<sycl::bundle_state::executable>(ctx, {scale_id}));
  CHECK(!sycl::has_kernel_bundle<sycl::bundle_state::input>(ctx));
  CHECK(error_of([&] { sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {scale_id}); }) ==
        sycl::errc::invalid);
  CHECK(error_of([&] {
          sycl::get_kernel_bundle<plain_kernel, sycl::bundle_state::executable>(ctx);
        }) == sycl::errc::invalid);
  CHECK(sycl::get_kernel_bundle<sycl::bundle_state::executable>(ctx).empty());
  int* out = sycl::malloc_shared<int>(1, q);
  CHECK(error_of([&] { run_plain(q, out); }) == sycl::errc::kernel_not_supported);
  sycl::free(out, q);
  std::printf("kernel_bundles (no device code, on %s): %s\n",
              dev.get_info<sycl::info::device::name>().c_str(), g_failures ? "FAILED" : "PASSED");
  return g_failures ? 1 : 0;
}
#endif
} // namespace

int main() {
  // A context of the one device, so that bundles of the context and of {dev} coincide.
  sycl::device dev;
  sycl::context ctx(dev);
  sycl::queue q(ctx, dev);
#ifdef SYCLONE_TEST_HOST_ONLY
  if (dev.get_backend() != sycl::backend::syclone_host) return incompatible_device(q);
#endif
  const bool native = dev.get_backend() != sycl::backend::syclone_host;
  constexpr int n = 64;
  int* out = sycl::malloc_shared<int>(n, q);
  float* fout = sycl::malloc_shared<float>(1, q);

  // Kernels run normally first (and the ids exist before they ever run: registered at startup).
  sycl::kernel_id scale_id = sycl::get_kernel_id<scale_kernel>();
  sycl::kernel_id offset_id = sycl::get_kernel_id<offset_kernel>();
  sycl::kernel_id plain_id = sycl::get_kernel_id<plain_kernel>();
  run_scale(q, out, n, nullptr);
  CHECK(all_scaled(out, n, 2));
  run_offset(q, fout, nullptr);
  CHECK(fout[0] == 1.5f);
  run_plain(q, out);
  CHECK(out[0] == 7);

  // 4.11.4 / 4.11.5 kernel ids.
  CHECK(scale_id == sycl::get_kernel_id<scale_kernel>());
  CHECK(scale_id != offset_id);
  CHECK(std::strstr(scale_id.get_name(), "scale_kernel") != nullptr);
  CHECK(std::hash<sycl::kernel_id>()(scale_id) ==
        std::hash<sycl::kernel_id>()(sycl::get_kernel_id<scale_kernel>()));
  std::vector<sycl::kernel_id> all = sycl::get_kernel_ids();
  for (const auto& id : {scale_id, offset_id, plain_id})
    CHECK(std::find(all.begin(), all.end(), id) != all.end());
  CHECK(error_of([] { sycl::get_kernel_id<never_submitted>(); }) == sycl::errc::runtime);

  // 4.11.8 compatibility: every kernel runs on the queue's device.
  CHECK(sycl::is_compatible({scale_id, offset_id, plain_id}, dev));
  CHECK(sycl::is_compatible<plain_kernel>(dev));

  // 4.11.6 every overload of get_kernel_bundle, 4.11.7 has_kernel_bundle.
  std::vector<sycl::device> devs{dev};
  auto by_ctx = sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx);
  auto by_devs = sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, devs);
  auto by_ids = sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {scale_id});
  auto by_devs_ids = sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, devs, {offset_id});
  auto by_name = sycl::get_kernel_bundle<plain_kernel, sycl::bundle_state::input>(ctx);
  auto by_name_devs = sycl::get_kernel_bundle<plain_kernel, sycl::bundle_state::input>(ctx, devs);
  int selector_calls = 0;
  auto by_selector = sycl::get_kernel_bundle<sycl::bundle_state::input>(
      ctx, [&](const sycl::device_image<sycl::bundle_state::input>& image) {
        ++selector_calls;
        return image.has_kernel(scale_id) || image.has_kernel(plain_id);
      });
  auto by_devs_selector = sycl::get_kernel_bundle<sycl::bundle_state::input>(
      ctx, devs, [&](const sycl::device_image<sycl::bundle_state::input>& image) {
        return image.has_kernel(offset_id, dev);
      });
  CHECK(selector_calls >= 3);
  CHECK(by_ctx.has_kernel(scale_id) && by_ctx.has_kernel(offset_id) && by_ctx.has_kernel(plain_id));
  CHECK(by_devs == by_ctx);
  CHECK(by_ids.has_kernel(scale_id) && !by_ids.has_kernel(plain_id));
  CHECK(by_ids.get_kernel_ids() == std::vector<sycl::kernel_id>{scale_id});
  CHECK(by_devs_ids.has_kernel<offset_kernel>() && !by_devs_ids.has_kernel<scale_kernel>());
  CHECK(by_name.has_kernel<plain_kernel>(dev) && by_name.get_kernel_ids().size() == 1);
  CHECK(by_name == by_name_devs);
  CHECK(by_selector.has_kernel(scale_id) && by_selector.has_kernel(plain_id) &&
        !by_selector.has_kernel(offset_id));
  CHECK(by_devs_selector.get_kernel_ids() == std::vector<sycl::kernel_id>{offset_id});
  CHECK(sycl::get_kernel_bundle<sycl::bundle_state::input>(
            ctx, [](const sycl::device_image<sycl::bundle_state::input>&) { return false; })
            .empty());
  CHECK(sycl::has_kernel_bundle<sycl::bundle_state::input>(ctx));
  CHECK(sycl::has_kernel_bundle<sycl::bundle_state::object>(ctx, devs));
  CHECK(sycl::has_kernel_bundle<sycl::bundle_state::executable>(ctx, {scale_id, plain_id}));
  CHECK(sycl::has_kernel_bundle<sycl::bundle_state::executable>(ctx, devs, {offset_id}));
  CHECK((sycl::has_kernel_bundle<scale_kernel, sycl::bundle_state::input>(ctx)));
  CHECK((sycl::has_kernel_bundle<scale_kernel, sycl::bundle_state::executable>(ctx, devs)));

  // 4.11.11 queries.
  CHECK(!by_ids.empty());
  CHECK(by_ids.get_backend() == dev.get_backend());
  CHECK(by_ids.get_context() == ctx);
  CHECK(by_ids.get_devices() == devs);
  CHECK(by_ids.has_kernel<scale_kernel>());
  CHECK(by_ids.contains_specialization_constants() == k_images);
  CHECK(by_ids.native_specialization_constant() == (k_images && native));
  CHECK(by_ids.has_specialization_constant<factor>() == k_images);
  CHECK(!by_ids.has_specialization_constant<offset>());
  CHECK(by_devs_ids.has_specialization_constant<offset>() == k_images); // through offset_of
  CHECK(!by_ctx.has_specialization_constant<unused>());
  CHECK(!by_name.contains_specialization_constants());
  CHECK(!by_name.native_specialization_constant());
  int images = 0;
  for (const auto& image : by_ctx) {
    ++images;
    CHECK(image.has_kernel(scale_id) + image.has_kernel(offset_id) + image.has_kernel(plain_id) <=
          1);
  }
  CHECK(images >= 3 && images == std::distance(by_ctx.begin(), by_ctx.end()));
  CHECK(std::hash<sycl::kernel_bundle<sycl::bundle_state::input>>()(by_devs) ==
        std::hash<sycl::kernel_bundle<sycl::bundle_state::input>>()(by_ctx));

  // Specialization constants of an input bundle: defaults until set.
  CHECK(by_ids.get_specialization_constant<factor>() == 2);
  by_ids.set_specialization_constant<factor>(5);
  by_ids.set_specialization_constant<unused>(4.0); // allowed, affects nothing
  CHECK(by_ids.get_specialization_constant<factor>() == 5);
  CHECK(by_ids.get_specialization_constant<unused>() == 4.0);
  by_devs_ids.set_specialization_constant<offset>(pair_t{10, 0.25f});
  CHECK(by_devs_ids.get_specialization_constant<offset>().a == 10);

  // 4.11.10 build: the values become fixed; the kernel sees them through use_kernel_bundle.
  sycl::kernel_bundle<sycl::bundle_state::executable> exe5 = sycl::build(by_ids);
  CHECK(exe5.has_kernel(scale_id, dev));
  CHECK(exe5.get_specialization_constant<factor>() == 5);
  CHECK(exe5.has_specialization_constant<factor>() == k_images);
  CHECK(exe5.native_specialization_constant() == (k_images && native));
  by_ids.set_specialization_constant<factor>(9); // later changes leave exe5 alone
  sycl::kernel_bundle exe9 = sycl::build(by_ids, devs);
  CHECK(exe9.get_specialization_constant<factor>() == 9);
  CHECK(exe5.get_specialization_constant<factor>() == 5);
  CHECK(exe5 != exe9);
  run_scale(q, out, n, &exe5);
  CHECK(all_scaled(out, n, 5));
  run_scale(q, out, n, &exe9);
  CHECK(all_scaled(out, n, 9));
  run_scale(q, out, n, &exe5); // back and forth: each bundle keeps its own compiled kernel
  CHECK(all_scaled(out, n, 5));
  run_scale(q, out, n, nullptr); // and without a bundle the default again
  CHECK(all_scaled(out, n, 2));
  // The handler form still works alone, with its own value.
  run_scale(q, out, n, nullptr, 3);
  CHECK(all_scaled(out, n, 3));

  // compile + link, and the link / compile overloads; a struct-typed constant read in a helper.
  auto obj = sycl::compile(by_devs_ids);
  CHECK(obj.get_specialization_constant<offset>().a == 10);
  auto obj2 = sycl::compile(by_devs_ids, devs);
  auto linked = sycl::link(obj);
  auto linked_devs = sycl::link(obj2, devs);
  auto linked_vec = sycl::link(std::vector{obj, obj2});
  auto linked_vec_devs = sycl::link(std::vector{obj}, devs);
  for (const auto* kb : {&linked, &linked_devs, &linked_vec, &linked_vec_devs}) {
    CHECK(kb->has_kernel<offset_kernel>());
    fout[0] = 0;
    run_offset(q, fout, kb);
    CHECK(fout[0] == 10.25f);
  }
  // Object and executable bundles straight from get_kernel_bundle carry the defaults.
  auto exe_default = sycl::get_kernel_bundle<offset_kernel, sycl::bundle_state::executable>(ctx);
  CHECK(exe_default.get_specialization_constant<offset>().a == 1);
  run_offset(q, fout, &exe_default);
  CHECK(fout[0] == 1.5f);
  auto obj_default = sycl::get_kernel_bundle<sycl::bundle_state::object>(ctx, {scale_id});
  auto exe_linked_default = sycl::link(obj_default);
  run_scale(q, out, n, &exe_linked_default);
  CHECK(all_scaled(out, n, 2));

  // 4.11.9 join.
  auto joined = sycl::join(std::vector{exe5, exe_default});
  CHECK(joined.has_kernel(scale_id) && joined.has_kernel(offset_id));
  run_scale(q, out, n, &joined);
  CHECK(all_scaled(out, n, 5));
  run_offset(q, fout, &joined);
  CHECK(fout[0] == 1.5f);
  auto joined_input = sycl::join(
      std::vector{sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {scale_id}), by_name});
  CHECK(joined_input.has_kernel(scale_id) && joined_input.has_kernel(plain_id));
  joined_input.set_specialization_constant<factor>(4);
  auto joined_exe = sycl::build(joined_input);
  run_scale(q, out, n, &joined_exe);
  CHECK(all_scaled(out, n, 4));

  // 4.11.13 kernel.
  sycl::kernel k = exe5.get_kernel(scale_id);
  CHECK(k == exe5.get_kernel<scale_kernel>());
  CHECK(k.get_context() == ctx);
  CHECK(k.get_backend() == dev.get_backend());
  CHECK(k.get_kernel_bundle() == exe5);
  CHECK(k.get_info<sycl::info::kernel::attributes>().empty());
  CHECK(error_of([&] { k.get_info<sycl::info::kernel::num_args>(); }) == sycl::errc::invalid);
  std::size_t wg = k.get_info<sycl::info::kernel_device_specific::work_group_size>(dev);
  CHECK(wg >= 1 && wg <= dev.get_info<sycl::info::device::max_work_group_size>());
  std::size_t multiple =
      k.get_info<sycl::info::kernel_device_specific::preferred_work_group_size_multiple>(dev);
  CHECK(multiple == (native ? 32u : 1u));
  CHECK(k.get_info<sycl::info::kernel_device_specific::private_mem_size>(dev) < 4096);
  // Sub-group descriptors (seed 004): no requirement, so the device's primary size.
  std::size_t primary = dev.get_info<sycl::info::device::primary_sub_group_size>();
  std::uint32_t sg = k.get_info<sycl::info::kernel_device_specific::max_sub_group_size>(dev);
  CHECK(sg == std::min(primary, wg));
  std::uint32_t groups = k.get_info<sycl::info::kernel_device_specific::max_num_sub_groups>(dev);
  CHECK(groups == (wg + sg - 1) / sg);
  // SYCL 2020: compile_sub_group_size is 0 for a kernel that requires no size.
  CHECK(k.get_info<sycl::info::kernel_device_specific::compile_sub_group_size>(dev) == 0);
  CHECK(k.get_info<sycl::info::kernel_device_specific::compile_num_sub_groups>(dev) == 0);
  CHECK(k.get_info<sycl::info::kernel_device_specific::compile_work_group_size>(dev) ==
        sycl::range<3>(0, 0, 0));
  CHECK(error_of([&] { k.get_info<sycl::info::kernel_device_specific::global_work_size>(dev); }) ==
        sycl::errc::invalid);
  CHECK(error_of([&] { exe5.get_kernel(plain_id); }) == sycl::errc::invalid);
  std::unordered_set<sycl::kernel> kernels{k, exe5.get_kernel<scale_kernel>()};
  CHECK(kernels.size() == 1);

  // Errors SYCL 2020 names.
  // A bundle without the kernel: errc::kernel_not_supported at the kernel's submission.
  CHECK(error_of([&] { run_offset(q, fout, &exe5); }) == sycl::errc::kernel_not_supported);
  // A bundle of another context: errc::invalid.
  sycl::context other_ctx(dev);
  auto other =
      sycl::build(sycl::get_kernel_bundle<sycl::bundle_state::input>(other_ctx, {scale_id}));
  CHECK(error_of([&] { run_scale(q, out, n, &other); }) == sycl::errc::invalid);
  // set_specialization_constant after use_kernel_bundle, and the other way round.
  CHECK(error_of([&] {
          q.submit([&](sycl::handler& h) {
            h.use_kernel_bundle(exe5);
            h.set_specialization_constant<factor>(1);
            plain_in(h, out);
          });
        }) == sycl::errc::invalid);
  CHECK(error_of([&] {
          q.submit([&](sycl::handler& h) {
            h.set_specialization_constant<factor>(1);
            h.use_kernel_bundle(exe5);
            plain_in(h, out);
          });
        }) == sycl::errc::invalid);
  CHECK(error_of([&] {
          q.submit([&](sycl::handler& h) {
            h.use_kernel_bundle(exe5);
            (void)h.get_specialization_constant<factor>();
            plain_in(h, out);
          });
        }) == sycl::errc::invalid);
  // Devices: an empty list, and a device outside the context where the machine has one.
  CHECK(error_of([&] {
          sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, std::vector<sycl::device>{});
        }) == sycl::errc::invalid);
  CHECK(error_of([&] {
          sycl::has_kernel_bundle<sycl::bundle_state::input>(ctx, std::vector<sycl::device>{});
        }) == sycl::errc::invalid);
  for (const auto& d : sycl::device::get_devices()) {
    auto ctx_devs = ctx.get_devices();
    if (std::find(ctx_devs.begin(), ctx_devs.end(), d) != ctx_devs.end()) continue;
    CHECK(error_of([&] { sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {d}); }) ==
          sycl::errc::invalid);
  }
  // compile / build / link for devices outside the bundle, or none.
  CHECK(error_of([&] { sycl::build(by_ids, std::vector<sycl::device>{}); }) == sycl::errc::invalid);
  CHECK(error_of([&] { sycl::compile(by_ids, std::vector<sycl::device>{}); }) ==
        sycl::errc::invalid);
  CHECK(error_of([&] { sycl::link(obj, std::vector<sycl::device>{}); }) == sycl::errc::invalid);
  // join and link across contexts.
  CHECK(error_of([&] { sycl::join(std::vector{exe5, other}); }) == sycl::errc::invalid);
  auto other_obj = sycl::get_kernel_bundle<sycl::bundle_state::object>(other_ctx, {scale_id});
  CHECK(error_of([&] { sycl::link(std::vector{obj, other_obj}); }) == sycl::errc::invalid);

  sycl::free(fout, q);
  sycl::free(out, q);
  if (g_failures) {
    std::printf("kernel_bundles: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("kernel_bundles: PASSED\n");
  return 0;
}
