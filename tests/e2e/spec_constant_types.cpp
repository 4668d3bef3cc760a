// SYCL 2020 4.9.4.1 / 4.9.5: a specialization constant's type need only be device copyable, not
// default constructible (kernel_handler::get_specialization_constant used to declare `T result;`),
// and specialization_id is neither copyable nor movable.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <type_traits>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

struct no_default {
  int a;
  float b;
  constexpr no_default(int x, float y) : a(x), b(y) {}
};
static_assert(!std::is_default_constructible_v<no_default>);
} // namespace

constexpr sycl::specialization_id<no_default> pair_id(no_default{2, 0.5f});

static_assert(!std::is_copy_constructible_v<sycl::specialization_id<int>>);
static_assert(!std::is_move_constructible_v<sycl::specialization_id<int>>);
static_assert(!std::is_copy_assignable_v<sycl::specialization_id<int>>);
static_assert(!std::is_move_assignable_v<sycl::specialization_id<int>>);

int main() {
  sycl::queue q;
  float* out = sycl::malloc_shared<float>(2, q);

  // Default value.
  q.submit([&](sycl::handler& h) {
     h.single_task([=](sycl::kernel_handler kh) {
       no_default v = kh.get_specialization_constant<pair_id>();
       out[0] = v.a + v.b;
     });
   }).wait();
  CHECK(out[0] == 2.5f);

  // A value set on the handler, read in the kernel and by the handler.
  q.submit([&](sycl::handler& h) {
     h.set_specialization_constant<pair_id>(no_default{7, 0.25f});
     CHECK(h.get_specialization_constant<pair_id>().a == 7);
     h.single_task([=](sycl::kernel_handler kh) {
       no_default v = kh.get_specialization_constant<pair_id>();
       out[1] = v.a + v.b;
     });
   }).wait();
  CHECK(out[1] == 7.25f);

  sycl::free(out, q);
  if (g_failures) return 1;
  std::printf("spec_constant_types: ok\n");
  return 0;
}
