// SYCL 2020 4.17.3 / 4.17.4 group functions and algorithms on work-groups (group<D>), with the
// joint_* forms on work-groups and sub-groups, for every sub-group size the device supports, in
// 1-, 2- and 3-D work-groups (sizes that are not multiples of the sub-group size included).
// Also runs shuffled on the host (group_barrier below).
#include "sub_group_common.hpp"

using namespace sg_test;

constexpr std::size_t input_size = 2048;

template <std::uint32_t S, int D>
int run(sycl::queue& q, sycl::range<D> local, sycl::range<D> groups, const int* in, int* scans) {
  const std::uint32_t wg = static_cast<std::uint32_t>(local.size());
  const std::size_t total = local.size() * groups.size();
  std::vector<int> codes(total, -1);
  {
    sycl::buffer<int> out(codes.data(), sycl::range<1>(total));
    q.submit([&](sycl::handler& h) {
      sycl::accessor code(out, h, sycl::write_only);
      sycl::local_accessor<int> shared(sycl::range<1>(wg), h);
      h.parallel_for(
          sycl::nd_range<D>(local * groups, local), syclex::properties{syclex::sub_group_size<S>},
          [=](sycl::nd_item<D> it) {
            sycl::group<D> g = it.get_group();
            const std::uint32_t gid = static_cast<std::uint32_t>(it.get_group_linear_id());
            const std::uint32_t l = static_cast<std::uint32_t>(it.get_local_linear_id());
            auto xs = [&](std::uint32_t i) { return value(gid, i, wg); };
            const int x = xs(l);
            int fail = 0;
            auto check = [&](int number, bool ok) {
              if (!ok && fail == 0) fail = number;
            };

            int sum = 0, hi = -1000, lo = 1000, prefix = 0, prefix_hi = 25;
            unsigned prod = 1, bxor = 0;
            long long wide = 0;
            for (std::uint32_t i = 0; i < wg; ++i) {
              int v = xs(i);
              if (i < l) prefix += v;
              if (i <= l) prefix_hi = v > prefix_hi ? v : prefix_hi;
              sum += v;
              hi = v > hi ? v : hi;
              lo = v < lo ? v : lo;
              prod *= unsigned(v | 1);
              bxor ^= unsigned(v) * 2654435761u;
              wide += (long long)v * (1ll << 32); // not <<: v may be negative (UB before C++20)
            }
            check(1, sycl::reduce_over_group(g, x, sycl::plus<>()) == sum);
            check(2, sycl::reduce_over_group(g, x, sycl::maximum<int>()) == hi &&
                         sycl::reduce_over_group(g, x, sycl::minimum<>()) == lo);
            sycl::id<D> last_id;
            for (int d = 0; d < D; ++d) last_id[d] = it.get_local_range(d) - 1;
            check(3, sycl::group_broadcast(g, x) == xs(0) &&
                         sycl::group_broadcast(g, x, std::size_t(wg - 1)) == xs(wg - 1) &&
                         sycl::group_broadcast(g, x, last_id) == xs(wg - 1) &&
                         sycl::group_broadcast(g, x, std::size_t(wg / 2)) == xs(wg / 2));
            check(4, sycl::inclusive_scan_over_group(g, x, sycl::plus<>()) == prefix + x);
            check(5, sycl::exclusive_scan_over_group(g, x, sycl::plus<int>()) == prefix);
            check(6, sycl::exclusive_scan_over_group(g, x, -3, sycl::plus<>()) == prefix - 3);
            check(7, sycl::inclusive_scan_over_group(g, x, sycl::maximum<>(), 25) == prefix_hi);
            check(8, sycl::any_of_group(g, x == xs(wg - 1)) && sycl::all_of_group(g, x > -100) &&
                         !sycl::all_of_group(g, x, [&](int v) { return v != xs(0); }) &&
                         sycl::none_of_group(g, x, [](int v) { return v > 1000; }) &&
                         !sycl::none_of_group(g, l == 0));
            check(9, sycl::reduce_over_group(g, double(x), sycl::plus<>()) == double(sum) &&
                         sycl::inclusive_scan_over_group(g, float(x), sycl::plus<>()) ==
                             float(prefix + x) &&
                         sycl::reduce_over_group(g, x, 100, sycl::plus<>()) == 100 + sum);
            sycl::vec<float, 2> v2(float(x), 1.0f);
            sycl::vec<float, 2> r2 = sycl::reduce_over_group(g, v2, sycl::plus<>());
            check(10, r2[0] == float(sum) && r2[1] == float(wg));
            check(11, sycl::reduce_over_group(g, unsigned(x | 1), sycl::multiplies<>()) == prod &&
                          sycl::reduce_over_group(g, unsigned(x) * 2654435761u,
                                                  sycl::bit_xor<unsigned>()) == bxor &&
                          sycl::reduce_over_group(g, (long long)x * (1ll << 32), sycl::plus<>()) ==
                              wide);

            // group_barrier orders local memory across the work-group.
            shared[l] = x;
            sycl::group_barrier(g);
            check(12, shared[wg - 1 - l] == xs(wg - 1 - l));
            sycl::group_barrier(g);

            // Joint algorithms of the work-group, over ranges shorter and longer than it.
            for (std::uint32_t len : {5u, 300u, 1500u}) {
              const int* a = in + gid * 3;
              int jsum = 0;
              for (std::uint32_t i = 0; i < len; ++i) jsum += a[i];
              check(13, sycl::joint_reduce(g, a, a + len, sycl::plus<>()) == jsum &&
                            sycl::joint_reduce(g, a, a + len, 11LL, sycl::plus<>()) == 11 + jsum);
              check(14, sycl::joint_any_of(g, a, a + len, [&](int v) { return v == a[len / 2]; }) &&
                            sycl::joint_none_of(g, a, a + len, [](int v) { return v > 1000; }) &&
                            sycl::joint_all_of(g, a, a + len, [](int v) { return v > -1000; }));
              int* out = scans + gid * 2 * input_size;
              sycl::joint_inclusive_scan(g, a, a + len, out, sycl::plus<>());
              sycl::group_barrier(g);
              int run_sum = 0;
              for (std::uint32_t i = l; i < len; i += wg) {
                run_sum = 0;
                for (std::uint32_t k = 0; k <= i; ++k) run_sum += a[k];
                check(15, out[i] == run_sum);
              }
              sycl::group_barrier(g);
              sycl::joint_exclusive_scan(g, a, a + len, out, 2, sycl::plus<>());
              sycl::group_barrier(g);
              for (std::uint32_t i = l; i < len; i += wg) {
                int before = 2;
                for (std::uint32_t k = 0; k < i; ++k) before += a[k];
                check(16, out[i] == before);
              }
              sycl::group_barrier(g);
              sycl::joint_inclusive_scan(g, a, a + len, out, sycl::maximum<>(), 3);
              sycl::joint_exclusive_scan(g, a, a + len, out + len, sycl::maximum<>());
              sycl::group_barrier(g);
              for (std::uint32_t i = l; i < len; i += wg) {
                int m_in = 3, m_ex = -2147483647 - 1;
                for (std::uint32_t k = 0; k <= i; ++k) {
                  if (k < i) m_ex = a[k] > m_ex ? a[k] : m_ex;
                  m_in = a[k] > m_in ? a[k] : m_in;
                }
                check(17, out[i] == m_in && out[len + i] == m_ex);
              }
              sycl::group_barrier(g);
            }

            // Sub-group and work-group operations interleaved.
            sycl::sub_group sg = it.get_sub_group();
            int sg_sum = sycl::reduce_over_group(sg, x, sycl::plus<>());
            int total_of_leaders =
                sycl::reduce_over_group(g, sg.leader() ? sg_sum : 0, sycl::plus<>());
            check(18, total_of_leaders == sum);
            code[it.get_global_linear_id()] = fail;
          });
    });
  }
  return report("work_group_algorithms", S, codes);
}

template <std::uint32_t S>
int run_size(sycl::queue& q, const int* in, int* scans) {
  if (!supports(q.get_device(), S)) return 0;
  int failures = 0;
  failures += run<S, 1>(q, sycl::range<1>(64), sycl::range<1>(2), in, scans);
  failures += run<S, 1>(q, sycl::range<1>(100), sycl::range<1>(3), in, scans);
  failures += run<S, 1>(q, sycl::range<1>(1000), sycl::range<1>(2), in, scans);
  failures += run<S, 2>(q, sycl::range<2>(4, 12), sycl::range<2>(2, 1), in, scans);
  failures += run<S, 3>(q, sycl::range<3>(2, 3, 7), sycl::range<3>(1, 2, 2), in, scans);
  std::printf("sub-group size %u: %s\n", S, failures ? "FAILED" : "ok");
  return failures;
}

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  int* in = sycl::malloc_shared<int>(input_size, q);
  int* scans = sycl::malloc_shared<int>(16 * input_size, q);
  for (std::size_t i = 0; i < input_size; ++i) in[i] = int((i * 13) % 29) - 9;
  int failures = 0;
  failures += run_size<1>(q, in, scans);
  failures += run_size<8>(q, in, scans);
  failures += run_size<16>(q, in, scans);
  failures += run_size<32>(q, in, scans);
  sycl::free(in, q);
  sycl::free(scans, q);
  std::printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
