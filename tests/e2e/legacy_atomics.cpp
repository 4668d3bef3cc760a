// SYCLONE_E2E_ARGS: -Wno-deprecated-declarations
// SYCL 2020 4.15.4 (deprecated, SYCL 1.2.1 atomics): access_mode::atomic accessors give
// sycl::atomic elements; the members and the atomic_* free functions are real atomics (many
// work-items update the same elements), in global memory from accessors and multi_ptrs and in
// local memory (multi_ptrs and target::local accessors).
#include <sycl/sycl.hpp>

#include <cstdio>
#include <type_traits>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

using atomic_acc = sycl::accessor<int, 1, sycl::access_mode::atomic, sycl::target::device>;
static_assert(std::is_same_v<decltype(std::declval<atomic_acc>()[0]),
                             sycl::atomic<int, sycl::access::address_space::global_space>>);
using atomic_acc2 = sycl::accessor<int, 2, sycl::access_mode::atomic, sycl::target::device>;
static_assert(std::is_same_v<decltype(std::declval<atomic_acc2>()[0][1]),
                             sycl::atomic<int, sycl::access::address_space::global_space>>);
using local_atomic_acc3 = sycl::accessor<int, 3, sycl::access_mode::atomic, sycl::target::local>;
static_assert(std::is_same_v<decltype(std::declval<local_atomic_acc3>()[0][1][2]),
                             sycl::atomic<int, sycl::access::address_space::local_space>>);
} // namespace

int main() {
  sycl::queue q;
  constexpr int N = 4096;

  // Members and free functions through an atomic accessor.
  std::vector<int> counters(8, 0);
  counters[4] = 1000;
  counters[5] = -1000;
  counters[6] = 0xff;
  std::vector<unsigned long> wide(2, 0);
  std::vector<float> f(2, 0.0f);
  {
    sycl::buffer<int> cb(counters.data(), sycl::range<1>(counters.size()));
    sycl::buffer<unsigned long> wb(wide.data(), sycl::range<1>(wide.size()));
    sycl::buffer<float> fb(f.data(), sycl::range<1>(f.size()));
    q.submit([&](sycl::handler& h) {
      sycl::accessor<int, 1, sycl::access_mode::atomic> c(cb, h);
      sycl::accessor<unsigned long, 1, sycl::access_mode::atomic> w(wb, h);
      sycl::accessor<float, 1, sycl::access_mode::atomic> fa(fb, h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) {
        int v = static_cast<int>(i[0]);
        c[0].fetch_add(1);
        sycl::atomic_fetch_add(c[1], 2);
        sycl::atomic_fetch_sub(c[2], 1);
        c[3].fetch_max(v);
        sycl::atomic_fetch_min(c[4], v);
        c[5].fetch_max(v, sycl::memory_order::relaxed);
        if (v < 8) sycl::atomic_fetch_and(c[6], ~(1 << v));
        if (v < 16) c[7].fetch_or(1 << v);
        sycl::atomic_fetch_xor(c[sycl::id<1>(7)], 0);
        w[sycl::id<1>(0)].fetch_add(3ul);
        // One work-item wins the compare-exchange from 0.
        unsigned long expected = 0;
        if (sycl::atomic_compare_exchange_strong(w[1], expected, static_cast<unsigned long>(v + 1)))
          fa[0].store(1.0f);
        if (v == N - 1) {
          sycl::atomic_store(fa[1], 2.5f);
          float old = sycl::atomic_exchange(fa[1], 3.5f);
          if (old != 2.5f || fa[1].load() != 3.5f || sycl::atomic_load(fa[1]) != 3.5f)
            fa[1].store(-1.0f);
        }
      });
    });
  }
  CHECK(counters[0] == N);
  CHECK(counters[1] == 2 * N);
  CHECK(counters[2] == -N);
  CHECK(counters[3] == N - 1);
  CHECK(counters[4] == 0);
  CHECK(counters[5] == N - 1);
  CHECK(counters[6] == 0);
  CHECK(counters[7] == 0xffff);
  CHECK(wide[0] == 3ul * N);
  CHECK(wide[1] >= 1 && wide[1] <= static_cast<unsigned long>(N));
  CHECK(f[0] == 1.0f);
  CHECK(f[1] == 3.5f);

  // sycl::atomic over a global multi_ptr (USM) and over local memory.
  int* usm = sycl::malloc_shared<int>(2, q);
  usm[0] = usm[1] = 0;
  constexpr int groups = 16, wg = 64;
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<int, 1> local(sycl::range<1>(1), h);
     h.parallel_for(sycl::nd_range<1>(groups * wg, wg), [=](sycl::nd_item<1> it) {
       sycl::atomic<int> g{sycl::global_ptr<int>(usm)};
       sycl::atomic<int, sycl::access::address_space::local_space> l(local.get_pointer());
       if (it.get_local_id(0) == 0) l.store(0);
       sycl::group_barrier(it.get_group());
       l.fetch_add(1);
       sycl::group_barrier(it.get_group());
       if (it.get_local_id(0) == 0) {
         g.fetch_add(l.load());
         sycl::atomic<int> g1{sycl::global_ptr<int>(usm + 1)};
         sycl::atomic_fetch_max(g1, l.exchange(0));
       }
     });
   }).wait();
  CHECK(usm[0] == groups * wg);
  CHECK(usm[1] == wg);

  // SYCL 1.2.1 local accessors: target::local, plain and access_mode::atomic.
  usm[0] = usm[1] = 0;
  q.submit([&](sycl::handler& h) {
     sycl::accessor<int, 1, sycl::access_mode::atomic, sycl::target::local> counter(
         sycl::range<1>(1), h);
     sycl::accessor<int, 1, sycl::access_mode::read_write, sycl::target::local> slots(
         sycl::range<1>(wg), h);
     h.parallel_for(sycl::nd_range<1>(groups * wg, wg), [=](sycl::nd_item<1> it) {
       std::size_t lid = it.get_local_id(0);
       if (lid == 0) counter[0].store(0);
       slots[lid] = static_cast<int>(lid);
       sycl::group_barrier(it.get_group());
       sycl::atomic_fetch_add(counter[0], slots[wg - 1 - lid]);
       sycl::group_barrier(it.get_group());
       if (lid == 0) {
         sycl::atomic<int> total{sycl::global_ptr<int>(usm)};
         total.fetch_add(counter[sycl::id<1>(0)].load());
       }
     });
   }).wait();
  CHECK(usm[0] == groups * (wg * (wg - 1) / 2));

  // Several dimensions: acc[i][j] gives the sycl::atomic too (global and local memory), and a
  // 0-dimensional atomic local accessor converts to the sycl::atomic over its element.
  std::vector<int> grid(2 * 3, 0);
  {
    sycl::buffer<int, 2> gb(grid.data(), sycl::range<2>(2, 3));
    q.submit([&](sycl::handler& h) {
      sycl::accessor<int, 2, sycl::access_mode::atomic> g(gb, h);
      sycl::accessor<int, 2, sycl::access_mode::atomic, sycl::target::local> l(
          sycl::range<2>(2, 3), h);
      sycl::accessor<int, 0, sycl::access_mode::atomic, sycl::target::local> one(h);
      h.parallel_for(sycl::nd_range<1>(groups * wg, wg), [=](sycl::nd_item<1> it) {
        std::size_t lid = it.get_local_id(0);
        if (lid < 6) l[lid / 3][lid % 3].store(0);
        if (lid == 0) static_cast<sycl::atomic<int, sycl::access::address_space::local_space>>(
                          one)
            .store(0);
        sycl::group_barrier(it.get_group());
        l[lid % 2][lid % 3].fetch_add(1);
        sycl::atomic<int, sycl::access::address_space::local_space> o = one;
        o.fetch_add(1);
        sycl::group_barrier(it.get_group());
        if (lid < 6) g[lid / 3][lid % 3].fetch_add(l[lid / 3][lid % 3].load());
        if (lid == 0) sycl::atomic_fetch_add(g[0][0], o.load() - wg);
      });
    });
  }
  // Per group, element (r, c) gets the work-items with lid % 2 == r and lid % 3 == c: lid % 6
  // fixes both, so 64 / 6 rounded by position.
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) {
      int per_group = 0;
      for (int lid = 0; lid < wg; ++lid) per_group += (lid % 2 == r && lid % 3 == c);
      CHECK(grid[r * 3 + c] == groups * per_group);
    }
  sycl::free(usm, q);

  if (g_failures) return 1;
  std::printf("legacy_atomics: all checks passed\n");
  return 0;
}
