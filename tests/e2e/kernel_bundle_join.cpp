// SYCL 2020 4.11.9 sycl::join: of no bundles, an empty bundle (as the CTS's
// sycl_join_zero_kernel_bundles expects); of input bundles, one bundle holding each kernel once
// with the values set in each, which reach the kernels after sycl::build.
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
} // namespace

constexpr sycl::specialization_id<int> factor(2);
constexpr sycl::specialization_id<double> shift(0.5);
class scaled;

int main() {
  CHECK(sycl::join<sycl::bundle_state::input>({}).empty());
  CHECK(sycl::join<sycl::bundle_state::object>({}).empty());
  CHECK(sycl::join<sycl::bundle_state::executable>({}).empty());

  sycl::queue q;
  double* out = sycl::malloc_shared<double>(1, q);
  auto submit = [&](const sycl::kernel_bundle<sycl::bundle_state::executable>* bundle) {
    q.submit([&](sycl::handler& h) {
       if (bundle) h.use_kernel_bundle(*bundle);
       h.single_task<scaled>([=](sycl::kernel_handler kh) {
         out[0] = kh.get_specialization_constant<factor>() * 10 +
                  kh.get_specialization_constant<shift>();
       });
     }).wait();
  };
  submit(nullptr); // registers the kernel with the defaults
  CHECK(out[0] == 20.5);

  auto ctx = q.get_context();
  auto first = sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx);
  auto second = sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx);
  first.set_specialization_constant<factor>(7);
  second.set_specialization_constant<shift>(0.25);
  auto joined = sycl::join(std::vector{first, second});
  CHECK(!joined.empty());
  CHECK(joined.has_kernel<scaled>());
  CHECK(joined.get_specialization_constant<factor>() == 7);
  CHECK(joined.get_specialization_constant<shift>() == 0.25);
  auto exec = sycl::build(joined);
  submit(&exec);
  CHECK(out[0] == 70.25);

  sycl::free(out, q);
  if (g_failures) return 1;
  std::printf("kernel_bundle_join: ok\n");
  return 0;
}
