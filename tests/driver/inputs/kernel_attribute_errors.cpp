// SYCL 2020 5.8.1 kernel attributes the plugin rejects, after a lambda's parameter list (a
// function-type position the plugin handles itself) and on a functor (sub_group_sizes_test.sh,
// case per BAD).
#include <sycl/sycl.hpp>

#if BAD == 1
// Not a plugin attribute: stays clang's error in that position.
auto not_ours = [](int) [[nodiscard]] { return 1; };
#elif BAD == 2
auto zero_size = [](sycl::nd_item<1>) [[sycl::reqd_work_group_size(0)]] {};
#elif BAD == 3
struct not_an_aspect {
  [[sycl::device_has(5)]] void operator()() const {}
};
#elif BAD == 4
auto four_dimensions = [](sycl::nd_item<3>) [[sycl::reqd_work_group_size(1, 2, 3, 4)]] {};
#endif
