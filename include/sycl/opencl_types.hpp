// SYCL 2020 OpenCL backend, 4.2 (scalar interoperability types): sycl::opencl::cl_<type>, the
// host-side names of OpenCL C's scalar types. They exist whatever the backends are, as SYCL 1.2.1
// code and the CTS use them unconditionally.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/half.hpp>

#include <cstdint>

SYCLONE_BEGIN_NAMESPACE

namespace opencl {
using cl_bool = bool;
using cl_char = std::int8_t;
using cl_uchar = std::uint8_t;
using cl_short = std::int16_t;
using cl_ushort = std::uint16_t;
using cl_int = std::int32_t;
using cl_uint = std::uint32_t;
using cl_long = std::int64_t;
using cl_ulong = std::uint64_t;
using cl_half = half;
using cl_float = float;
using cl_double = double;
} // namespace opencl

SYCLONE_END_NAMESPACE
