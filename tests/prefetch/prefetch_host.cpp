// Host functions for prefetch_codegen_test: each prefetches with one hint and is compiled to x86-64
// assembly the way syclone++ compiles host code (-fsycl -fsycl-host-only -O2); the test checks
// which prefetch instruction each function holds.
#include <sycl/sycl.hpp>

namespace syclex = sycl::ext::oneapi::experimental;

#define HOST_PREFETCH(name, ...)                                                                   \
  extern "C" void name(float* p) {                                                                 \
    syclex::prefetch(p, syclex::properties{__VA_ARGS__});                                          \
  }
HOST_PREFETCH(host_l1, syclex::prefetch_hint_L1)
HOST_PREFETCH(host_l2, syclex::prefetch_hint_L2)
HOST_PREFETCH(host_l3, syclex::prefetch_hint_L3)
HOST_PREFETCH(host_l4, syclex::prefetch_hint_L4)
HOST_PREFETCH(host_l1_nt, syclex::prefetch_hint_L1_nt)
HOST_PREFETCH(host_l2_nt, syclex::prefetch_hint_L2_nt)
HOST_PREFETCH(host_l3_nt, syclex::prefetch_hint_L3_nt)
HOST_PREFETCH(host_l4_nt, syclex::prefetch_hint_L4_nt)
HOST_PREFETCH(host_lowest_wins, syclex::prefetch_hint_L4, syclex::prefetch_hint_L2)
#undef HOST_PREFETCH

extern "C" void host_default(float* p) {
  syclex::prefetch(p);
}
// 1 KiB: one prefetch per 64-byte line, in a loop.
extern "C" void host_range(float* p) {
  syclex::prefetch(p, 256, syclex::properties{syclex::prefetch_hint_L2});
}
// seed 001: multi_ptr::prefetch.
extern "C" void host_multi_ptr(float* p) {
  sycl::global_ptr<float>(p).prefetch(8);
}
// A work-group's share: this work-item's lines of the range.
extern "C" void host_joint(float* p, std::size_t local_id) {
  auto it = sycl::detail::nd_item_access::make(
      sycl::id<1>(0), sycl::id<1>(local_id), sycl::range<1>(64), sycl::range<1>(1), sycl::id<1>(0));
  syclex::joint_prefetch(it.get_group(), p, 4096, syclex::properties{syclex::prefetch_hint_L3_nt});
}
