// Do a kernel's atomics and the host's on one allocation lose updates? The CTS's
// usm_atomic_access pattern in plain CUDA: a one-thread kernel waits for a host flag, then kernel
// and host each add 1 to one counter 15000 times (the host 20 us apart), on pinned host memory
// (cudaMallocHost) and on managed memory (cudaMallocManaged), with PTX atom of GPU scope (.gpu)
// and of system scope (.sys). Prints the device attributes that say what the link supports.
// Results: bench/results/atomic_scope.md.
// Build: nvcc -O3 -arch=sm_90 bench/cuda_native_host_atomics.cu
#include <cuda.h>
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <thread>
#include <type_traits>
constexpr int N = 15000;
template <typename T, bool Sys>
__device__ void add(T* p) {
  if constexpr (sizeof(T) == 4) {
    if constexpr (Sys) {unsigned o; asm volatile("atom.add.sys.u32 %0, [%1], 1;" :"=r"(o):"l"(p) : "memory");}
    else {unsigned o; asm volatile("atom.add.gpu.u32 %0, [%1], 1;" :"=r"(o):"l"(p) : "memory");}
  } else if constexpr (std::is_same_v<T, double>) {
    if constexpr (Sys) {double o; asm volatile("atom.add.sys.f64 %0, [%1], 0d3FF0000000000000;" :"=d"(o):"l"(p) : "memory");}
    else {double o; asm volatile("atom.add.gpu.f64 %0, [%1], 0d3FF0000000000000;" :"=d"(o):"l"(p) : "memory");}
  } else {
    if constexpr (Sys) {unsigned long long o; asm volatile("atom.add.sys.u64 %0, [%1], 1;" :"=l"(o):"l"(p) : "memory");}
    else {unsigned long long o; asm volatile("atom.add.gpu.u64 %0, [%1], 1;" :"=l"(o):"l"(p) : "memory");}
  }
}
template <typename T, bool Sys>
__global__ void k(T* c, int* flag) {
  int f;
  do { asm volatile("ld.acquire.sys.u32 %0, [%1];" : "=r"(f) : "l"(flag) : "memory"); } while (!f);
  for (int i = 0; i < N; ++i) {
    if constexpr (Sys) asm volatile("fence.sc.sys;" ::: "memory"); else asm volatile("fence.sc.gpu;" ::: "memory");
    add<T, Sys>(c);
    if constexpr (Sys) asm volatile("fence.sc.sys;" ::: "memory"); else asm volatile("fence.sc.gpu;" ::: "memory");
  }
}
template <typename T, bool Sys>
void run(bool managed, const char* tn, int spin_us) {
  T* c; int* flag;
  if (managed) { cudaMallocManaged(&c, sizeof(T)); cudaMallocManaged(&flag, sizeof(int)); }
  else { cudaMallocHost(&c, sizeof(T)); cudaMallocHost(&flag, sizeof(int)); }
  *c = 0; *flag = 0;
  k<T, Sys><<<1, 1>>>(c, flag);
  __atomic_fetch_add(flag, 1, __ATOMIC_SEQ_CST);
  for (int i = 0; i < N; ++i) {
    if constexpr (std::is_same_v<T, double>) {
      double old, nw; __atomic_load(c, &old, __ATOMIC_RELAXED);
      do { nw = old + 1.0; } while (!__atomic_compare_exchange(c, &old, &nw, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    } else __atomic_fetch_add(c, 1, __ATOMIC_SEQ_CST);
    auto until = std::chrono::high_resolution_clock::now() + std::chrono::microseconds(spin_us);
    do std::this_thread::yield(); while (std::chrono::high_resolution_clock::now() < until);
  }
  cudaError_t e = cudaDeviceSynchronize();
  double got = (double)*c;
  printf("%-8s %-4s %-7s spin=%2dus: %s %.0f / %d (lost %.0f)\n", managed ? "managed" : "pinned", Sys ? "sys" : "gpu", tn, spin_us,
         got == 2.0 * N ? "OK  " : "LOST", got, 2 * N, 2.0 * N - got);
  if (e) printf("  cuda error %s\n", cudaGetErrorString(e));
  if (managed) { cudaFree(c); cudaFree(flag); } else { cudaFreeHost(c); cudaFreeHost(flag); }
}
int main() {
  int v;
  cudaDeviceGetAttribute(&v, cudaDevAttrHostNativeAtomicSupported, 0); printf("hostNativeAtomicSupported=%d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, 0); printf("concurrentManagedAccess=%d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrPageableMemoryAccess, 0); printf("pageableMemoryAccess=%d\n", v);
  for (int rep = 0; rep < 1; ++rep)
    for (int spin : {20}) {
      for (bool m : {false, true}) {
        run<unsigned, false>(m, "u32", spin); run<unsigned, true>(m, "u32", spin);
        run<unsigned long long, false>(m, "u64", spin); run<unsigned long long, true>(m, "u64", spin);
        run<double, false>(m, "f64", spin); run<double, true>(m, "f64", spin);
      }
    }
}
