// Seed 004 sub_group members and the SYCL 2020 group functions and algorithms on sub-groups, for
// every sub-group size the device supports (sub_group_size property), in 1-, 2- and 3-D
// work-groups whose sizes leave partial sub-groups. Every work-item checks its results against
// values computed from the seed's linearization rule and reports the first mismatch.
// Also runs shuffled on the host (sub-group barrier below).
#include "sub_group_common.hpp"

#include <cstring>

using namespace sg_test;

template <std::uint32_t S, int D>
int run(sycl::queue& q, sycl::range<D> local, sycl::range<D> groups, const int* in) {
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
            sycl::sub_group sg = it.get_sub_group();
            const std::uint32_t g = static_cast<std::uint32_t>(it.get_group_linear_id());
            const std::uint32_t l = static_cast<std::uint32_t>(it.get_local_linear_id());
            const member m = membership(l, wg, S);
            const std::uint32_t first = l - m.lane; // local linear id of lane 0
            auto xs = [&](std::uint32_t lane) { return value(g, first + lane, wg); };
            const int x = xs(m.lane);
            int fail = 0;
            auto check = [&](int number, bool ok) {
              if (!ok && fail == 0) fail = number;
            };

            // seed 004 "Core Member Functions" (both spellings).
            check(1, sg.get_local_id()[0] == m.lane && sg.get_local_linear_id() == m.lane &&
                         sg.get_linear_local_id() == m.lane);
            check(2, sg.get_group_id()[0] == m.id && sg.get_group_linear_id() == m.id &&
                         sg.get_linear_group_id() == m.id);
            check(3, sg.get_local_range()[0] == m.size && sg.get_local_linear_range() == m.size);
            check(4, sg.get_max_local_range()[0] == S);
            check(5, sg.get_group_range()[0] == m.count && sg.get_max_group_range()[0] == m.count &&
                         sg.get_group_linear_range() == m.count);
            check(6, sg.leader() == (m.lane == 0));

            // Shuffles; sources outside the sub-group give undefined values (not checked).
            std::uint32_t src = (m.lane + 3) % m.size;
            check(7, sg.shuffle(x, sycl::id<1>(src)) == xs(src));
            int down = sg.shuffle_down(x, 1);
            check(8, m.lane + 1 >= m.size || down == xs(m.lane + 1));
            int up = sg.shuffle_up(x, 2);
            check(9, m.lane < 2 || up == xs(m.lane - 2));
            int flip = sg.shuffle_xor(x, sycl::id<1>(1));
            check(10, (m.lane ^ 1u) >= m.size || flip == xs(m.lane ^ 1u));
            std::uint32_t pick = (m.lane * 5 + 1) % m.size;
            check(11, sycl::select_from_group(sg, x, sycl::id<1>(pick)) == xs(pick));
            int left = sycl::shift_group_left(sg, x, 3);
            check(12, m.lane + 3 >= m.size || left == xs(m.lane + 3));
            int right = sycl::shift_group_right(sg, x);
            check(13, m.lane < 1 || right == xs(m.lane - 1));
            int perm = sycl::permute_group_by_xor(sg, x, 2);
            check(14, (m.lane ^ 2u) >= m.size || perm == xs(m.lane ^ 2u));
            check(15, sycl::group_broadcast(sg, x) == xs(0) &&
                          sycl::group_broadcast(sg, x, m.size - 1) == xs(m.size - 1) &&
                          sycl::group_broadcast(sg, x, sycl::id<1>(m.size / 2)) == xs(m.size / 2));

            // References over the sub-group's values.
            int sum = 0, hi = -1000, lo = 1000, prefix = 0, prefix_hi = 30, prefix_max = -1000;
            unsigned band = ~0u, bor = 0, bxor = 0, prod = 1, prod_before = 1;
            bool all_even = true, any_zero = false;
            for (std::uint32_t i = 0; i < m.size; ++i) {
              int v = xs(i);
              unsigned u = unsigned(v) * 2654435761u;
              if (i < m.lane) {
                prefix += v;
                prod_before *= unsigned(v | 1);
              }
              if (i <= m.lane) {
                prefix_hi = v > prefix_hi ? v : prefix_hi;
                prefix_max = v > prefix_max ? v : prefix_max;
              }
              sum += v;
              hi = v > hi ? v : hi;
              lo = v < lo ? v : lo;
              band &= u;
              bor |= u;
              bxor ^= u;
              prod *= unsigned(v | 1);
              all_even = all_even && v % 2 == 0;
              any_zero = any_zero || v == 0;
            }
            unsigned ux = unsigned(x) * 2654435761u;
            check(16, sycl::reduce_over_group(sg, x, sycl::plus<>()) == sum);
            check(17, sycl::reduce_over_group(sg, x, sycl::maximum<int>()) == hi);
            check(18, sycl::reduce_over_group(sg, x, sycl::minimum<>()) == lo);
            check(19, sycl::reduce_over_group(sg, ux, sycl::bit_and<unsigned>()) == band &&
                          sycl::reduce_over_group(sg, ux, sycl::bit_or<>()) == bor &&
                          sycl::reduce_over_group(sg, ux, sycl::bit_xor<unsigned>()) == bxor);
            check(20, sycl::reduce_over_group(sg, unsigned(x | 1), sycl::multiplies<>()) == prod);
            check(21,
                  sycl::reduce_over_group(sg, x % 2 == 0, sycl::logical_and<bool>()) == all_even &&
                      sycl::reduce_over_group(sg, x == 0, sycl::logical_or<>()) == any_zero);
            check(22, sycl::reduce_over_group(sg, x, 1000, sycl::plus<>()) == 1000 + sum);
            check(23, sycl::exclusive_scan_over_group(sg, x, sycl::plus<>()) == prefix);
            check(24, sycl::inclusive_scan_over_group(sg, x, sycl::plus<int>()) == prefix + x);
            check(25, sycl::exclusive_scan_over_group(sg, x, 5, sycl::plus<>()) == 5 + prefix);
            check(26, sycl::inclusive_scan_over_group(sg, x, sycl::maximum<>(), 30) == prefix_hi);
            check(27, sycl::exclusive_scan_over_group(sg, unsigned(x | 1),
                                                      sycl::multiplies<unsigned>()) == prod_before);
            check(28, sycl::any_of_group(sg, x == xs(m.size - 1)) &&
                          !sycl::any_of_group(sg, x, [](int v) { return v > 1000; }) &&
                          sycl::all_of_group(sg, x > -100) &&
                          sycl::all_of_group(sg, x, [](int v) { return v % 2 == 0; }) == all_even &&
                          sycl::none_of_group(sg, x > 1000) &&
                          sycl::none_of_group(sg, x, [&](int v) { return v == xs(0); }) == false);

            // Other types: floating point (sums of small integers are exact), 64-bit, narrow.
            check(29, sycl::reduce_over_group(sg, float(x), sycl::plus<>()) == float(sum) &&
                          sycl::exclusive_scan_over_group(sg, double(x), sycl::plus<>()) ==
                              double(prefix) &&
                          sycl::reduce_over_group(sg, double(x), sycl::maximum<>()) == double(hi));
            // Scaled by a multiplication: a left shift of a negative value is undefined before
            // C++20 (UBSan reports it).
            check(30, sycl::reduce_over_group(sg, (long long)x * (1ll << 33), sycl::plus<>()) ==
                              (long long)sum * (1ll << 33) &&
                          sycl::reduce_over_group(sg, (short)x, sycl::minimum<short>()) == lo &&
                          sycl::inclusive_scan_over_group(sg, (signed char)x,
                                                          sycl::maximum<signed char>()) ==
                              (signed char)prefix_max);
            sycl::vec<int, 4> v4(x, 2 * x, -x, 7);
            sycl::vec<int, 4> r4 = sycl::reduce_over_group(sg, v4, sycl::plus<>());
            check(31,
                  r4[0] == sum && r4[1] == 2 * sum && r4[2] == -sum && r4[3] == 7 * int(m.size));
            sycl::vec<double, 3> v3(x, x + 0.5, -2.0 * x);
            sycl::vec<double, 3> s3 = sg.shuffle(v3, sycl::id<1>(src));
            check(32, s3[0] == xs(src) && s3[1] == xs(src) + 0.5 && s3[2] == -2.0 * xs(src));
            sycl::half h = sycl::half(float(x));
            check(33, float(sg.shuffle(h, sycl::id<1>(src))) == float(xs(src)) &&
                          sg.shuffle(x % 2 == 0, sycl::id<1>(src)) == (xs(src) % 2 == 0));

            // seed 004 barrier(): orders local memory within the sub-group only.
            shared[l] = x;
            sg.barrier();
            check(34, shared[first + (m.lane + 1) % m.size] == xs((m.lane + 1) % m.size));
            sycl::group_barrier(sg);
            shared[l] = -x;
            sycl::group_barrier(sg);
            check(35, shared[first + src] == -xs(src));

            // Joint algorithms over input ranges shorter and longer than the sub-group.
            for (std::uint32_t len : {3u, 77u}) {
              const int* a = in + (m.id * 5) % 256;
              int jsum = 0;
              bool jneg = true;
              for (std::uint32_t i = 0; i < len; ++i) {
                jsum += a[i];
                jneg = jneg && a[i] < 0;
              }
              check(36, sycl::joint_reduce(sg, a, a + len, sycl::plus<>()) == jsum &&
                            sycl::joint_reduce(sg, a, a + len, 7, sycl::plus<>()) == 7 + jsum);
              check(37,
                    sycl::joint_any_of(sg, a, a + len, [&](int v) { return v == a[len - 1]; }) &&
                        sycl::joint_all_of(sg, a, a + len, [](int v) { return v < 0; }) == jneg &&
                        sycl::joint_none_of(sg, a, a + len, [](int v) { return v > 1000; }));
            }
            code[it.get_global_linear_id()] = fail;
          });
    });
  }
  return report("sub_group_algorithms", S, codes);
}

template <std::uint32_t S>
int run_size(sycl::queue& q, const int* in) {
  if (!supports(q.get_device(), S)) return 0;
  int failures = 0;
  failures += run<S, 1>(q, sycl::range<1>(64), sycl::range<1>(2), in);
  failures += run<S, 1>(q, sycl::range<1>(100), sycl::range<1>(3), in);
  failures += run<S, 2>(q, sycl::range<2>(4, 12), sycl::range<2>(2, 1), in);
  failures += run<S, 3>(q, sycl::range<3>(2, 3, 7), sycl::range<3>(1, 2, 2), in);
  std::printf("sub-group size %u: %s\n", S, failures ? "FAILED" : "ok");
  return failures;
}

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  int* in = sycl::malloc_shared<int>(512, q);
  for (int i = 0; i < 512; ++i) in[i] = (i * 13) % 29 - 9;
  int failures = 0;
  failures += run_size<1>(q, in);
  failures += run_size<4>(q, in);
  failures += run_size<8>(q, in);
  failures += run_size<16>(q, in);
  failures += run_size<32>(q, in);
  sycl::free(in, q);
  std::printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
