// SYCLONE_E2E_ARGS: -fsycl-default-sub-group-size=32
// Seed 004 attributes through syclone++'s clang plugin: [[sycl::reqd_sub_group_size(N)]] and
// [[intel::sub_group_size(N)]] on lambdas and functors, [[intel::named_sub_group_size(primary|
// automatic)]], the -fsycl-default-sub-group-size=32 this program is built with for kernels
// without an attribute, a SYCL_EXTERNAL function with the kernel's size, and the synchronous
// errc::feature_not_supported where the device lacks the size (NVIDIA GPUs: all but 32).
#include "expect.hpp"
#include "sub_group_common.hpp"

using namespace sg_test;

struct functor32 {
  std::uint32_t* out;
  [[intel::sub_group_size(32)]] void operator()(sycl::nd_item<1> it) const {
    sycl::sub_group sg = it.get_sub_group();
    out[it.get_global_linear_id()] =
        sycl::reduce_over_group(sg, 1u, sycl::plus<>()) == sg.get_local_range()[0]
            ? sg.get_max_local_range()[0]
            : 0;
  }
};

struct functor8 {
  std::uint32_t* out;
  [[sycl::reqd_sub_group_size(8)]] void operator()(sycl::nd_item<2> it) const {
    out[it.get_global_linear_id()] = it.get_sub_group().get_max_local_range()[0];
  }
};

SYCL_EXTERNAL [[intel::sub_group_size(32)]] std::uint32_t lanes(sycl::sub_group sg) {
  return sycl::reduce_over_group(sg, 1u, sycl::plus<>());
}

// The sub-group size every work-item saw, or 0 if they disagree; -1u when the submission threw
// errc::feature_not_supported (seed 004's intel:: spellings), -2u for errc::kernel_not_supported
// (SYCL 2020 5.8.1's [[sycl::reqd_sub_group_size]]).
template <typename Submit>
std::uint32_t observed(sycl::queue& q, Submit submit) {
  std::uint32_t* out = sycl::malloc_shared<std::uint32_t>(64, q);
  std::fill(out, out + 64, 0u);
  std::uint32_t result;
  try {
    submit(out);
    q.wait();
    result = out[0];
    for (int i = 1; i < 64; ++i)
      if (out[i] != result) result = 0;
  } catch (const sycl::exception& e) {
    result = e.code() == sycl::errc::feature_not_supported  ? ~0u
             : e.code() == sycl::errc::kernel_not_supported ? ~1u
                                                            : 0;
  }
  sycl::free(out, q);
  return result;
}

int main() {
  sycl::queue q;
  sycl::device d = q.get_device();
  std::size_t primary = d.get_info<sycl::info::device::primary_sub_group_size>();
  std::printf("device: %s, primary sub-group size %zu\n",
              d.get_info<sycl::info::device::name>().c_str(), primary);
  auto expected = [&](std::uint32_t size) { return supports(d, size) ? size : ~0u; };
  auto expected_sycl = [&](std::uint32_t size) { return supports(d, size) ? size : ~1u; };

  // A lambda with a required size: 16 on the host, unsupported on NVIDIA GPUs.
  EXPECT(observed(q, [&](std::uint32_t* out) {
           q.parallel_for(sycl::nd_range<1>(64, 64),
                          [=] [[sycl::reqd_sub_group_size(16)]] (sycl::nd_item<1> it) {
                            out[it.get_global_linear_id()] =
                                it.get_sub_group().get_max_local_range()[0];
                          });
         }) == expected_sycl(16));
  // Functors, in work-groups of 48 and 6 x 10 (partial sub-groups).
  EXPECT(observed(q, [&](std::uint32_t* out) {
           q.parallel_for(sycl::nd_range<1>(48, 48), functor32{out});
           for (int i = 48; i < 64; ++i) out[i] = 32; // outside the range
         }) == expected(32));
  EXPECT(observed(q, [&](std::uint32_t* out) {
           q.parallel_for(sycl::nd_range<2>({6, 10}, {6, 10}), functor8{out});
           for (int i = 60; i < 64; ++i) out[i] = 8; // outside the range
         }) == expected_sycl(8));
  // Named sizes.
  EXPECT(observed(q, [&](std::uint32_t* out) {
           q.parallel_for(sycl::nd_range<1>(64, 64),
                          [=] [[intel::named_sub_group_size(primary)]] (sycl::nd_item<1> it) {
                            out[it.get_global_linear_id()] =
                                it.get_sub_group().get_max_local_range()[0];
                          });
         }) == primary);
  std::uint32_t automatic = observed(q, [&](std::uint32_t* out) {
    q.parallel_for(sycl::nd_range<1>(64, 64),
                   [=] [[intel::named_sub_group_size(automatic)]] (sycl::nd_item<1> it) {
                     out[it.get_global_linear_id()] = it.get_sub_group().get_max_local_range()[0];
                   });
  });
  EXPECT(automatic != ~0u && supports(d, automatic));
  // No attribute: -fsycl-default-sub-group-size=32, which the SYCL_EXTERNAL function shares.
  EXPECT(observed(q, [&](std::uint32_t* out) {
           q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) {
             sycl::sub_group sg = it.get_sub_group();
             out[it.get_global_linear_id()] =
                 lanes(sg) == sg.get_local_range()[0] ? sg.get_max_local_range()[0] : 0;
           });
         }) == expected(32));

  std::printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
