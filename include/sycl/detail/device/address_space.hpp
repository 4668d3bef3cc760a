// Address-space-qualified ("decorated") types for the GPU targets (NVPTX and SPIR-V), which
// clang's SYCL mode gives named address spaces: SYCL 2020 4.7.7.1 multi_ptr with
// access::decorated::yes exposes them, and every multi_ptr keeps its pointer in this form so that
// loads and prefetches through it address the named space (ld.global, not a generic ld).
// Included by nvptx_memory.hpp and spirv_memory.hpp only; the host has no address spaces.
#pragma once

#include <sycl/detail/config.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace detail::dev {
// `Space` is the value of access::address_space: global 0, local 1, constant 2, private 3,
// generic 4. Constant-space data (constant_buffer accessors) lives in global memory here.
template <typename T, int Space>
struct decorated {
  using type = T;
};
template <typename T>
struct decorated<T, 0> {
  using type = __attribute__((opencl_global)) T;
};
template <typename T>
struct decorated<T, 1> {
  using type = __attribute__((opencl_local)) T;
};
template <typename T>
struct decorated<T, 2> {
  using type = __attribute__((opencl_global)) T;
};
template <typename T>
struct decorated<T, 3> {
  using type = __attribute__((opencl_private)) T;
};

template <typename T>
struct undecorated {
  using type = T;
};
template <typename T>
struct undecorated<__attribute__((opencl_global)) T> {
  using type = T;
};
template <typename T>
struct undecorated<__attribute__((opencl_local)) T> {
  using type = T;
};
template <typename T>
struct undecorated<__attribute__((opencl_private)) T> {
  using type = T;
};
} // namespace detail::dev
SYCLONE_END_NAMESPACE
