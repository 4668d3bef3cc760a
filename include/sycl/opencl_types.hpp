// SYCL 2020 OpenCL backend, 4.2 (scalar interoperability types): sycl::opencl::cl_<type>, the
// host-side names of OpenCL C's scalar types. They exist whatever the backends are, as SYCL 1.2.1
// code and the CTS use them unconditionally.
//
// Where the OpenCL headers are installed, the OpenCL API's own scalar types (cl_int, cl_bool, ...
// of <CL/cl.h>) are declared too, as SYCL 1.2.1 (whose <CL/sycl.hpp> included the OpenCL
// headers) and its programs expect: `cl_int x;` with only <sycl/sycl.hpp> included. They are the
// OpenCL API's types (cl_bool is cl_uint there), distinct from sycl::opencl::cl_bool (bool).
// <CL/cl.h> holds typedefs and declarations only, so it is included in the device compile as well
// and a kernel sees the same names as the host code.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/half.hpp>

#include <cstdint>

#if defined(__has_include)
#if __has_include(<CL/cl.h>)
#ifndef CL_TARGET_OPENCL_VERSION
// The newest OpenCL version these headers know; without it they print a note on every compile.
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#endif
#endif

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
