// Device code for image_ptx_test: the image accessors of the real SYCL headers
// (include/sycl/image_accessor.hpp, include/sycl/detail/image_texel.hpp) captured by single_task
// kernel objects, compiled to nvptx64 bitcode the way syclone++ compiles device code.
#include <sycl/sycl.hpp>

namespace {

template <typename Name, typename F>
void task(F f) {
  sycl::detail::kernel_entry<Name>(sycl::detail::single_task_kernel<F>{f, {}});
}

} // namespace

class ImageRead2D;
class ImageWrite2D;
class SampledLinear2D;
class SampledNearest3D;

void kernels(sycl::unsampled_image_accessor<sycl::float4, 2, sycl::access_mode::read> r,
             sycl::unsampled_image_accessor<sycl::float4, 2, sycl::access_mode::write> w,
             sycl::sampled_image_accessor<sycl::float4, 2> s2,
             sycl::sampled_image_accessor<sycl::int4, 3> s3, sycl::float4* out, sycl::int4* iout,
             int x, int y, float fx, float fy) {
  task<ImageRead2D>([=] { out[0] = r.read(sycl::int2(x, y)); });
  task<ImageWrite2D>([=] { w.write(sycl::int2(x, y), out[1]); });
  task<SampledLinear2D>([=] { out[2] = s2.read(sycl::float2(fx, fy)); });
  task<SampledNearest3D>([=] { iout[0] = s3.read(sycl::float4(fx, fy, fx, 0.0f)); });
}
