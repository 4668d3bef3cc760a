// SYCL 2020 4.7.6.11 local_accessor and 4.17.3 group_barrier / nd_item::barrier: tree
// reductions in work-group local memory, a 2-D tile transpose, several local accessors of
// different types in one kernel, and a kernel with hundreds of barriers. Every result depends
// on the barriers being real, so ctest also runs this program under the shuffled work-item
// schedule (SYCLONE_HOST_SCHEDULE=shuffle:...).
#include <sycl/sycl.hpp>

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// Sum of 0..n-1 per work-group, with group_barrier; partial sums reduced on the host.
void test_group_barrier_reduction(sycl::queue& q, std::size_t n, std::size_t wg) {
  std::vector<std::int64_t> in(n);
  std::iota(in.begin(), in.end(), 1);
  std::vector<std::int64_t> partial(n / wg, 0);
  {
    sycl::buffer<std::int64_t> bin(in.data(), sycl::range<1>(n));
    sycl::buffer<std::int64_t> bout(partial.data(), sycl::range<1>(n / wg));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(bin, h, sycl::read_only);
      sycl::accessor out(bout, h, sycl::write_only);
      sycl::local_accessor<std::int64_t, 1> scratch(sycl::range<1>(wg), h);
      h.parallel_for(sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(wg)),
                     [=](sycl::nd_item<1> it) {
                       std::size_t l = it.get_local_id(0);
                       scratch[l] = a[it.get_global_id()];
                       sycl::group_barrier(it.get_group());
                       for (std::size_t stride = wg / 2; stride > 0; stride /= 2) {
                         if (l < stride) scratch[l] += scratch[l + stride];
                         sycl::group_barrier(it.get_group());
                       }
                       if (it.get_group().leader()) out[it.get_group(0)] = scratch[0];
                     });
    });
  }
  std::int64_t total = std::accumulate(partial.begin(), partial.end(), std::int64_t{0});
  CHECK(total == static_cast<std::int64_t>(n) * static_cast<std::int64_t>(n + 1) / 2);
  for (std::size_t g = 0; g < partial.size(); ++g) {
    std::int64_t first = static_cast<std::int64_t>(g * wg) + 1;
    std::int64_t last = first + static_cast<std::int64_t>(wg) - 1;
    if (partial[g] != (first + last) * static_cast<std::int64_t>(wg) / 2) {
      std::printf("FAILED: group %zu of %zu: partial sum %lld\n", g, partial.size(),
                  static_cast<long long>(partial[g]));
      ++g_failures;
      break;
    }
  }
}

// The same with the deprecated nd_item::barrier and USM output, max reduction.
void test_nd_item_barrier_max(sycl::queue& q) {
  constexpr std::size_t n = 4096, wg = 128;
  int* data = sycl::malloc_shared<int>(n, q);
  int* out = sycl::malloc_shared<int>(n / wg, q);
  for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<int>((i * 7919) % 10007);
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<int> scratch(sycl::range<1>(wg), h);
     h.parallel_for(sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(wg)),
                    [=](sycl::nd_item<1> it) {
                      std::size_t l = it.get_local_id(0);
                      scratch[l] = data[it.get_global_id(0)];
                      it.barrier(sycl::access::fence_space::local_space);
                      for (std::size_t stride = wg / 2; stride > 0; stride /= 2) {
                        if (l < stride && scratch[l + stride] > scratch[l])
                          scratch[l] = scratch[l + stride];
                        it.barrier();
                      }
                      if (l == 0) out[it.get_group_linear_id()] = scratch[0];
                    });
   }).wait();
  bool ok = true;
  for (std::size_t g = 0; g < n / wg; ++g) {
    int m = 0;
    for (std::size_t i = g * wg; i < (g + 1) * wg; ++i) m = data[i] > m ? data[i] : m;
    ok = ok && out[g] == m;
  }
  CHECK(ok);
  sycl::free(data, q);
  sycl::free(out, q);
}

// 2-D tiles through local memory: out = transpose(in).
void test_tile_transpose(sycl::queue& q) {
  constexpr std::size_t R = 48, C = 32, T = 8;
  std::vector<float> in(R * C), out(C * R, -1.0f);
  for (std::size_t i = 0; i < R * C; ++i) in[i] = static_cast<float>(i);
  {
    sycl::buffer<float, 2> bin(in.data(), sycl::range<2>(R, C));
    sycl::buffer<float, 2> bout(out.data(), sycl::range<2>(C, R));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(bin, h, sycl::read_only);
      sycl::accessor o(bout, h, sycl::write_only);
      sycl::local_accessor<float, 2> tile(sycl::range<2>(T, T + 1), h);
      h.parallel_for(sycl::nd_range<2>(sycl::range<2>(R, C), sycl::range<2>(T, T)),
                     [=](sycl::nd_item<2> it) {
                       std::size_t lr = it.get_local_id(0), lc = it.get_local_id(1);
                       tile[lr][lc] = a[it.get_global_id()];
                       sycl::group_barrier(it.get_group());
                       // Work-item (lr, lc) writes the element another work-item loaded.
                       std::size_t out_row = it.get_group(1) * T + lr;
                       std::size_t out_col = it.get_group(0) * T + lc;
                       o[out_row][out_col] = tile[lc][lr];
                     });
    });
  }
  bool ok = true;
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t c = 0; c < C; ++c) ok = ok && out[c * R + r] == in[r * C + c];
  CHECK(ok);
}

// Several local accessors of different types and alignments in one kernel.
void test_many_local_accessors(sycl::queue& q) {
  constexpr std::size_t n = 256, wg = 64;
  int* out = sycl::malloc_shared<int>(n, q);
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<char, 1> c(sycl::range<1>(wg), h);
     sycl::local_accessor<double, 1> d(sycl::range<1>(wg), h);
     sycl::local_accessor<short, 2> s(sycl::range<2>(2, wg), h);
     sycl::local_accessor<int, 3> t(sycl::range<3>(1, 1, wg), h);
     CHECK(c.size() == wg && s.get_range() == sycl::range<2>(2, wg) && t.byte_size() == wg * 4);
     h.parallel_for(sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(wg)),
                    [=](sycl::nd_item<1> it) {
                      std::size_t l = it.get_local_id(0);
                      c[l] = static_cast<char>(l % 100);
                      d[l] = static_cast<double>(l) * 0.5;
                      s[0][l] = static_cast<short>(l);
                      s[1][l] = static_cast<short>(2 * l);
                      t[0][0][l] = static_cast<int>(it.get_group(0));
                      sycl::group_barrier(it.get_group());
                      std::size_t o = wg - 1 - l; // read what another work-item wrote
                      out[it.get_global_id(0)] = c[o] + static_cast<int>(d[o] * 2) + s[0][o] +
                                                 s[1][o] + t[0][0][o] * 100000;
                      // Local memory is aligned for its type.
                      if (reinterpret_cast<std::uintptr_t>(&d[0]) % alignof(double) != 0)
                        out[it.get_global_id(0)] = -1;
                    });
   }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t o = wg - 1 - i % wg;
    int expect = static_cast<int>(o % 100 + o + o + 2 * o + (i / wg) * 100000);
    ok = ok && out[i] == expect;
  }
  CHECK(ok);
  sycl::free(out, q);
}

// A kernel with 2 * 200 barriers: values rotate through local memory one slot per step.
void test_many_barriers(sycl::queue& q) {
  constexpr std::size_t n = 512, wg = 32;
  constexpr int steps = 200;
  int* out = sycl::malloc_shared<int>(n, q);
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<int> slot(sycl::range<1>(wg), h);
     h.parallel_for(sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(wg)),
                    [=](sycl::nd_item<1> it) {
                      std::size_t l = it.get_local_id(0);
                      int mine = static_cast<int>(it.get_global_id(0));
                      for (int s = 0; s < steps; ++s) {
                        slot[l] = mine;
                        sycl::group_barrier(it.get_group());
                        mine = slot[(l + 1) % wg] + 1;
                        sycl::group_barrier(it.get_group());
                      }
                      out[it.get_global_id(0)] = mine;
                    });
   }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t g = i / wg, l = i % wg;
    int expect = static_cast<int>(g * wg + (l + steps) % wg) + steps;
    ok = ok && out[i] == expect;
  }
  CHECK(ok);
  sycl::free(out, q);
}
} // namespace

int main() {
  sycl::queue q;
  test_group_barrier_reduction(q, 4096, 64);
  test_group_barrier_reduction(q, 1024, 1024);
  test_group_barrier_reduction(q, 64, 2);
  test_nd_item_barrier_max(q);
  test_tile_transpose(q);
  test_many_local_accessors(q);
  test_many_barriers(q);
  if (g_failures) {
    std::printf("local_memory_barriers: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("local_memory_barriers: PASSED\n");
  return 0;
}
