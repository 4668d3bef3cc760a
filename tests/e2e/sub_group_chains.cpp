// Issue 29: on the host device, the regions between a sub-group's exchanges run one sub-group at
// a time (chains, tools/syclone-host-loops), loops over a sub-group's lanes are unrolled, and the
// exchanges' values stay in registers (exchange_forwarding). Each kernel here is checked against a
// sequential reference at every sub-group size the host supports (required with the
// sub_group_size property, and the primary size): butterflies of permute_group_by_xor, shifts,
// selects from varying lanes, a reduction, a scan, a broadcast and a vote in one chain, exchanges
// in a loop whose trip count is known only at run time with a uniform value carried around it, a
// struct exchanged, a leader's store between exchanges, and a chain that ends at a work-group
// barrier. e2e.sub_group_chains.fibers runs the same kernels on fibers; with
// SYCLONE_HOST_KERNELS=report no kernel here may fall back.
#include "expect.hpp"
#include "host_kernels_report.hpp"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace syclex = sycl::ext::oneapi::experimental;

constexpr std::size_t wg = 64;
constexpr std::size_t groups = 6;
constexpr std::size_t n = wg * groups;

struct packet {
  int a;
  float b;
  short c;
};

template <std::uint32_t S>
struct kernels;

template <std::uint32_t S>
auto launch_properties() {
  if constexpr (S == 0)
    return syclex::properties{syclex::sub_group_size_primary};
  else
    return syclex::properties{syclex::sub_group_size<S>};
}

// Compares out[0, count) with want, naming the kernel and size on the first difference.
template <typename T>
void compare(const char* what, std::uint32_t size, const T* out, const std::vector<T>& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(out[i] == want[i])) {
      std::printf("FAIL %s, sub-group size %u: element %zu\n", what, size, i);
      ++failures;
      return;
    }
}

template <std::uint32_t S>
void run(sycl::queue& q, const int* in, int* out, int rounds) {
  std::uint32_t size = S;
  if (S == 0) {
    size = q.get_device().get_info<sycl::info::device::sub_group_sizes>().front();
    // (the primary size: what a kernel without the property gets)
    q.parallel_for(sycl::nd_range<1>(wg, wg), launch_properties<S>(), [=](sycl::nd_item<1> it) {
       if (it.get_global_id(0) == 0) out[0] = int(it.get_sub_group().get_max_local_range()[0]);
     }).wait();
    size = std::uint32_t(out[0]);
  } else {
    auto sizes = q.get_device().get_info<sycl::info::device::sub_group_sizes>();
    if (std::find(sizes.begin(), sizes.end(), S) == sizes.end()) return;
  }
  auto sub_group_of = [&](std::size_t i) { return i / size * size; };
  auto lane_of = [&](std::size_t i) { return std::uint32_t(i % size); };
  auto props = launch_properties<S>();
  sycl::nd_range<1> range(n, wg);

  // A butterfly: every lane ends with its sub-group's sum.
  q.parallel_for<typename kernels<S>::butterfly>(range, props, [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     int x = in[it.get_global_id(0)];
     for (std::uint32_t m = 1; m < sg.get_max_local_range()[0]; m *= 2)
       x += sycl::permute_group_by_xor(sg, x, m);
     out[it.get_global_id(0)] = x;
   }).wait();
  std::vector<int> want(n);
  for (std::size_t i = 0; i < n; ++i) {
    int sum = 0;
    for (std::size_t k = 0; k < size; ++k) sum += in[sub_group_of(i) + k];
    want[i] = sum;
  }
  compare("butterfly", size, out, want);

  // Shifts by 1, 2, 4, ... (lanes past the end keep 0), then a select from a varying lane.
  q.parallel_for<typename kernels<S>::shifts>(range, props, [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     std::uint32_t lane = sg.get_local_linear_id(), lanes = sg.get_local_linear_range();
     int x = in[it.get_global_id(0)];
     for (std::uint32_t d = 1; d < lanes; d *= 2) {
       int left = sycl::shift_group_left(sg, x, d);
       int right = sycl::shift_group_right(sg, x, d);
       x = 3 * x + (lane + d < lanes ? left : 0) - (lane >= d ? right : 0);
     }
     out[it.get_global_id(0)] = x + 1000 * sycl::select_from_group(sg, x, (lane * 3 + 1) % lanes);
   }).wait();
  for (std::size_t s = 0; s < n; s += size) {
    std::vector<int> x(in + s, in + s + size);
    for (std::uint32_t d = 1; d < size; d *= 2) {
      std::vector<int> next(size);
      for (std::uint32_t l = 0; l < size; ++l)
        next[l] = 3 * x[l] + (l + d < size ? x[l + d] : 0) - (l >= d ? x[l - d] : 0);
      x = next;
    }
    for (std::uint32_t l = 0; l < size; ++l) want[s + l] = x[l] + 1000 * x[(l * 3 + 1) % size];
  }
  compare("shifts", size, out, want);

  // A reduction, a scan, a broadcast and a vote in one chain.
  q.parallel_for<typename kernels<S>::collectives>(range, props, [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     int x = in[it.get_global_id(0)];
     int sum = sycl::reduce_over_group(sg, x, sycl::plus<>());
     int before = sycl::exclusive_scan_over_group(sg, x, sycl::plus<>());
     int last = sycl::group_broadcast(sg, x, sg.get_local_linear_range() - 1);
     bool seven = sycl::any_of_group(sg, x % 7 == 0);
     int most = sycl::reduce_over_group(sg, before, sycl::maximum<>());
     out[it.get_global_id(0)] = sum * 7 + before * 3 + last + (seven ? 100000 : 0) - most;
   }).wait();
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t s = sub_group_of(i);
    int sum = 0, before = 0, most = 0, prefix = 0;
    bool seven = false;
    for (std::size_t k = 0; k < size; ++k) {
      sum += in[s + k];
      if (k < lane_of(i)) before += in[s + k];
      most = std::max(most, prefix);
      prefix += in[s + k];
      seven = seven || in[s + k] % 7 == 0;
    }
    want[i] = sum * 7 + before * 3 + in[s + size - 1] + (seven ? 100000 : 0) - most;
  }
  compare("collectives", size, out, want);

  // Exchanges in a loop of a run-time trip count, with a uniform value carried around it and a
  // leader's store between two exchanges.
  // (Lane 0's neighbour: none in sub-groups of one, where the shift's value is unspecified.)
  int* leaders = sycl::malloc_shared<int>(n * 8, q);
  std::fill(leaders, leaders + n * 8, -1);
  q.parallel_for<typename kernels<S>::rounds>(range, props, [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     bool single = sg.get_local_linear_range() == 1;
     int x = in[it.get_global_id(0)];
     int carried = 1;
     for (int r = 0; r < rounds; ++r) {
       int left = sycl::shift_group_left(sg, x, 1);
       std::size_t index = it.get_global_id(0) / sg.get_local_linear_range();
       if (sg.leader()) leaders[index * 8 + std::size_t(r)] = single ? 0 : left;
       int from_next = sycl::select_from_group(sg, left, 0);
       x = x + carried * (single ? 0 : from_next);
       carried = carried * 2 + r;
     }
     out[it.get_global_id(0)] = x;
   }).wait();
  std::vector<int> want_leaders(n * 8, -1);
  for (std::size_t s = 0; s < n; s += size) {
    std::vector<int> x(in + s, in + s + size);
    int carried = 1;
    for (int r = 0; r < rounds; ++r) {
      int left0 = size > 1 ? x[1] : 0;
      want_leaders[s / size * 8 + std::size_t(r)] = left0;
      for (std::uint32_t l = 0; l < size; ++l) x[l] += carried * left0;
      carried = carried * 2 + r;
    }
    for (std::uint32_t l = 0; l < size; ++l) want[s + l] = x[l];
  }
  compare("rounds", size, out, want);
  compare("rounds (leaders)", size, leaders, want_leaders);
  sycl::free(leaders, q);

  // A struct through a shuffle and a shift.
  packet* packets = sycl::malloc_shared<packet>(n, q);
  q.parallel_for<typename kernels<S>::structs>(range, props, [=](sycl::nd_item<1> it) {
     sycl::sub_group sg = it.get_sub_group();
     std::uint32_t lane = sg.get_local_linear_id(), lanes = sg.get_local_linear_range();
     int v = in[it.get_global_id(0)];
     packet p{v, float(v) / 2, short(v % 100)};
     packet q2 = sycl::select_from_group(sg, p, lanes - 1 - lane);
     packet r = sycl::shift_group_left(sg, q2, 1);
     packets[it.get_global_id(0)] = lane + 1 < lanes ? r : q2;
   }).wait();
  bool structs_ok = true;
  for (std::size_t i = 0; i < n && structs_ok; ++i) {
    std::size_t s = sub_group_of(i);
    std::uint32_t l = lane_of(i);
    std::uint32_t from = l + 1 < size ? size - 1 - (l + 1) : size - 1 - l;
    int v = in[s + from];
    structs_ok = packets[i].a == v && packets[i].b == float(v) / 2 && packets[i].c == v % 100;
  }
  if (!structs_ok) std::printf("FAIL structs, sub-group size %u\n", size);
  failures += !structs_ok;
  sycl::free(packets, q);

  // A chain that ends at a work-group barrier: sub-group sums to local memory, the group's sum.
  std::fill(out, out + n, 0);
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<int> partial(wg, h);
     h.parallel_for<typename kernels<S>::group_sum>(range, props, [=](sycl::nd_item<1> it) {
       sycl::sub_group sg = it.get_sub_group();
       int v = in[it.get_global_id(0)];
       for (std::uint32_t d = sg.get_max_local_range()[0] / 2; d > 0; d /= 2)
         v += sycl::shift_group_left(sg, v, d);
       if (sg.leader()) partial[sg.get_group_linear_id()] = v;
       sycl::group_barrier(it.get_group());
       if (it.get_local_id(0) == 0) {
         int s = 0;
         for (std::uint32_t k = 0; k < sg.get_group_linear_range(); ++k) s += partial[k];
         out[it.get_group(0)] = s;
       }
     });
   }).wait();
  bool sums_ok = true;
  for (std::size_t g = 0; g < groups && sums_ok; ++g) {
    int s = 0;
    for (std::size_t k = 0; k < wg; ++k) s += in[g * wg + k];
    sums_ok = out[g] == s;
  }
  if (!sums_ok) std::printf("FAIL group_sum, sub-group size %u\n", size);
  failures += !sums_ok;
}

template <std::uint32_t S>
struct kernels {
  class butterfly;
  class shifts;
  class collectives;
  class rounds;
  class structs;
  class group_sum;
};

int main() {
  host_kernels_report report(std::getenv("SYCLONE_HOST_KERNELS") == nullptr);
  EXPECT(!report.capturing() || report.redirected());
  sycl::queue q;
  int* in = sycl::malloc_shared<int>(n, q);
  int* out = sycl::malloc_shared<int>(n, q);
  for (std::size_t i = 0; i < n; ++i) in[i] = int((i * 37 + 11) % 101) - 40;
  for (int rounds : {0, 1, 5}) {
    run<0>(q, in, out, rounds);
    run<1>(q, in, out, rounds);
    run<4>(q, in, out, rounds);
    run<8>(q, in, out, rounds);
    run<16>(q, in, out, rounds);
    run<32>(q, in, out, rounds);
  }
  sycl::free(in, q);
  sycl::free(out, q);
  EXPECT(report.none_on_fibers(failures != 0));
  std::printf("sub_group_chains: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
