// SYCL 2020 4.9.4.1 / 4.9.5 specialization constants on the host device: values set with
// handler::set_specialization_constant reach kernels through kernel_handler (single_task,
// range and nd_range kernels), unset constants read their default value, values do not leak
// between command groups, and handler::get_specialization_constant reads back what was set.
#include <sycl/sycl.hpp>

#include <cstdio>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

struct coeffs {
  int a;
  short b;
  double c;
};
} // namespace

constexpr sycl::specialization_id<int> scale(3);
constexpr sycl::specialization_id<float> offset(0.5f);
constexpr sycl::specialization_id<coeffs> poly(coeffs{1, 2, 0.25});
constexpr sycl::specialization_id<bool> flag;

int main() {
  sycl::queue q;
  constexpr int n = 64;
  float* out = sycl::malloc_shared<float>(n, q);

  // Set values, read in a range kernel.
  q.submit([&](sycl::handler& h) {
     h.set_specialization_constant<scale>(7);
     h.set_specialization_constant<offset>(0.25f);
     CHECK(h.get_specialization_constant<scale>() == 7);
     CHECK(h.get_specialization_constant<offset>() == 0.25f);
     h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i, sycl::kernel_handler kh) {
       out[i] = static_cast<float>(i[0]) * kh.get_specialization_constant<scale>() +
                kh.get_specialization_constant<offset>();
     });
   }).wait();
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && out[i] == i * 7 + 0.25f;
  CHECK(ok);

  // Nothing set: defaults, in the kernel and in the handler.
  q.submit([&](sycl::handler& h) {
     CHECK(h.get_specialization_constant<scale>() == 3);
     CHECK(h.get_specialization_constant<poly>().b == 2);
     h.parallel_for(sycl::range<1>(n), [=](sycl::item<1> it, sycl::kernel_handler kh) {
       coeffs c = kh.get_specialization_constant<poly>();
       out[it] = static_cast<float>(it.get_id(0)) * kh.get_specialization_constant<scale>() +
                 kh.get_specialization_constant<offset>() + static_cast<float>(c.a + c.b + c.c) +
                 (kh.get_specialization_constant<flag>() ? 1000.0f : 0.0f);
     });
   }).wait();
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && out[i] == i * 3 + 0.5f + 3.25f;
  CHECK(ok);

  // Only one of several set: the others keep their defaults; a struct-typed constant.
  q.submit([&](sycl::handler& h) {
     h.set_specialization_constant<poly>(coeffs{10, 20, 0.5});
     h.set_specialization_constant<flag>(true);
     h.single_task([=](sycl::kernel_handler kh) {
       coeffs c = kh.get_specialization_constant<poly>();
       out[0] = static_cast<float>(c.a + c.b + c.c) + kh.get_specialization_constant<scale>() +
                (kh.get_specialization_constant<flag>() ? 1000.0f : 0.0f);
     });
   }).wait();
  CHECK(out[0] == 30.5f + 3 + 1000);

  // Set twice: the last value wins. nd_range kernel.
  q.submit([&](sycl::handler& h) {
     h.set_specialization_constant<scale>(1);
     h.set_specialization_constant<scale>(-2);
     h.parallel_for(sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(16)),
                    [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
                      out[it.get_global_id(0)] =
                          static_cast<float>(static_cast<int>(it.get_local_id(0)) *
                                             kh.get_specialization_constant<scale>());
                    });
   }).wait();
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && out[i] == static_cast<float>((i % 16) * -2);
  CHECK(ok);

  // Values belong to their command group: consecutive groups with different values, in flight
  // together on an out-of-order queue.
  int* res = sycl::malloc_shared<int>(8, q);
  for (int g = 0; g < 8; ++g)
    q.submit([&](sycl::handler& h) {
      h.set_specialization_constant<scale>(g * 11);
      h.single_task(
          [=](sycl::kernel_handler kh) { res[g] = kh.get_specialization_constant<scale>(); });
    });
  q.wait();
  ok = true;
  for (int g = 0; g < 8; ++g) ok = ok && res[g] == g * 11;
  CHECK(ok);

  // A kernel without kernel_handler in a group that sets constants still runs.
  q.submit([&](sycl::handler& h) {
     h.set_specialization_constant<scale>(5);
     h.single_task([=] { res[0] = 99; });
   }).wait();
  CHECK(res[0] == 99);

  sycl::free(res, q);
  sycl::free(out, q);
  if (g_failures) {
    std::printf("spec_constants: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("spec_constants: PASSED\n");
  return 0;
}
