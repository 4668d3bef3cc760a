// What a system-scope (.sys) read-modify-write costs against a GPU-scope (.gpu) one on device
// memory: syclone issues device-scope atomic_ref read-modify-writes at .sys scope on NVIDIA GPUs
// (include/sycl/detail/device/nvptx.hpp, atomic_rmw_system) and this is the measurement behind
// it. 1024 x 256 threads add 1 to 1, 256, 64K or 16M addresses; also the `red` form LLVM emits
// for an add whose result is unused. Results: bench/results/atomic_scope.md.
// Build: nvcc -O3 -arch=sm_90 bench/cuda_native_atomic_scope.cu
#include <cuda_runtime.h>
#include <cstdio>
template <typename T, bool Sys> __device__ __forceinline__ void add(T* p, T v) {
  if constexpr (sizeof(T) == 4) {
    unsigned o; if constexpr (Sys) asm volatile("atom.relaxed.sys.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory");
    else asm volatile("atom.relaxed.gpu.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory");
  } else {
    unsigned long long o; if constexpr (Sys) asm volatile("atom.relaxed.sys.add.u64 %0, [%1], %2;" : "=l"(o) : "l"(p), "l"(v) : "memory");
    else asm volatile("atom.relaxed.gpu.add.u64 %0, [%1], %2;" : "=l"(o) : "l"(p), "l"(v) : "memory");
  }
}
__device__ __forceinline__ void red_gpu(unsigned* p) {
  asm volatile("red.global.add.u32 [%0], 1;" ::"l"(p) : "memory");
}
__global__ void k_red(unsigned* p, unsigned mask, int iters) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < iters; ++i) red_gpu(p + ((tid + i * 7919u) & mask));
}
float time_red(unsigned* p, unsigned mask, int iters) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  k_red<<<1024, 256>>>(p, mask, iters);
  cudaEventRecord(a);
  for (int r = 0; r < 5; ++r) k_red<<<1024, 256>>>(p, mask, iters);
  cudaEventRecord(b); cudaEventSynchronize(b);
  float ms; cudaEventElapsedTime(&ms, a, b); return ms / 5;
}
template <typename T, bool Sys> __global__ void k(T* p, unsigned mask, int iters) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < iters; ++i) add<T, Sys>(p + ((tid + i * 7919u) & mask), T(1));
}
template <typename T, bool Sys> float time(T* p, unsigned mask, int iters) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  k<T, Sys><<<1024, 256>>>(p, mask, iters);
  cudaEventRecord(a);
  for (int r = 0; r < 5; ++r) k<T, Sys><<<1024, 256>>>(p, mask, iters);
  cudaEventRecord(b); cudaEventSynchronize(b);
  float ms; cudaEventElapsedTime(&ms, a, b); return ms / 5;
}
int main() {
  void* p; cudaMalloc(&p, (1u << 24) * 8); cudaMemset(p, 0, (1u << 24) * 8);
  for (int rep = 0; rep < 2; ++rep)
  for (unsigned mask : {0u, 255u, (1u << 16) - 1, (1u << 24) - 1}) {
    int iters = mask == 0 ? 4 : 64;
    printf("u32 addrs=%-9u gpu %.3f ms  sys %.3f ms  red.gpu %.3f ms\n", mask + 1, time<unsigned, false>((unsigned*)p, mask, iters), time<unsigned, true>((unsigned*)p, mask, iters), time_red((unsigned*)p, mask, iters));
    printf("u64 addrs=%-9u gpu %.3f ms  sys %.3f ms\n", mask + 1, time<unsigned long long, false>((unsigned long long*)p, mask, iters), time<unsigned long long, true>((unsigned long long*)p, mask, iters));
  }
}
