// sycl_ext_oneapi_device_global: a variable at namespace scope (or a public static member)
// with one instance of T per device, which kernels read and write and the host reaches through
// queue/handler::memcpy and copy.
//
// How each device finds its instance: every access goes through get(), whose device code calls
// __syclone_device_global(&object). The host device's runtime answers with the calling kernel's
// device's copy (src/runtime/device_global.cpp), made from the object's initial bytes; on NVIDIA
// the JIT (src/passes/device_global.cpp) turns the call into a load of a pointer the runtime sets
// when it loads the module, so that every module of a device shares one instance; in a SPIR-V
// image the call is the image's own variable. The host object itself is never written: its bytes
// stay the initial value each device's copy starts from.
#pragma once

#include <sycl/access.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/detail/device_global_fwd.hpp>
#include <sycl/ext/oneapi/properties/properties.hpp>
#include <sycl/handler.hpp>
#include <sycl/multi_ptr.hpp>
#include <sycl/queue.hpp>

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#define SYCL_EXT_ONEAPI_DEVICE_GLOBAL 1

extern "C" {
// The calling device's instance of the device_global whose (host or image) object is `object`,
// `bytes` long.
#if SYCLONE_DEVICE
void* __syclone_device_global(const void* object, std::size_t bytes) noexcept
    __attribute__((const));
#else
SYCLONE_EXPORT void* __syclone_device_global(const void* object, std::size_t bytes) noexcept
    __attribute__((const));
#endif
}

SYCLONE_BEGIN_NAMESPACE
namespace detail {
struct device_global_access;
}
namespace ext::oneapi::experimental {

// Properties (the extension's "Properties for device global variables"). syclone has one
// instance per device whatever device_image_scope says, and the host reaches it whatever
// host_access says; init_mode and implement_in_csr are FPGA hints.
struct device_image_scope_key {
  using value_t = property_value<device_image_scope_key>;
};
enum class host_access_enum : std::uint16_t { read, write, read_write, none };
struct host_access_key {
  template <host_access_enum Access>
  using value_t = property_value<host_access_key, std::integral_constant<host_access_enum, Access>>;
};
enum class init_mode_enum : std::uint16_t { reprogram, reset };
struct init_mode_key {
  template <init_mode_enum Trigger>
  using value_t = property_value<init_mode_key, std::integral_constant<init_mode_enum, Trigger>>;
};
struct implement_in_csr_key {
  template <bool Enable>
  using value_t = property_value<implement_in_csr_key, std::bool_constant<Enable>>;
};
template <>
struct is_property_key<device_image_scope_key> : std::true_type {};
template <>
struct is_property_key<host_access_key> : std::true_type {};
template <>
struct is_property_key<init_mode_key> : std::true_type {};
template <>
struct is_property_key<implement_in_csr_key> : std::true_type {};

inline constexpr device_image_scope_key::value_t device_image_scope;
template <host_access_enum Access>
inline constexpr host_access_key::value_t<Access> host_access;
inline constexpr host_access_key::value_t<host_access_enum::read> host_access_read;
inline constexpr host_access_key::value_t<host_access_enum::write> host_access_write;
inline constexpr host_access_key::value_t<host_access_enum::read_write> host_access_read_write;
inline constexpr host_access_key::value_t<host_access_enum::none> host_access_none;
template <init_mode_enum Trigger>
inline constexpr init_mode_key::value_t<Trigger> init_mode;
inline constexpr init_mode_key::value_t<init_mode_enum::reprogram> init_mode_reprogram;
inline constexpr init_mode_key::value_t<init_mode_enum::reset> init_mode_reset;
template <bool Enable>
inline constexpr implement_in_csr_key::value_t<Enable> implement_in_csr;
inline constexpr implement_in_csr_key::value_t<true> implement_in_csr_on;
inline constexpr implement_in_csr_key::value_t<false> implement_in_csr_off;

template <typename T, typename PropertyListT = empty_properties_t>
class device_global;

namespace detail {
template <typename T, typename = void>
struct subscript_result {
  using type = void;
};
template <typename T>
struct subscript_result<T, std::void_t<decltype(std::declval<T&>()[std::ptrdiff_t{}])>> {
  using type = std::remove_reference_t<decltype(std::declval<T&>()[std::ptrdiff_t{}])>;
};
template <typename T, typename = void>
struct has_arrow : std::is_pointer<T> {};
template <typename T>
struct has_arrow<T, std::void_t<decltype(std::declval<T&>().operator->())>> : std::true_type {};
template <typename T>
struct is_device_global : std::false_type {};
template <typename T, typename P>
struct is_device_global<device_global<T, P>> : std::true_type {};
} // namespace detail

template <typename T, typename PropertyListT>
class device_global {
  static_assert(std::is_trivially_destructible_v<T>, "Type T must be trivially destructible.");
  static_assert(is_property_list_v<PropertyListT>,
                "device_global's second argument is a properties type (decltype(properties{...}))");
  using subscript_t = typename detail::subscript_result<T>::type;
  static constexpr bool image_scope =
      PropertyListT::template has_property<device_image_scope_key>();

public:
  using element_type = std::remove_extent_t<T>;

  // Every device's instance starts as T{args...} (zero for none).
#if __cpp_consteval
  template <typename... Args, typename = std::enable_if_t<
                                  sizeof...(Args) != 1 ||
                                  !(detail::is_device_global<std::decay_t<Args>>::value && ...)>>
  consteval explicit device_global(Args&&... args) : m_value{std::forward<Args>(args)...} {}
#else
  static_assert(std::is_trivially_default_constructible_v<T>,
                "Type T must be trivially default constructable (until C++20 consteval is "
                "supported and enabled)");
  constexpr device_global() : m_value{} {}
#endif
  // Copies the initial value of `other` (not what a device wrote to it).
  template <bool S = image_scope, typename = std::enable_if_t<!S>>
  constexpr device_global(const device_global& other) : m_value(other.m_value) {}
  template <typename OtherT, typename OtherProps, bool S = image_scope,
            typename = std::enable_if_t<!S && std::is_convertible_v<OtherT, T>>>
  constexpr device_global(const device_global<OtherT, OtherProps>& other)
      : m_value(other.m_value) {}
  device_global(const device_global&&) = delete;
  device_global& operator=(const device_global&) = delete;
  device_global& operator=(const device_global&&) = delete;

  // The calling device's instance (in device code only).
  SYCLONE_INLINE T& get() noexcept {
    return *static_cast<T*>(__syclone_device_global(&m_value, sizeof(T)));
  }
  SYCLONE_INLINE const T& get() const noexcept {
    return *static_cast<const T*>(__syclone_device_global(&m_value, sizeof(T)));
  }
  operator T&() noexcept { return get(); }
  operator const T&() const noexcept { return get(); }

  template <access::decorated IsDecorated>
  multi_ptr<T, access::address_space::global_space, IsDecorated> get_multi_ptr() noexcept {
    return address_space_cast<access::address_space::global_space, IsDecorated>(&get());
  }
  template <access::decorated IsDecorated>
  multi_ptr<const T, access::address_space::global_space, IsDecorated>
  get_multi_ptr() const noexcept {
    return address_space_cast<access::address_space::global_space, IsDecorated>(&get());
  }

  device_global& operator=(const T& value) noexcept {
    if constexpr (std::is_array_v<T>)
      std::memcpy(&get(), &value, sizeof(T));
    else
      get() = value;
    return *this;
  }

  template <typename S = subscript_t, typename = std::enable_if_t<!std::is_void_v<S>>>
  S& operator[](std::ptrdiff_t idx) noexcept {
    return get()[idx];
  }
  template <typename S = subscript_t, typename = std::enable_if_t<!std::is_void_v<S>>>
  const S& operator[](std::ptrdiff_t idx) const noexcept {
    return get()[idx];
  }
  // T a pointer, or a class with operator->.
  template <typename U = T, typename = std::enable_if_t<detail::has_arrow<U>::value>>
  T& operator->() noexcept {
    return get();
  }
  template <typename U = T, typename = std::enable_if_t<detail::has_arrow<U>::value>>
  const T& operator->() const noexcept {
    return get();
  }

  template <typename propertyT>
  static constexpr bool has_property() {
    return PropertyListT::template has_property<propertyT>();
  }
  template <typename propertyT>
  static constexpr auto get_property() {
    return PropertyListT::template get_property<propertyT>();
  }

private:
  template <typename, typename>
  friend class device_global;
  friend struct sycl::detail::device_global_access;

  // The initial value; each device's instance is a copy. First, at offset 0: the host runtime
  // finds the object's bytes from its address.
  T m_value;
};

} // namespace ext::oneapi::experimental

namespace detail {
struct device_global_access {
  template <typename T, typename P>
  static const void* object(const ext::oneapi::experimental::device_global<T, P>& dg) {
    return &dg.m_value;
  }
};
// The queue's device's instance of the device_global whose host object is `object`, `bytes`
// long: host memory for the host device, device memory for a GPU (made on first use from the
// object's bytes). Throws errc::invalid when the device has no code that could use it.
SYCLONE_EXPORT void* device_global_instance(const queue& q, const void* object, std::size_t bytes);
SYCLONE_EXPORT void* device_global_instance(const handler& h, const void* object,
                                            std::size_t bytes);
// The checks of queue/handler memcpy and copy (errc::invalid beyond the object).
SYCLONE_EXPORT void check_device_global_range(const char* what, std::size_t size,
                                              std::size_t offset, std::size_t bytes);
} // namespace detail

// queue and handler memcpy/copy to and from a device_global (the extension's "queue" and
// "handler" member functions): numBytes at byte `offset` / count elements at startIndex;
// errc::invalid beyond the variable.
template <typename T, typename P>
event queue::memcpy(ext::oneapi::experimental::device_global<T, P>& dest, const void* src,
                    std::size_t numBytes, std::size_t offset, const std::vector<event>& depEvents) {
  detail::check_device_global_range("queue::memcpy to a device_global", sizeof(T), offset,
                                    numBytes);
  void* instance =
      detail::device_global_instance(*this, detail::device_global_access::object(dest), sizeof(T));
  return memcpy(static_cast<char*>(instance) + offset, src, numBytes, depEvents);
}
template <typename T, typename P>
event queue::memcpy(void* dest, const ext::oneapi::experimental::device_global<T, P>& src,
                    std::size_t numBytes, std::size_t offset, const std::vector<event>& depEvents) {
  detail::check_device_global_range("queue::memcpy from a device_global", sizeof(T), offset,
                                    numBytes);
  const void* instance =
      detail::device_global_instance(*this, detail::device_global_access::object(src), sizeof(T));
  return memcpy(dest, static_cast<const char*>(instance) + offset, numBytes, depEvents);
}
template <typename T, typename P>
event queue::copy(const detail::dg_element_t<T>* src,
                  ext::oneapi::experimental::device_global<T, P>& dest, std::size_t count,
                  std::size_t startIndex, const std::vector<event>& depEvents) {
  using E = detail::dg_element_t<T>;
  detail::check_device_global_range("queue::copy to a device_global", sizeof(T) / sizeof(E),
                                    startIndex, count);
  return memcpy(dest, src, count * sizeof(E), startIndex * sizeof(E), depEvents);
}
template <typename T, typename P>
event queue::copy(const ext::oneapi::experimental::device_global<T, P>& src,
                  detail::dg_element_t<T>* dest, std::size_t count, std::size_t startIndex,
                  const std::vector<event>& depEvents) {
  using E = detail::dg_element_t<T>;
  detail::check_device_global_range("queue::copy from a device_global", sizeof(T) / sizeof(E),
                                    startIndex, count);
  return memcpy(dest, src, count * sizeof(E), startIndex * sizeof(E), depEvents);
}

template <typename T, typename P>
void handler::memcpy(ext::oneapi::experimental::device_global<T, P>& dest, const void* src,
                     std::size_t numBytes, std::size_t offset) {
  detail::check_device_global_range("handler::memcpy to a device_global", sizeof(T), offset,
                                    numBytes);
  void* instance =
      detail::device_global_instance(*this, detail::device_global_access::object(dest), sizeof(T));
  memcpy(static_cast<char*>(instance) + offset, src, numBytes);
}
template <typename T, typename P>
void handler::memcpy(void* dest, const ext::oneapi::experimental::device_global<T, P>& src,
                     std::size_t numBytes, std::size_t offset) {
  detail::check_device_global_range("handler::memcpy from a device_global", sizeof(T), offset,
                                    numBytes);
  const void* instance =
      detail::device_global_instance(*this, detail::device_global_access::object(src), sizeof(T));
  memcpy(dest, static_cast<const char*>(instance) + offset, numBytes);
}
template <typename T, typename P>
void handler::copy(const detail::dg_element_t<T>* src,
                   ext::oneapi::experimental::device_global<T, P>& dest, std::size_t count,
                   std::size_t startIndex) {
  using E = detail::dg_element_t<T>;
  detail::check_device_global_range("handler::copy to a device_global", sizeof(T) / sizeof(E),
                                    startIndex, count);
  memcpy(dest, src, count * sizeof(E), startIndex * sizeof(E));
}
template <typename T, typename P>
void handler::copy(const ext::oneapi::experimental::device_global<T, P>& src,
                   detail::dg_element_t<T>* dest, std::size_t count, std::size_t startIndex) {
  using E = detail::dg_element_t<T>;
  detail::check_device_global_range("handler::copy from a device_global", sizeof(T) / sizeof(E),
                                    startIndex, count);
  memcpy(dest, src, count * sizeof(E), startIndex * sizeof(E));
}
SYCLONE_END_NAMESPACE
