// sycl_khr_group_interface: every query of khr::work_group, khr::sub_group and their member_items
// equals what the kernel's own nd_item, group and sub_group say, in 1, 2 and 3 dimensions (with
// full and partial sub-groups); the ids the kernels write make, per work-group, one work-item per
// local id and per (sub-group, lane), with sub-group sizes that add up to the work-group's; the
// group functions and barriers reached through the khr objects' conversions exchange the values
// they should; the extension's example computes the right sums; and the member types, constants,
// conversions and constraints are those the extension lists.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#ifndef SYCL_KHR_GROUP_INTERFACE
#error "SYCL_KHR_GROUP_INTERFACE is not defined"
#endif
static_assert(SYCL_KHR_GROUP_INTERFACE == 1);

namespace khr = sycl::khr;

namespace {

// --- Member types, constants, conversions and constraints ----------------------------------

template <int D>
constexpr bool work_group_traits() {
  using wg = khr::work_group<D>;
  using mi = khr::member_item<wg>;
  static_assert(std::is_same_v<typename wg::id_type, sycl::id<D>>);
  static_assert(std::is_same_v<typename wg::linear_id_type, std::size_t>);
  static_assert(std::is_same_v<typename wg::range_type, sycl::range<D>>);
  static_assert(std::is_same_v<typename wg::size_type, std::size_t>);
  static_assert(wg::dimensions == D);
  static_assert(wg::fence_scope == sycl::memory_scope::work_group);
  static_assert(std::is_same_v<typename mi::id_type, sycl::id<D>>);
  static_assert(std::is_same_v<typename mi::linear_id_type, std::size_t>);
  static_assert(std::is_same_v<typename mi::range_type, sycl::range<D>>);
  static_assert(std::is_same_v<typename mi::size_type, std::size_t>);
  static_assert(mi::dimensions == D);
  static_assert(mi::fence_scope == sycl::memory_scope::work_item);
  static_assert(std::is_same_v<decltype(std::declval<wg>().id()), sycl::id<D>>);
  static_assert(std::is_same_v<decltype(std::declval<wg>().linear_id()), std::size_t>);
  static_assert(std::is_same_v<decltype(std::declval<wg>().range()), sycl::range<D>>);
  static_assert(std::is_same_v<decltype(std::declval<wg>().size()), std::size_t>);
  static_assert(std::is_same_v<decltype(std::declval<mi>().id()), sycl::id<D>>);
  static_assert(std::is_same_v<decltype(std::declval<mi>().size()), std::size_t>);
  // Made from a sycl::group (implicitly, as the extension's example does) and back.
  static_assert(std::is_convertible_v<sycl::group<D>, wg>);
  static_assert(std::is_convertible_v<wg, sycl::group<D>>);
  static_assert(std::is_nothrow_constructible_v<wg, const sycl::group<D>&>);
  static_assert(!std::is_default_constructible_v<wg>);
  // Only get_member_item makes member_items.
  static_assert(!std::is_default_constructible_v<mi>);
  static_assert(!std::is_constructible_v<mi, wg>);
  static_assert(!std::is_constructible_v<mi, sycl::group<D>>);
  // By-value semantics: copyable, and so capturable by kernels.
  static_assert(std::is_trivially_copyable_v<wg> && std::is_trivially_copyable_v<mi>);
#if defined(__cpp_lib_mdspan)
  static_assert(std::is_same_v<typename wg::extents_type, std::dextents<std::size_t, D>>);
  static_assert(wg::rank() == D && wg::rank_dynamic() == D);
  static_assert(mi::rank() == D && mi::rank_dynamic() == 0 && mi::static_extent(0) == 1);
#endif
  return true;
}
static_assert(work_group_traits<1>() && work_group_traits<2>() && work_group_traits<3>());

using sg_item = khr::member_item<khr::sub_group>;
static_assert(std::is_same_v<khr::sub_group::id_type, sycl::id<1>>);
static_assert(std::is_same_v<khr::sub_group::linear_id_type, std::uint32_t>);
static_assert(std::is_same_v<khr::sub_group::range_type, sycl::range<1>>);
static_assert(std::is_same_v<khr::sub_group::size_type, std::uint32_t>);
static_assert(khr::sub_group::dimensions == 1);
static_assert(khr::sub_group::fence_scope == sycl::memory_scope::sub_group);
static_assert(std::is_same_v<decltype(std::declval<khr::sub_group>().max_size()), std::uint32_t>);
static_assert(std::is_same_v<sg_item::linear_id_type, std::uint32_t>);
static_assert(std::is_same_v<sg_item::size_type, std::uint32_t>);
static_assert(sg_item::dimensions == 1 && sg_item::fence_scope == sycl::memory_scope::work_item);
static_assert(std::is_convertible_v<sycl::sub_group, khr::sub_group>);
static_assert(std::is_convertible_v<khr::sub_group, sycl::sub_group>);
static_assert(!std::is_default_constructible_v<khr::sub_group>);
static_assert(!std::is_constructible_v<sg_item, khr::sub_group>);
static_assert(std::is_trivially_copyable_v<khr::sub_group>);
// The default dimension count.
static_assert(std::is_same_v<khr::work_group<>, khr::work_group<1>>);

// get_member_item takes a work_group or a sub_group; leader_of those and their member_items.
template <typename G, typename = void>
struct has_get_member_item : std::false_type {};
template <typename G>
struct has_get_member_item<G, std::void_t<decltype(khr::get_member_item(std::declval<const G&>()))>>
    : std::true_type {};
template <typename G, typename = void>
struct has_leader_of : std::false_type {};
template <typename G>
struct has_leader_of<G, std::void_t<decltype(khr::leader_of(std::declval<const G&>()))>>
    : std::true_type {};
static_assert(has_get_member_item<khr::work_group<2>>::value);
static_assert(has_get_member_item<khr::sub_group>::value);
static_assert(!has_get_member_item<khr::member_item<khr::sub_group>>::value);
static_assert(!has_get_member_item<sycl::group<1>>::value);
static_assert(!has_get_member_item<int>::value);
static_assert(has_leader_of<khr::work_group<3>>::value);
static_assert(has_leader_of<khr::sub_group>::value);
static_assert(has_leader_of<khr::member_item<khr::work_group<3>>>::value);
static_assert(!has_leader_of<sycl::sub_group>::value);
static_assert(!has_leader_of<int>::value);
static_assert(
    std::is_same_v<decltype(khr::get_member_item(std::declval<khr::sub_group>())), sg_item>);
static_assert(std::is_same_v<decltype(khr::leader_of(std::declval<khr::sub_group>())), bool>);
static_assert(noexcept(khr::leader_of(std::declval<khr::work_group<1>>())));
static_assert(noexcept(khr::get_member_item(std::declval<khr::work_group<1>>())));

// --- Queries against the nd_item ------------------------------------------------------------

constexpr int query_bits = 16;
constexpr int all_queries = (1 << query_bits) - 1;

// What one work-item wrote: the comparisons (a bit each) and the ids the host checks.
struct record {
  int bits;
  std::size_t group_linear, local_linear;
  std::uint32_t sg_id, sg_lane, sg_size, sg_max, sg_count;
};

template <int D>
record query(const sycl::nd_item<D>& it) {
  record r{};
  int b = 0;
  const sycl::group<D> g = it.get_group();
  const sycl::sub_group sg = it.get_sub_group();

  khr::work_group<D> wg = it.get_group(); // copy-initialized, as the extension's example does
  khr::work_group ctad{g};                // and through class template argument deduction
  static_assert(std::is_same_v<decltype(ctad), khr::work_group<D>>);
  bool id_each = true;
  for (int d = 0; d < D; ++d) id_each &= wg.id()[d] == it.get_group(d);
  if (id_each && wg.id() == g.get_group_id()) b |= 1 << 0;
  if (wg.linear_id() == it.get_group_linear_id()) b |= 1 << 1;
  if (wg.range() == it.get_group_range()) b |= 1 << 2;
  bool wg_extents = true;
#if defined(__cpp_lib_mdspan) // C++23 with <mdspan>: the work-items in each dimension
  for (int d = 0; d < D; ++d)
    wg_extents &= wg.extents().extent(d) == it.get_local_range(d) &&
                  wg.extent(d) == it.get_local_range(d) &&
                  wg.extents().static_extent(d) == std::dynamic_extent;
#endif
  if (wg.size() == it.get_local_range().size() && wg.size() == g.get_local_linear_range() &&
      wg_extents)
    b |= 1 << 3;
  if (static_cast<sycl::group<D>>(wg) == g && wg == ctad && !(wg != ctad) &&
      wg == khr::work_group<D>(khr::this_group<D>()))
    b |= 1 << 4;
  if (khr::leader_of(wg) == (it.get_local_linear_id() == 0) && khr::leader_of(wg) == g.leader())
    b |= 1 << 5;

  khr::sub_group ksg = it.get_sub_group();
  if (ksg.id() == sg.get_group_id() && ksg.linear_id() == sg.get_group_linear_id()) b |= 1 << 6;
  if (ksg.range() == sg.get_group_range()) b |= 1 << 7;
  bool sg_extents = true;
#if defined(__cpp_lib_mdspan)
  sg_extents = ksg.extents() == std::dextents<std::uint32_t, 1>(sg.get_local_linear_range()) &&
               ksg.extent(0) == sg.get_local_linear_range();
#endif
  if (ksg.size() == sg.get_local_linear_range() && ksg.size() == sg.get_local_range()[0] &&
      ksg.max_size() == sg.get_max_local_range()[0] && sg_extents)
    b |= 1 << 8;
  if (static_cast<sycl::sub_group>(ksg) == sg && ksg == khr::sub_group(khr::this_sub_group()) &&
      khr::leader_of(ksg) == sg.leader())
    b |= 1 << 9;

  auto mi = khr::get_member_item(wg);
  static_assert(std::is_same_v<decltype(mi), khr::member_item<khr::work_group<D>>>);
  if (mi.id() == it.get_local_id() && mi.id() == g.get_local_id()) b |= 1 << 10;
  if (mi.linear_id() == it.get_local_linear_id()) b |= 1 << 11;
  bool mi_extents = true;
#if defined(__cpp_lib_mdspan) // a work-item is one work-item in every dimension
  for (int d = 0; d < D; ++d) mi_extents &= mi.extent(d) == 1 && mi.extents().extent(d) == 1;
  static_assert(std::is_same_v<decltype(mi.extent(0)), std::size_t>);
#endif
  if (mi.range() == it.get_local_range() && mi.size() == 1 && khr::leader_of(mi) && mi_extents)
    b |= 1 << 12;

  khr::member_item smi{khr::get_member_item(ksg)}; // CTAD from a copy
  if (smi.id() == sg.get_local_id() && smi.linear_id() == sg.get_local_linear_id()) b |= 1 << 13;
  bool smi_extents = true;
#if defined(__cpp_lib_mdspan)
  smi_extents = smi.extents() == std::extents<std::uint32_t, 1>() && smi.extent(0) == 1;
  static_assert(std::is_same_v<decltype(smi.extent(0)), std::uint32_t>);
#endif
  if (smi.range() == sg.get_local_range() && smi.size() == 1 && khr::leader_of(smi) && smi_extents)
    b |= 1 << 14;
  // By-value semantics: copies are equal, and so are member_items of the same work-item.
  auto mi_copy = mi;
  if (mi_copy == mi && mi == khr::get_member_item(ctad) && smi == khr::get_member_item(ksg) &&
      !(smi != khr::get_member_item(ksg)))
    b |= 1 << 15;

  r.bits = b;
  r.group_linear = wg.linear_id();
  r.local_linear = mi.linear_id();
  r.sg_id = ksg.linear_id();
  r.sg_lane = smi.linear_id();
  r.sg_size = ksg.size();
  r.sg_max = ksg.max_size();
  r.sg_count = static_cast<std::uint32_t>(ksg.range().size());
  return r;
}

template <int D>
void check_queries(sycl::queue& q, sycl::range<D> global, sycl::range<D> local) {
  const std::size_t n = global.size();
  const std::size_t per_group = local.size();
  const std::size_t groups = n / per_group;
  record* out = sycl::malloc_shared<record>(n, q);
  q.parallel_for(sycl::nd_range<D>{global, local}, [=](sycl::nd_item<D> it) {
     out[it.get_global_linear_id()] = query(it);
   }).wait();

  bool bits = true, ids = true, sub_groups = true;
  std::vector<int> seen_local(n, 0);
  // Per work-group and sub-group: how many work-items said they belong to it, and its size.
  std::vector<std::size_t> members(n, 0), sizes(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const record& r = out[i];
    if (r.bits != all_queries) {
      if (bits)
        std::printf("%d-D %zu/%zu, work-item %zu: bits %#x (want %#x)\n", D, n, per_group, i,
                    r.bits, all_queries);
      bits = false;
    }
    // The work-item's global id, from its global linear id (the last dimension fastest).
    sycl::id<D> gid;
    std::size_t rest = i;
    for (int d = D - 1; d >= 0; --d) {
      gid[d] = rest % global[d];
      rest /= global[d];
    }
    std::size_t group_linear = 0, local_linear = 0;
    for (int d = 0; d < D; ++d) {
      group_linear = group_linear * (global[d] / local[d]) + gid[d] / local[d];
      local_linear = local_linear * local[d] + gid[d] % local[d];
    }
    ids &= r.group_linear == group_linear && r.local_linear == local_linear;
    if (r.group_linear < groups && r.local_linear < per_group)
      ++seen_local[r.group_linear * per_group + r.local_linear];
    // Sub-groups: a lane inside the size, sizes within the maximum, every sub-group's size
    // the number of work-items that report being in it.
    if (r.sg_lane >= r.sg_size || r.sg_size > r.sg_max || r.sg_id >= r.sg_count ||
        r.sg_count > per_group || r.group_linear >= groups) {
      sub_groups = false;
      continue;
    }
    std::size_t slot = r.group_linear * per_group + r.sg_id;
    ++members[slot];
    if (sizes[slot] == 0) sizes[slot] = r.sg_size;
    sub_groups &= sizes[slot] == r.sg_size;
  }
  for (std::size_t i = 0; i < n; ++i) ids &= seen_local[i] == 1;
  for (std::size_t wg = 0; wg < groups && sub_groups; ++wg) {
    std::size_t total = 0;
    for (std::size_t s = 0; s < per_group; ++s) {
      std::size_t slot = wg * per_group + s;
      sub_groups &= members[slot] == sizes[slot];
      total += members[slot];
    }
    sub_groups &= total == per_group;
  }
  EXPECT(bits);
  EXPECT(ids);
  EXPECT(sub_groups);
  sycl::free(out, q);
}

// --- Group functions and barriers through the khr objects -----------------------------------

constexpr int algorithm_checks = 12;

// Scratch per work-group: one slot per work-item for the work-group barrier, and room for every
// sub-group at its maximum size for the sub-group barrier.
constexpr std::size_t max_sub_group_size = 128;

template <int D>
int algorithms(const sycl::nd_item<D>& it, int* wg_scratch, int* sg_scratch) {
  int b = 0;
  khr::work_group<D> wg = it.get_group();
  auto mi = khr::get_member_item(wg);
  const int size = static_cast<int>(wg.size());
  const int lid = static_cast<int>(mi.linear_id());
  const sycl::group<D> g = wg;

  // A barrier of the work-group: each work-item reads what the mirrored one wrote before it.
  int* mine = wg_scratch + wg.linear_id() * wg.size();
  mine[lid] = 3 * lid + 1;
  sycl::group_barrier(static_cast<sycl::group<D>>(wg));
  if (mine[size - 1 - lid] == 3 * (size - 1 - lid) + 1) b |= 1 << 0;
  if (sycl::reduce_over_group(g, lid, sycl::plus<>()) == size * (size - 1) / 2) b |= 1 << 1;
  if (sycl::group_broadcast(g, int(wg.linear_id()) * 1000 + lid) == int(wg.linear_id()) * 1000)
    b |= 1 << 2;
  if (sycl::exclusive_scan_over_group(g, 1, sycl::plus<>()) == lid) b |= 1 << 3;
  // (Each group function on its own line: after `&&` only some work-items might call it.)
  const bool any_leads = sycl::any_of_group(g, khr::leader_of(wg));
  const bool all_lead = sycl::all_of_group(g, khr::leader_of(wg));
  const bool items_lead = sycl::none_of_group(g, !khr::leader_of(mi));
  if (any_leads && all_lead == (size == 1) && items_lead) b |= 1 << 4;
  sycl::group_barrier(g, khr::work_group<D>::fence_scope);

  // The same through the sub-group.
  khr::sub_group ksg = it.get_sub_group();
  auto smi = khr::get_member_item(ksg);
  const sycl::sub_group sg = ksg;
  const int sg_size = static_cast<int>(ksg.size());
  const int lane = static_cast<int>(smi.linear_id());
  int* lanes = sg_scratch + wg.linear_id() * (wg.size() + max_sub_group_size) +
               ksg.linear_id() * ksg.max_size();
  lanes[lane] = lane + 100 * int(ksg.linear_id());
  sycl::group_barrier(static_cast<sycl::sub_group>(ksg));
  if (lanes[sg_size - 1 - lane] == sg_size - 1 - lane + 100 * int(ksg.linear_id())) b |= 1 << 5;
  if (sycl::reduce_over_group(sg, 1u, sycl::plus<>()) == ksg.size()) b |= 1 << 6;
  if (sycl::group_broadcast(sg, lane + 7) == 7) b |= 1 << 7;
  if (sycl::inclusive_scan_over_group(sg, 1, sycl::plus<>()) == lane + 1) b |= 1 << 8;
  if (sycl::select_from_group(sg, lane * 2, sycl::id<1>(sg_size - 1 - lane)) ==
      (sg_size - 1 - lane) * 2)
    b |= 1 << 9;
  const bool any_sg_leads = sycl::any_of_group(sg, khr::leader_of(ksg));
  const bool all_sg_lead = sycl::all_of_group(sg, khr::leader_of(ksg));
  if (any_sg_leads && all_sg_lead == (sg_size == 1)) b |= 1 << 10;
  sycl::group_barrier(sg, khr::sub_group::fence_scope);
  // After both barriers the group's sum once more (the barriers left every work-item running).
  if (sycl::reduce_over_group(g, 1, sycl::plus<>()) == size) b |= 1 << 11;
  return b;
}

template <int D>
void check_algorithms(sycl::queue& q, sycl::range<D> global, sycl::range<D> local) {
  const std::size_t n = global.size();
  const std::size_t groups = n / local.size();
  int* bits = sycl::malloc_shared<int>(n, q);
  int* wg_scratch = sycl::malloc_shared<int>(n, q);
  int* sg_scratch = sycl::malloc_shared<int>(groups * (local.size() + max_sub_group_size), q);
  q.parallel_for(sycl::nd_range<D>{global, local}, [=](sycl::nd_item<D> it) {
     bits[it.get_global_linear_id()] = algorithms(it, wg_scratch, sg_scratch);
   }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i)
    if (bits[i] != (1 << algorithm_checks) - 1) {
      if (ok)
        std::printf("%d-D algorithms, work-item %zu: bits %#x (want %#x)\n", D, i, bits[i],
                    (1 << algorithm_checks) - 1);
      ok = false;
    }
  EXPECT(ok);
  sycl::free(bits, q);
  sycl::free(wg_scratch, q);
  sycl::free(sg_scratch, q);
}

// --- The extension's example: row sums, each work-group taking rows in turn ------------------
// The rows go to the work-groups by g.linear_id() and g.range(), the columns to the work-items
// by it.linear_id() and it.range(), exactly as in the extension's example (on the host device the
// work-item loop compiler runs it as loops: e2e.host_loops checks the same pattern).

void example(sycl::queue& q) {
  constexpr std::size_t rows = 512, cols = 128;
  int* in = sycl::malloc_shared<int>(rows * cols, q);
  int* out = sycl::malloc_shared<int>(rows, q);
  for (std::size_t i = 0; i < rows * cols; ++i) in[i] = static_cast<int>(i % 1000);
  for (std::size_t i = 0; i < rows; ++i) out[i] = 0;
  q.parallel_for(sycl::nd_range<1>{64, 32}, [=](sycl::nd_item<1> ndit) {
     khr::work_group<1> g = ndit.get_group();
     khr::member_item it = khr::get_member_item(g);
     for (std::size_t i = g.linear_id(); i < rows; i += g.range().size()) {
       int sum = 0;
       for (std::size_t j = it.linear_id(); j < cols; j += it.range().size())
         sum += in[i * cols + j];
       sum = sycl::reduce_over_group(static_cast<sycl::group<1>>(g), sum, sycl::plus<>());
       if (khr::leader_of(g)) out[i] = sum;
     }
   }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < rows; ++i) {
    int sum = 0;
    for (std::size_t j = 0; j < cols; ++j) sum += in[i * cols + j];
    if (out[i] != sum) {
      if (ok) std::printf("example: row %zu sums to %d (want %d)\n", i, out[i], sum);
      ok = false;
    }
  }
  EXPECT(ok);
  sycl::free(in, q);
  sycl::free(out, q);
}

} // namespace

int main() {
  sycl::queue q;
  // The CTS's shapes, one with a work-group size of a full warp, and one with a partial sub-group
  // at any sub-group size up to 32.
  check_queries<1>(q, sycl::range<1>{100}, sycl::range<1>{10});
  check_queries<1>(q, sycl::range<1>{256}, sycl::range<1>{64});
  check_queries<2>(q, sycl::range<2>{10, 12}, sycl::range<2>{2, 3});
  check_queries<2>(q, sycl::range<2>{8, 12}, sycl::range<2>{4, 6});
  check_queries<3>(q, sycl::range<3>{3, 10, 12}, sycl::range<3>{1, 2, 3});
  check_queries<3>(q, sycl::range<3>{2, 4, 40}, sycl::range<3>{1, 2, 20});
  check_algorithms<1>(q, sycl::range<1>{256}, sycl::range<1>{64});
  check_algorithms<1>(q, sycl::range<1>{100}, sycl::range<1>{50});
  check_algorithms<2>(q, sycl::range<2>{8, 12}, sycl::range<2>{4, 6});
  check_algorithms<3>(q, sycl::range<3>{2, 4, 40}, sycl::range<3>{1, 2, 20});
  example(q);
  if (failures == 0) std::printf("group_interface: all checks passed\n");
  return failures;
}
