// syclone configuration shared by every public header.
#pragma once

#include <cstddef>
#include <cstdint>

// The ABI namespace: every public name lives in sycl::_V1 so that a future incompatible
// layout can move to _V2 without silently mixing objects built against both.
#define SYCLONE_BEGIN_NAMESPACE                                                                    \
  namespace sycl {                                                                                 \
  inline namespace _V1 {
#define SYCLONE_END_NAMESPACE                                                                      \
  }                                                                                                \
  }

#define SYCLONE_EXPORT __attribute__((visibility("default")))

// True while clang compiles device code for any target (NVPTX or SPIR-V).
#if defined(__SYCL_DEVICE_ONLY__)
#define SYCLONE_DEVICE 1
#else
#define SYCLONE_DEVICE 0
#endif

#define SYCLONE_VERSION_MAJOR 0
#define SYCLONE_VERSION_MINOR 1

// SYCL 2020 5.6. Preprocessor directives and macros.
// clang -fsycl defines SYCL_LANGUAGE_VERSION; a plain host compiler gets the host device only.
#if defined(SYCL_LANGUAGE_VERSION)
#define SYCLONE_SYCL_COMPILER 1
#else
#define SYCLONE_SYCL_COMPILER 0
#define SYCL_LANGUAGE_VERSION 202012L
#endif
#define SYCL_REVISION 202012L
#define SYCL_IMPLEMENTATION_SYCLONE 1
#define SYCL_BACKEND_HOST 1
// SYCL 2020 4.1: the CUDA backend (backend::ext_oneapi_cuda, <sycl/backend.hpp>), and the
// extensions that go with it (README "Backend interoperability").
#define SYCL_EXT_ONEAPI_BACKEND_CUDA 1
// Khronos's draft CUDA backend specification (backend::cuda): defined for programs built for
// NVIDIA GPUs (syclone++ -fsycl-targets with nvptx64, the default), whose code may then include
// cuda.h and call the driver, as the CTS's cuda_interop and host_task categories do.
#if defined(__SYCLONE_TARGET_NVPTX64__)
#define SYCL_BACKEND_CUDA 1
#endif
#define SYCL_EXT_ONEAPI_ENQUEUE_NATIVE_COMMAND 1
#define SYCL_EXT_CODEPLAY_ENQUEUE_NATIVE_COMMAND 1
#define SYCL_EXT_ONEAPI_PEER_ACCESS 1
// Khronos extensions (the SYCL registry's sycl_khr_*): queue::khr_empty and queue::khr_flush.
#define SYCL_KHR_QUEUE_EMPTY_QUERY 1
#define SYCL_KHR_QUEUE_FLUSH 1
#define SYCL_KHR_DEFAULT_CONTEXT 1
#define SYCL_EXT_ONEAPI_DEFAULT_CONTEXT 1
#define SYCL_EXT_ONEAPI_QUEUE_EMPTY 1
#define SYCL_EXT_ONEAPI_ENQUEUE_BARRIER 1
#define SYCL_EXT_ONEAPI_MEMCPY2D 1
// sycl_ext_oneapi_bfloat16 (<sycl/ext/oneapi/bfloat16.hpp>) with its math functions
// (<sycl/ext/oneapi/bfloat16_math.hpp>), which revision 7 took over from the experimental
// sycl_ext_oneapi_bfloat16_math_functions; code written against that one tests its macro.
#define SYCL_EXT_ONEAPI_BFLOAT16 1
#define SYCL_EXT_ONEAPI_BFLOAT16_MATH_FUNCTIONS 1
#define SYCL_FEATURE_SET_FULL 1

// SYCL 2020 5.10.1. SYCL_EXTERNAL: a function callable from kernels of other translation units;
// syclone++ links the device code of all objects before embedding it.
#if SYCLONE_SYCL_COMPILER
#define SYCL_EXTERNAL [[clang::sycl_external]]
#else
#define SYCL_EXTERNAL
#endif

#define SYCLONE_INLINE inline __attribute__((always_inline))
