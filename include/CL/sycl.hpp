// SYCL 2020 C.2 (SYCL 1.2.1 compatibility): <CL/sycl.hpp> gives the whole API, also as cl::sycl.
#pragma once

#include <sycl/sycl.hpp>

namespace cl {
namespace sycl = ::sycl;
} // namespace cl
