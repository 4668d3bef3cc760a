// Sub-group size attributes the plugin rejects (sub_group_sizes_test.sh, case per BAD).
#include <sycl/sycl.hpp>

namespace syclex = sycl::ext::oneapi::experimental;

#if BAD == 1
[[intel::sub_group_size(12)]] void not_power_of_two() {}
#elif BAD == 2
[[intel::sub_group_size(8)]] [[sycl::reqd_sub_group_size(16)]] void two_sizes() {}
#elif BAD == 3
[[intel::named_sub_group_size(biggest)]] void unknown_name() {}
#elif BAD == 4
void property_and_attribute(sycl::queue& q) {
  q.parallel_for(sycl::nd_range<1>(8, 8), syclex::properties{syclex::sub_group_size<16>},
                 [=] [[intel::sub_group_size(8)]] (sycl::nd_item<1>) {});
}
#endif
