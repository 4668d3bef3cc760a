// SYCL 2020 4.9.1.5 nd_item and 4.9.1.7 group in nd_range<1>, nd_range<2> and nd_range<3>
// kernels: every getter is recorded per work-item and checked on the host against the value
// implied by the global id; also kernel_handler as the last parameter of an nd_range kernel.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// What one work-item saw.
struct record {
  std::size_t global_id[3], local_id[3], group_id[3];
  std::size_t global_range[3], local_range[3], group_range[3];
  std::size_t global_linear, local_linear, group_linear;
  std::size_t group_obj_id[3], group_obj_local_id[3], group_obj_linear, group_obj_local_linear;
  std::size_t group_obj_linear_range, group_obj_local_linear_range;
  int group_consistent; // group getters agree with nd_item's
  int leader;
  int nd_range_matches;
  int visits;
};

template <int D>
std::size_t linear(const std::size_t* idx, const sycl::range<D>& r) {
  std::size_t l = 0;
  for (int d = 0; d < D; ++d) l = l * r[d] + idx[d];
  return l;
}

template <int D, bool WithHandler>
void run(sycl::queue& q, sycl::range<D> global, sycl::range<D> local) {
  const std::size_t n = global.size();
  record* rec = sycl::malloc_shared<record>(n, q);
  for (std::size_t i = 0; i < n; ++i) rec[i] = record{};
  sycl::nd_range<D> ndr(global, local);
  CHECK(ndr.get_global_range() == global && ndr.get_local_range() == local);
  sycl::range<D> groups = ndr.get_group_range();
  for (int d = 0; d < D; ++d) CHECK(groups[d] == global[d] / local[d]);

  auto body = [=](sycl::nd_item<D> it) {
    std::size_t gl = it.get_global_linear_id();
    record& r = rec[gl];
    r.visits += 1;
    sycl::group<D> g = it.get_group();
    bool consistent = true;
    for (int d = 0; d < D; ++d) {
      r.global_id[d] = it.get_global_id(d);
      r.local_id[d] = it.get_local_id(d);
      r.group_id[d] = it.get_group(d);
      r.global_range[d] = it.get_global_range(d);
      r.local_range[d] = it.get_local_range(d);
      r.group_range[d] = it.get_group_range(d);
      r.group_obj_id[d] = g.get_group_id(d);
      r.group_obj_local_id[d] = g.get_local_id(d);
      consistent = consistent && it.get_global_id()[d] == it.get_global_id(d) &&
                   it.get_local_id()[d] == it.get_local_id(d) &&
                   it.get_global_range()[d] == it.get_global_range(d) &&
                   it.get_local_range()[d] == it.get_local_range(d) &&
                   it.get_group_range()[d] == it.get_group_range(d) &&
                   g.get_group_id()[d] == g.get_group_id(d) && g[d] == g.get_group_id(d) &&
                   g.get_local_range(d) == it.get_local_range(d) &&
                   g.get_local_range()[d] == it.get_local_range(d) &&
                   g.get_group_range(d) == it.get_group_range(d) &&
                   g.get_group_range()[d] == it.get_group_range(d) &&
                   g.get_max_local_range()[d] == it.get_local_range(d) &&
                   g.get_local_id()[d] == it.get_local_id(d);
    }
    r.global_linear = gl;
    r.local_linear = it.get_local_linear_id();
    r.group_linear = it.get_group_linear_id();
    r.group_obj_linear = g.get_group_linear_id();
    r.group_obj_local_linear = g.get_local_linear_id();
    r.group_obj_linear_range = g.get_group_linear_range();
    r.group_obj_local_linear_range = g.get_local_linear_range();
    r.group_consistent = consistent;
    r.leader = g.leader();
    sycl::nd_range<D> seen = it.get_nd_range();
    r.nd_range_matches = seen.get_global_range() == it.get_global_range() &&
                         seen.get_local_range() == it.get_local_range();
  };
  q.submit([&](sycl::handler& h) {
     if constexpr (WithHandler)
       h.parallel_for(ndr, [=](sycl::nd_item<D> it, sycl::kernel_handler) { body(it); });
     else
       h.parallel_for(ndr, body);
   }).wait();

  int bad = 0;
  for (std::size_t i = 0; i < n && bad < 5; ++i) {
    const record& r = rec[i];
    bool ok = r.visits == 1 && r.global_linear == i;
    std::size_t expect_local[3] = {}, expect_group[3] = {};
    for (int d = 0; d < D; ++d) {
      expect_local[d] = r.global_id[d] % local[d];
      expect_group[d] = r.global_id[d] / local[d];
      ok = ok && r.local_id[d] == expect_local[d] && r.group_id[d] == expect_group[d] &&
           r.global_range[d] == global[d] && r.local_range[d] == local[d] &&
           r.group_range[d] == groups[d] && r.group_obj_id[d] == expect_group[d] &&
           r.group_obj_local_id[d] == expect_local[d];
    }
    ok = ok && linear<D>(r.global_id, global) == i;
    ok = ok && r.local_linear == linear<D>(expect_local, local);
    ok = ok && r.group_linear == linear<D>(expect_group, groups);
    ok = ok && r.group_obj_linear == r.group_linear && r.group_obj_local_linear == r.local_linear;
    ok = ok && r.group_obj_linear_range == groups.size() &&
         r.group_obj_local_linear_range == local.size();
    ok = ok && r.group_consistent && r.nd_range_matches && r.leader == (r.local_linear == 0);
    if (!ok) {
      ++bad;
      std::printf("FAILED: nd_range<%d> work-item %zu: wrong getters (visits %d, local linear "
                  "%zu, group linear %zu)\n",
                  D, i, r.visits, r.local_linear, r.group_linear);
    }
  }
  g_failures += bad;
  sycl::free(rec, q);
}
} // namespace

int main() {
  sycl::queue q;
  run<1, false>(q, sycl::range<1>(96), sycl::range<1>(32));
  run<1, true>(q, sycl::range<1>(7), sycl::range<1>(7));
  run<1, false>(q, sycl::range<1>(1024), sycl::range<1>(1));
  run<2, false>(q, sycl::range<2>(12, 20), sycl::range<2>(4, 5));
  run<2, true>(q, sycl::range<2>(6, 8), sycl::range<2>(3, 8));
  run<3, false>(q, sycl::range<3>(4, 6, 10), sycl::range<3>(2, 3, 5));
  run<3, true>(q, sycl::range<3>(2, 2, 64), sycl::range<3>(1, 2, 16));
  if (g_failures) {
    std::printf("nd_range_kernels: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("nd_range_kernels: PASSED\n");
  return 0;
}
