// Device code for sub_group_ptx_test: sub-group and work-group functions of the real SYCL
// headers (include/sycl/detail/device/nvptx_group.hpp), in nd_range kernel objects as handler.hpp
// builds them, compiled to nvptx64 bitcode the way syclone++ compiles device code.
#include <sycl/sycl.hpp>

namespace {

template <typename Name, typename F>
void nd_range_kernel(F f) {
  sycl::detail::kernel_entry<Name>(sycl::detail::nd_range_kernel<1, F>{
      {1, sycl::range<1>(1), sycl::range<1>(1), sycl::id<1>()}, f, {}});
}

} // namespace

class SgReduceInt;
class SgReduceFloat;
class SgScanFloat;
class SgShuffles;
class SgVote;
class SgBarrier;
class WgReduce;
class WgAnyAll;

void kernels(const int* in, int* out, const float* fin, float* fout) {
  nd_range_kernel<SgReduceInt>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    out[i] = sycl::reduce_over_group(it.get_sub_group(), in[i], sycl::plus<>());
  });
  nd_range_kernel<SgReduceFloat>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    fout[i] = sycl::reduce_over_group(it.get_sub_group(), fin[i], sycl::plus<>());
  });
  nd_range_kernel<SgScanFloat>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    fout[i] = sycl::exclusive_scan_over_group(it.get_sub_group(), fin[i], sycl::plus<>());
  });
  nd_range_kernel<SgShuffles>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    sycl::sub_group sg = it.get_sub_group();
    int x = in[i];
    out[i] = sg.shuffle(x, sycl::id<1>(in[i + 1])) + sg.shuffle_down(x, 1) + sg.shuffle_up(x, 2) +
             sg.shuffle_xor(x, sycl::id<1>(4));
  });
  nd_range_kernel<SgVote>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    sycl::sub_group sg = it.get_sub_group();
    out[i] = int(sycl::any_of_group(sg, in[i] > 0)) + 2 * int(sycl::all_of_group(sg, in[i] < 9));
  });
  nd_range_kernel<SgBarrier>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    out[i] = in[i];
    it.get_sub_group().barrier();
    out[i] += in[i ^ 1];
  });
  nd_range_kernel<WgReduce>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    fout[i] = sycl::reduce_over_group(it.get_group(), fin[i], sycl::plus<>());
  });
  nd_range_kernel<WgAnyAll>([=](sycl::nd_item<1> it) {
    std::size_t i = it.get_global_id(0);
    out[i] = int(sycl::any_of_group(it.get_group(), in[i] > 0));
  });
}
