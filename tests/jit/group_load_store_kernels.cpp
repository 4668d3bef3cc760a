// Device code for group_load_store_ptx_test: sycl_ext_oneapi_group_load_store's group_load and
// group_store (include/sycl/ext/oneapi/experimental/group_load_store.hpp,
// include/sycl/detail/device/nvptx_load_store.hpp) in nd_range kernel objects of the real SYCL
// headers, compiled to nvptx64 bitcode the way syclone++ compiles device code.
#include <sycl/ext/oneapi/experimental/group_load_store.hpp>
#include <sycl/sycl.hpp>

namespace {

namespace sx = sycl::ext::oneapi::experimental;

template <typename Name, int D, typename F>
void nd_range(F f) {
  sycl::detail::kernel_entry<Name>(sycl::detail::nd_range_kernel<D, F>{
      {D, sycl::range<D>{}, sycl::range<D>{}, sycl::id<D>{}}, f, {}});
}

// Blocked load, a computation, blocked store: each work-group's N * size elements.
template <std::size_t N, typename T, typename Group>
void copy_blocked(Group g, std::size_t offset, const T* in, T* out) {
  T data[N];
  sx::group_load(g, in + offset, sycl::span<T, N>(data));
  for (std::size_t i = 0; i < N; ++i) data[i] = data[i] * T(2) + T(1);
  sx::group_store(g, sycl::span<T, N>(data), out + offset);
}

} // namespace

class BlockedFloat4;
class BlockedFloat8;
class BlockedFloat16;
class BlockedDouble4;
class SubGroupBlockedFloat8;
class StripedFloat8;
class BlockedFloat3;

void kernels(const float* in, float* out, const double* din, double* dout) {
  nd_range<BlockedFloat4, 1>([=](sycl::nd_item<1> it) {
    auto g = it.get_group();
    copy_blocked<4>(g, g.get_group_linear_id() * g.get_local_linear_range() * 4, in, out);
  });
  nd_range<BlockedFloat8, 1>([=](sycl::nd_item<1> it) {
    auto g = it.get_group();
    copy_blocked<8>(g, g.get_group_linear_id() * g.get_local_linear_range() * 8, in, out);
  });
  nd_range<BlockedFloat16, 1>([=](sycl::nd_item<1> it) {
    auto g = it.get_group();
    copy_blocked<16>(g, g.get_group_linear_id() * g.get_local_linear_range() * 16, in, out);
  });
  nd_range<BlockedDouble4, 1>([=](sycl::nd_item<1> it) {
    auto g = it.get_group();
    copy_blocked<4>(g, g.get_group_linear_id() * g.get_local_linear_range() * 4, din, dout);
  });
  nd_range<SubGroupBlockedFloat8, 1>([=](sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    std::size_t first = it.get_global_linear_id() - sg.get_local_linear_id();
    copy_blocked<8>(sg, first * 8, in, out);
  });
  nd_range<StripedFloat8, 1>([=](sycl::nd_item<1> it) {
    auto g = it.get_group();
    std::size_t offset = g.get_group_linear_id() * g.get_local_linear_range() * 8;
    float data[8];
    sx::group_load(g, in + offset, sycl::span<float, 8>(data), sx::data_placement_striped);
    for (float& x : data) x = x * 2.0f + 1.0f;
    sx::group_store(g, sycl::span<float, 8>(data), out + offset, sx::data_placement_striped);
  });
  // 12 bytes per work-item: no unit fits, each work-item's own accesses.
  nd_range<BlockedFloat3, 1>([=](sycl::nd_item<1> it) {
    auto g = it.get_group();
    copy_blocked<3>(g, g.get_group_linear_id() * g.get_local_linear_range() * 3, in, out);
  });
}
