// sycl_ext_oneapi_properties: the compile-time property list `properties`.
//
// properties{v1, v2, ...} holds property values (property_value.hpp). Its type depends only on
// the *set* of values: the list is kept sorted by key name, so properties{a, b} and
// properties{b, a} are the same type and a function template taking `Properties` is instantiated
// once for both. Compile-time values are empty and queried statically; runtime values are stored.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/ext/oneapi/properties/property_value.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

// sycl_ext_oneapi_properties "Feature test macro".
#define SYCL_EXT_ONEAPI_PROPERTIES 1

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {
namespace detail {
// The values of a properties object, in canonical (sorted by key) order.
template <typename... Values>
struct property_list_t {};

// A spelling of T that is stable within a program; orders keys without a central registry of
// property kinds.
template <typename T>
constexpr std::string_view type_name() {
  return __PRETTY_FUNCTION__;
}

template <typename... Values>
struct sorted_values {
  static constexpr std::size_t size = sizeof...(Values);
  static constexpr std::array<std::string_view, size> keys{type_name<key_of_t<Values>>()...};
  static constexpr std::array<std::string_view, size> values{type_name<Values>()...};
  static constexpr std::array<bool, size> repeatable{is_repeatable_key<key_of_t<Values>>::value...};
  static constexpr bool unique = [] {
    for (std::size_t i = 0; i < size; ++i)
      for (std::size_t j = i + 1; j < size; ++j)
        if (keys[i] == keys[j] && (!repeatable[i] || values[i] == values[j])) return false;
    return true;
  }();
  // Keys first, then (for repeatable keys) values; ties keep their order.
  static constexpr bool before(std::size_t a, std::size_t b) {
    if (keys[a] != keys[b]) return keys[a] < keys[b];
    if (values[a] != values[b]) return values[a] < values[b];
    return a < b;
  }
  // order[r] is the index of the value of rank r.
  static constexpr std::array<std::size_t, size> order = [] {
    std::array<std::size_t, size> o{};
    for (std::size_t i = 0; i < size; ++i) {
      std::size_t rank = 0;
      for (std::size_t j = 0; j < size; ++j) rank += before(j, i);
      o[rank] = i;
    }
    return o;
  }();
  template <std::size_t... R>
  static auto make(std::index_sequence<R...>)
      -> property_list_t<std::tuple_element_t<order[R], std::tuple<Values...>>...>;
  using type = decltype(make(std::make_index_sequence<size>{}));
};

// Storage for one value: runtime values are kept, compile-time values are empty.
template <typename V, bool Runtime = !is_compile_time_value<V>::value>
struct value_holder {
  constexpr value_holder() = default;
  constexpr explicit value_holder(const V& v) : m_value(v) {}
  V m_value;
};
template <typename V>
struct value_holder<V, false> {
  constexpr value_holder() = default;
  constexpr explicit value_holder(const V&) {}
};

template <typename Key, typename... Values>
constexpr std::size_t index_of_key() {
  std::size_t i = 0, found = 0;
  ((std::is_same_v<Key, key_of_t<Values>> ? (found = i, ++i) : ++i), ...);
  return found;
}

template <typename V, typename... Args>
inline constexpr bool contains_v = (std::is_same_v<V, Args> || ...);

template <typename V, typename First, typename... Rest>
constexpr const V& pick(const First& first, const Rest&... rest) {
  if constexpr (std::is_same_v<V, First>)
    return first;
  else
    return pick<V>(rest...);
}
template <typename V, typename... Args>
constexpr value_holder<V> hold(const Args&... args) {
  if constexpr (contains_v<V, Args...>)
    return value_holder<V>(pick<V>(args...));
  else
    return value_holder<V>();
}
} // namespace detail

template <typename PropertyListT>
class properties;

// sycl_ext_oneapi_properties "Properties class".
template <typename... Values>
class properties<detail::property_list_t<Values...>> : private detail::value_holder<Values>... {
  static_assert((is_property_value_v<Values> && ...),
                "properties: every element must be a property value (an object such as "
                "prefetch_hint_L1, or a runtime property) whose key specializes "
                "is_property_key");
  static_assert(detail::sorted_values<Values...>::unique,
                "properties: a property is given twice; give each property once");

  template <typename Key>
  static constexpr bool is_compile_time_key =
      (... || (std::is_same_v<Key, detail::key_of_t<Values>> &&
               detail::is_compile_time_value<Values>::value));
  template <typename Key>
  static constexpr bool is_runtime_key =
      (... || (std::is_same_v<Key, Values> && !detail::is_compile_time_value<Values>::value));
  template <typename Key>
  using value_of =
      std::tuple_element_t<detail::index_of_key<Key, Values...>(), std::tuple<Values...>>;

public:
  // Runtime values must be given; compile-time values may be omitted (they carry no data), so
  // that `Properties p = {}` works for any list of compile-time properties.
  template <typename... Args, std::enable_if_t<(detail::contains_v<Args, Values...> && ...) &&
                                                   ((detail::is_compile_time_value<Values>::value ||
                                                     detail::contains_v<Values, Args...>) &&
                                                    ...),
                                               int> = 0>
  constexpr properties(Args... args)
      : detail::value_holder<Values>(detail::hold<Values>(args...))... {}

  template <typename Key>
  static constexpr bool has_property() {
    return (std::is_same_v<Key, detail::key_of_t<Values>> || ...);
  }

  // The value of compile-time property `Key`, usable in constant expressions.
  template <typename Key, std::enable_if_t<is_compile_time_key<Key>, int> = 0>
  static constexpr auto get_property() {
    return value_of<Key>{};
  }

  // The value of runtime property `Key`.
  template <typename Key, std::enable_if_t<is_runtime_key<Key>, long> = 0>
  constexpr Key get_property() const {
    return static_cast<const detail::value_holder<Key>&>(*this).m_value;
  }
};

template <typename... Values>
properties(Values...)
    -> properties<typename detail::sorted_values<std::remove_cv_t<Values>...>::type>;

using empty_properties_t = properties<detail::property_list_t<>>;

template <typename T>
struct is_property_list : std::false_type {};
template <typename... Values>
struct is_property_list<properties<detail::property_list_t<Values...>>> : std::true_type {};
template <typename T>
inline constexpr bool is_property_list_v = is_property_list<T>::value;

namespace detail {
// The properties type holding Values, in canonical order (for building lists in templates).
template <typename... Values>
using properties_t = properties<typename sorted_values<Values...>::type>;

template <typename... Lists>
struct concat_lists {
  using type = property_list_t<>;
};
template <typename... A>
struct concat_lists<property_list_t<A...>> {
  using type = property_list_t<A...>;
};
template <typename... A, typename... B, typename... Rest>
struct concat_lists<property_list_t<A...>, property_list_t<B...>, Rest...>
    : concat_lists<property_list_t<A..., B...>, Rest...> {};

// The values of P with key Key, as a property_list_t (several only for repeatable keys).
template <typename Key, typename P>
struct values_with_key;
template <typename Key, typename... Values>
struct values_with_key<Key, properties<property_list_t<Values...>>>
    : concat_lists<std::conditional_t<std::is_same_v<key_of_t<Values>, Key>,
                                      property_list_t<Values>, property_list_t<>>...> {};
template <typename Key, typename P>
using values_with_key_t = typename values_with_key<Key, P>::type;

// Whether every key in property list P applies to SyclObject.
template <typename P, typename SyclObject>
struct all_keys_of : std::false_type {};
template <typename... Values, typename SyclObject>
struct all_keys_of<properties<property_list_t<Values...>>, SyclObject>
    : std::bool_constant<(is_property_key_of_v<key_of_t<Values>, SyclObject> && ...)> {};
} // namespace detail

} // namespace ext::oneapi::experimental
SYCLONE_END_NAMESPACE
