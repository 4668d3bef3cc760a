// SYCL 2020 4.5.4. Properties: property_list and the runtime properties of queue, buffer and
// accessor.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/exception.hpp>

#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

class context;

namespace detail {
// A property's key is its type's name, not an address: the runtime is built with hidden
// visibility, so an address-based tag instantiated in libsyclone differs from the program's.
template <typename T>
const char* tag_of() {
  return __PRETTY_FUNCTION__;
}
inline bool same_tag(const char* a, const char* b) {
  return a == b || std::strcmp(a, b) == 0;
}
} // namespace detail

template <typename T>
struct is_property : std::false_type {};
template <typename T>
inline constexpr bool is_property_v = is_property<T>::value;
template <typename Property, typename SyclObject>
struct is_property_of : std::false_type {};
template <typename Property, typename SyclObject>
inline constexpr bool is_property_of_v = is_property_of<Property, SyclObject>::value;

class property_list {
public:
  template <typename... Properties, typename = std::enable_if_t<(is_property_v<Properties> && ...)>>
  property_list(Properties... props) {
    (add(props), ...);
  }

  template <typename Property>
  bool has_property() const noexcept {
    for (const auto& e : m_entries)
      if (detail::same_tag(e.tag, detail::tag_of<Property>())) return true;
    return false;
  }

  template <typename Property>
  Property get_property() const {
    for (const auto& e : m_entries)
      if (detail::same_tag(e.tag, detail::tag_of<Property>()))
        return *static_cast<const Property*>(e.value.get());
    detail::throw_error(errc::invalid,
                        "get_property: the property list does not hold the requested property; "
                        "check with has_property<>() first");
  }

private:
  struct entry {
    const char* tag;
    std::shared_ptr<const void> value;
  };
  template <typename Property>
  void add(const Property& p) {
    for (auto& e : m_entries)
      if (detail::same_tag(e.tag, detail::tag_of<Property>())) {
        e.value = std::make_shared<Property>(p);
        return;
      }
    m_entries.push_back({detail::tag_of<Property>(), std::make_shared<Property>(p)});
  }
  std::vector<entry> m_entries;
};

namespace property {
namespace queue {
// SYCL 2020 4.6.5.2. Queue properties.
struct enable_profiling {};
struct in_order {};
} // namespace queue
namespace buffer {
// SYCL 2020 4.7.2.2. Buffer properties.
class use_host_ptr {};
class use_mutex {
public:
  use_mutex(std::mutex& m) : m_mutex(&m) {}
  std::mutex* get_mutex_ptr() const { return m_mutex; }

private:
  std::mutex* m_mutex;
};
} // namespace buffer
// SYCL 2020 4.7.6.4. The no_init property of accessors.
struct no_init {};
} // namespace property

inline constexpr property::no_init no_init;

template <>
struct is_property<property::queue::enable_profiling> : std::true_type {};
template <>
struct is_property<property::queue::in_order> : std::true_type {};
template <>
struct is_property<property::buffer::use_host_ptr> : std::true_type {};
template <>
struct is_property<property::buffer::use_mutex> : std::true_type {};
template <>
struct is_property<property::no_init> : std::true_type {};

SYCLONE_END_NAMESPACE
