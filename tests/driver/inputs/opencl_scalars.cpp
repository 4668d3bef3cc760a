// The OpenCL API's scalar types with only <sycl/sycl.hpp> included, where the OpenCL headers are
// installed (SYCL 1.2.1 code declares `cl_int` and `cl_bool` so), in host code and in a kernel.
#include <sycl/sycl.hpp>

#include <type_traits>

static_assert(std::is_same_v<cl_bool, cl_uint>, "the OpenCL API's cl_bool, not sycl::opencl's");
static_assert(std::is_same_v<sycl::opencl::cl_bool, bool>);

int main() {
  sycl::queue q;
  cl_int* out = sycl::malloc_shared<cl_int>(2, q);
  q.single_task([=] {
     cl_bool flag = 1;
     out[0] = cl_int(40) + cl_int(flag) + cl_uint(1);
     out[1] = CL_TARGET_OPENCL_VERSION;
   }).wait();
  int rc = (out[0] == 42 && out[1] == EXPECTED_VERSION) ? 0 : 1;
  sycl::free(out, q);
  return rc;
}
