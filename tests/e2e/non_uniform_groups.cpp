// sycl_ext_oneapi_non_uniform_groups: ballot_group, fixed_size_group, tangle_group and
// opportunistic_group, their queries and the group functions and algorithms on them, computed in
// kernels and checked against a reference computed here from each work-item's lane. Work-groups
// of 40 work-items end with a partial sub-group (on the host device 16 + 16 + 8 at its primary
// size, on NVIDIA GPUs 32 + 8); work-groups of 64 have whole sub-groups. Groups are used in
// converged control flow (every work-item calls the function with its own group: the host device
// runs those kernels as compiled loops) and in divergent control flow, where the work-items of one
// sub-group take different branches and each branch runs collectives over its own group (the host
// device runs those on fibers and says so under SYCLONE_HOST_KERNELS=report).
#include "expect.hpp"
#include "host_kernels_report.hpp"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#ifndef SYCL_EXT_ONEAPI_NON_UNIFORM_GROUPS
#error "SYCL_EXT_ONEAPI_NON_UNIFORM_GROUPS is not defined"
#endif

namespace syclex = sycl::ext::oneapi::experimental;
using i64 = std::int64_t;

// The work-group size of the round (40: a partial last sub-group; 64: whole sub-groups, which the
// host's loops run as vectors of the sub-group's size), and the work-items of the launches.
std::size_t wg = 40;
constexpr std::size_t groups = 3;
std::size_t n = wg * groups;
constexpr std::size_t slots = 24; // values each work-item writes per kernel

static_assert(sycl::is_group_v<syclex::ballot_group<sycl::sub_group>>);
static_assert(sycl::is_group_v<syclex::fixed_size_group<4, sycl::sub_group>>);
static_assert(sycl::is_group_v<syclex::tangle_group<sycl::sub_group>>);
static_assert(sycl::is_group_v<syclex::opportunistic_group>);
static_assert(syclex::is_user_constructed_group_v<syclex::ballot_group<sycl::sub_group>>);
static_assert(syclex::is_user_constructed_group_v<syclex::fixed_size_group<2, sycl::sub_group>>);
static_assert(syclex::is_user_constructed_group_v<syclex::tangle_group<sycl::sub_group>>);
static_assert(syclex::is_user_constructed_group_v<syclex::opportunistic_group>);
static_assert(!syclex::is_user_constructed_group_v<sycl::sub_group>);
static_assert(syclex::is_fixed_topology_group_v<sycl::sub_group>);
static_assert(syclex::is_fixed_topology_group_v<sycl::group<2>>);
static_assert(syclex::is_fixed_topology_group_v<syclex::root_group<3>>);
static_assert(!syclex::is_fixed_topology_group_v<syclex::opportunistic_group>);
static_assert(syclex::opportunistic_group::fence_scope == sycl::memory_scope::sub_group);
static_assert(std::is_same_v<syclex::tangle_group<sycl::sub_group>::linear_id_type, std::uint32_t>);

// A struct of three words, moved between work-items as a whole.
struct triple {
  int a;
  float b;
  short c;
};

// Where a work-item sits, as the kernels report it (slots 0-1) and the reference recomputes it.
struct place {
  std::size_t group, local, sub_group, lane, sg_size, sg_first; // sg_first: global index of lane 0
};

std::size_t g_sg_max = 0; // the kernels' sub-group size, from the first kernel

place where(std::size_t i) {
  place p;
  p.group = i / wg;
  p.local = i % wg;
  p.sub_group = p.local / g_sg_max;
  p.lane = p.local % g_sg_max;
  p.sg_size = std::min(g_sg_max, wg - p.sub_group * g_sg_max);
  p.sg_first = i - p.lane;
  return p;
}

// The global indices of the work-items of i's sub-group whose lanes satisfy `in`, by lane.
std::vector<std::size_t> members(std::size_t i, const std::function<bool(std::size_t)>& in) {
  place p = where(i);
  std::vector<std::size_t> m;
  for (std::size_t l = 0; l < p.sg_size; ++l)
    if (in(l)) m.push_back(p.sg_first + l);
  return m;
}
std::size_t rank_of(const std::vector<std::size_t>& m, std::size_t i) {
  return std::size_t(std::find(m.begin(), m.end(), i) - m.begin());
}

i64 value(std::size_t i) {
  return i64((i * 37 + 11) % 23) - 7;
}

// The predicates and branches of the kernels, on a lane (and the work-group for variety).
bool ballot_pred(std::size_t lane, std::size_t group) {
  return (lane * 5 + group) % 3 == 1;
}
bool tangle_branch(std::size_t lane) {
  return lane % 3 == 0;
}

// Group functions over `g` and the work-item's value x, into out[0..21]. Every work-item of the
// group calls this in converged control flow. Joint: also a joint scan, whose loop runs as many
// rounds as the array has chunks of the group's size (groups of different sizes in one sub-group
// then make different numbers of exchanges: the host runs such kernels on fibers).
template <bool Joint = true, typename Group>
void collectives(Group g, std::size_t self, i64* out, const i64* table, i64* scratch) {
  i64 x = value(self);
  using lid = typename Group::linear_id_type;
  lid size = g.get_local_linear_range();
  lid rank = g.get_local_linear_id();
  out[0] = size;
  out[1] = rank;
  out[2] = g.get_group_linear_id();
  out[3] = g.get_group_linear_range();
  out[4] = g.leader();
  out[5] = sycl::reduce_over_group(g, x, sycl::plus<i64>());
  out[6] = sycl::reduce_over_group(g, int(x), sycl::maximum<int>());
  out[7] = sycl::reduce_over_group(g, x, i64(100), sycl::plus<i64>());
  out[8] = sycl::inclusive_scan_over_group(g, x, sycl::plus<i64>());
  out[9] = sycl::exclusive_scan_over_group(g, x, sycl::plus<i64>());
  out[10] = sycl::exclusive_scan_over_group(g, int(x), 1000, sycl::plus<int>());
  out[11] = i64(sycl::reduce_over_group(g, float(x), sycl::plus<float>()));
  out[12] = sycl::group_broadcast(g, x, lid(size - 1));
  out[13] = sycl::shift_group_left(g, x, 1);
  out[14] = sycl::shift_group_right(g, x, 2);
  out[15] = sycl::permute_group_by_xor(g, x, 1);
  triple t{int(x), float(x) * 0.5f, short(x + 1)};
  triple s = sycl::select_from_group(g, t, typename Group::id_type(size / 2));
  out[16] = s.a * 1000 + i64(s.b * 2) * 10 + s.c;
  out[17] = (sycl::any_of_group(g, x > 5) ? 1 : 0) | (sycl::all_of_group(g, x > -8) ? 2 : 0) |
            (sycl::none_of_group(g, x == 3) ? 4 : 0);
  // The joint forms over an array each member takes its share of.
  out[18] = sycl::joint_reduce(g, table, table + 7, sycl::plus<i64>());
  out[19] = sycl::joint_any_of(g, table, table + 7, [](i64 v) { return v == 6; }) ? 1 : 0;
  if constexpr (Joint) {
    // Into memory of the group's (at its leader's index), read once the group passed a barrier.
    i64* scanned = scratch + sycl::group_broadcast(g, self) * 8;
    sycl::joint_inclusive_scan(g, table, table + 7, scanned, sycl::multiplies<i64>());
    sycl::group_barrier(g);
    out[20] = scanned[6] * 100 + scanned[3];
  }
  out[21] = double(sycl::inclusive_scan_over_group(g, double(x) * 0.25, sycl::plus<double>())) * 4;
}

// The reference of collectives() for work-item i of the group of `m` (global indices by lane).
void expect_collectives(const char* what, std::size_t i, const std::vector<std::size_t>& m,
                        std::size_t group_id, std::size_t group_range, const i64* out,
                        bool joint = true) {
  std::size_t size = m.size(), rank = rank_of(m, i);
  i64 sum = 0, max = -1000, inclusive = 0, exclusive = 0;
  bool any = false, all = true, none = true;
  for (std::size_t k = 0; k < size; ++k) {
    i64 v = value(m[k]);
    sum += v;
    max = std::max(max, v);
    if (k <= rank) inclusive += v;
    if (k < rank) exclusive += v;
    any |= v > 5;
    all &= v > -8;
    none &= v != 3;
  }
  auto at = [&](std::size_t k, i64 otherwise) { return k < size ? value(m[k]) : otherwise; };
  i64 x = value(i);
  i64 s = value(m[size / 2]);
  i64 expected[22] = {i64(size),
                      i64(rank),
                      i64(group_id),
                      i64(group_range),
                      rank == 0,
                      sum,
                      max,
                      sum + 100,
                      inclusive,
                      exclusive,
                      exclusive + 1000,
                      sum,
                      value(m[size - 1]),
                      0,
                      0,
                      0,
                      s * 1000 + s * 10 + (s + 1),
                      (any ? 1 : 0) | (all ? 2 : 0) | (none ? 4 : 0),
                      1 + 2 + 3 + 4 + 5 + 6 + 7,
                      1,
                      5040 * 100 + 24,
                      inclusive};
  for (int k = 0; k < 22; ++k) {
    if (k == 13 || k == 14 || k == 15 || (k == 20 && !joint)) continue;
    if (out[k] != expected[k]) {
      std::printf("FAIL %s: work-item %zu slot %d: %lld, expected %lld\n", what, i, k,
                  (long long)out[k], (long long)expected[k]);
      ++failures;
    }
  }
  // Shifts and the butterfly: only where the source member exists (others unspecified).
  if (rank + 1 < size) EXPECT(out[13] == at(rank + 1, x));
  if (rank >= 2) EXPECT(out[14] == at(rank - 2, x));
  if ((rank ^ 1) < size) EXPECT(out[15] == at(rank ^ 1, x));
}

// The joint algorithms' input (1..7) and, after it, 8 values of scratch per work-item.
i64* table_of(sycl::queue& q) {
  i64* t = sycl::malloc_shared<i64>(8 + 8 * n, q);
  for (int k = 0; k < 7; ++k) t[k] = k + 1;
  return t;
}

// Queries in converged control flow: every work-item makes each kind of group.
class uniform_queries;
void queries(sycl::queue& q) {
  i64* out = sycl::malloc_shared<i64>(n * slots, q);
  q.parallel_for<uniform_queries>(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     i64* o = out + it.get_global_linear_id() * slots;
     o[0] = sg.get_max_local_range()[0];
     o[1] = sg.get_local_linear_id();
     auto b = syclex::get_ballot_group(sg, ballot_pred(sg.get_local_linear_id(), it.get_group(0)));
     o[2] = b.get_local_linear_id();
     o[3] = b.get_local_linear_range();
     o[4] = b.get_group_linear_id() * 10 + b.get_group_linear_range();
     o[5] = b.leader() + 2 * (b.get_local_id()[0] == b.get_local_linear_id()) +
            4 * (b.get_local_range()[0] == b.get_local_linear_range());
     auto f = syclex::get_fixed_size_group<4>(sg);
     o[6] = f.get_local_linear_id();
     o[7] = f.get_local_linear_range();
     o[8] = f.get_group_linear_id() * 10 + f.get_group_linear_range();
     o[9] = f.leader();
     auto one = syclex::get_fixed_size_group<1>(sg);
     o[10] = one.get_local_linear_range() * 10 + one.get_local_linear_id() + 100 * one.leader();
     auto t = syclex::get_tangle_group(sg);
     o[11] = t.get_local_linear_id();
     o[12] = t.get_local_linear_range() * 10 + t.get_group_linear_range();
     auto o8 = syclex::this_kernel::get_opportunistic_group();
     o[13] = o8.get_local_linear_id();
     o[14] = o8.get_local_linear_range() * 10 + o8.get_group_linear_id();
   }).wait();
  g_sg_max = std::size_t(out[0]);
  EXPECT(g_sg_max >= 4 && g_sg_max <= 32);
  for (std::size_t i = 0; i < n && g_sg_max; ++i) {
    const i64* o = out + i * slots;
    place p = where(i);
    EXPECT(o[0] == i64(g_sg_max));
    EXPECT(o[1] == i64(p.lane));
    bool pred = ballot_pred(p.lane, p.group);
    auto bm = members(i, [&](std::size_t l) { return ballot_pred(l, p.group) == pred; });
    EXPECT(o[2] == i64(rank_of(bm, i)));
    EXPECT(o[3] == i64(bm.size()));
    EXPECT(o[4] == (pred ? 12 : 2));
    EXPECT(o[5] == (rank_of(bm, i) == 0) + 6);
    EXPECT(o[6] == i64(p.lane % 4));
    EXPECT(o[7] == 4);
    EXPECT(o[8] == i64(p.lane / 4 * 10 + p.sg_size / 4));
    EXPECT(o[9] == (p.lane % 4 == 0));
    EXPECT(o[10] == 110);
    // Converged: the tangle and the opportunistic group are the whole sub-group.
    EXPECT(o[11] == i64(p.lane));
    EXPECT(o[12] == i64(p.sg_size * 10 + 1));
    EXPECT(o[13] == i64(p.lane));
    EXPECT(o[14] == i64(p.sg_size * 10));
  }
  sycl::free(out, q);
}

// Collectives over ballot groups and fixed-size groups that every work-item calls with its own
// group: converged control flow.
class uniform_ballot;
template <std::size_t N>
class uniform_fixed;
template <std::size_t N>
class divergent_fixed;

void uniform_collectives(sycl::queue& q) {
  i64* out = sycl::malloc_shared<i64>(n * slots, q);
  i64* table = table_of(q);
  q.parallel_for<uniform_ballot>(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     std::size_t i = it.get_global_linear_id();
     auto b = syclex::get_ballot_group(sg, ballot_pred(sg.get_local_linear_id(), it.get_group(0)));
     collectives<false>(b, i, out + i * slots, table, table + 8);
   }).wait();
  for (std::size_t i = 0; i < n; ++i) {
    place p = where(i);
    bool pred = ballot_pred(p.lane, p.group);
    auto m = members(i, [&](std::size_t l) { return ballot_pred(l, p.group) == pred; });
    expect_collectives("uniform ballot_group", i, m, pred ? 1 : 0, 2, out + i * slots, false);
  }
  sycl::free(out, q);
  sycl::free(table, q);
}

// A fixed_size_group<N>'s collectives, every work-item (Divergent: only the groups of even
// index, the others skip them).
template <std::size_t N, bool Divergent>
void fixed_collectives(sycl::queue& q) {
  i64* out = sycl::malloc_shared<i64>(n * slots, q);
  i64* table = table_of(q);
  std::fill(out, out + n * slots, i64(-12345));
  using name = std::conditional_t<Divergent, divergent_fixed<N>, uniform_fixed<N>>;
  q.parallel_for<name>(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     std::size_t i = it.get_global_linear_id();
     auto f = syclex::get_fixed_size_group<N>(sg);
     if (!Divergent || f.get_group_linear_id() % 2 == 0)
       collectives<Divergent>(f, i, out + i * slots, table, table + 8);
   }).wait();
  std::string what = std::string(Divergent ? "divergent" : "uniform") + " fixed_size_group<" +
                     std::to_string(N) + ">";
  for (std::size_t i = 0; i < n; ++i) {
    place p = where(i);
    std::size_t first = p.lane / N * N;
    if (Divergent && (p.lane / N) % 2 != 0) {
      EXPECT(out[i * slots] == -12345);
      continue;
    }
    auto m = members(i, [&](std::size_t l) { return l >= first && l < first + N; });
    expect_collectives(what.c_str(), i, m, p.lane / N, p.sg_size / N, out + i * slots, Divergent);
  }
  sycl::free(out, q);
  sycl::free(table, q);
}

// The work-items of one sub-group take different branches, and each branch runs collectives over
// its own ballot group, with barriers between writes and reads of local memory.
class divergent_ballot;
void divergent_ballots(sycl::queue& q) {
  i64* out = sycl::malloc_shared<i64>(n * slots, q);
  i64* table = table_of(q);
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<i64, 1> shared(sycl::range<1>(2 * wg), h);
     std::size_t w = wg;
     h.parallel_for<divergent_ballot>(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
       sycl::sub_group sg = it.get_sub_group();
       std::size_t i = it.get_global_linear_id();
       std::size_t first = it.get_local_linear_id() - sg.get_local_linear_id();
       bool pred = ballot_pred(sg.get_local_linear_id(), it.get_group(0));
       auto b = syclex::get_ballot_group(sg, pred);
       i64* o = out + i * slots;
       std::size_t rank = b.get_local_linear_id(), size = b.get_local_linear_range();
       if (pred) {
         // Write, wait for the group, read the next member's, wait, write again.
         shared[first + rank] = value(i) * 3;
         sycl::group_barrier(b);
         o[22] = shared[first + (rank + 1) % size];
         sycl::group_barrier(b);
         shared[first + rank] = value(i) * 5;
         sycl::group_barrier(b);
         o[23] = shared[first + (rank + size - 1) % size];
         collectives(b, i, o, table, table + 8);
       } else {
         collectives(b, i, o, table, table + 8);
         shared[w + first + rank] = value(i) * 7;
         sycl::group_barrier(b, sycl::memory_scope::work_group);
         o[22] = shared[w + first + (rank + 2) % size];
         sycl::group_barrier(b);
         shared[w + first + rank] = value(i) * 11;
         sycl::group_barrier(b);
         o[23] = shared[w + first + (rank + size - 1) % size];
       }
     });
   }).wait();
  for (std::size_t i = 0; i < n; ++i) {
    place p = where(i);
    bool pred = ballot_pred(p.lane, p.group);
    auto m = members(i, [&](std::size_t l) { return ballot_pred(l, p.group) == pred; });
    const i64* o = out + i * slots;
    expect_collectives("divergent ballot_group", i, m, pred ? 1 : 0, 2, o);
    std::size_t rank = rank_of(m, i), size = m.size();
    if (pred) {
      EXPECT(o[22] == value(m[(rank + 1) % size]) * 3);
      EXPECT(o[23] == value(m[(rank + size - 1) % size]) * 5);
    } else {
      EXPECT(o[22] == value(m[(rank + 2) % size]) * 7);
      EXPECT(o[23] == value(m[(rank + size - 1) % size]) * 11);
    }
  }
  sycl::free(out, q);
  sycl::free(table, q);
}

// Tangles made in the two branches of an `if`: each is the work-items of its branch.
class divergent_tangle;
void tangles(sycl::queue& q) {
  i64* out = sycl::malloc_shared<i64>(n * slots, q);
  i64* table = table_of(q);
  q.parallel_for<divergent_tangle>(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     std::size_t i = it.get_global_linear_id();
     if (tangle_branch(sg.get_local_linear_id())) {
       auto t = syclex::get_tangle_group(sg);
       collectives(t, i, out + i * slots, table, table + 8);
     } else {
       auto t = syclex::get_tangle_group(sg);
       collectives(t, i, out + i * slots, table, table + 8);
       out[i * slots + 22] = sycl::group_broadcast(t, i64(i));
     }
   }).wait();
  for (std::size_t i = 0; i < n; ++i) {
    place p = where(i);
    bool branch = tangle_branch(p.lane);
    auto m = members(i, [&](std::size_t l) { return tangle_branch(l) == branch; });
    expect_collectives("tangle_group", i, m, 0, 1, out + i * slots);
    if (!branch) EXPECT(out[i * slots + 22] == i64(m[0]));
  }
  sycl::free(out, q);
  sycl::free(table, q);
}

// The spec's example: the work-items that reach an atomic increment together make one increment
// for all of them, and each gets the value it would have got alone.
class opportunistic_increment;
void opportunistic(sycl::queue& q) {
  i64* out = sycl::malloc_shared<i64>(n * slots, q);
  int* counter = sycl::malloc_shared<int>(1, q);
  *counter = 0;
  std::fill(out, out + n * slots, i64(-1));
  q.parallel_for<opportunistic_increment>(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     std::size_t i = it.get_global_linear_id();
     if (sg.get_local_linear_id() % 2 == 1) {
       auto g = syclex::this_kernel::get_opportunistic_group();
       sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> c(*counter);
       int count = int(g.get_local_linear_range());
       int old = 0;
       if (g.leader()) old = c.fetch_add(count);
       int base = sycl::group_broadcast(g, old);
       out[i * slots] = base + int(g.get_local_linear_id());
       out[i * slots + 1] = count;
       out[i * slots + 2] = sycl::reduce_over_group(g, i64(1), sycl::plus<i64>());
     }
   }).wait();
  std::vector<i64> got;
  for (std::size_t i = 0; i < n; ++i) {
    place p = where(i);
    const i64* o = out + i * slots;
    if (p.lane % 2 == 0) {
      EXPECT(o[0] == -1);
      continue;
    }
    got.push_back(o[0]);
    // Any subset of the work-items that call it may form a group; the counts agree.
    EXPECT(o[1] == o[2]);
    EXPECT(o[1] >= 1 && o[1] <= i64(p.sg_size / 2));
  }
  std::sort(got.begin(), got.end());
  EXPECT(i64(got.size()) == *counter);
  for (std::size_t k = 0; k < got.size(); ++k) EXPECT(got[k] == i64(k));
  sycl::free(out, q);
  sycl::free(counter, q);
}

int main() {
  const char* mode = std::getenv("SYCLONE_HOST_KERNELS");
  const char* schedule = std::getenv("SYCLONE_HOST_SCHEDULE");
  const bool loops = !mode && !(schedule && std::strncmp(schedule, "shuffle", 7) == 0);
  host_kernels_report report(loops);
  EXPECT(!report.capturing() || report.redirected());
  sycl::queue q;
  for (auto a :
       {sycl::aspect::ext_oneapi_ballot_group, sycl::aspect::ext_oneapi_fixed_size_group,
        sycl::aspect::ext_oneapi_tangle_group, sycl::aspect::ext_oneapi_opportunistic_group})
    EXPECT(q.get_device().has(a));
  for (std::size_t size : {40, 64}) {
    wg = size;
    n = wg * groups;
    queries(q);
    if (g_sg_max == 0) return 1;
    uniform_collectives(q);
    fixed_collectives<1, false>(q);
    fixed_collectives<2, false>(q);
    fixed_collectives<4, false>(q);
    fixed_collectives<8, false>(q);
    fixed_collectives<2, true>(q);
    fixed_collectives<4, true>(q);
    divergent_ballots(q);
    tangles(q);
    opportunistic(q);
  }
  if (report.capturing() && q.get_device().is_cpu()) {
    // Groups every work-item uses with its own members run as loops; those used in divergent
    // control flow on fibers, and the report says why.
    std::string text = report.text();
    EXPECT(text.find("uniform_queries") == std::string::npos);
    EXPECT(text.find("uniform_ballot") == std::string::npos);
    EXPECT(text.find("uniform_fixed") == std::string::npos);
    EXPECT(text.find("divergent_ballot") != std::string::npos);
    EXPECT(text.find("divergent_fixed") != std::string::npos);
    EXPECT(text.find("divergent_tangle") != std::string::npos);
    EXPECT(text.find("a function of a non-uniform group (sycl_ext_oneapi_non_uniform_groups") !=
           std::string::npos);
    if (failures) std::printf("report was:\n%s\n", text.c_str());
  }
  std::printf("non_uniform_groups: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
