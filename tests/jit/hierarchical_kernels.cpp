// Device code for hierarchical_ptx_test: hierarchical kernels of the real SYCL headers
// (include/sycl/hierarchical.hpp), in kernel objects as handler::parallel_for_work_group builds
// them, compiled to nvptx64 bitcode the way syclone++ compiles device code.
#include <sycl/sycl.hpp>

namespace {

template <typename Name, int D, typename F>
void hierarchical_kernel(F f) {
  sycl::detail::kernel_entry<Name>(
      sycl::detail::hierarchical_kernel<D, F>{sycl::range<D>(), sycl::range<D>(), f, nullptr, {}});
}

} // namespace

class HierNeighbour;
class HierPrivateFlexible;
class HierScopeOnly;
class HierStreamFlexible;
class HierPrivateMisuse;
class HierScale;
class HierTile;

void kernels(int* out, int* once, int* runs, sycl::stream os, sycl::h_item<1>* saved) {
  // A work-group-scope array written by one parallel_for_work_item and read by the next, a
  // work-group-scope atomic and a sum over the array in work-group scope.
  hierarchical_kernel<HierNeighbour, 1>([=](sycl::group<1> g) {
    int shared[64];
    int total = 0;
    sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> r(*runs);
    r.fetch_add(1);
    g.parallel_for_work_item([&](sycl::h_item<1> it) {
      shared[it.get_local_id(0)] = static_cast<int>(it.get_global_id(0));
    });
    g.parallel_for_work_item([&](sycl::h_item<1> it) {
      std::size_t l = it.get_local_id(0);
      out[it.get_global_id(0)] = shared[(l + 1) % g.get_local_range(0)];
    });
    for (std::size_t i = 0; i < g.get_local_range(0); ++i) total += shared[i];
    once[g.get_group_id(0)] = total;
  });
  // private_memory across two parallel_for_work_item calls, one over a flexible range.
  hierarchical_kernel<HierPrivateFlexible, 2>([=](sycl::group<2> g) {
    sycl::private_memory<int, 2> count(g);
    g.parallel_for_work_item([&](sycl::h_item<2> it) { count(it) = 0; });
    g.parallel_for_work_item(sycl::range<2>(7, 9), [&](sycl::h_item<2> it) {
      out[it.get_logical_local().get_linear_id()] = 1;
      count(it) += 1;
    });
    g.parallel_for_work_item(
        [&](sycl::h_item<2> it) { once[it.get_global().get_linear_id()] = count(it); });
  });
  // Work-group scope only: runs once per group.
  hierarchical_kernel<HierScopeOnly, 1>([=](sycl::group<1> g) { once[g.get_group_id(0)] += 1; });
  // A sycl::stream in a flexible range: each logical work-item has its own formatting state,
  // the work-group scope's formatting reaches the work-items of every thread.
  hierarchical_kernel<HierStreamFlexible, 1>([=](sycl::group<1> g) {
    os << sycl::hex;
    g.parallel_for_work_item(sycl::range<1>(256), [&](sycl::h_item<1> it) {
      if (it.get_logical_local_id(0) % 3 == 0) os << sycl::dec;
      os << it.get_logical_local_id(0) << sycl::endl;
    });
  });
  // The work-items only read the work-group scope (their closures): as an nd_range kernel.
  hierarchical_kernel<HierScale, 1>([=](sycl::group<1> g) {
    g.parallel_for_work_item(
        [&](sycl::h_item<1> it) { out[it.get_global_id(0)] = 2 * runs[it.get_global_id(0)]; });
  });
  // A tile written by one parallel_for_work_item and read by the next: one barrier between.
  hierarchical_kernel<HierTile, 1>([=](sycl::group<1> g) {
    int tile[256];
    g.parallel_for_work_item(
        [&](sycl::h_item<1> it) { tile[it.get_local_id(0)] = runs[it.get_global_id(0)]; });
    g.parallel_for_work_item([&](sycl::h_item<1> it) {
      std::size_t l = it.get_local_id(0);
      out[it.get_global_id(0)] = tile[(l + 1) % 256] + tile[l];
    });
  });
  // A private_memory used with another work-group's h_item: recorded in the error slot.
  hierarchical_kernel<HierPrivateMisuse, 1>([=](sycl::group<1> g) {
    sycl::private_memory<int> pm(g);
    g.parallel_for_work_item([&](sycl::h_item<1> it) {
      pm(*saved) = 1;
      out[it.get_global_id(0)] = pm(it);
    });
  });
}
