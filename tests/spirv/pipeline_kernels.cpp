// Kernels for spirv_pipeline_test beyond prefetch (tests/prefetch/prefetch_kernels.cpp supplies
// those): specialization constants of several types, local memory, a required sub-group size.
// syclone++ links both files for spirv64; the test reads the image `syclone-spirv extract`
// writes. The program itself only runs the spec-constant kernel on the default device.
#include <sycl/sycl.hpp>

struct Pair {
  int count;
  float scale;
};
constexpr sycl::specialization_id<int> int_id{7};
constexpr sycl::specialization_id<float> float_id{2.5f};
constexpr sycl::specialization_id<double> double_id{0.125};
constexpr sycl::specialization_id<Pair> pair_id{Pair{3, 4.5f}};
constexpr sycl::specialization_id<bool> bool_id{true};

class ScReader;
class LocalSum;
class Sg16;

void pipeline_kernels(sycl::queue& q, float* p) {
  q.submit([&](sycl::handler& h) {
    sycl::local_accessor<float> scratch(sycl::range<1>(64), h);
    h.parallel_for<LocalSum>(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) {
      scratch[it.get_local_id(0)] = p[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      p[it.get_global_id(0)] = scratch[63 - it.get_local_id(0)];
    });
  });
  q.parallel_for<Sg16>(sycl::nd_range<1>(64, 32), [=
  ] [[sycl::reqd_sub_group_size(16)]] (sycl::nd_item<1> it) {
    auto sg = it.get_sub_group();
    p[it.get_global_id(0)] = sycl::reduce_over_group(sg, 1.0f, sycl::plus<>());
  });
}

int main() {
  sycl::queue q;
  float* out = sycl::malloc_shared<float>(5, q);
  q.submit([&](sycl::handler& h) {
     h.set_specialization_constant<int_id>(11);
     h.single_task<ScReader>([=](sycl::kernel_handler kh) {
       Pair pair = kh.get_specialization_constant<pair_id>();
       out[0] = static_cast<float>(kh.get_specialization_constant<int_id>());
       out[1] = kh.get_specialization_constant<float_id>();
       out[2] = static_cast<float>(kh.get_specialization_constant<double_id>());
       out[3] = static_cast<float>(pair.count) * pair.scale;
       out[4] = kh.get_specialization_constant<bool_id>() ? 1.0f : 0.0f;
     });
   }).wait();
  bool ok =
      out[0] == 11.0f && out[1] == 2.5f && out[2] == 0.125f && out[3] == 13.5f && out[4] == 1.0f;
  sycl::free(out, q);
  return ok ? 0 : 1;
}
