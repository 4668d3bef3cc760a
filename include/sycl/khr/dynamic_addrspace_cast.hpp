// sycl_khr_dynamic_addrspace_cast: address_space_cast under the name that goes with
// static_addrspace_cast: the pointer as a multi_ptr of `Space` if the object it points to is in
// that space, null otherwise. The GPU targets ask the hardware (isspacep); the host device asks
// the runtime which memory holds the object: the running work-group's local memory, the calling
// work-item's stack or per-work-item storage (private), or anything else (global).
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/multi_ptr.hpp>

#define SYCL_KHR_DYNAMIC_ADDRSPACE_CAST 1

SYCLONE_BEGIN_NAMESPACE
namespace khr {

template <access::address_space Space, typename ElementType>
multi_ptr<ElementType, Space, access::decorated::no> dynamic_addrspace_cast(ElementType* ptr) {
  return address_space_cast<Space, access::decorated::no>(ptr);
}

template <access::address_space Space, typename ElementType, access::decorated DecorateAddress>
multi_ptr<ElementType, Space, DecorateAddress> dynamic_addrspace_cast(
    multi_ptr<ElementType, access::address_space::generic_space, DecorateAddress> ptr) {
  return address_space_cast<Space, DecorateAddress>(ptr.get_raw());
}

} // namespace khr
SYCLONE_END_NAMESPACE
