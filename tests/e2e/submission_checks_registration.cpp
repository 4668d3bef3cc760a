// queue::submit remembers what its checks found for a kernel submitted again with the same shape
// (issue 16, queue_impl::check_command), but only while nothing new was registered about kernels:
// attributes or sub-group sizes registered later (a library loaded after the first submission,
// as dlopen does) apply to the next submission. Here a [[sycl::reqd_work_group_size(8)]] record
// arrives after the kernel ran with work-groups of 16: the same submission must now throw
// errc::nd_range synchronously, and one of 8 must run. Then a required sub-group size the device
// lacks: errc::feature_not_supported (seed 004).
#include <sycl/detail/kernel_info.hpp> // the registration entry points syclone++ generates calls of
#include <sycl/sycl.hpp>

#include <cstdio>
#include <string>

static int failures = 0;
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                  \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

class late_attributes;
class late_sub_group;

template <typename Name>
sycl::errc submit(sycl::queue& q, int* out, std::size_t local) {
  try {
    q.parallel_for<Name>(sycl::nd_range<1>(64, local), [=](sycl::nd_item<1> it) {
       out[it.get_global_linear_id()] = static_cast<int>(it.get_local_range(0));
     }).wait();
    return sycl::errc::success;
  } catch (const sycl::exception& e) {
    return static_cast<sycl::errc>(e.code().value());
  }
}

int main() {
  sycl::queue q;
  int* out = sycl::malloc_shared<int>(64, q);

  for (int i = 0; i < 3; ++i) CHECK(submit<late_attributes>(q, out, 16) == sycl::errc::success);
  CHECK(out[63] == 16);

  const std::string name = sycl::get_kernel_id<late_attributes>().get_name();
  syclone_kernel_attributes record{name.c_str(), 1, {8, 0, 0}, 0, {0, 0, 0}, -1, nullptr};
  __syclone_register_kernel_attributes(&record, 1);
  CHECK(submit<late_attributes>(q, out, 16) == sycl::errc::nd_range);
  CHECK(submit<late_attributes>(q, out, 8) == sycl::errc::success);
  CHECK(out[63] == 8);
  CHECK(submit<late_attributes>(q, out, 16) == sycl::errc::nd_range); // still, a second time

  // A sub-group size no device has (seed 004: errc::feature_not_supported from submit).
  for (int i = 0; i < 2; ++i) CHECK(submit<late_sub_group>(q, out, 16) == sycl::errc::success);
  const std::string sg_name = sycl::get_kernel_id<late_sub_group>().get_name();
  syclone_kernel_sub_group_size size{sg_name.c_str(), 3};
  __syclone_register_sub_group_sizes(&size, 1);
  CHECK(submit<late_sub_group>(q, out, 16) == sycl::errc::feature_not_supported);

  sycl::free(out, q);
  if (failures) return 1;
  std::printf("submission_checks_registration: OK\n");
  return 0;
}
