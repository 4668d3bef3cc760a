// Device code for non_uniform_groups_ptx_test: the groups of sycl_ext_oneapi_non_uniform_groups
// and their functions from the real SYCL headers (nvptx_group.hpp), in nd_range kernel objects as
// handler.hpp builds them, compiled to nvptx64 bitcode the way syclone++ compiles device code.
#include <sycl/sycl.hpp>

namespace syclex = sycl::ext::oneapi::experimental;

namespace {

template <typename Name, typename F>
void nd_range_kernel(F f) {
  sycl::detail::kernel_entry<Name>(sycl::detail::nd_range_kernel<1, F>{
      {1, sycl::range<1>(1), sycl::range<1>(1), sycl::id<1>()}, f, {}});
}

} // namespace

class NugBallotReduceInt;
class NugBallotReduceFloat;
class NugBallotScan;
class NugBallotBarrier;
class NugFixedReduceFloat;
class NugFixedShifts;
class NugTangleVote;
class NugOpportunisticBroadcast;

void kernels(const int* in, int* out, const float* fin, float* fout) {
  nd_range_kernel<NugBallotReduceInt>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    auto g = syclex::get_ballot_group(it.get_sub_group(), in[i] > 0);
    out[i] = sycl::reduce_over_group(g, in[i], sycl::plus<>());
  });
  nd_range_kernel<NugBallotReduceFloat>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    auto g = syclex::get_ballot_group(it.get_sub_group(), in[i] > 0);
    if (in[i] > 0) fout[i] = sycl::reduce_over_group(g, fin[i], sycl::plus<>());
  });
  nd_range_kernel<NugBallotScan>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    auto g = syclex::get_ballot_group(it.get_sub_group(), in[i] > 0);
    fout[i] = sycl::exclusive_scan_over_group(g, fin[i], sycl::plus<>());
  });
  nd_range_kernel<NugBallotBarrier>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    auto g = syclex::get_ballot_group(it.get_sub_group(), in[i] > 0);
    out[i] = in[i];
    sycl::group_barrier(g);
    out[i] += out[i ^ 1];
  });
  nd_range_kernel<NugFixedReduceFloat>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    auto g = syclex::get_fixed_size_group<8>(it.get_sub_group());
    fout[i] = sycl::reduce_over_group(g, fin[i], sycl::plus<>());
  });
  nd_range_kernel<NugFixedShifts>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    auto g = syclex::get_fixed_size_group<4>(it.get_sub_group());
    out[i] = sycl::shift_group_left(g, in[i], 1) + sycl::permute_group_by_xor(g, in[i], 2);
  });
  nd_range_kernel<NugTangleVote>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    if (in[i] > 0) {
      auto t = syclex::get_tangle_group(it.get_sub_group());
      out[i] = sycl::any_of_group(t, in[i] > 5) + 2 * sycl::all_of_group(t, in[i] < 9);
    }
  });
  nd_range_kernel<NugOpportunisticBroadcast>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    if (in[i] > 0) {
      auto g = syclex::this_kernel::get_opportunistic_group();
      out[i] = sycl::group_broadcast(g, in[i]) + int(g.get_local_linear_range());
    }
  });
}
