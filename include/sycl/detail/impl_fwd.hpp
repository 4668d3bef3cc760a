// Forward declarations of the runtime's implementation classes (src/runtime). Public classes
// hold a shared_ptr to their impl: SYCL 2020 4.5.2 common reference semantics.
#pragma once

#include <sycl/detail/config.hpp>

#include <memory>

SYCLONE_BEGIN_NAMESPACE
namespace detail {
class platform_impl;
class device_impl;
class context_impl;
class queue_impl;
class event_impl;
class handler_impl;
class buffer_impl;

// Access to a public object's impl, for the runtime and for templates in detail headers.
struct impl_access {
  template <typename T>
  static const auto& get(const T& obj) {
    return obj.m_impl;
  }
  template <typename T, typename Impl>
  static T make(std::shared_ptr<Impl> impl) {
    return T(std::move(impl));
  }
};
} // namespace detail
SYCLONE_END_NAMESPACE
