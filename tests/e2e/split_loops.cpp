// Issue 29: loops whose work-items leave them after different numbers of iterations (grid-stride
// loops, a tile's cooperative copy) run on the host device one iteration of every work-item at a
// time (tools/syclone-host-loops, split_divergent_loops), with several iterations per region for
// small work-groups. Each kernel here is checked against a sequential reference, at small and
// large work-groups and with sizes that leave uneven trip counts: an induction variable read
// after the loop, a pointer induction, a loop leaving early through `break`, a loop in a uniform
// loop with a barrier, an inner loop in each iteration, a loop that only one work-item runs (not
// split), and a BabelStream-style dot product (grid-stride loop into local memory, then a
// tree). e2e.split_loops.fibers runs the same kernels on fibers; with
// SYCLONE_HOST_KERNELS=report no kernel here may fall back.
#include "expect.hpp"
#include "host_kernels_report.hpp"

#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// y = 2x + y over n elements with a grid-stride loop; the loop's last index per work-item is
// written after it (an induction variable live after the loop).
void grid_stride(sycl::queue& q, std::size_t n, std::size_t wg, std::size_t groups) {
  const std::size_t global = wg * groups;
  float* x = sycl::malloc_shared<float>(n, q);
  float* y = sycl::malloc_shared<float>(n, q);
  long* last = sycl::malloc_shared<long>(global, q);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = float(i % 97);
    y[i] = float(i % 13);
  }
  q.parallel_for(sycl::nd_range<1>(global, wg), [=](sycl::nd_item<1> it) {
     std::size_t i = it.get_global_id(0);
     for (; i < n; i += it.get_global_range(0)) y[i] = 2.0f * x[i] + y[i];
     last[it.get_global_id(0)] = long(i);
   }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n && ok; ++i) ok = y[i] == 2.0f * float(i % 97) + float(i % 13);
  EXPECT(ok);
  for (std::size_t g = 0; g < global && ok; ++g) {
    std::size_t end = g;
    while (end < n) end += global;
    ok = last[g] == long(end);
  }
  EXPECT(ok);
  if (!ok) std::printf("  grid_stride n=%zu wg=%zu groups=%zu\n", n, wg, groups);
  sycl::free(x, q);
  sycl::free(y, q);
  sycl::free(last, q);
}

// BabelStream v5.0's SYCL 1.2.1 Dot: each work-item sums its grid-stride share into local memory,
// then a tree over the group with a barrier per step.
double dot(sycl::queue& q, std::size_t n, std::size_t wg, std::size_t groups) {
  std::vector<double> a(n), b(n), sums(groups);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = double(i % 7) * 0.5;
    b[i] = double(i % 5) + 1.0;
  }
  {
    sycl::buffer<double> da(a.data(), n), db(b.data(), n), ds(sums.data(), groups);
    q.submit([&](sycl::handler& h) {
      sycl::accessor ka(da, h, sycl::read_only);
      sycl::accessor kb(db, h, sycl::read_only);
      sycl::accessor ks(ds, h, sycl::write_only);
      sycl::local_accessor<double> wg_sum(wg, h);
      h.parallel_for(sycl::nd_range<1>(groups * wg, wg), [=](sycl::nd_item<1> item) {
        std::size_t i = item.get_global_id(0);
        std::size_t li = item.get_local_id(0);
        std::size_t global_size = item.get_global_range()[0];
        wg_sum[li] = 0.0;
        for (; i < n; i += global_size) wg_sum[li] += ka[i] * kb[i];
        std::size_t local_size = item.get_local_range()[0];
        for (int offset = int(local_size / 2); offset > 0; offset /= 2) {
          item.barrier(sycl::access::fence_space::local_space);
          if (li < std::size_t(offset)) wg_sum[li] += wg_sum[li + offset];
        }
        if (li == 0) ks[item.get_group(0)] = wg_sum[0];
      });
    });
  }
  double total = 0;
  for (double s : sums) total += s;
  double expect = 0;
  for (std::size_t i = 0; i < n; ++i) expect += a[i] * b[i];
  EXPECT(std::fabs(total - expect) <= 1e-9 * expect);
  return total;
}

// A tile copied cooperatively (trip counts differ by one between work-items when the tile is not
// a multiple of the group), used after a barrier; the tile's rounds in a uniform loop.
void cooperative_tiles(sycl::queue& q, std::size_t wg) {
  constexpr std::size_t tile = 100, rounds = 3, groups = 5;
  std::vector<int> in(tile * rounds * groups), out(wg * groups);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = int(i * 3 % 101);
  {
    sycl::buffer<int> bi(in.data(), in.size()), bo(out.data(), out.size());
    q.submit([&](sycl::handler& h) {
      sycl::accessor ki(bi, h, sycl::read_only);
      sycl::accessor ko(bo, h, sycl::write_only);
      sycl::local_accessor<int> t(tile, h);
      h.parallel_for(sycl::nd_range<1>(wg * groups, wg), [=](sycl::nd_item<1> it) {
        std::size_t l = it.get_local_id(0), g = it.get_group(0), size = it.get_local_range(0);
        int acc = 0;
        for (std::size_t r = 0; r < rounds; ++r) {
          const std::size_t base = (g * rounds + r) * tile;
          for (std::size_t j = l; j < tile; j += size) t[j] = ki[base + j];
          sycl::group_barrier(it.get_group());
          acc += t[(l * 7 + r) % tile] - t[tile - 1 - l % tile];
          sycl::group_barrier(it.get_group());
        }
        ko[it.get_global_id(0)] = acc;
      });
    });
  }
  bool ok = true;
  for (std::size_t g = 0; g < groups && ok; ++g)
    for (std::size_t l = 0; l < wg && ok; ++l) {
      int acc = 0;
      for (std::size_t r = 0; r < rounds; ++r) {
        const std::size_t base = (g * rounds + r) * tile;
        acc += in[base + (l * 7 + r) % tile] - in[base + tile - 1 - l % tile];
      }
      ok = out[g * wg + l] == acc;
    }
  EXPECT(ok);
}

// A pointer induction; `break` out of the loop at a per-work-item place; an inner loop in each
// iteration; a loop that one work-item runs alone (behind `l == 0`, left unsplit).
void loop_forms(sycl::queue& q, std::size_t wg) {
  constexpr std::size_t groups = 3;
  const std::size_t n = wg * 37 + 5, global = wg * groups;
  int* in = sycl::malloc_shared<int>(4 * n, q);
  int* sums = sycl::malloc_shared<int>(global, q);
  int* stops = sycl::malloc_shared<int>(global, q);
  int* rows = sycl::malloc_shared<int>(n, q);
  int* serial = sycl::malloc_shared<int>(groups, q);
  for (std::size_t i = 0; i < 4 * n; ++i) in[i] = int(i % 11) - (i % 53 == 52 ? 100 : 0);
  q.parallel_for(sycl::nd_range<1>(global, wg), [=](sycl::nd_item<1> it) {
     const std::size_t gid = it.get_global_id(0), stride = it.get_global_range(0);
     int s = 0;
     for (const int* p = in + gid; p < in + n; p += stride) s += *p;
     sums[gid] = s;
     int stop = -1;
     for (std::size_t i = gid; i < n; i += stride) {
       if (in[i] < 0) {
         stop = int(i);
         break;
       }
     }
     stops[gid] = stop;
     for (std::size_t i = gid; i < n; i += stride) {
       int row = 0;
       for (int k = 0; k < 4; ++k) row += in[4 * i + k] * (k + 1);
       rows[i] = row;
     }
     if (it.get_local_id(0) == 0) {
       int t = 0;
       for (std::size_t i = 0; i < n; ++i) t += in[i] * int(it.get_group(0) + 1);
       serial[it.get_group(0)] = t;
     }
   }).wait();
  bool ok = true;
  for (std::size_t g = 0; g < global && ok; ++g) {
    int s = 0, stop = -1;
    for (std::size_t i = g; i < n; i += global) s += in[i];
    for (std::size_t i = g; i < n; i += global)
      if (in[i] < 0) {
        stop = int(i);
        break;
      }
    ok = sums[g] == s && stops[g] == stop;
  }
  EXPECT(ok);
  for (std::size_t i = 0; i < n && ok; ++i)
    ok = rows[i] == in[4 * i] + 2 * in[4 * i + 1] + 3 * in[4 * i + 2] + 4 * in[4 * i + 3];
  EXPECT(ok);
  for (std::size_t g = 0; g < groups && ok; ++g) {
    int t = 0;
    for (std::size_t i = 0; i < n; ++i) t += in[i] * int(g + 1);
    ok = serial[g] == t;
  }
  EXPECT(ok);
  sycl::free(in, q);
  sycl::free(sums, q);
  sycl::free(stops, q);
  sycl::free(rows, q);
  sycl::free(serial, q);
}

// A sub-group reduction, then a grid-stride loop (loops whose lane loop is a sub-group).
void after_sub_group(sycl::queue& q) {
  constexpr std::size_t wg = 64, groups = 4, global = wg * groups, n = global * 5 + 17;
  float* x = sycl::malloc_shared<float>(n, q);
  float* out = sycl::malloc_shared<float>(n, q);
  unsigned* size = sycl::malloc_shared<unsigned>(1, q);
  for (std::size_t i = 0; i < n; ++i) x[i] = float(i % 9);
  q.parallel_for(sycl::nd_range<1>(global, wg), [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     float s = sycl::reduce_over_group(sg, x[it.get_global_id(0)], sycl::plus<>());
     if (it.get_global_id(0) == 0) *size = sg.get_max_local_range()[0];
     for (std::size_t i = it.get_global_id(0); i < n; i += global) out[i] = x[i] + s;
   }).wait();
  bool ok = *size > 0 && wg % *size == 0;
  for (std::size_t i = 0; i < n && ok; ++i) {
    // Work-item i % global; its sub-group's work-items are consecutive in its group.
    std::size_t first = i % global / *size * *size;
    float s = 0;
    for (std::size_t k = first; k < first + *size; ++k) s += x[k];
    ok = out[i] == x[i] + s;
  }
  EXPECT(ok);
  sycl::free(x, q);
  sycl::free(out, q);
  sycl::free(size, q);
}

int main() {
  host_kernels_report report(std::getenv("SYCLONE_HOST_KERNELS") == nullptr);
  EXPECT(!report.capturing() || report.redirected());
  sycl::queue q;
  for (std::size_t wg : {1, 4, 16, 64, 256}) {
    grid_stride(q, 10007, wg, 3);
    grid_stride(q, wg * 3 - 1, wg, 3); // fewer elements than work-items
    grid_stride(q, 0, wg, 2);
    dot(q, 4099, wg, 4);
    cooperative_tiles(q, wg);
    loop_forms(q, wg);
  }
  after_sub_group(q);
  // (Under ASan the dot product's tree can stay on fibers: none_on_fibers allows for it.)
  EXPECT(report.none_on_fibers(failures != 0));
  std::printf("split_loops: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
