// Device code for math_ptx_test: math built-ins of the real SYCL headers (include/sycl/math.hpp,
// include/sycl/detail/device/nvptx.hpp) in single_task kernel objects, compiled to nvptx64
// bitcode the way syclone++ compiles device code.
#include <sycl/sycl.hpp>

namespace {

template <typename Name, typename F>
void task(F f) {
  sycl::detail::kernel_entry<Name>(sycl::detail::single_task_kernel<F>{f, {}});
}

} // namespace

class FdimConstantTie;
class FdimRuntime;

void kernels(float* out, const float* in) {
  // The CTS's math_builtin_float_base_1 case 4023035: the exact difference lies halfway between
  // two floats; round to nearest even gives 0x3F3B9656.
  task<FdimConstantTie>([=] {
    sycl::vec<float, 2> x(0.2504010352f, __builtin_bit_cast(float, 0x3F664803u));
    sycl::vec<float, 2> y(0.6064710079f, __builtin_bit_cast(float, 0x3E2AC6B6u));
    sycl::vec<float, 2> r = sycl::fdim(x, y);
    out[0] = r[0];
    out[1] = r[1];
  });
  task<FdimRuntime>([=] { out[0] = sycl::fdim(in[0], in[1]); });
}
