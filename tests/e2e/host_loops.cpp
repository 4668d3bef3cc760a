// Issue 29: nd_range kernels as compiled work-item loops on the host device. Barriers in uniform
// loops and branches, a whole group returning early, private arrays and structs live across
// barriers, local memory reused across barriers, group algorithms in loops, sub-group functions at
// every size the device has (through the property and [[sycl::reqd_sub_group_size]]), 1024
// work-items per group with a large private footprint, kernels that stay on fibers and say
// why (SYCLONE_HOST_KERNELS=report: a sub-group function only some sub-groups reach, a
// sycl::stream), and a barrier only part of a group reaches: an asynchronous
// errc::kernel naming the kernel, after which the queue still works. Every result is checked
// against a sequential reference; e2e.host_loops.fibers runs the same kernels on fibers.
// SYCLONE_E2E_HOST_ONLY (the report and the divergent barrier are host behaviour).
#include "expect.hpp"
#include "host_kernels_report.hpp"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace syclex = sycl::ext::oneapi::experimental;

struct pair_t {
  int a;
  float b;
};

// Rounds of a ring shift through local memory: a barrier in a loop whose trip count the kernel
// object carries, a private array indexed at run time and a struct, both live across barriers.
void uniform_loop(sycl::queue& q) {
  constexpr std::size_t wg = 64, groups = 8, n = wg * groups;
  int rounds = 5;
  std::vector<int> out(n);
  {
    sycl::buffer<int> b(out.data(), n);
    q.submit([&](sycl::handler& h) {
      sycl::accessor o(b, h, sycl::write_only);
      sycl::local_accessor<int> ring(wg, h);
      h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        const int l = int(it.get_local_id(0));
        int history[8];
        pair_t p{l, 0.5f};
        int v = int(it.get_global_id(0));
        for (int r = 0; r < rounds; ++r) {
          ring[l] = v;
          sycl::group_barrier(it.get_group());
          v = ring[(l + 1) % int(wg)];
          history[(r + l) % 8] = v;
          p.a += v;
          p.b *= 2;
          sycl::group_barrier(it.get_group());
        }
        int h_sum = 0;
        for (int r = 0; r < rounds; ++r) h_sum += history[(r + l) % 8];
        o[it.get_global_id(0)] = p.a + h_sum + int(p.b);
      });
    });
  }
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t l = 0; l < wg; ++l) {
      int v = int(g * wg + l), a = int(l), s = 0;
      float b = 0.5f;
      for (int r = 0; r < rounds; ++r) {
        v = int(g * wg + (l + r + 1) % wg);
        a += v;
        s += v;
        b *= 2;
      }
      EXPECT(out[g * wg + l] == a + s + int(b));
      if (out[g * wg + l] != a + s + int(b)) return;
    }
}

// Different barriers on paths every work-item of a group takes alike, and groups that return
// before a barrier as a whole.
void uniform_branches(sycl::queue& q) {
  constexpr std::size_t wg = 32, groups = 6, n = wg * groups;
  std::vector<int> out(n, -1);
  {
    sycl::buffer<int> b(out.data(), n);
    q.submit([&](sycl::handler& h) {
      sycl::accessor o(b, h, sycl::read_write);
      sycl::local_accessor<int> t(wg, h);
      h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        std::size_t g = it.get_group(0), l = it.get_local_id(0);
        if (g == 3) return;
        t[l] = int(l * 10);
        if (g % 2 == 0) {
          sycl::group_barrier(it.get_group());
          o[it.get_global_id(0)] = t[wg - 1 - l];
        } else {
          it.barrier(sycl::access::fence_space::local_space);
          o[it.get_global_id(0)] = t[(l + 3) % wg] + 1;
        }
      });
    });
  }
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t l = 0; l < wg; ++l) {
      int expect = g == 3 ? -1 : g % 2 == 0 ? int((wg - 1 - l) * 10) : int(((l + 3) % wg) * 10 + 1);
      EXPECT(out[g * wg + l] == expect);
      if (out[g * wg + l] != expect) return;
    }
}

// One tile of local memory for two different things, barriers between; group algorithms in a
// loop (reduce, scans, broadcast), on a 2-D group.
void local_reuse_and_group_algorithms(sycl::queue& q) {
  constexpr std::size_t side = 8, groups = 4, n = side * side * groups;
  std::vector<float> out(n);
  std::vector<int> scans(n);
  {
    sycl::buffer<float> b(out.data(), n);
    sycl::buffer<int> s(scans.data(), n);
    q.submit([&](sycl::handler& h) {
      sycl::accessor o(b, h, sycl::write_only);
      sycl::accessor so(s, h, sycl::write_only);
      sycl::local_accessor<float, 2> t(sycl::range<2>(side, side), h);
      h.parallel_for(
          sycl::nd_range<2>({side * groups, side}, {side, side}), [=](sycl::nd_item<2> it) {
            std::size_t y = it.get_local_id(0), x = it.get_local_id(1);
            std::size_t i = it.get_global_linear_id();
            t[y][x] = float(y * side + x);
            sycl::group_barrier(it.get_group());
            float transposed = t[x][y];
            sycl::group_barrier(it.get_group());
            t[y][x] = transposed * 2; // the same tile, new contents
            sycl::group_barrier(it.get_group());
            float total = 0;
            int scan = 0;
            for (int round = 0; round < 3; ++round) {
              total +=
                  sycl::reduce_over_group(it.get_group(), t[y][x] + float(round), sycl::plus<>());
              scan += sycl::inclusive_scan_over_group(
                  it.get_group(), int(it.get_local_linear_id()) + round, sycl::plus<int>());
              scan += sycl::group_broadcast(it.get_group(), round * 7, 5);
            }
            o[i] = total + t[y][x];
            so[i] = scan;
          });
    });
  }
  const float tile_sum = 2.0f * float((side * side) * (side * side - 1) / 2);
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t k = 0; k < side * side; ++k) {
      std::size_t y = k / side, x = k % side;
      float total = 0;
      int scan = 0;
      for (int round = 0; round < 3; ++round) {
        total += tile_sum + float(round) * float(side * side);
        scan += int(k * (k + 1) / 2) + round * int(k + 1) + round * 7;
      }
      float expect = total + 2.0f * float(x * side + y);
      EXPECT(out[g * side * side + k] == expect);
      EXPECT(scans[g * side * side + k] == scan);
      if (out[g * side * side + k] != expect || scans[g * side * side + k] != scan) return;
    }
}

template <std::uint32_t S>
class sub_group_kernel;

// Every sub-group function the host lowers to an exchange, at size S.
template <std::uint32_t S>
void sub_group_functions(sycl::queue& q) {
  constexpr std::size_t wg = 64, n = wg * 4, outputs = 9;
  std::vector<int> out(n * outputs, -1);
  {
    sycl::buffer<int> b(out.data(), out.size());
    q.submit([&](sycl::handler& h) {
      sycl::accessor o(b, h, sycl::write_only);
      h.parallel_for<sub_group_kernel<S>>(
          sycl::nd_range<1>(n, wg), syclex::properties{syclex::sub_group_size<S>},
          [=](sycl::nd_item<1> it) {
            sycl::sub_group sg = it.get_sub_group();
            int v = int(it.get_global_id(0));
            std::size_t base = it.get_global_id(0) * outputs;
            o[base + 0] = int(sg.get_max_local_range()[0]);
            o[base + 1] = sycl::shift_group_left(sg, v, 1);
            o[base + 2] = sycl::shift_group_right(sg, v, 1);
            o[base + 3] = sycl::select_from_group(sg, v, 0);
            o[base + 4] = sycl::permute_group_by_xor(sg, v, 1);
            o[base + 5] = sycl::reduce_over_group(sg, v, sycl::plus<int>());
            o[base + 6] = sycl::inclusive_scan_over_group(sg, v, sycl::plus<int>());
            o[base + 7] = sycl::any_of_group(sg, v % 5 == 0) + 2 * sycl::all_of_group(sg, v >= 0);
            int acc = v;
            for (int round = 0; round < 3; ++round)
              acc += sycl::group_broadcast(sg, acc, round % S);
            o[base + 8] = acc;
          });
    });
  }
  for (std::size_t i = 0; i < n; ++i) {
    int v = int(i), lane = int(i % S), first = int(i - std::size_t(lane));
    int* r = &out[i * outputs];
    int sum = 0, scan = 0;
    bool any = false;
    for (int k = 0; k < int(S); ++k) {
      sum += first + k;
      if (k <= lane) scan += first + k;
      any |= (first + k) % 5 == 0;
    }
    int acc[S];
    for (int k = 0; k < int(S); ++k) acc[k] = first + k;
    for (int round = 0; round < 3; ++round) {
      int b = acc[round % S];
      for (int k = 0; k < int(S); ++k) acc[k] += b;
    }
    bool ok = r[0] == int(S) && r[1] == (lane + 1 < int(S) ? v + 1 : r[1]) &&
              r[2] == (lane > 0 ? v - 1 : r[2]) && r[3] == first &&
              r[4] == (S > 1 ? first + (lane ^ 1) : v) && r[5] == sum && r[6] == scan &&
              r[7] == int(any) + 2 && r[8] == acc[lane];
    if (!ok) {
      std::printf("FAIL sub-group size %u, work-item %zu: %d %d %d %d %d %d %d %d %d\n", S, i, r[0],
                  r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]);
      ++failures;
      return;
    }
  }
}

// SYCL 2020 5.8.1: the attribute instead of the property.
struct required_sixteen {
  int* out;
  [[sycl::reqd_sub_group_size(16)]] void operator()(sycl::nd_item<1> it) const {
    sycl::sub_group sg = it.get_sub_group();
    out[it.get_global_id(0)] =
        sycl::reduce_over_group(sg, 1, sycl::plus<int>()) + 100 * int(sg.get_local_linear_range());
  }
};

// 1024 work-items, each with 64 private floats that live across barriers.
void large_groups(sycl::queue& q) {
  constexpr std::size_t wg = 1024, n = wg * 2;
  std::vector<float> out(n);
  {
    sycl::buffer<float> b(out.data(), n);
    q.submit([&](sycl::handler& h) {
      sycl::accessor o(b, h, sycl::write_only);
      sycl::local_accessor<float> t(wg, h);
      h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        std::size_t l = it.get_local_id(0);
        float mine[64];
        for (int k = 0; k < 64; ++k) mine[k] = float(l) + float(k);
        t[l] = float(l);
        sycl::group_barrier(it.get_group());
        float neighbour = t[(l + 1) % wg];
        for (int k = 0; k < 64; ++k) mine[(k * 7 + int(l)) % 64] += neighbour;
        sycl::group_barrier(it.get_group());
        float s = 0;
        for (int k = 0; k < 64; ++k) s += mine[k];
        o[it.get_global_id(0)] = s;
      });
    });
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t l = i % wg;
    float expect = 64.0f * float(l) + 2016.0f + 64.0f * float((l + 1) % wg);
    EXPECT(out[i] == expect);
    if (out[i] != expect) return;
  }
}

class guarded_loop_kernel;

// A loop that only some work-items enter (its first index is the work-item's, its bound the row
// length), then a group algorithm: sycl_khr_group_interface's row-sum example. The loop's guard
// is a branch on the local id; the optimizer used to copy the group algorithm after it into both
// of its paths before the loop compiler ran (the call that reaches the barrier was not
// convergent), which kept the kernel on fibers. It must run as loops.
void guarded_loop(sycl::queue& q) {
  constexpr std::size_t rows = 96, cols = 100; // cols: not a multiple of the group size
  int* in = sycl::malloc_shared<int>(rows * cols, q);
  int* out = sycl::malloc_shared<int>(rows, q);
  for (std::size_t i = 0; i < rows * cols; ++i) in[i] = static_cast<int>(i % 1000);
  std::fill(out, out + rows, -1);
  q.parallel_for<guarded_loop_kernel>(sycl::nd_range<1>{256, 64}, [=](sycl::nd_item<1> it) {
     const sycl::group<1> g = it.get_group();
     for (std::size_t i = g.get_group_linear_id(); i < rows; i += g.get_group_linear_range()) {
       int sum = 0;
       for (std::size_t j = it.get_local_linear_id(); j < cols; j += g.get_local_linear_range())
         sum += in[i * cols + j];
       sum = sycl::reduce_over_group(g, sum, sycl::plus<>());
       if (g.leader()) out[i] = sum;
     }
   }).wait();
  for (std::size_t i = 0; i < rows; ++i) {
    int sum = 0;
    for (std::size_t j = 0; j < cols; ++j) sum += in[i * cols + j];
    EXPECT(out[i] == sum);
  }
  sycl::free(in, q);
  sycl::free(out, q);
}

class fallback_kernel;

// A sub-group function that only some sub-groups of the group reach: valid SYCL, beyond the loop
// compiler (it needs the whole work-group at every exchange), so the kernel runs on fibers.
void fallback(sycl::queue& q) {
  constexpr std::size_t wg = 64, n = wg * 2;
  std::vector<int> out(n, -1);
  {
    sycl::buffer<int> b(out.data(), n);
    q.submit([&](sycl::handler& h) {
      sycl::accessor o(b, h, sycl::write_only);
      h.parallel_for<fallback_kernel>(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        sycl::sub_group sg = it.get_sub_group();
        int v = 1;
        if (sg.get_group_linear_id() == 0) v = sycl::reduce_over_group(sg, v, sycl::plus<int>());
        o[it.get_global_id(0)] = v;
      });
    });
  }
  // The first sub-group of each group summed its 1s; the others kept 1.
  int sums = 0, ones = 0;
  for (std::size_t i = 0; i < n; ++i) (out[i] == 1 ? ones : sums) += 1;
  EXPECT(ones + sums == int(n));
  EXPECT(out[0] > 1 && out[wg - 1] == 1 && out[0] == out[wg]);
}

class streaming_kernel;

// A kernel that writes to a sycl::stream runs on fibers (each work-item's stream state lives on
// its fiber) and says so under SYCLONE_HOST_KERNELS=report.
void streaming(sycl::queue& q) {
  int* out = sycl::malloc_shared<int>(64, q);
  q.submit([&](sycl::handler& h) {
     sycl::stream s(1024, 64, h);
     h.parallel_for<streaming_kernel>(sycl::nd_range<1>(64, 32), [=](sycl::nd_item<1> it) {
       out[it.get_global_id(0)] = sycl::reduce_over_group(it.get_group(), 1, sycl::plus<int>());
       if (it.get_global_id(0) == 0) s << "streaming kernel ran" << sycl::endl;
     });
   }).wait();
  for (int i = 0; i < 64; ++i) EXPECT(out[i] == 32);
  sycl::free(out, q);
}

class divergent_kernel;

void divergent_barrier() {
  std::vector<std::exception_ptr> errors;
  sycl::queue q{[&](sycl::exception_list list) {
    for (auto& e : list) errors.push_back(e);
  }};
  int* data = sycl::malloc_shared<int>(64, q);
  std::fill(data, data + 64, 0);
  // A branch on a work-item's id before a barrier keeps a kernel on fibers (the loop compiler
  // sees it); this one branches on memory a work-item changes under the others' feet (a data
  // race), which looks the same for every work-item to the compiler: work-items 0-8 read 0,
  // the others 1 and return. The loops see it at run time.
  q.parallel_for<divergent_kernel>(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) {
     int seen = data[0];
     if (it.get_local_id(0) == 8) data[0] = 1;
     if (seen) return;
     sycl::group_barrier(it.get_group());
     data[it.get_local_id(0)] = 1;
   }).wait();
  q.wait_and_throw();
  EXPECT(errors.size() == 1);
  for (auto& e : errors) {
    try {
      std::rethrow_exception(e);
    } catch (const sycl::exception& x) {
      std::string what = x.what();
      EXPECT(x.code() == sycl::errc::kernel);
      EXPECT(what.find("divergent_kernel") != std::string::npos);
      EXPECT(what.find("did not all reach the same barrier") != std::string::npos);
    }
  }
  // The queue still works.
  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { data[i] = 2; }).wait();
  EXPECT(data[63] == 2);
  sycl::free(data, q);
}

int main() {
  const char* mode = std::getenv("SYCLONE_HOST_KERNELS");
  // The shuffled schedule (e2e.host_loops.shuffled) runs every kernel on fibers, like
  // SYCLONE_HOST_KERNELS=fibers: no report, and a barrier part of a group skips is tolerated.
  const char* schedule = std::getenv("SYCLONE_HOST_SCHEDULE");
  const bool loops = (!mode || std::strcmp(mode, "fibers") != 0) &&
                     !(schedule && std::strncmp(schedule, "shuffle", 7) == 0);
  // The fallback report goes to stderr: catch it in a file.
  host_kernels_report report(!mode && loops);
  EXPECT(!report.capturing() || report.redirected());
  sycl::queue q;
  uniform_loop(q);
  uniform_branches(q);
  local_reuse_and_group_algorithms(q);
  auto sizes = q.get_device().get_info<sycl::info::device::sub_group_sizes>();
  auto has = [&](std::size_t s) { return std::find(sizes.begin(), sizes.end(), s) != sizes.end(); };
  if (has(1)) sub_group_functions<1>(q);
  if (has(4)) sub_group_functions<4>(q);
  if (has(8)) sub_group_functions<8>(q);
  if (has(16)) sub_group_functions<16>(q);
  if (has(32)) sub_group_functions<32>(q);
  EXPECT(has(16));
  {
    int* out = sycl::malloc_shared<int>(128, q);
    q.parallel_for(sycl::nd_range<1>(128, 64), required_sixteen{out}).wait();
    for (int i = 0; i < 128; ++i) EXPECT(out[i] == 16 + 1600);
    sycl::free(out, q);
  }
  large_groups(q);
  guarded_loop(q);
  fallback(q);
  streaming(q);
  if (loops) divergent_barrier();
  if (report.capturing()) {
    std::string text = report.text();
    // The kernel with a sub-group function under a condition falls back; the others run as
    // loops.
    std::size_t lines = 0;
    for (std::size_t at = 0; (at = text.find("as fibers:", at)) != std::string::npos; ++at) ++lines;
    EXPECT(lines >= 1);
    EXPECT(text.find("fallback_kernel") != std::string::npos);
    EXPECT(text.find("streaming_kernel` as fibers: it writes to a sycl::stream") !=
           std::string::npos);
    EXPECT(text.find("uniform_loop") == std::string::npos);
    EXPECT(text.find("local_reuse") == std::string::npos);
    EXPECT(text.find("large_groups") == std::string::npos);
    EXPECT(text.find("guarded_loop") == std::string::npos);
    if (failures) std::printf("report was:\n%s\n", text.c_str());
  }
  std::printf("host_loops: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
