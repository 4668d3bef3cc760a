// Unit tests of the runtime side of seed 004's required sub-group sizes (src/runtime/sub_group.cpp)
// through the entry point syclone++'s registration objects call, built by a plain C++ compiler
// (kernel names are then typeid names): a recorded size is the one the host device runs the
// kernel with, a property at the launch wins over it, primary and automatic get the device's
// primary size, and a size the device lacks throws errc::feature_not_supported at submission.
#include <sycl/detail/kernel_info.hpp>
#include <sycl/sycl.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <typeinfo>

namespace {

namespace syclex = sycl::ext::oneapi::experimental;

template <int N>
class named {};

void record(const char* kernel, std::uint32_t size) {
  syclone_kernel_sub_group_size r{kernel, size};
  __syclone_register_sub_group_sizes(&r, 1);
}

// The sub-group size the kernel named Name runs with on the host device.
template <typename Name, typename... Properties>
std::uint32_t run_with(sycl::queue& q, Properties... props) {
  std::uint32_t* out = sycl::malloc_shared<std::uint32_t>(1, q);
  *out = 0;
  q.parallel_for<Name>(sycl::nd_range<1>(64, 64), props..., [=](sycl::nd_item<1> it) {
     if (it.get_global_linear_id() == 0) *out = it.get_sub_group().get_max_local_range()[0];
   }).wait();
  std::uint32_t size = *out;
  sycl::free(out, q);
  return size;
}

TEST(SubGroupRegistry, RecordedSizeIsUsed) {
  sycl::queue q{sycl::cpu_selector_v};
  record(typeid(named<1>).name(), 8);
  EXPECT_EQ(run_with<named<1>>(q), 8u);
  record(typeid(named<1>).name(), 32);
  EXPECT_EQ(run_with<named<1>>(q), 32u); // a later registration replaces the earlier one
}

TEST(SubGroupRegistry, PropertyWinsOverRecord) {
  sycl::queue q{sycl::cpu_selector_v};
  record(typeid(named<2>).name(), 8);
  EXPECT_EQ(run_with<named<2>>(q, syclex::properties{syclex::sub_group_size<4>}), 4u);
}

TEST(SubGroupRegistry, NamedSizesAreThePrimarySize) {
  sycl::queue q{sycl::cpu_selector_v};
  auto primary =
      std::uint32_t(q.get_device().get_info<sycl::info::device::primary_sub_group_size>());
  record(typeid(named<3>).name(), sycl::detail::sub_group_size_automatic);
  record(typeid(named<4>).name(), sycl::detail::sub_group_size_primary);
  EXPECT_EQ(run_with<named<3>>(q), primary);
  EXPECT_EQ(run_with<named<4>>(q), primary);
  EXPECT_EQ(run_with<named<5>>(q), primary); // nothing recorded
}

TEST(SubGroupRegistry, UnsupportedSizeThrowsAtSubmission) {
  sycl::queue q{sycl::cpu_selector_v};
  record(typeid(named<6>).name(), 128);
  try {
    run_with<named<6>>(q);
    FAIL() << "no exception";
  } catch (const sycl::exception& e) {
    EXPECT_EQ(e.code(), sycl::errc::feature_not_supported);
    EXPECT_NE(std::string(e.what()).find("sub-group size 128"), std::string::npos) << e.what();
  }
}

} // namespace
