// sycl_ext_oneapi_weak_object: the ext_oneapi_owner_before members that the extension adds to
// every SYCL class with common reference semantics. Each class derives from owner_ordered<Itself>
// (an empty base); the order comes from weak_traits<Itself>, which
// <sycl/ext/oneapi/weak_object.hpp> defines with weak_object (<sycl/sycl.hpp> includes it).
#pragma once

#include <sycl/detail/config.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi {
template <typename SyclObject>
class weak_object;
} // namespace ext::oneapi

namespace detail {
// How weak_object<T> refers to a T without owning it, and the owner-based order of T's.
template <typename SyclObject>
struct weak_traits;
struct weak_access;

template <typename Derived>
class owner_ordered {
public:
  // Whether this object precedes `other` in the owner-based order: equivalent when both are the
  // same object (copies of one another), or `other` refers to this object.
  bool ext_oneapi_owner_before(const ext::oneapi::weak_object<Derived>& other) const noexcept {
    return weak_traits<Derived>::before(self(), other);
  }
  bool ext_oneapi_owner_before(const Derived& other) const noexcept {
    return weak_traits<Derived>::before(self(), other);
  }

private:
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
};
} // namespace detail
SYCLONE_END_NAMESPACE
