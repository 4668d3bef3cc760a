// Declarations queue and handler need for their device_global members
// (ext/oneapi/experimental/device_global.hpp defines them).
#pragma once

#include <sycl/detail/config.hpp>

#include <type_traits>

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {
template <typename T, typename PropertyListT>
class device_global;
}
namespace detail {
template <typename T>
using dg_element_t = std::remove_all_extents_t<T>;
}
SYCLONE_END_NAMESPACE
