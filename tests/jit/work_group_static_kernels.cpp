// Device code for work_group_static_ptx_test: sycl_ext_oneapi_work_group_static variables and
// sycl_ext_oneapi_work_group_scratch_memory in nd_range kernel objects of the real SYCL headers,
// compiled to nvptx64 bitcode the way syclone++ compiles device code.
#include <sycl/sycl.hpp>

namespace {

namespace sx = sycl::ext::oneapi::experimental;

template <typename Name, int D, typename F>
void nd_range(F f) {
  sycl::detail::kernel_entry<Name>(sycl::detail::nd_range_kernel<D, F>{
      {D, sycl::range<D>{}, sycl::range<D>{}, sycl::id<D>{}}, f, {}});
}

sx::work_group_static<float[128]> tile;

int& counter() {
  static sx::work_group_static<int> value;
  return value;
}

} // namespace

class StaticTile;
class StaticCounterTwoFunctions;
class Scratch;

void kernels(const float* in, float* out, int* counts) {
  // One shared array of 128 floats: written, then read at another work-item's place.
  nd_range<StaticTile, 1>([=](sycl::nd_item<1> it) {
    std::size_t l = it.get_local_id(0);
    tile[l] = in[it.get_global_id(0)];
    sycl::group_barrier(it.get_group());
    out[it.get_global_id(0)] = tile[(l + 1) % 128];
  });
  // One 4-byte shared variable, however many places name it.
  nd_range<StaticCounterTwoFunctions, 1>([=](sycl::nd_item<1> it) {
    if (it.get_local_id(0) == 0) counter() = 0;
    sycl::group_barrier(it.get_group());
    sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::work_group,
                     sycl::access::address_space::local_space>(counter())
        .fetch_add(1);
    sycl::group_barrier(it.get_group());
    if (it.get_local_id(0) == 0) counts[it.get_group(0)] = counter();
  });
  // Scratch memory: the launch's dynamic shared memory at the offset the kernel object carries
  // (as handler::parallel_for makes it for a work_group_scratch_size launch).
  auto body = [=](sycl::nd_item<1> it) {
    auto* s = static_cast<float*>(sx::get_work_group_scratch_memory());
    std::size_t l = it.get_local_id(0);
    s[l] = in[it.get_global_id(0)];
    sycl::group_barrier(it.get_group());
    out[it.get_global_id(0)] = s[(l + 1) % 128];
  };
  using functor = sycl::detail::scratch_kernel<decltype(body)>;
  sycl::detail::kernel_entry<Scratch>(sycl::detail::nd_range_kernel<1, functor>{
      {1, sycl::range<1>{}, sycl::range<1>{}, sycl::id<1>{}}, functor{body, 256}, {}});
}
