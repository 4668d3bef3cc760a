// DPC++'s sycl::ext::oneapi::experimental::printf: C's printf in kernels (and in host code),
// the format string interpreted as OpenCL C's printf does (fixed-width types: %ld is 64 bits,
// pass 64-bit values for it; a float argument is promoted to double).
//
// - Host device: the C library's printf, called at once by the work-item's thread.
// - NVIDIA GPUs: CUDA's printf (vprintf). The output collects in the device's printf buffer
//   (1 MiB by default; output beyond it is lost, as in CUDA) and is printed by the driver at a
//   synchronization point: syclone makes one when a wait (queue::wait, event::wait, a host
//   accessor...) sees a printing kernel complete. Lines of different work-items come in no
//   particular order.
// - SPIR-V images: OpenCL.std printf.
//
// The format string must be known at compile time. DPC++ programs declare it
//   static const __SYCL_CONSTANT_AS char fmt[] = "x = %d\n";
// __SYCL_CONSTANT_AS is defined as DPC++ defines it (OpenCL's constant address space in device
// code, nothing in host code), by the target header (detail/device/<target>.hpp) unless the
// program defined it first; a string literal as the format works too.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace ext::oneapi::experimental {

template <typename FormatT, typename... Args>
SYCLONE_INLINE int printf(const FormatT* format, Args... args) {
  return sycl::detail::dev::device_printf(format, args...);
}

} // namespace ext::oneapi::experimental
SYCLONE_END_NAMESPACE
