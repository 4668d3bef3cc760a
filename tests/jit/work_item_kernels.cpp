// Device code for work_item_ptx_test: nd_range kernel objects of the real SYCL headers
// (include/sycl/detail/kernel_launch.hpp, include/sycl/khr/work_item_queries.hpp,
// include/sycl/ext/oneapi/group_local_memory.hpp), one that asks khr::this_nd_item for its
// work-item, one that does not, and one with two group_local_memory arrays, compiled to nvptx64
// bitcode the way syclone++ compiles device code.
#include <sycl/sycl.hpp>

#include <cassert>

namespace {

template <typename Name, int D, typename F>
void nd_range(F f) {
  sycl::detail::kernel_entry<Name>(sycl::detail::nd_range_kernel<D, F>{
      {D, sycl::range<D>{}, sycl::range<D>{}, sycl::id<D>{}}, f, {}});
}

[[gnu::noinline]] void store_global_id(std::size_t* out) {
  auto it = sycl::khr::this_nd_item<2>();
  out[it.get_global_linear_id()] = it.get_global_id(0) * 1000 + it.get_global_id(1);
}

} // namespace

class AsksForItsNdItem;
class PlainNdRange;
class TwoGroupLocalArrays;
class Asserts;

void kernels(std::size_t* out) {
  nd_range<AsksForItsNdItem, 2>([=](sycl::nd_item<2>) { store_global_id(out); });
  nd_range<PlainNdRange, 2>(
      [=](sycl::nd_item<2> it) { out[it.get_global_linear_id()] = it.get_global_id(0); });
  nd_range<TwoGroupLocalArrays, 1>([=](sycl::nd_item<1> it) {
    auto a = sycl::ext::oneapi::group_local_memory<std::size_t[256]>(it.get_group());
    auto b = sycl::ext::oneapi::group_local_memory_for_overwrite<std::size_t[256]>(it.get_group());
    std::size_t l = it.get_local_id(0);
    (*a)[l] = l;
    (*b)[l] = 2 * l;
    sycl::group_barrier(it.get_group());
    out[it.get_global_id(0)] = (*a)[255 - l] + (*b)[255 - l];
  });
  nd_range<Asserts, 1>([=](sycl::nd_item<1> it) {
    assert(out[it.get_global_linear_id()] != 7 && "seven");
    out[it.get_global_linear_id()] = 1;
  });
}
