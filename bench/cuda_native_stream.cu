// Native CUDA baseline for cuda_stream.sycl.cpp (nvcc -O3 -arch=sm_90): the same triad with
// the best of several launch shapes (one element per thread, 128..1024 threads per block).
#include <algorithm>
#include <cstdio>
#include <cstdlib>

template <typename T>
__global__ void triad(T* a, const T* b, const T* c, T s, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}
template <typename T>
__global__ void init(T* a, T* b, T* c, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = 0;
    b[i] = T(1);
    c[i] = T(2);
  }
}

template <typename T>
double run(size_t n, int reps) {
  T *a, *b, *c;
  cudaMalloc(&a, n * sizeof(T));
  cudaMalloc(&b, n * sizeof(T));
  cudaMalloc(&c, n * sizeof(T));
  init<<<(n + 255) / 256, 256>>>(a, b, c, n);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  double best = 1e30;
  for (int bs : {128, 256, 512, 1024})
    for (int r = 0; r < reps; ++r) {
      cudaEventRecord(e0);
      triad<<<(n + bs - 1) / bs, bs>>>(a, b, c, T(3), n);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      best = std::min(best, ms * 1e-3);
    }
  T check;
  cudaMemcpy(&check, a + n - 1, sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  if (check != T(7)) {
    std::printf("native triad wrong\n");
    std::exit(1);
  }
  return 3.0 * n * sizeof(T) / best / 1e9;
}

int main(int argc, char** argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 27);
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  std::printf("native triad fp32 n=%zu: %.1f GB/s\n", n, run<float>(n, reps));
  std::printf("native triad fp64 n=%zu: %.1f GB/s\n", n, run<double>(n, reps));
}
