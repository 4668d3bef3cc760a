// sycl_ext_oneapi_properties: property keys, compile-time property values and their traits.
//
// A property is named by its *key* type. A compile-time property's value is an empty object of
// type property_value<Key, V...>, whose template arguments carry the value (e.g.
// property_value<sub_group_size_key, std::integral_constant<uint32_t, 32>>); a runtime
// property's key type is also its value type and holds data. A header that defines a property
// specializes is_property_key (and is_property_key_of for the objects it applies to):
//
//   struct my_key { template <int N> using value_t = property_value<my_key, constant<N>>; };
//   template <> struct is_property_key<my_key> : std::true_type {};
//   template <int N> inline constexpr my_key::value_t<N> my;
#pragma once

#include <sycl/detail/config.hpp>

#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

// sycl_ext_oneapi_properties "Property traits": false unless the property's header says so.
template <typename T>
struct is_property_key : std::false_type {};
template <typename T>
inline constexpr bool is_property_key_v = is_property_key<T>::value;

// Whether property key `Key` applies to objects (or functions, through a tag type) of type
// `SyclObject`.
template <typename Key, typename SyclObject>
struct is_property_key_of : std::false_type {};
template <typename Key, typename SyclObject>
inline constexpr bool is_property_key_of_v = is_property_key_of<Key, SyclObject>::value;

namespace detail {
template <typename T, typename = void>
struct has_static_value : std::false_type {};
template <typename T>
struct has_static_value<T, std::void_t<decltype(T::value)>> : std::true_type {};

// property_value<Key, V> with one value type that has a static `value` (std::integral_constant
// and the like) exposes it as property_value::value.
// value_t: the first value's type (sycl_ext_oneapi_properties); `value`: a single value's.
template <typename Enable, typename... Values>
struct property_value_base {};
template <typename Enable, typename First, typename... Rest>
struct property_value_base<Enable, First, Rest...> {
  using value_t = First;
};
template <typename V>
struct property_value_base<std::enable_if_t<has_static_value<V>::value>, V> {
  using value_t = V;
  static constexpr auto value = V::value;
};
} // namespace detail

// sycl_ext_oneapi_properties "Property values": the value of compile-time property `Key`.
template <typename Key, typename... Values>
struct property_value : detail::property_value_base<void, Values...> {
  using key_t = Key;
};

template <typename Key, typename... A, typename... B>
constexpr bool operator==(const property_value<Key, A...>&, const property_value<Key, B...>&) {
  return (std::is_same_v<property_value<Key, A...>, property_value<Key, B...>>);
}
template <typename Key, typename... A, typename... B>
constexpr bool operator!=(const property_value<Key, A...>& a, const property_value<Key, B...>& b) {
  return !(a == b);
}

namespace detail {
// A compile-time property whose key may appear several times in one list, with different
// values; the extension defining it says how they combine (sycl_ext_oneapi_prefetch: "when
// multiple cache levels are specified, the lowest level takes precedence"). Other keys appear
// at most once.
template <typename Key>
struct is_repeatable_key : std::false_type {};

template <typename T>
struct is_compile_time_value : std::false_type {};
template <typename Key, typename... Values>
struct is_compile_time_value<property_value<Key, Values...>> : std::true_type {};

// The key a property value belongs to: key_t of a compile-time value, the type itself for a
// runtime property (whose key is its value type).
template <typename V>
struct key_of {
  using type = V;
};
template <typename Key, typename... Values>
struct key_of<property_value<Key, Values...>> {
  using type = Key;
};
template <typename V>
using key_of_t = typename key_of<V>::type;
} // namespace detail

// Whether V is a value of some property: a property_value of a property key, or a runtime
// property (a key that is its own value).
template <typename V>
struct is_property_value
    : std::bool_constant<is_property_key_v<detail::key_of_t<std::remove_cv_t<V>>>> {};
template <typename V>
inline constexpr bool is_property_value_v = is_property_value<V>::value;

template <typename V, typename SyclObject>
struct is_property_value_of
    : std::bool_constant<is_property_value_v<V> &&
                         is_property_key_of_v<detail::key_of_t<std::remove_cv_t<V>>, SyclObject>> {
};
template <typename V, typename SyclObject>
inline constexpr bool is_property_value_of_v = is_property_value_of<V, SyclObject>::value;

} // namespace ext::oneapi::experimental
SYCLONE_END_NAMESPACE
