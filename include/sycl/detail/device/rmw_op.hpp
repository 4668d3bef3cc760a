// atomic_ref's read-modify-writes, named for a target header that issues them itself
// (atomic_rmw_system in nvptx.hpp).
#pragma once

#include <sycl/detail/config.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
enum class rmw_op { exchange, add, sub, min, max, bit_and, bit_or, bit_xor };
} // namespace detail::dev
SYCLONE_END_NAMESPACE
