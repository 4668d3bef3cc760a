// SYCLONE_E2E_ARGS: -std=c++17
// SYCL 2020 4.9.2: the combiner of a reduction may be any callable, a lambda included. In C++17
// a lambda is neither default-constructible nor assignable, so the reduction must hold it by
// construction (it failed to compile before). USM and buffer variables, with an identity, on
// range and nd_range kernels; a C++17 build on purpose.
#include <sycl/sycl.hpp>

#include <cstdio>

static int failures = 0;
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                  \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

int main() {
  sycl::queue q;
  constexpr int n = 10000;
  auto add = [](long a, long b) { return a + b; };
  auto larger = [](int a, int b) { return a > b ? a : b; };

  long* total = sycl::malloc_shared<long>(1, q);
  *total = 7;
  q.parallel_for(sycl::range<1>(n), sycl::reduction(total, 0L, add),
                 [=](sycl::id<1> i, auto& s) { s.combine(static_cast<long>(i[0])); })
      .wait();
  CHECK(*total == 7 + long(n) * (n - 1) / 2);

  sycl::buffer<int> biggest{sycl::range<1>(1)};
  q.submit([&](sycl::handler& h) {
    h.parallel_for(sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(100)),
                   sycl::reduction(biggest, h, -1, larger,
                                   sycl::property::reduction::initialize_to_identity{}),
                   [=](sycl::nd_item<1> it, auto& m) {
                     m.combine(static_cast<int>((it.get_global_linear_id() * 37) % 9973));
                   });
  });
  {
    sycl::host_accessor r(biggest, sycl::read_only);
    CHECK(r[0] == 9972);
  }
  sycl::free(total, q);
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("reduction_lambda_combiner: all passed\n");
  return 0;
}
