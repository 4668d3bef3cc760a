// SYCL 2020 4.9.1.5/4.9.1.7 async_work_group_copy and wait_for on group and nd_item, and
// device_event: global to local and back, contiguous and strided, decorated and legacy
// pointers; in an nd_range kernel (every work-item calls it) and at a hierarchical kernel's
// work-group scope (called once). Celerity's item.h forwards to these.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

int main() {
  sycl::queue q;
  constexpr int groups = 8, wg = 32, n = groups * wg;
  std::vector<int> in(2 * n), out(n, -1), strided(2 * n, -1), hier(n, -1);
  for (int i = 0; i < 2 * n; ++i) in[i] = i * 3 + 1;
  {
    sycl::buffer<int> bin(in.data(), sycl::range<1>(2 * n));
    sycl::buffer<int> bout(out.data(), sycl::range<1>(n));
    sycl::buffer<int> bstr(strided.data(), sycl::range<1>(2 * n));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(bin, h, sycl::read_only);
      sycl::accessor o(bout, h, sycl::write_only);
      sycl::accessor s(bstr, h, sycl::write_only);
      sycl::local_accessor<int, 1> tile(sycl::range<1>(wg), h);
      h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        auto g = it.get_group();
        std::size_t base = g.get_group_id(0) * wg;
        auto lp = tile.get_multi_ptr<sycl::access::decorated::yes>();
        // Every second element of the input into local memory (source stride 2) ...
        auto e1 = g.async_work_group_copy(
            lp, a.get_multi_ptr<sycl::access::decorated::yes>() + 2 * base, wg, 2);
        g.wait_for(e1);
        tile[it.get_local_id(0)] += 1;
        sycl::group_barrier(g);
        // ... contiguously back out through nd_item ...
        auto e2 = it.async_work_group_copy(o.get_multi_ptr<sycl::access::decorated::yes>() + base,
                                           lp, wg);
        e2.wait();
        // ... and spread out with a destination stride of 2.
        auto e3 = g.async_work_group_copy(
            s.get_multi_ptr<sycl::access::decorated::yes>() + 2 * base, lp, wg, 2);
        it.wait_for(e3);
      });
    });
    sycl::buffer<int> bh(hier.data(), sycl::range<1>(n));
    // Host device only: a work-group-scope array as local memory needs the GPU's hierarchical
    // lowering to place it in shared memory, which this test does not rely on.
    if (q.get_backend() == sycl::backend::syclone_host)
      q.submit([&](sycl::handler& h) {
        sycl::accessor a(bin, h, sycl::read_only);
        sycl::accessor o(bh, h, sycl::write_only);
        h.parallel_for_work_group(
            sycl::range<1>(groups), sycl::range<1>(wg), [=](sycl::group<1> g) {
              std::size_t base = g.get_group_id(0) * wg;
              int tile[wg]; // work-group scope: the group's local memory
              auto lp = sycl::address_space_cast<sycl::access::address_space::local_space,
                                                 sycl::access::decorated::yes>(tile);
              g.async_work_group_copy(lp, a.get_multi_ptr<sycl::access::decorated::yes>() + base,
                                      wg)
                  .wait();
              g.parallel_for_work_item([&](sycl::h_item<1> hi) { tile[hi.get_local_id(0)] *= 2; });
              g.async_work_group_copy(o.get_multi_ptr<sycl::access::decorated::yes>() + base, lp,
                                      wg)
                  .wait();
            });
      });
  }
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    int want = in[2 * i] + 1;
    if (out[i] != want || strided[2 * i] != want || strided[2 * i + 1] != -1) ++bad;
    if (q.get_backend() == sycl::backend::syclone_host && hier[i] != in[i] * 2) ++bad;
  }
  if (bad) {
    std::printf("FAILED: %d wrong elements (out[1]=%d want %d, hier[1]=%d want %d)\n", bad, out[1],
                in[2] + 1, hier[1], in[1] * 2);
    return 1;
  }
  std::printf("async_work_group_copy: all checks passed\n");
  return 0;
}
