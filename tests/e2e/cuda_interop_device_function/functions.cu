// CUDA device functions in a .cu, called from SYCL kernels of main.cpp (syclone++ compiles a .cu
// as SYCL C++ with CUDA's qualifiers, include/sycl/detail/cuda_source.hpp), as the CTS's
// cuda_interop category links one in: a function of a buffer accessor's and of a local
// accessor's native pointer (get_native<backend::cuda>), and a __host__ __device__ helper.
#include <sycl/sycl.hpp>

#include "functions.hpp"

__host__ __device__ __forceinline__ int square(int x) {
  return x * x;
}

// Adds i*i + 1 to p[i] for i < n.
SYCL_EXTERNAL __device__ void add_squares(int* p, int n) {
  for (int i = 0; i < n; ++i) p[i] += square(i) + 1;
}

// The sum of p[0..n), read through a pointer into local memory.
SYCL_EXTERNAL __device__ int sum_of(const int* p, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}
