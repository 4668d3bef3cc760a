// SYCL 2020 4.9.4.1 specialization_id and 4.9.5 kernel_handler.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/is_device_copyable.hpp>

#include <cstring>
#include <new>
#include <type_traits>
#include <typeinfo>
#include <utility>

SYCLONE_BEGIN_NAMESPACE

template <typename T>
class specialization_id {
public:
  using value_type = T;
  static_assert(is_device_copyable_v<T>,
                "SYCL 2020 4.9.4.1: a specialization constant's type must be device copyable");

  template <typename... Args>
  explicit constexpr specialization_id(Args&&... args) : m_default(std::forward<Args>(args)...) {}
  // SYCL 2020 4.9.4.1: neither copyable nor movable (a constant is named by its object).
  specialization_id(const specialization_id&) = delete;
  specialization_id& operator=(const specialization_id&) = delete;
  specialization_id(specialization_id&&) = delete;
  specialization_id& operator=(specialization_id&&) = delete;

  // Not part of the SYCL API: the value used when none was set.
  constexpr const T& default_value() const { return m_default; }

private:
  T m_default;
};

namespace detail {
template <auto& SpecName>
struct spec_constant_tag {};

// Host-side values of the specialization constants of one command group, keyed by the address
// of the specialization_id object. Implemented in the runtime.
class spec_constant_values;
SYCLONE_EXPORT const void* find_spec_constant(const spec_constant_values* values,
                                              const void* spec_id);

template <auto& SpecName>
const char* spec_constant_name() {
#if SYCLONE_SYCL_COMPILER
  return __builtin_sycl_unique_stable_name(spec_constant_tag<SpecName>);
#else
  return typeid(spec_constant_tag<SpecName>).name();
#endif
}
} // namespace detail

class kernel_handler {
public:
  template <auto& SpecName>
  typename std::remove_reference_t<decltype(SpecName)>::value_type
  get_specialization_constant() const {
    using T = typename std::remove_reference_t<decltype(SpecName)>::value_type;
    if constexpr (detail::dev::is_host) {
      // Instantiates the constant's tag type, by whose stable name syclone++'s plugin records
      // that the kernel reads it (programs built without device images, -fsycl-targets=host).
      static_assert(sizeof(detail::spec_constant_tag<SpecName>) == 1);
      const void* v = detail::find_spec_constant(m_values, &SpecName);
      if (!v) return SpecName.default_value();
      // SYCL 2020 4.9.4.1 asks only that T be device copyable, not default constructible: the
      // value is the bytes set_specialization_constant copied.
      alignas(T) unsigned char bytes[sizeof(T)];
      std::memcpy(bytes, v, sizeof(T));
      return *std::launder(reinterpret_cast<const T*>(bytes));
    } else {
      T result = SpecName.default_value();
      detail::dev::__syclone_spec_constant(detail::spec_constant_name<SpecName>(), &result,
                                           sizeof(T));
      return result;
    }
  }

  // Not part of the SYCL API: the runtime binds the command group's values on the host.
  void bind_host_values(const detail::spec_constant_values* values) { m_values = values; }

private:
  const detail::spec_constant_values* m_values = nullptr;
};

SYCLONE_END_NAMESPACE
