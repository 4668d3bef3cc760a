// sycl_khr_static_addrspace_cast: a pointer the caller knows to point into address space `Space`
// as a multi_ptr of that space, without a check (the precondition is the caller's). On the GPU
// targets an address space conversion (so loads through the result address the space directly),
// on the host the same pointer.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/multi_ptr.hpp>

#define SYCL_KHR_STATIC_ADDRSPACE_CAST 1

SYCLONE_BEGIN_NAMESPACE
namespace khr {

template <access::address_space Space, typename ElementType>
multi_ptr<ElementType, Space, access::decorated::no> static_addrspace_cast(ElementType* ptr) {
  static_assert(Space != access::address_space::generic_space,
                "static_addrspace_cast casts to a named address space, not generic_space");
  return multi_ptr<ElementType, Space, access::decorated::no>(
      detail::address_cast<detail::decorated_t<ElementType, Space>*>(ptr));
}

template <access::address_space Space, typename ElementType, access::decorated DecorateAddress>
multi_ptr<ElementType, Space, DecorateAddress> static_addrspace_cast(
    multi_ptr<ElementType, access::address_space::generic_space, DecorateAddress> ptr) {
  static_assert(Space != access::address_space::generic_space,
                "static_addrspace_cast casts to a named address space, not generic_space");
  return multi_ptr<ElementType, Space, DecorateAddress>(
      detail::address_cast<detail::decorated_t<ElementType, Space>*>(ptr.get_raw()));
}

} // namespace khr
SYCLONE_END_NAMESPACE
