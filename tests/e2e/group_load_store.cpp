// sycl_ext_oneapi_group_load_store: group_load and group_store of one element, a sycl::vec and a
// fixed-size sycl::span per work-item, over work-groups (1-D and 2-D) and sub-groups, in the
// default (blocked), blocked and striped placements, through raw pointers, decorated pointers,
// multi_ptrs (decorated, undecorated, legacy), accessor iterators (with and without
// contiguous_memory), an iterator that is not contiguous (every other element) and local memory,
// for elements of 1 to 12 bytes, with conversions between the memory's and the work-item's type,
// misaligned chunks, partial sub-groups and partial warps (work-groups of 44), full_group, and
// every sub-group size the device has. Each work-item writes what it loaded to a plain array and
// stores values made from its global id; both are checked here against the extension's formulas
// (blocked: element id*N + i of the group's range; striped: id + range*i), and every element of
// the stores' memory is checked (written once where the formulas say, untouched elsewhere).
// With SYCLONE_HOST_KERNELS=report, no kernel may fall back to fibers.
#include "expect.hpp"
#include "host_kernels_report.hpp"

#include <sycl/ext/oneapi/experimental/group_load_store.hpp>
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <vector>

#if SYCL_EXT_ONEAPI_GROUP_LOAD_STORE != 1
#error "SYCL_EXT_ONEAPI_GROUP_LOAD_STORE must be 1"
#endif

namespace sx = sycl::ext::oneapi::experimental;

namespace {

// A trivially copyable element that is not a scalar (12 bytes: no vector unit fits).
struct triple {
  int a, b, c;
  friend bool operator==(const triple& x, const triple& y) {
    return x.a == y.a && x.b == y.b && x.c == y.c;
  }
};

template <typename T>
T make(int v) {
  if constexpr (std::is_same_v<T, triple>)
    return triple{v, v + 1, -v};
  else
    return static_cast<T>(v);
}
template <typename T>
T sentinel() {
  if constexpr (std::is_same_v<T, triple>)
    return triple{-1, -1, -1};
  else
    return static_cast<T>(255);
}
// What memory position p holds before a kernel runs, and what work-item `gid` stores as its
// element k (both below 251, never the sentinel).
template <typename T>
T in_value(std::size_t p) {
  return make<T>(int((p * 7 + 3) % 251));
}
template <typename T>
T out_value(std::size_t gid, std::size_t k) {
  return make<T>(int((gid * 31 + k * 5 + 1) % 251));
}

// A random access iterator over every other element: not contiguous, so group_load/group_store
// must go through it element by element.
template <typename T>
struct strided {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_const_t<T>;
  using difference_type = std::ptrdiff_t;
  using pointer = T*;
  using reference = T&;
  T* p;
  reference operator*() const { return *p; }
  reference operator[](difference_type n) const { return p[2 * n]; }
  strided& operator+=(difference_type n) { return p += 2 * n, *this; }
  strided& operator-=(difference_type n) { return p -= 2 * n, *this; }
  strided& operator++() { return p += 2, *this; }
  strided& operator--() { return p -= 2, *this; }
  friend strided operator+(strided s, difference_type n) { return s += n; }
  friend strided operator+(difference_type n, strided s) { return s += n; }
  friend strided operator-(strided s, difference_type n) { return s -= n; }
  friend difference_type operator-(strided a, strided b) { return (a.p - b.p) / 2; }
  friend bool operator==(strided a, strided b) { return a.p == b.p; }
  friend bool operator!=(strided a, strided b) { return a.p != b.p; }
  friend bool operator<(strided a, strided b) { return a.p < b.p; }
};

enum class kind { work_group, work_group_2d, sub_group };
enum class form { scalar, vec, span };
enum class placement { none, blocked, striped };
enum class iter {
  pointer,
  decorated,
  multi_ptr_yes,
  multi_ptr_no,
  legacy,
  accessor,
  strided,
};
// Extra properties: contiguous_memory, full_group, and the placement passed as a bare value.
constexpr int contiguous = 1, full = 2, bare = 4;

template <kind K, form F, std::size_t N_, placement P, iter I, typename T_, typename U_ = T_,
          std::size_t WG = 64, std::size_t Shift = 0, int X = 0>
struct config {
  static constexpr kind k = K;
  static constexpr form f = F;
  static constexpr std::size_t N = N_;
  static constexpr placement p = P;
  static constexpr iter i = I;
  using T = T_; // the memory's elements
  using U = U_; // the work-items' elements
  static constexpr std::size_t wg = WG;
  static constexpr std::size_t shift = Shift;
  static constexpr int x = X;
  static constexpr int dims = K == kind::work_group_2d ? 2 : 1;
  static_assert(F != form::scalar || N_ == 1);
};

template <typename C, std::uint32_t S>
class kernel_name;

template <std::uint32_t S>
auto launch_properties() {
  if constexpr (S == 0)
    return sx::properties{sx::sub_group_size_primary};
  else
    return sx::properties{sx::sub_group_size<S>};
}

template <placement P>
constexpr auto place() {
  if constexpr (P == placement::striped)
    return sx::data_placement<sx::data_placement_enum::striped>;
  else
    return sx::data_placement_blocked;
}

// The properties argument of config C (not called where C passes none).
template <typename C>
auto make_props() {
  constexpr bool c = (C::x & contiguous) != 0, f = (C::x & full) != 0;
  if constexpr (C::p == placement::none) {
    if constexpr (c && f)
      return sx::properties{sx::contiguous_memory, sx::full_group};
    else if constexpr (c)
      return sx::properties{sx::contiguous_memory};
    else if constexpr (f)
      return sx::properties{sx::full_group};
    else
      return sx::properties{};
  } else if constexpr ((C::x & bare) != 0) {
    return place<C::p>();
  } else {
    constexpr auto v = place<C::p>();
    if constexpr (c && f)
      return sx::properties{v, sx::full_group, sx::contiguous_memory};
    else if constexpr (c)
      return sx::properties{sx::contiguous_memory, v};
    else if constexpr (f)
      return sx::properties{v, sx::full_group};
    else
      return sx::properties{v};
  }
}
template <typename C>
constexpr bool passes_props = C::p != placement::none || C::x != 0;

template <typename C, typename Group, typename It, typename Dst>
void load(Group g, It it, Dst&& dst) {
  if constexpr (passes_props<C>)
    sx::group_load(g, it, dst, make_props<C>());
  else
    sx::group_load(g, it, dst);
}
template <typename C, typename Group, typename Src, typename It>
void store(Group g, const Src& src, It it) {
  if constexpr (passes_props<C>)
    sx::group_store(g, src, it, make_props<C>());
  else
    sx::group_store(g, src, it);
}

// The iterator of config C at element `offset` (after the shift) of an accessor's memory.
template <typename C, typename Acc>
auto iterator_at(const Acc& acc, std::size_t offset) {
  using D = sycl::access::decorated;
  using sycl::access::address_space;
  auto raw = acc.template get_multi_ptr<D::no>().get();
  using E = std::remove_pointer_t<decltype(raw)>;
  if constexpr (C::i == iter::pointer) {
    return raw + C::shift + offset;
  } else if constexpr (C::i == iter::decorated) {
    return acc.template get_multi_ptr<D::yes>().get_decorated() + C::shift + offset;
  } else if constexpr (C::i == iter::multi_ptr_yes) {
    return sycl::address_space_cast<address_space::global_space, D::yes>(raw + C::shift + offset);
  } else if constexpr (C::i == iter::multi_ptr_no) {
    return sycl::address_space_cast<address_space::global_space, D::no>(raw + C::shift + offset);
  } else if constexpr (C::i == iter::legacy) {
    return sycl::multi_ptr<E, address_space::global_space, D::legacy>(raw + C::shift + offset);
  } else if constexpr (C::i == iter::accessor) {
    return acc.begin() + static_cast<std::ptrdiff_t>(C::shift + offset);
  } else {
    return strided<E>{raw + C::shift} + static_cast<std::ptrdiff_t>(offset);
  }
}

template <kind K, int D>
auto group_of(const sycl::nd_item<D>& it) {
  if constexpr (K == kind::sub_group)
    return it.get_sub_group();
  else
    return it.get_group();
}

template <typename C, std::uint32_t S>
void run(sycl::queue& q, const char* what) {
  using T = typename C::T;
  using U = typename C::U;
  constexpr std::size_t N = C::N;
  constexpr bool striped = C::p == placement::striped;
  constexpr bool is_strided = C::i == iter::strided;
  if constexpr (S != 0) {
    auto sizes = q.get_device().get_info<sycl::info::device::sub_group_sizes>();
    if (std::find(sizes.begin(), sizes.end(), S) == sizes.end()) return;
  }
  const std::size_t items = C::dims == 2 ? 4 * C::wg : 3 * C::wg;
  const std::size_t elements = items * N;
  const std::size_t size = C::shift + (is_strided ? 2 * elements : elements) + 1;
  std::vector<T> in(size), out(size, sentinel<T>());
  for (std::size_t p = 0; p < size; ++p) in[p] = in_value<T>(p);
  std::vector<U> got(elements);
  std::vector<std::uint64_t> info(3 * items);
  {
    sycl::buffer<T> in_buf(in.data(), sycl::range<1>(size));
    sycl::buffer<T> out_buf(out.data(), sycl::range<1>(size));
    sycl::buffer<U> got_buf(got.data(), sycl::range<1>(elements));
    sycl::buffer<std::uint64_t> info_buf(info.data(), sycl::range<1>(3 * items));
    q.submit([&](sycl::handler& h) {
      sycl::accessor in_acc(in_buf, h, sycl::read_only);
      sycl::accessor out_acc(out_buf, h, sycl::read_write);
      sycl::accessor got_acc(got_buf, h, sycl::write_only, sycl::no_init);
      sycl::accessor info_acc(info_buf, h, sycl::write_only, sycl::no_init);
      auto body = [=](auto it) {
        auto g = group_of<C::k>(it);
        const std::size_t gid = it.get_global_linear_id();
        const std::size_t id = g.get_local_linear_id(), range = g.get_local_linear_range();
        const std::size_t base = C::k == kind::sub_group
                                     ? (gid - id) * N
                                     : it.get_group().get_group_linear_id() * range * N;
        info_acc[3 * gid] = base;
        info_acc[3 * gid + 1] = id;
        info_acc[3 * gid + 2] = range;
        U data[N];
        auto src = iterator_at<C>(in_acc, base);
        if constexpr (C::f == form::scalar) {
          load<C>(g, src, data[0]);
        } else if constexpr (C::f == form::vec) {
          sycl::vec<U, int(N)> v;
          load<C>(g, src, v);
          for (std::size_t k = 0; k < N; ++k) data[k] = v[int(k)];
        } else {
          load<C>(g, src, sycl::span<U, N>(data));
        }
        for (std::size_t k = 0; k < N; ++k) got_acc[gid * N + k] = data[k];
        U values[N];
        for (std::size_t k = 0; k < N; ++k) values[k] = out_value<U>(gid, k);
        auto dst = iterator_at<C>(out_acc, base);
        if constexpr (C::f == form::scalar) {
          store<C>(g, values[0], dst);
        } else if constexpr (C::f == form::vec) {
          sycl::vec<U, int(N)> v;
          for (std::size_t k = 0; k < N; ++k) v[int(k)] = values[k];
          store<C>(g, v, dst);
        } else {
          store<C>(g, sycl::span<U, N>(values), dst);
        }
      };
      if constexpr (C::dims == 2)
        h.parallel_for<kernel_name<C, S>>(
            sycl::nd_range<2>(sycl::range<2>(8, 2 * C::wg / 4), sycl::range<2>(4, C::wg / 4)),
            launch_properties<S>(), [=](sycl::nd_item<2> it) { body(it); });
      else
        h.parallel_for<kernel_name<C, S>>(sycl::nd_range<1>(items, C::wg), launch_properties<S>(),
                                          [=](sycl::nd_item<1> it) { body(it); });
    });
  }
  std::vector<T> want(size, sentinel<T>());
  std::vector<int> writes(size, 0);
  bool ok = true;
  for (std::size_t gid = 0; gid < items && ok; ++gid) {
    std::size_t base = info[3 * gid], id = info[3 * gid + 1], range = info[3 * gid + 2];
    for (std::size_t k = 0; k < N; ++k) {
      std::size_t idx = base + (striped ? id + range * k : id * N + k);
      std::size_t p = C::shift + (is_strided ? 2 * idx : idx);
      if (p >= size) {
        std::printf("FAIL %s (sub-group size %u): work-item %zu element %zu: position %zu\n", what,
                    S, gid, k, p);
        ok = false;
        break;
      }
      if (!(got[gid * N + k] == static_cast<U>(in_value<T>(p)))) {
        std::printf("FAIL %s (sub-group size %u): work-item %zu (id %zu of %zu) loaded element "
                    "%zu wrong (position %zu)\n",
                    what, S, gid, id, range, k, p);
        ok = false;
        break;
      }
      want[p] = static_cast<T>(out_value<U>(gid, k));
      ++writes[p];
    }
  }
  for (std::size_t p = 0; p < size && ok; ++p) {
    if (writes[p] > 1) {
      std::printf("FAIL %s (sub-group size %u): position %zu belongs to %d work-items\n", what, S,
                  p, writes[p]);
      ok = false;
    } else if (!(out[p] == want[p])) {
      std::printf("FAIL %s (sub-group size %u): position %zu stored wrong (%s)\n", what, S, p,
                  writes[p] ? "written by a work-item" : "should be untouched");
      ok = false;
    }
  }
  EXPECT(ok);
}

// Local memory: a blocked load from global memory, a striped store into local memory, a
// barrier, a blocked load from local memory (a transpose of the group's N x range elements)
// and a blocked store back to global memory.
class local_transpose;
void run_local(sycl::queue& q) {
  constexpr std::size_t N = 4, wg = 48, groups = 3, items = wg * groups, elements = items * N;
  std::vector<int> in(elements), out(elements, -1);
  for (std::size_t p = 0; p < elements; ++p) in[p] = in_value<int>(p);
  {
    sycl::buffer<int> in_buf(in.data(), sycl::range<1>(elements));
    sycl::buffer<int> out_buf(out.data(), sycl::range<1>(elements));
    q.submit([&](sycl::handler& h) {
      sycl::accessor in_acc(in_buf, h, sycl::read_only);
      sycl::accessor out_acc(out_buf, h, sycl::write_only, sycl::no_init);
      sycl::local_accessor<int> local(sycl::range<1>(wg * N), h);
      h.parallel_for<local_transpose>(sycl::nd_range<1>(items, wg), [=](sycl::nd_item<1> it) {
        auto g = it.get_group();
        std::size_t base = g.get_group_linear_id() * wg * N;
        const int* src = in_acc.get_multi_ptr<sycl::access::decorated::no>().get() + base;
        int data[N];
        sx::group_load(g, src, sycl::span<int, N>(data));
        sx::group_store(g, sycl::span<int, N>(data),
                        local.get_multi_ptr<sycl::access::decorated::yes>(),
                        sx::properties{sx::data_placement_striped});
        sycl::group_barrier(g);
        sx::group_load(g, local.get_multi_ptr<sycl::access::decorated::no>().get(),
                       sycl::span<int, N>(data), sx::properties{sx::data_placement_blocked});
        sx::group_store(g, sycl::span<int, N>(data),
                        out_acc.get_multi_ptr<sycl::access::decorated::no>().get() + base);
      });
    });
  }
  bool ok = true;
  for (std::size_t grp = 0; grp < groups && ok; ++grp)
    for (std::size_t j = 0; j < wg * N && ok; ++j) {
      // Local element j was stored striped by work-item j % wg as its element j / wg, which it
      // loaded blocked from global element (j % wg) * N + j / wg.
      std::size_t from = grp * wg * N + (j % wg) * N + j / wg;
      if (out[grp * wg * N + j] != in_value<int>(from)) {
        std::printf("FAIL local transpose: group %zu element %zu\n", grp, j);
        ok = false;
      }
    }
  EXPECT(ok);
}

// The cases of one sub-group size (S: required with the sub_group_size property, 0: primary).
template <std::uint32_t S>
void run_sub_groups(sycl::queue& q) {
  constexpr auto sg = kind::sub_group;
  // Work-groups of 44: the last sub-group of each is partial at every size.
  run<config<sg, form::span, 8, placement::none, iter::pointer, int, int, 44>, S>(
      q, "sub-group span<int, 8> default placement, partial sub-groups");
  run<config<sg, form::vec, 4, placement::striped, iter::pointer, float, float, 44>, S>(
      q, "sub-group vec<float, 4> striped, partial sub-groups");
  run<config<sg, form::scalar, 1, placement::none, iter::multi_ptr_yes, double, double, 44>, S>(
      q, "sub-group scalar double through multi_ptr, partial sub-groups");
}

} // namespace

int main() {
  host_kernels_report report(std::getenv("SYCLONE_HOST_KERNELS") == nullptr);
  EXPECT(!report.capturing() || report.redirected());
  sycl::queue q;
  using P = placement;
  using I = iter;
  constexpr auto wg = kind::work_group, wg2 = kind::work_group_2d, sg = kind::sub_group;
  constexpr auto sc = form::scalar, ve = form::vec, sp = form::span;

  // Work-groups: forms, placements, element sizes.
  run<config<wg, sp, 4, P::none, I::pointer, int>, 0>(q, "span<int, 4> default placement");
  run<config<wg, sp, 4, P::blocked, I::pointer, int>, 0>(q, "span<int, 4> blocked");
  run<config<wg, sp, 4, P::striped, I::pointer, int>, 0>(q, "span<int, 4> striped");
  run<config<wg, sp, 4, P::striped, I::pointer, int, int, 64, 0, bare>, 0>(
      q, "span<int, 4> striped, the property passed alone");
  run<config<wg, sp, 8, P::blocked, I::pointer, float, float, 44>, 0>(
      q, "span<float, 8> blocked, work-groups of 44 (a partial warp)");
  run<config<wg, sp, 8, P::striped, I::pointer, float, float, 44>, 0>(
      q, "span<float, 8> striped, work-groups of 44");
  run<config<wg, sp, 16, P::blocked, I::pointer, double, double, 128>, 0>(
      q, "span<double, 16> blocked, work-groups of 128");
  run<config<wg, sp, 32, P::none, I::pointer, int>, 0>(q, "span<int, 32> default placement");
  run<config<wg, sp, 1, P::striped, I::pointer, int>, 0>(q, "span<int, 1> striped");
  run<config<wg, sp, 3, P::blocked, I::pointer, triple>, 0>(q, "span<triple, 3> blocked");
  run<config<wg, sp, 2, P::striped, I::pointer, triple>, 0>(q, "span<triple, 2> striped");
  run<config<wg, sp, 5, P::blocked, I::pointer, std::uint16_t>, 0>(q, "span<uint16_t, 5> blocked");
  run<config<wg, sp, 64, P::blocked, I::pointer, std::uint8_t>, 0>(q, "span<uint8_t, 64> blocked");
  run<config<wg, sc, 1, P::none, I::pointer, int>, 0>(q, "scalar int");
  run<config<wg, sc, 1, P::striped, I::pointer, std::uint8_t>, 0>(
      q, "scalar uint8_t (placement given, meaningless for one element)");
  run<config<wg, ve, 2, P::none, I::pointer, int>, 0>(q, "vec<int, 2> default placement");
  run<config<wg, ve, 3, P::blocked, I::pointer, float>, 0>(q, "vec<float, 3> blocked");
  run<config<wg, ve, 4, P::blocked, I::pointer, double>, 0>(q, "vec<double, 4> blocked");
  run<config<wg, ve, 8, P::blocked, I::pointer, short>, 0>(q, "vec<short, 8> blocked");
  run<config<wg, ve, 16, P::blocked, I::pointer, std::uint8_t>, 0>(q, "vec<uint8_t, 16> blocked");
  run<config<wg, ve, 16, P::striped, I::pointer, int>, 0>(q, "vec<int, 16> striped");
  // Conversions: int memory, double and long long work-item values.
  run<config<wg, sp, 4, P::blocked, I::pointer, int, double>, 0>(
      q, "span<double, 4> blocked from and to int memory");
  run<config<wg, ve, 4, P::striped, I::pointer, int, long long>, 0>(
      q, "vec<long long, 4> striped from and to int memory");
  // Chunks that are not aligned for 16-byte accesses (one and two elements in).
  run<config<wg, sp, 8, P::blocked, I::pointer, int, int, 64, 1>, 0>(
      q, "span<int, 8> blocked, memory one element in");
  run<config<wg, sp, 8, P::blocked, I::pointer, float, float, 64, 2>, 0>(
      q, "span<float, 8> blocked, memory two elements in");
  run<config<wg, sp, 4, P::blocked, I::pointer, std::uint8_t, std::uint8_t, 64, 1>, 0>(
      q, "span<uint8_t, 4> blocked, memory one byte in");
  // Iterators.
  run<config<wg, sp, 8, P::blocked, I::decorated, int>, 0>(
      q, "span<int, 8> blocked through a decorated pointer");
  run<config<wg, sp, 8, P::blocked, I::multi_ptr_yes, int>, 0>(
      q, "span<int, 8> blocked through multi_ptr<decorated::yes>");
  run<config<wg, sp, 4, P::striped, I::multi_ptr_no, float>, 0>(
      q, "span<float, 4> striped through multi_ptr<decorated::no>");
  run<config<wg, sp, 4, P::blocked, I::legacy, int>, 0>(
      q, "span<int, 4> blocked through a legacy multi_ptr");
  run<config<wg, sp, 4, P::blocked, I::accessor, int>, 0>(
      q, "span<int, 4> blocked through accessor iterators");
  run<config<wg, sp, 8, P::blocked, I::accessor, int, int, 64, 0, contiguous>, 0>(
      q, "span<int, 8> blocked through accessor iterators with contiguous_memory");
  run<config<wg, sp, 8, P::blocked, I::strided, int>, 0>(
      q, "span<int, 8> blocked through a strided iterator");
  run<config<wg, sp, 4, P::striped, I::strided, float>, 0>(
      q, "span<float, 4> striped through a strided iterator");
  run<config<wg, sc, 1, P::none, I::strided, double>, 0>(
      q, "scalar double through a strided iterator");
  run<config<wg, ve, 4, P::blocked, I::strided, int, int, 44>, 0>(
      q, "vec<int, 4> blocked through a strided iterator, work-groups of 44");
  run<config<wg, sp, 8, P::none, I::pointer, int, int, 64, 0, contiguous | full>, 0>(
      q, "span<int, 8> with contiguous_memory and full_group");
  // 2-D work-groups: the local linear id orders the work-items.
  run<config<wg2, sp, 4, P::blocked, I::pointer, int>, 0>(q, "2-D span<int, 4> blocked");
  run<config<wg2, ve, 4, P::striped, I::pointer, float>, 0>(q, "2-D vec<float, 4> striped");
  run<config<wg2, sp, 8, P::blocked, I::pointer, std::uint16_t>, 0>(
      q, "2-D span<uint16_t, 8> blocked");

  // Sub-groups at the primary size, at every size the device has, and full ones.
  run_sub_groups<0>(q);
  run_sub_groups<8>(q);
  run_sub_groups<16>(q);
  run_sub_groups<32>(q);
  run<config<sg, sp, 4, P::blocked, I::pointer, std::uint16_t, std::uint16_t, 64, 0, full>, 0>(
      q, "sub-group span<uint16_t, 4> blocked, full_group");
  run<config<sg, sp, 16, P::blocked, I::pointer, float, float, 64, 0, full | contiguous>, 0>(
      q, "sub-group span<float, 16> blocked, full_group and contiguous_memory");
  run<config<sg, sp, 8, P::striped, I::pointer, double>, 0>(q, "sub-group span<double, 8> striped");
  run<config<sg, sp, 4, P::blocked, I::strided, int, int, 44>, 0>(
      q, "sub-group span<int, 4> blocked through a strided iterator, partial sub-groups");
  run<config<sg, sp, 8, P::blocked, I::accessor, int, int, 44, 0, contiguous>, 0>(
      q, "sub-group span<int, 8> through accessor iterators with contiguous_memory, partial");
  run<config<sg, ve, 8, P::blocked, I::pointer, int, int, 64, 1>, 0>(
      q, "sub-group vec<int, 8> blocked, memory one element in");

  run_local(q);

  EXPECT(report.none_on_fibers(failures != 0));
  std::printf("group_load_store: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
