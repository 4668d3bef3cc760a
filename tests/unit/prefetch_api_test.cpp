// Compile-time checks of sycl_ext_oneapi_prefetch (seed 000) and its properties, and host checks
// of SYCL 2020 multi_ptr (4.7.7): every overload the seed lists is callable exactly where its
// constraints allow (requires-expressions over the overload set), the hint a property list
// resolves to (lowest level wins, L1 when none), and multi_ptr's conversions and arithmetic.
#include <sycl/sycl.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

namespace syclex = sycl::ext::oneapi::experimental;
using sycl::access::address_space;
using sycl::access::decorated;

namespace {
template <typename T, address_space S, decorated D = decorated::no>
using mptr = sycl::multi_ptr<T, S, D>;
template <typename T, int D, sycl::access_mode M>
using dev_acc = sycl::accessor<T, D, M, sycl::target::device>;
using group1 = sycl::group<1>;

template <typename... Args>
constexpr bool can_prefetch = requires(Args... args) { syclex::prefetch(args...); };
template <typename... Args>
constexpr bool can_joint_prefetch = requires(Args... args) { syclex::joint_prefetch(args...); };

using L1 = decltype(syclex::properties{syclex::prefetch_hint_L1});
using empty = syclex::empty_properties_t;
struct not_a_property_list {};

// --- prefetch(): the eight pointer overloads ------------------------------------------------
static_assert(can_prefetch<void*>);
static_assert(can_prefetch<void*, L1>);
static_assert(can_prefetch<void*, std::size_t>);
static_assert(can_prefetch<void*, std::size_t, L1>);
static_assert(can_prefetch<float*>);
static_assert(can_prefetch<const float*, L1>);
static_assert(can_prefetch<float*, std::size_t>);
static_assert(can_prefetch<float*, int, empty>);
// is_property_list_v<std::decay_t<Properties>>: anything else is not a property list.
static_assert(!can_prefetch<void*, not_a_property_list>);
static_assert(!can_prefetch<float*, std::size_t, not_a_property_list>);
static_assert(!can_prefetch<float*, std::size_t, sycl::property_list>);
static_assert(can_prefetch<float*, std::size_t, const L1&>);
// A property value is not a list: it must be wrapped in properties{...}.
static_assert(!can_prefetch<float*, decltype(syclex::prefetch_hint_L1)>);

// multi_ptr overloads: global_space or generic_space only, any decoration.
static_assert(can_prefetch<mptr<float, address_space::global_space>>);
static_assert(can_prefetch<mptr<float, address_space::global_space, decorated::yes>, L1>);
static_assert(can_prefetch<mptr<float, address_space::global_space, decorated::legacy>>);
static_assert(can_prefetch<mptr<float, address_space::generic_space>, std::size_t>);
static_assert(can_prefetch<mptr<void, address_space::global_space>>);
static_assert(can_prefetch<mptr<const void, address_space::generic_space>, std::size_t, L1>);
static_assert(!can_prefetch<mptr<float, address_space::local_space>>);
static_assert(!can_prefetch<mptr<float, address_space::private_space>, std::size_t>);
static_assert(!can_prefetch<mptr<void, address_space::local_space>, std::size_t, L1>);
static_assert(!can_prefetch<mptr<float, address_space::local_space, decorated::legacy>, L1>);
static_assert(!can_prefetch<mptr<float, address_space::global_space>, not_a_property_list>);

// accessor overloads: target::device, read or read_write, at least one dimension.
static_assert(can_prefetch<dev_acc<float, 1, sycl::access_mode::read>, sycl::id<1>>);
static_assert(can_prefetch<dev_acc<float, 1, sycl::access_mode::read_write>, std::size_t>);
static_assert(can_prefetch<dev_acc<float, 2, sycl::access_mode::read>, sycl::id<2>, L1>);
static_assert(
    can_prefetch<dev_acc<float, 3, sycl::access_mode::read_write>, sycl::id<3>, std::size_t, L1>);
static_assert(can_prefetch<dev_acc<float, 1, sycl::access_mode::read>, int, std::size_t>);
static_assert(!can_prefetch<dev_acc<float, 1, sycl::access_mode::write>, sycl::id<1>>);
static_assert(!can_prefetch<dev_acc<float, 1, sycl::access_mode::write>, std::size_t, std::size_t>);
static_assert(!can_prefetch<dev_acc<float, 1, sycl::access_mode::discard_read_write>, sycl::id<1>>);
static_assert(!can_prefetch<dev_acc<float, 2, sycl::access_mode::read>, sycl::id<1>>);
static_assert(
    !can_prefetch<dev_acc<float, 1, sycl::access_mode::read>, sycl::id<1>, not_a_property_list>);
static_assert(
    !can_prefetch<sycl::accessor<float, 1, sycl::access_mode::read, sycl::target::host_task>,
                  sycl::id<1>>);
// Dimensions > 0 and the mode rule, as the trait the overloads use (syclone has no 0-dimensional
// accessor to instantiate).
static_assert(!syclex::detail::is_prefetch_accessor_v<0, sycl::access_mode::read>);
static_assert(syclex::detail::is_prefetch_accessor_v<1, sycl::access_mode::read_write>);
static_assert(!syclex::detail::is_prefetch_accessor_v<2, sycl::access_mode::write>);

// --- joint_prefetch(): the ten overloads, with a group first -------------------------------
static_assert(can_joint_prefetch<group1, void*>);
static_assert(can_joint_prefetch<group1, void*, std::size_t, L1>);
static_assert(can_joint_prefetch<group1, float*>);
static_assert(can_joint_prefetch<group1, float*, std::size_t, L1>);
static_assert(can_joint_prefetch<sycl::sub_group, float*, std::size_t>);
static_assert(can_joint_prefetch<const group1&, float*, L1>);
static_assert(can_joint_prefetch<group1, mptr<void, address_space::global_space>>);
static_assert(can_joint_prefetch<group1, mptr<void, address_space::generic_space>, std::size_t>);
static_assert(can_joint_prefetch<group1, mptr<float, address_space::global_space>, L1>);
static_assert(can_joint_prefetch<group1, mptr<float, address_space::global_space, decorated::yes>,
                                 std::size_t, L1>);
static_assert(
    can_joint_prefetch<sycl::sub_group, dev_acc<float, 1, sycl::access_mode::read>, std::size_t>);
static_assert(can_joint_prefetch<group1, dev_acc<float, 1, sycl::access_mode::read_write>,
                                 std::size_t, std::size_t, L1>);
// is_group_v<std::decay_t<Group>>.
static_assert(!can_joint_prefetch<int, float*>);
static_assert(!can_joint_prefetch<sycl::nd_item<1>, float*, std::size_t>);
static_assert(!can_joint_prefetch<sycl::id<1>, void*, std::size_t>);
static_assert(!can_joint_prefetch<float*, std::size_t>);
static_assert(!can_joint_prefetch<group1, mptr<float, address_space::local_space>>);
static_assert(!can_joint_prefetch<group1, mptr<void, address_space::private_space>, std::size_t>);
static_assert(
    !can_joint_prefetch<group1, dev_acc<float, 1, sycl::access_mode::write>, std::size_t>);
static_assert(!can_joint_prefetch<group1, float*, std::size_t, not_a_property_list>);

// --- the hint a property list asks for -----------------------------------------------------
template <typename P>
constexpr auto request = syclex::detail::prefetch_request_v<P>;
constexpr bool same(syclex::detail::prefetch_request r, int level, bool nt) {
  return r.level == level && r.nontemporal == nt;
}
static_assert(same(request<empty>, 0, false)); // L1 when no hint
static_assert(same(request<L1>, 0, false));
static_assert(same(request<decltype(syclex::properties{syclex::prefetch_hint_L2})>, 1, false));
static_assert(same(request<decltype(syclex::properties{syclex::prefetch_hint_L3})>, 2, false));
static_assert(same(request<decltype(syclex::properties{syclex::prefetch_hint_L4})>, 3, false));
static_assert(same(request<decltype(syclex::properties{syclex::prefetch_hint_L1_nt})>, 0, true));
static_assert(same(request<decltype(syclex::properties{syclex::prefetch_hint_L4_nt})>, 3, true));
static_assert(same(request<decltype(syclex::properties{
                       syclex::prefetch_hint<syclex::cache_level::L2, syclex::nontemporal>})>,
                   1, true));
// "When multiple cache levels are specified, the lowest level takes precedence."
static_assert(
    same(request<decltype(syclex::properties{syclex::prefetch_hint_L4, syclex::prefetch_hint_L1})>,
         0, false));
static_assert(same(
    request<decltype(syclex::properties{syclex::prefetch_hint_L2, syclex::prefetch_hint_L3_nt})>, 1,
    false));
static_assert(same(
    request<decltype(syclex::properties{syclex::prefetch_hint_L3_nt, syclex::prefetch_hint_L4})>, 2,
    true));
// The same hints in any order are the same list type.
static_assert(std::is_same_v<
              decltype(syclex::properties{syclex::prefetch_hint_L4, syclex::prefetch_hint_L1}),
              decltype(syclex::properties{syclex::prefetch_hint_L1, syclex::prefetch_hint_L4})>);
static_assert(
    std::is_same_v<decltype(syclex::prefetch_hint_L3),
                   const syclex::prefetch_hint_key::value_t<syclex::cache_level::L3, void>>);
static_assert(std::is_same_v<decltype(syclex::prefetch_hint_L3)::key_t, syclex::prefetch_hint_key>);
static_assert(syclex::is_property_key_v<syclex::prefetch_hint_key>);
static_assert(syclex::is_property_list_v<L1> && syclex::is_property_list_v<empty>);
static_assert(L1::has_property<syclex::prefetch_hint_key>());
static_assert(!empty::has_property<syclex::prefetch_hint_key>());
static_assert(L1::get_property<syclex::prefetch_hint_key>() == syclex::prefetch_hint_L1);
static_assert(SYCL_EXT_ONEAPI_PREFETCH == 1);

// --- multi_ptr types -------------------------------------------------------------------------
static_assert(std::is_same_v<sycl::global_ptr<int>,
                             sycl::multi_ptr<int, address_space::global_space, decorated::legacy>>);
static_assert(std::is_same_v<sycl::raw_local_ptr<int>,
                             sycl::multi_ptr<int, address_space::local_space, decorated::no>>);
static_assert(std::is_same_v<sycl::decorated_private_ptr<int>,
                             sycl::multi_ptr<int, address_space::private_space, decorated::yes>>);
static_assert(sycl::decorated_global_ptr<int>::is_decorated);
static_assert(!sycl::raw_global_ptr<int>::is_decorated);
static_assert(sycl::raw_global_ptr<int>::address_space == address_space::global_space);
static_assert(std::is_same_v<sycl::raw_global_ptr<int>::pointer, int*>);
static_assert(
    std::is_same_v<sycl::remove_decoration_t<sycl::decorated_global_ptr<int>::pointer>, int*>);
static_assert(std::is_same_v<sycl::remove_decoration_t<const int&>, const int&>);
static_assert(
    std::is_same_v<sycl::raw_global_ptr<int>::iterator_category, std::random_access_iterator_tag>);
// get_pointer() of a device accessor is a global_ptr (SYCL 2020), of a host-task accessor a raw
// pointer; get_multi_ptr exists for device accessors.
static_assert(
    std::is_same_v<decltype(std::declval<dev_acc<int, 1, sycl::access_mode::read>>().get_pointer()),
                   sycl::global_ptr<const int>>);
static_assert(std::is_same_v<decltype(std::declval<sycl::accessor<int, 1, sycl::access_mode::read,
                                                                  sycl::target::host_task>>()
                                          .get_pointer()),
                             const int*>);
static_assert(std::is_same_v<decltype(std::declval<dev_acc<int, 2, sycl::access_mode::read_write>>()
                                          .get_multi_ptr<decorated::yes>()),
                             sycl::decorated_global_ptr<int>>);
static_assert(std::is_same_v<decltype(std::declval<sycl::local_accessor<int, 1>>().get_pointer()),
                             sycl::local_ptr<int>>);
// Conversions the spec makes implicit, and those it does not.
static_assert(std::is_convertible_v<sycl::global_ptr<int>, int*>);
static_assert(std::is_convertible_v<sycl::raw_global_ptr<int>, int*>);
static_assert(std::is_convertible_v<sycl::raw_global_ptr<int>, sycl::decorated_global_ptr<int>>);
static_assert(std::is_convertible_v<sycl::raw_global_ptr<int>, sycl::raw_global_ptr<const int>>);
static_assert(std::is_convertible_v<sycl::raw_global_ptr<int>, sycl::raw_global_ptr<void>>);
static_assert(!std::is_convertible_v<sycl::raw_global_ptr<const int>, sycl::raw_global_ptr<void>>);
static_assert(!std::is_convertible_v<sycl::raw_global_ptr<void>, sycl::raw_global_ptr<int>>);
static_assert(std::is_constructible_v<sycl::raw_global_ptr<int>, sycl::raw_global_ptr<void>>);
static_assert(!std::is_convertible_v<int*, sycl::raw_global_ptr<int>>); // explicit
static_assert(std::is_convertible_v<int*, sycl::global_ptr<int>>);      // legacy: implicit
static_assert(
    !std::is_convertible_v<mptr<int, address_space::generic_space>, sycl::raw_global_ptr<int>>);
static_assert(
    std::is_constructible_v<sycl::raw_global_ptr<int>, mptr<int, address_space::generic_space>>);
template <typename P>
constexpr bool has_prefetch_member = requires(P p) { p.prefetch(std::size_t(1)); };
static_assert(has_prefetch_member<sycl::global_ptr<float>>);
static_assert(has_prefetch_member<sycl::raw_global_ptr<float>>);
static_assert(!has_prefetch_member<sycl::local_ptr<float>>);
static_assert(!has_prefetch_member<mptr<float, address_space::generic_space>>);
} // namespace

TEST(MultiPtr, ArithmeticAndComparisons) {
  int a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  auto p = sycl::address_space_cast<address_space::global_space, decorated::no>(a);
  EXPECT_EQ(p.get(), a);
  EXPECT_EQ(p.get_raw(), a);
  EXPECT_EQ(p[3], 3);
  auto q = p + 5;
  EXPECT_EQ(*q, 5);
  EXPECT_EQ(q - p, 5);
  EXPECT_TRUE(p < q && q > p && p <= p && p >= p && p != q);
  ++q;
  EXPECT_EQ(*q, 6);
  q -= 2;
  EXPECT_EQ(*q--, 4);
  EXPECT_EQ(*q, 3);
  EXPECT_TRUE(p != nullptr && nullptr != p);
  sycl::raw_global_ptr<int> null;
  EXPECT_TRUE(null == nullptr && !(null < nullptr));

  sycl::global_ptr<int> legacy = a;
  int* raw = legacy;
  EXPECT_EQ(raw, a);
  EXPECT_EQ(*(legacy + 2), 2);
  legacy.prefetch(8);
  p.prefetch(8);

  sycl::raw_global_ptr<const int> c = p;
  EXPECT_EQ(c[7], 7);
  sycl::raw_global_ptr<void> v = p;
  auto back = static_cast<sycl::raw_global_ptr<int>>(v);
  EXPECT_EQ(back, p);
  sycl::decorated_global_ptr<int> d = p;
  EXPECT_EQ(d.get_decorated(), a);

  mptr<int, address_space::generic_space> g;
  g = p;
  EXPECT_EQ(g.get(), a);
  auto as_global = static_cast<sycl::raw_global_ptr<int>>(g);
  EXPECT_EQ(as_global, p);
  EXPECT_EQ((sycl::make_ptr<int, address_space::global_space, decorated::no>(a)), p);
}

TEST(Prefetch, EveryOverloadRunsOnTheHost) {
  alignas(64) float data[256] = {};
  for (int i = 0; i < 256; ++i) data[i] = float(i);
  syclex::prefetch(data);
  syclex::prefetch(static_cast<void*>(data), 1000, syclex::properties{syclex::prefetch_hint_L2});
  syclex::prefetch(data + 3, syclex::properties{syclex::prefetch_hint_L3_nt});
  syclex::prefetch(data, 256, syclex::properties{syclex::prefetch_hint_L4});
  syclex::prefetch(data, 0); // nothing
  auto g = sycl::address_space_cast<address_space::global_space, decorated::yes>(data);
  syclex::prefetch(g, 16, syclex::properties{syclex::prefetch_hint_L1_nt});
  syclex::prefetch(sycl::raw_global_ptr<void>(g), 64);
  float sum = 0;
  for (float x : data) sum += x;
  EXPECT_EQ(sum, 255.0f * 256.0f / 2.0f); // a prefetch changes nothing
}

namespace {
// One object that cannot straddle a cache line is prefetched as its first byte; others whole.
struct alignas(256) over_aligned {
  char bytes[256];
};
static_assert(syclex::detail::object_bytes<float> == 1);
static_assert(syclex::detail::object_bytes<double> == 1);
static_assert(syclex::detail::object_bytes<sycl::float4> == 1);
static_assert(syclex::detail::object_bytes<char[3]> == 3);
static_assert(syclex::detail::object_bytes<over_aligned> == 256);
static_assert(syclex::detail::object_bytes<const void> == 1);
} // namespace
