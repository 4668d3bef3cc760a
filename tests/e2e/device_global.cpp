// sycl_ext_oneapi_device_global: one instance per device, shared by every kernel (on NVIDIA each
// kernel is a module of its own: they must still see one variable), reached from the host with
// queue and handler memcpy/copy, with errc::invalid beyond the variable; variables of one name in
// different namespaces are different; a device's instance starts as the variable's initializer;
// sub-devices of the host device have instances of their own.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <type_traits>
#include <vector>

namespace syclex = sycl::ext::oneapi::experimental;

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)
} // namespace

syclex::device_global<int> counter;
syclex::device_global<int[4]> table;
syclex::device_global<long, decltype(syclex::properties{syclex::device_image_scope})> scoped;
namespace other {
syclex::device_global<int> counter;
}
namespace {
syclex::device_global<int> counter_here; // internal linkage
}
struct holder {
  static syclex::device_global<double> member;
};
syclex::device_global<double> holder::member;
#if __cpp_consteval
syclex::device_global<int[3]> initialized{7, 8, 9};
#endif

// A T with operator->, reached through the device_global's (the CTS's arrow-operator test).
struct arrow {
  int a, b;
  arrow* operator->() { return this; }
  const arrow* operator->() const { return this; }
};
syclex::device_global<arrow> with_arrow;
const syclex::device_global<arrow> const_arrow;
// property_value's value_t (sycl_ext_oneapi_properties).
static_assert(std::is_same_v<
              decltype(syclex::host_access_read)::value_t,
              std::integral_constant<syclex::host_access_enum, syclex::host_access_enum::read>>);

class add_kernel;
class read_kernel;

int main() {
  sycl::queue q;
  static_assert(decltype(scoped)::has_property<syclex::device_image_scope_key>());
  static_assert(!decltype(counter)::has_property<syclex::host_access_key>());

  // Two kernels share the instance; the host reads it back.
  int* out = sycl::malloc_shared<int>(8, q);
  q.single_task<add_kernel>([=] {
     counter.get() += 5;
     other::counter = 100;
     counter_here = 3;
   }).wait();
  q.single_task<read_kernel>([=] {
     counter.get() += 1;
     out[0] = counter;
     out[1] = other::counter;
     out[2] = counter_here;
   }).wait();
  CHECK(out[0] == 6);
  CHECK(out[1] == 100);
  CHECK(out[2] == 3);
  int back = 0;
  q.memcpy(&back, counter).wait();
  CHECK(back == 6);

  // memcpy and copy in both directions, with offsets, the event forms and the handler's.
  const int values[4] = {1, 2, 3, 4};
  sycl::event e = q.memcpy(table, values);
  q.copy(values + 2, table, 2, 0, e).wait(); // table = {3, 4, 3, 4}
  q.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { table[i] = table[i] * 10 + i[0]; }).wait();
  int read[4] = {};
  q.copy(table, read).wait();
  CHECK(read[0] == 30 && read[1] == 41 && read[2] == 32 && read[3] == 43);
  int pair[2] = {};
  q.submit([&](sycl::handler& h) {
     h.memcpy(pair, table, 2 * sizeof(int), 2 * sizeof(int));
   }).wait();
  CHECK(pair[0] == 32 && pair[1] == 43);
  const long l = 1234567890123;
  q.submit([&](sycl::handler& h) { h.copy(&l, scoped); }).wait();
  q.single_task([=] { out[3] = scoped == 1234567890123 ? 1 : 0; }).wait();
  CHECK(out[3] == 1);
  const double d = 2.5;
  q.memcpy(holder::member, &d).wait();
  q.single_task([=] { holder::member = holder::member * 2; }).wait();
  double dd = 0;
  q.copy(holder::member, &dd).wait();
  CHECK(dd == 5.0);

  q.single_task([=] {
     with_arrow->a = 4;
     with_arrow->b = const_arrow->a + 2;
     out[5] = with_arrow->a * 10 + with_arrow->b;
   }).wait();
  CHECK(out[5] == 42);

  // Beyond the variable: errc::invalid, nothing copied.
  auto invalid = [](auto&& f) {
    try {
      f();
    } catch (const sycl::exception& e) {
      return e.code() == sycl::errc::invalid;
    }
    return false;
  };
  CHECK(invalid([&] { q.memcpy(table, values, 4 * sizeof(int), sizeof(int)); }));
  CHECK(invalid([&] { q.copy(values, table, 3, 2); }));
  CHECK(invalid([&] { q.memcpy(read, counter, sizeof(int) + 1); }));
  q.copy(table, read).wait();
  CHECK(read[0] == 30 && read[3] == 43);

#if __cpp_consteval
  // The initializer is each device's first value.
  q.single_task([=] {
     out[4] = initialized[0] + initialized[1] * 10 + initialized[2] * 100;
   }).wait();
  CHECK(out[4] == 987);
#endif

  // Sub-devices of the host device: an instance each.
  sycl::device dev = q.get_device();
  if (dev.get_backend() != sycl::backend::ext_oneapi_cuda &&
      dev.get_info<sycl::info::device::partition_max_sub_devices>() >= 2) {
    auto subs = dev.create_sub_devices<sycl::info::partition_property::partition_equally>(1);
    sycl::queue q0(subs[0]), q1(subs[1]);
    q0.single_task([=] { other::counter = 42; }).wait();
    int* o = sycl::malloc_shared<int>(1, q0);
    q1.single_task([=] { *o = other::counter; }).wait();
    CHECK(*o == 0);
    q0.single_task([=] { *o = other::counter; }).wait();
    CHECK(*o == 42);
    sycl::free(o, q0);
  }

  sycl::free(out, q);
  if (g_failures) return 1;
  std::printf("device_global: all checks passed\n");
  return 0;
}
