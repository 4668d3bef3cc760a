// Seed 004 shuffles (shuffle, shuffle_down, shuffle_up, shuffle_xor) for every arithmetic type,
// sycl::half, vec and marray, and sub-group reduce/scan for the arithmetic ones, with the
// device's primary sub-group size and, where supported, 8 and 32, in a work-group of 60 (a
// partial last sub-group for sizes above 4).
#include "sub_group_common.hpp"

#include <type_traits>

using namespace sg_test;

template <typename T>
struct is_vec : std::false_type {};
template <typename E, int N>
struct is_vec<sycl::vec<E, N>> : std::true_type {};
template <typename T>
struct is_marray : std::false_type {};
template <typename E, std::size_t N>
struct is_marray<sycl::marray<E, N>> : std::true_type {};

// A value of T that identifies v (within each type's range).
template <typename T>
T make(int v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v % 3 == 0;
  } else if constexpr (is_vec<T>::value) {
    using E = typename T::element_type;
    T r;
    for (int i = 0; i < T::size(); ++i) r[i] = E((v + i) % 100);
    return r;
  } else if constexpr (is_marray<T>::value) {
    using E = typename T::value_type;
    T r;
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = E((v + int(i)) % 100);
    return r;
  } else {
    return T(v % 100);
  }
}
template <typename T>
bool same(const T& a, const T& b) {
  if constexpr (is_vec<T>::value) {
    for (int i = 0; i < T::size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  } else if constexpr (is_marray<T>::value) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  } else {
    return a == b;
  }
}

template <typename T, std::uint32_t S>
class shuffle_kernel;

template <typename T, std::uint32_t S>
int run(sycl::queue& q, const char* type) {
  constexpr std::uint32_t wg = 60;
  std::vector<int> codes(2 * wg, -1);
  {
    sycl::buffer<int> out(codes.data(), sycl::range<1>(codes.size()));
    q.submit([&](sycl::handler& h) {
      sycl::accessor code(out, h, sycl::write_only);
      auto body = [=](sycl::nd_item<1> it) {
        sycl::sub_group sg = it.get_sub_group();
        const std::uint32_t l = static_cast<std::uint32_t>(it.get_local_linear_id());
        const std::uint32_t s = sg.get_max_local_range()[0];
        const member m = membership(l, wg, s);
        const std::uint32_t first = l - m.lane;
        auto xs = [&](std::uint32_t lane) {
          return make<T>(value(std::uint32_t(it.get_group_linear_id()), first + lane, wg));
        };
        const T x = xs(m.lane);
        int fail = 0;
        auto check = [&](int number, bool ok) {
          if (!ok && fail == 0) fail = number;
        };
        std::uint32_t src = (m.lane * 7 + 2) % m.size;
        check(1, same(sg.shuffle(x, sycl::id<1>(src)), xs(src)));
        T down = sg.shuffle_down(x, 2);
        check(2, m.lane + 2 >= m.size || same(down, xs(m.lane + 2)));
        T up = sg.shuffle_up(x, 1);
        check(3, m.lane < 1 || same(up, xs(m.lane - 1)));
        T flip = sg.shuffle_xor(x, sycl::id<1>(3));
        check(4, (m.lane ^ 3u) >= m.size || same(flip, xs(m.lane ^ 3u)));
        if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
          T sum = T(0), before = T(0);
          for (std::uint32_t i = 0; i < m.size; ++i) {
            sum = T(sum + xs(i));
            if (i < m.lane) before = T(before + xs(i));
          }
          check(5, sycl::reduce_over_group(sg, x, sycl::plus<T>()) == sum);
          check(6, sycl::exclusive_scan_over_group(sg, x, sycl::plus<T>()) == before);
          check(7, sycl::inclusive_scan_over_group(sg, x, sycl::plus<T>()) == T(before + x));
        }
        if constexpr (std::is_same_v<T, sycl::half>) {
          float sum = 0;
          for (std::uint32_t i = 0; i < m.size; ++i) sum += float(xs(i));
          check(8, float(sycl::reduce_over_group(sg, x, sycl::plus<>())) == sum);
        }
        code[it.get_global_linear_id()] = fail;
      };
      if constexpr (S == 0)
        h.parallel_for<shuffle_kernel<T, S>>(sycl::nd_range<1>(2 * wg, wg), body);
      else
        h.parallel_for<shuffle_kernel<T, S>>(sycl::nd_range<1>(2 * wg, wg),
                                             syclex::properties{syclex::sub_group_size<S>}, body);
    });
  }
  return report(type, S, codes);
}

template <std::uint32_t S>
int run_types(sycl::queue& q) {
  if (S != 0 && !supports(q.get_device(), S)) return 0;
  int f = 0;
  f += run<char, S>(q, "char");
  f += run<signed char, S>(q, "signed char");
  f += run<unsigned char, S>(q, "unsigned char");
  f += run<short, S>(q, "short");
  f += run<unsigned short, S>(q, "unsigned short");
  f += run<int, S>(q, "int");
  f += run<unsigned, S>(q, "unsigned");
  f += run<long, S>(q, "long");
  f += run<unsigned long, S>(q, "unsigned long");
  f += run<long long, S>(q, "long long");
  f += run<unsigned long long, S>(q, "unsigned long long");
  f += run<float, S>(q, "float");
  f += run<double, S>(q, "double");
  f += run<bool, S>(q, "bool");
  f += run<sycl::half, S>(q, "half");
  f += run<sycl::vec<int, 2>, S>(q, "int2");
  f += run<sycl::vec<float, 4>, S>(q, "float4");
  f += run<sycl::vec<double, 3>, S>(q, "double3");
  f += run<sycl::vec<char, 8>, S>(q, "char8");
  f += run<sycl::vec<short, 16>, S>(q, "short16");
  f += run<sycl::marray<float, 5>, S>(q, "marray<float, 5>");
  std::printf("sub-group size %s%u: %s\n", S ? "" : "primary ", S, f ? "FAILED" : "ok");
  return f;
}

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  int failures = run_types<0>(q) + run_types<8>(q) + run_types<32>(q);
  std::printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
