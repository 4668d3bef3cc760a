// SYCLONE_E2E_ARGS: -fsycl-targets=host
// SYCLONE_E2E_HOST_ONLY: compile-time traits only, no kernels.
// SYCL 2020 4.5.4.1: is_property_of<Property, SyclObject> holds for the runtime properties of
// each object (4.6.5.2 queue, 4.7.2.2 buffer, 4.7.6.4 no_init of accessor and host_accessor), and
// derives from std::true_type as the CTS `property` category checks; it is false elsewhere.
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

template <typename Property, typename Object>
constexpr bool property_of() {
  return sycl::is_property_v<Property> && sycl::is_property_of_v<Property, Object> &&
         std::is_base_of_v<std::true_type, sycl::is_property_of<Property, Object>>;
}
} // namespace

int main() {
  namespace qp = sycl::property::queue;
  namespace bp = sycl::property::buffer;
  CHECK((property_of<qp::enable_profiling, sycl::queue>()));
  CHECK((property_of<qp::in_order, sycl::queue>()));
  CHECK((property_of<bp::use_host_ptr, sycl::buffer<int>>()));
  CHECK((property_of<bp::use_mutex, sycl::buffer<float, 2>>()));
  CHECK((property_of<bp::context_bound, sycl::buffer<double, 3>>()));
  CHECK((property_of<sycl::property::no_init, sycl::accessor<int>>()));
  CHECK(
      (property_of<sycl::property::no_init,
                   sycl::accessor<float, 2, sycl::access_mode::write, sycl::target::host_task>>()));
  CHECK((property_of<sycl::property::no_init, sycl::host_accessor<int>>()));
  CHECK((property_of<sycl::property::no_init,
                     sycl::host_accessor<int, 3, sycl::access_mode::write>>()));

  // Not properties of other objects.
  CHECK(!(sycl::is_property_of_v<qp::in_order, sycl::buffer<int>>));
  CHECK(!(sycl::is_property_of_v<bp::use_host_ptr, sycl::queue>));
  CHECK(!(sycl::is_property_of_v<sycl::property::no_init, sycl::buffer<int>>));
  CHECK(!(sycl::is_property_of_v<sycl::property::no_init, sycl::local_accessor<int>>));
  CHECK(!(sycl::is_property_of_v<sycl::property::reduction::initialize_to_identity, sycl::queue>));

  if (g_failures) {
    std::printf("%d check(s) failed\n", g_failures);
    return 1;
  }
  std::printf("is_property_of holds for the queue, buffer and accessor properties\n");
  return 0;
}
