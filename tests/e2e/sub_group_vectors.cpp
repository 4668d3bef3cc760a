// Sub-group shifts, shuffles and reductions in the shapes the host device's work-item loop
// compiler runs as vectors (issue 29): at each sub-group size the device has, shifts by every
// kind of distance (0, 1, 3, size - 1, size, beyond) in both directions, of 4-, 8- and 24-byte
// values and of bools (no bytes but their own sub-group's may be read as a bool: UBSan), in
// work-groups whose innermost range holds whole sub-groups (1-D 64, 2-D 4x16: the lane loop is one
// sub-group) and in ones that do not (2-D 6x10, 1-D 40: a partial last sub-group); a sum by shifts
// in a loop whose counter lives across the exchanges; a local-memory tree whose counter lives
// across barriers; a counter that a region reads before its write on one path and after it on
// another; regions guarded by a local id below a bound of every kind; every sub-group collective
// at every size (the loops for a size the kernel requires); and one kernel type launched with two
// sizes. Every result is checked against a sequential reference.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

namespace syclex = sycl::ext::oneapi::experimental;

static int failures = 0;

struct triple {
  double a, b, c;
};
bool operator==(const triple& x, const triple& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c;
}

template <typename T>
T make(int v) {
  if constexpr (std::is_same_v<T, triple>)
    return {double(v), -double(v), 0.5 * v};
  else
    return T(v);
}

constexpr std::uint32_t distances[] = {0, 1, 3, 1000};

template <std::uint32_t S, typename T, int D>
class shift_kernel;

// out[i * k + j]: shift j of work-item i (left then right for each distance, and size - 1, size).
template <std::uint32_t S, typename T, int D>
void shifts(sycl::queue& q, sycl::range<D> global, sycl::range<D> local) {
  constexpr int per_item = 2 * (std::size(distances) + 2);
  const std::size_t n = global.size();
  // (Not std::vector, which packs bools.)
  std::unique_ptr<T[]> out(new T[n * per_item]);
  std::fill_n(out.get(), n * per_item, make<T>(-7));
  {
    sycl::buffer<T> b(out.get(), n * per_item);
    q.submit([&](sycl::handler& h) {
      sycl::accessor o(b, h, sycl::write_only);
      h.parallel_for<shift_kernel<S, T, D>>(sycl::nd_range<D>(global, local),
                                            syclex::properties{syclex::sub_group_size<S>},
                                            [=](sycl::nd_item<D> it) {
                                              sycl::sub_group sg = it.get_sub_group();
                                              T v = make<T>(int(it.get_global_linear_id()));
                                              std::size_t at = it.get_global_linear_id() * per_item;
                                              std::uint32_t d[std::size(distances) + 2];
                                              for (std::size_t k = 0; k < std::size(distances); ++k)
                                                d[k] = distances[k];
                                              d[std::size(distances)] = S - 1;
                                              d[std::size(distances) + 1] = S;
                                              for (std::uint32_t delta : d) {
                                                o[at++] = sycl::shift_group_left(sg, v, delta);
                                                o[at++] = sycl::shift_group_right(sg, v, delta);
                                              }
                                            });
    });
  }
  // The reference: sub-groups are consecutive local linear ids within each work-group.
  const std::size_t group_items = local.size();
  for (std::size_t i = 0; i < n; ++i) {
    // global linear id i -> its work-group and local linear id
    sycl::id<D> g;
    std::size_t rest = i;
    for (int k = D - 1; k >= 0; --k) {
      g[k] = rest % global[k];
      rest /= global[k];
    }
    std::size_t local_linear = 0, group_first_global = 0;
    for (int k = 0; k < D; ++k) local_linear = local_linear * local[k] + g[k] % local[k];
    (void)group_first_global;
    std::size_t lane = local_linear % S, first_local = local_linear - lane;
    std::size_t size = std::min<std::size_t>(S, group_items - first_local);
    auto global_of = [&](std::size_t local_id) {
      // the global linear id of the work-item with local linear id local_id in i's group
      sycl::id<D> l;
      std::size_t r = local_id;
      for (int k = D - 1; k >= 0; --k) {
        l[k] = r % local[k];
        r /= local[k];
      }
      std::size_t lin = 0;
      for (int k = 0; k < D; ++k) lin = lin * global[k] + (g[k] - g[k] % local[k] + l[k]);
      return lin;
    };
    const T* r = &out[i * per_item];
    std::uint32_t d[std::size(distances) + 2];
    for (std::size_t k = 0; k < std::size(distances); ++k) d[k] = distances[k];
    d[std::size(distances)] = S - 1;
    d[std::size(distances) + 1] = S;
    int j = 0;
    for (std::uint32_t delta : d) {
      // Where the source lane lies outside the sub-group the result is unspecified (SYCL 2020
      // shift_group_left/right): only the others are checked.
      bool left_ok = lane + delta >= size || r[j] == make<T>(int(global_of(local_linear + delta)));
      bool right_ok = delta > lane || r[j + 1] == make<T>(int(global_of(local_linear - delta)));
      if (!left_ok || !right_ok) {
        std::printf("FAIL shifts S=%u D=%d T=%zu bytes, item %zu, delta %u\n", S, D, sizeof(T), i,
                    delta);
        ++failures;
        return;
      }
      j += 2;
    }
  }
}

template <std::uint32_t S>
class sums_kernel;

// Per-group sums three ways: sub-group shifts in a loop (its counter lives across the
// exchanges), reduce_over_group of the sub-group, and a local-memory tree (its counter lives
// across barriers); and a counter a region reads before its write on one path, after it on
// the other.
template <std::uint32_t S>
void sums(sycl::queue& q) {
  constexpr std::size_t wg = 64, n = wg * 8;
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = float(i % 13);
  std::vector<float> shift_sums(n / S), reduce_sums(n / S), tree_sums(n / wg);
  std::vector<int> counters(n);
  {
    sycl::buffer<float> bi(in.data(), n), bs(shift_sums.data(), n / S),
        br(reduce_sums.data(), n / S), bt(tree_sums.data(), n / wg);
    sycl::buffer<int> bc(counters.data(), n);
    q.submit([&](sycl::handler& h) {
      sycl::accessor i(bi, h, sycl::read_only);
      sycl::accessor s(bs, h, sycl::write_only), r(br, h, sycl::write_only),
          t(bt, h, sycl::write_only);
      sycl::accessor c(bc, h, sycl::write_only);
      sycl::local_accessor<float> tree(wg, h);
      h.parallel_for<sums_kernel<S>>(
          sycl::nd_range<1>(n, wg), syclex::properties{syclex::sub_group_size<S>},
          [=](sycl::nd_item<1> it) {
            sycl::sub_group sg = it.get_sub_group();
            std::size_t gid = it.get_global_id(0), l = it.get_local_id(0);
            float v = i[gid];
            for (std::uint32_t d = S / 2; d > 0; d /= 2) v += sycl::shift_group_left(sg, v, d);
            float red = sycl::reduce_over_group(sg, i[gid], sycl::plus<float>());
            if (sg.leader()) {
              s[gid / S] = v;
              r[gid / S] = red;
            }
            tree[l] = i[gid];
            for (std::size_t step = wg / 2; step > 0; step /= 2) {
              sycl::group_barrier(it.get_group());
              if (l < step) tree[l] += tree[l + step];
            }
            if (l == 0) t[it.get_group(0)] = tree[0];
            int k = 0, acc = 0;
            for (int round = 0; round < 5; ++round) {
              sycl::group_barrier(it.get_group());
              if (round % 2 == 0) k += round + 1;
              acc += k;
            }
            c[gid] = acc + int(l);
          });
    });
  }
  for (std::size_t g = 0; g < n / S; ++g) {
    float ref = 0;
    for (std::size_t k = 0; k < S; ++k) ref += in[g * S + k];
    if (shift_sums[g] != ref || reduce_sums[g] != ref) {
      std::printf("FAIL sums S=%u sub-group %zu: shifts %g reduce %g, expected %g\n", S, g,
                  shift_sums[g], reduce_sums[g], ref);
      ++failures;
      return;
    }
  }
  for (std::size_t g = 0; g < n / wg; ++g) {
    float ref = 0;
    for (std::size_t k = 0; k < wg; ++k) ref += in[g * wg + k];
    if (tree_sums[g] != ref) {
      std::printf("FAIL tree S=%u group %zu: %g, expected %g\n", S, g, tree_sums[g], ref);
      ++failures;
      return;
    }
  }
  int k = 0, acc = 0;
  for (int round = 0; round < 5; ++round) {
    if (round % 2 == 0) k += round + 1;
    acc += k;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (counters[i] != acc + int(i % wg)) {
      std::printf("FAIL counter S=%u item %zu: %d, expected %d\n", S, i, counters[i],
                  acc + int(i % wg));
      ++failures;
      return;
    }
}

class guarded_kernel;

// Regions that start with `if (local id < bound)`: bounds from the kernel object that are
// negative, zero, inside, equal to and beyond the group, compared signed and unsigned, and
// `local id == 0` and `!= 0` (the host's loops run such a region only up to the bound).
void guarded_regions(sycl::queue& q) {
  constexpr std::size_t wg = 64, n = wg * 3;
  struct bounds_t {
    int v[5];
  } bounds{{-3, 0, 17, 64, 1000}};
  std::vector<int> out(n, -1);
  {
    sycl::buffer<int> b(out.data(), n);
    q.submit([&](sycl::handler& h) {
      sycl::accessor o(b, h, sycl::write_only);
      sycl::local_accessor<int> t(wg, h);
      h.parallel_for<guarded_kernel>(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        int l = int(it.get_local_id(0));
        t[l] = 0;
        for (int round = 0; round < 5; ++round) {
          sycl::group_barrier(it.get_group());
          if (l < bounds.v[round]) t[l] += round + 1;
        }
        sycl::group_barrier(it.get_group());
        std::size_t ul = it.get_local_id(0);
        if (ul < std::size_t(bounds.v[3] / 2)) t[ul] += 100;
        sycl::group_barrier(it.get_group());
        // The group's leader alone (the loops visit one work-item), then all but the leader.
        if (it.get_local_id(0) == 0) t[wg - 1] += 1000;
        sycl::group_barrier(it.get_group());
        if (it.get_local_id(0) != 0) t[ul] += 10000;
        sycl::group_barrier(it.get_group());
        o[it.get_global_id(0)] = t[(l + 1) % int(wg)];
      });
    });
  }
  for (std::size_t i = 0; i < n; ++i) {
    int l = int((i + 1) % wg),
        expect = (l < 32 ? 100 : 0) + (l == int(wg) - 1 ? 1000 : 0) + (l != 0 ? 10000 : 0);
    for (int round = 0; round < 5; ++round)
      if (l < bounds.v[round]) expect += round + 1;
    if (out[i] != expect) {
      std::printf("FAIL guarded regions, item %zu: %d, expected %d\n", i, out[i], expect);
      ++failures;
      return;
    }
  }
}

template <std::uint32_t S, int Shape>
class collectives_kernel;

// Every sub-group collective the host runs as vector code, at size S, in work-groups of whole
// sub-groups (64) and with a partial last one (40): reductions (sums, maxima, bitwise and
// logical), inclusive and exclusive scans, votes, broadcasts, selects, butterflies whose mask is
// a loop counter living across the exchanges, and results written by the leader alone or by the
// lanes below a bound taken from the kernel object (the host's loops visit only those lanes).
template <std::uint32_t S, int Shape>
void collectives(sycl::queue& q, std::size_t wg) {
  constexpr int per_item = 12;
  const std::size_t n = wg * 3;
  struct params_t {
    std::uint32_t bound;
  } params{S > 2 ? S / 2 - 1 : 1};
  std::vector<int> out(n * per_item, -7);
  {
    sycl::buffer<int> b(out.data(), out.size());
    q.submit([&](sycl::handler& h) {
      sycl::accessor o(b, h, sycl::write_only);
      h.parallel_for<collectives_kernel<S, Shape>>(
          sycl::nd_range<1>(n, wg), syclex::properties{syclex::sub_group_size<S>},
          [=](sycl::nd_item<1> it) {
            sycl::sub_group sg = it.get_sub_group();
            std::size_t gid = it.get_global_id(0), at = gid * per_item;
            int v = int(gid % 23) - 5;
            std::uint32_t lane = sg.get_local_linear_id();
            o[at + 0] = sycl::reduce_over_group(sg, v, sycl::plus<int>());
            o[at + 1] = sycl::reduce_over_group(sg, v, sycl::maximum<int>());
            o[at + 2] = sycl::reduce_over_group(sg, 1 << (gid % 7), sycl::bit_or<int>());
            o[at + 3] = sycl::reduce_over_group(sg, v > -4, sycl::logical_and<bool>());
            o[at + 4] = sycl::inclusive_scan_over_group(sg, v, sycl::plus<int>());
            o[at + 5] = sycl::exclusive_scan_over_group(sg, v, sycl::plus<int>());
            o[at + 6] = sycl::any_of_group(sg, v == 7) + 2 * sycl::all_of_group(sg, v < 17);
            o[at + 7] = sycl::group_broadcast(sg, v, sg.get_local_linear_range() - 1);
            o[at + 8] = sycl::select_from_group(sg, v, (lane * 5 + 3) % S);
            int x = v;
            for (std::uint32_t m = 1; m < sg.get_max_local_range()[0]; m *= 2)
              x += sycl::permute_group_by_xor(sg, x, m);
            o[at + 9] = x;
            float f = sycl::reduce_over_group(sg, float(v), sycl::plus<float>());
            if (sg.leader()) o[at + 10] = int(f);
            int bounded = sycl::inclusive_scan_over_group(sg, v, sycl::maximum<int>());
            if (lane < params.bound) o[at + 11] = bounded;
          });
    });
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t local = i % wg, lane = local % S, first = i - lane;
    std::size_t size = std::min<std::size_t>(S, wg - (local - lane));
    auto value = [](std::size_t g) { return int(g % 23) - 5; };
    int sum = 0, max = -100, bits = 0, scan_max = -100;
    bool all_above = true, any7 = false, all17 = true;
    int inclusive = 0, exclusive = 0;
    for (std::size_t k = 0; k < size; ++k) {
      int w = value(first + k);
      sum += w;
      max = std::max(max, w);
      bits |= 1 << ((first + k) % 7);
      all_above = all_above && w > -4;
      any7 = any7 || w == 7;
      all17 = all17 && w < 17;
      if (k <= lane) {
        inclusive += w;
        scan_max = std::max(scan_max, w);
      }
      if (k < lane) exclusive += w;
    }
    // The butterfly: where a partner lies outside a partial sub-group the value is unspecified.
    bool butterfly_defined = size == S;
    const int* r = &out[i * per_item];
    int expect[per_item] = {sum,
                            max,
                            bits,
                            int(all_above),
                            inclusive,
                            exclusive,
                            int(any7) + 2 * int(all17),
                            value(first + size - 1),
                            (lane * 5 + 3) % S < size ? value(first + (lane * 5 + 3) % S) : r[8],
                            butterfly_defined ? sum : r[9],
                            lane == 0 ? sum : -7,
                            lane < params.bound ? scan_max : -7};
    for (int j = 0; j < per_item; ++j)
      if (r[j] != expect[j]) {
        std::printf("FAIL collectives S=%u wg=%zu item %zu result %d: %d, expected %d\n", S, wg, i,
                    j, r[j], expect[j]);
        ++failures;
        return;
      }
  }
}

// One kernel type launched with two sub-group sizes: each launch gets the loops of its own size.
struct twice_sum {
  sycl::accessor<int, 1, sycl::access_mode::write> out;
  void operator()(sycl::nd_item<1> it) const {
    sycl::sub_group sg = it.get_sub_group();
    int s = sycl::reduce_over_group(sg, int(it.get_global_id(0)), sycl::plus<int>());
    out[it.get_global_id(0)] = s * 100 + int(sg.get_local_linear_range());
  }
};

template <std::uint32_t S>
void twice_at(sycl::queue& q) {
  constexpr std::size_t n = 128;
  std::vector<int> out(n, -1);
  {
    sycl::buffer<int> b(out.data(), n);
    q.submit([&](sycl::handler& h) {
      twice_sum k{sycl::accessor<int, 1, sycl::access_mode::write>(b, h)};
      h.parallel_for(sycl::nd_range<1>(n, 64), syclex::properties{syclex::sub_group_size<S>}, k);
    });
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t first = i - i % S;
    int sum = 0;
    for (std::size_t k = 0; k < S; ++k) sum += int(first + k);
    if (out[i] != sum * 100 + int(S)) {
      std::printf("FAIL twice_sum S=%u item %zu: %d, expected %d\n", S, i, out[i],
                  sum * 100 + int(S));
      ++failures;
      return;
    }
  }
}

class halo_kernel;
class halo_2d_kernel;

// Stencils whose tile is filled by every work-item and whose halo by one work-item at each end
// (`if (l == 0)`, `if (l == wg - 1)` before the barrier: the host's loops run each halo as a
// region of that one work-item), in 1-D and with the halo on the innermost dimension of 2-D
// groups; and a value only the first work-item sets before the barrier and reads after it.
void halo_regions(sycl::queue& q) {
  constexpr std::size_t wg = 64, n = wg * 5;
  std::vector<float> in(n), out(n, -1), out2(n, -1);
  std::vector<int> first(n, -1);
  for (std::size_t i = 0; i < n; ++i) in[i] = float((i * 7) % 11);
  {
    sycl::buffer<float> bi(in.data(), n), bo(out.data(), n), bo2(out2.data(), n);
    sycl::buffer<int> bf(first.data(), n);
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(bi, h, sycl::read_only);
      sycl::accessor o(bo, h, sycl::write_only);
      sycl::accessor f(bf, h, sycl::write_only);
      sycl::local_accessor<float> t(wg + 2, h);
      h.parallel_for<halo_kernel>(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        std::size_t i = it.get_global_id(0), l = it.get_local_id(0);
        int mark = -1;
        t[l + 1] = a[i];
        if (l == 0) t[0] = i > 0 ? a[i - 1] : 0.0f;
        if (l == wg - 1) t[wg + 1] = i + 1 < n ? a[i + 1] : 0.0f;
        if (l == 0) mark = int(it.get_group(0));
        sycl::group_barrier(it.get_group());
        o[i] = t[l] + 2 * t[l + 1] + 4 * t[l + 2];
        f[i] = mark;
      });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(bi, h, sycl::read_only);
      sycl::accessor o(bo2, h, sycl::write_only);
      sycl::local_accessor<float, 2> t(sycl::range<2>(8, 10), h);
      // 8 rows of n / 8 = 40 columns in groups of 8 x 8.
      h.parallel_for<halo_2d_kernel>(
          sycl::nd_range<2>(sycl::range<2>(8, n / 8), sycl::range<2>(8, 8)),
          [=](sycl::nd_item<2> it) {
            std::size_t r = it.get_local_id(0), c = it.get_local_id(1);
            std::size_t row = it.get_global_id(0), col = it.get_global_id(1), w = n / 8;
            t[r][c + 1] = a[row * w + col];
            if (c == 0) t[r][0] = col > 0 ? a[row * w + col - 1] : 0.0f;
            if (c == 7) t[r][9] = col + 1 < w ? a[row * w + col + 1] : 0.0f;
            sycl::group_barrier(it.get_group());
            o[row * w + col] = t[r][c] + 2 * t[r][c + 1] + 4 * t[r][c + 2];
          });
    });
  }
  for (std::size_t i = 0; i < n; ++i) {
    float left = i > 0 ? in[i - 1] : 0.0f, right = i + 1 < n ? in[i + 1] : 0.0f;
    float expect = left + 2 * in[i] + 4 * right;
    std::size_t w = n / 8, col = i % w;
    float left2 = col > 0 ? in[i - 1] : 0.0f, right2 = col + 1 < w ? in[i + 1] : 0.0f;
    float expect2 = left2 + 2 * in[i] + 4 * right2;
    int mark = i % wg == 0 ? int(i / wg) : -1;
    if (out[i] != expect || out2[i] != expect2 || first[i] != mark) {
      std::printf("FAIL halo regions, item %zu: %g %g %d, expected %g %g %d\n", i, out[i], out2[i],
                  first[i], expect, expect2, mark);
      ++failures;
      return;
    }
  }
}

template <std::uint32_t S>
void at_size(sycl::queue& q) {
  collectives<S, 0>(q, 64);
  collectives<S, 1>(q, 40);
  shifts<S, int, 1>(q, sycl::range<1>(256), sycl::range<1>(64));
  shifts<S, double, 1>(q, sycl::range<1>(256), sycl::range<1>(64));
  shifts<S, triple, 1>(q, sycl::range<1>(128), sycl::range<1>(64));
  shifts<S, bool, 1>(q, sycl::range<1>(128), sycl::range<1>(64));
  shifts<S, int, 1>(q, sycl::range<1>(120), sycl::range<1>(40));
  shifts<S, float, 2>(q, sycl::range<2>(8, 32), sycl::range<2>(4, 16));
  shifts<S, int, 2>(q, sycl::range<2>(12, 20), sycl::range<2>(6, 10));
  sums<S>(q);
}

int main() {
  sycl::queue q;
  auto sizes = q.get_device().get_info<sycl::info::device::sub_group_sizes>();
  auto has = [&](std::size_t s) { return std::find(sizes.begin(), sizes.end(), s) != sizes.end(); };
  if (has(1)) at_size<1>(q);
  if (has(4)) at_size<4>(q);
  if (has(8)) at_size<8>(q);
  if (has(16)) at_size<16>(q);
  if (has(32)) at_size<32>(q);
  guarded_regions(q);
  halo_regions(q);
  if (has(8) && has(16)) {
    twice_at<8>(q);
    twice_at<16>(q);
  }
  if (failures == 0) std::printf("sub_group_vectors: all passed\n");
  return failures != 0;
}
