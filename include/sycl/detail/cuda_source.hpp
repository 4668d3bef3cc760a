// CUDA sources compiled as SYCL (README "Backend interoperability"): syclone++ reads a `.cu`
// input (or one after `-x cuda`) as SYCL C++ with this header included first, as DPC++ compiles
// a `.cu` given with -fsycl: functions declared with CUDA's execution-space qualifiers are
// ordinary functions, which SYCL kernels call (a `SYCL_EXTERNAL __device__` function is the
// CTS's cuda_interop case), compiled for the host and for every device target. What only CUDA's
// own language has (kernels launched with <<<...>>>, CUDA's memory spaces) is an error naming
// the SYCL way instead.
//
// CUDA's headers (cuda_runtime.h through crt/host_defines.h) keep these definitions: outside
// nvcc and clang's CUDA mode (__CUDACC__, never defined here) they define a qualifier only where
// none is defined yet.
#pragma once

#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
// clang-format off
// (_Pragma takes one string literal: the messages stay on one line each.)
#ifndef __global__
#define __global__ _Pragma("GCC error \"a CUDA kernel (__global__) needs CUDA's language; syclone++ compiles .cu sources as SYCL: write the kernel as a SYCL kernel that calls __device__ functions\"")
#endif
#ifndef __shared__
#define __shared__ _Pragma("GCC error \"__shared__ variables need CUDA's language; syclone++ compiles .cu sources as SYCL: use a sycl::local_accessor or sycl::ext::oneapi::group_local_memory\"")
#endif
#ifndef __constant__
#define __constant__ _Pragma("GCC error \"__constant__ variables need CUDA's language; syclone++ compiles .cu sources as SYCL: pass the values in the kernel's captures or a buffer\"")
#endif
#ifndef __managed__
#define __managed__ _Pragma("GCC error \"__managed__ variables need CUDA's language; syclone++ compiles .cu sources as SYCL: use sycl::malloc_shared\"")
#endif
// clang-format on
