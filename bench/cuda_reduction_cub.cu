// The native baseline for cuda_reduction.sycl.cpp: cub::DeviceReduce::Sum of 2^28 floats and
// BabelStream's CUDA Dot kernel (1024 threads, 4 blocks per SM, grid-stride, shared-memory tree,
// one partial per block summed on the host, as BabelStream does) at 2^25 and 2^28 doubles.
// nvcc -O3 -arch=sm_90 bench/cuda_reduction_cub.cu
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e = (x);                                                                           \
    if (e != cudaSuccess) {                                                                        \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e));                                          \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

constexpr int tb = 1024;
__global__ void dot_kernel(const double* a, const double* b, double* sums, size_t n) {
  __shared__ double tb_sum[tb];
  size_t i = blockDim.x * blockIdx.x + threadIdx.x;
  const size_t local_i = threadIdx.x;
  tb_sum[local_i] = 0.0;
  for (; i < n; i += blockDim.x * gridDim.x) tb_sum[local_i] += a[i] * b[i];
  for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
    __syncthreads();
    if (local_i < offset) tb_sum[local_i] += tb_sum[local_i + offset];
  }
  if (local_i == 0) sums[blockIdx.x] = tb_sum[local_i];
}
__global__ void init(double* a, double* b, size_t n) {
  size_t i = blockDim.x * size_t(blockIdx.x) + threadIdx.x;
  if (i < n) {
    a[i] = 0.1;
    b[i] = 0.2;
  }
}
__global__ void init_f(float* a, size_t n) {
  size_t i = blockDim.x * size_t(blockIdx.x) + threadIdx.x;
  if (i < n) a[i] = 1.0f;
}

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (size_t n : {size_t(1) << 25, size_t(1) << 28}) {
    double *a, *b, *sums;
    int blocks = prop.multiProcessorCount * 4;
    CHECK(cudaMalloc(&a, n * sizeof(double)));
    CHECK(cudaMalloc(&b, n * sizeof(double)));
    CHECK(cudaMallocHost(&sums, blocks * sizeof(double)));
    init<<<(n + 255) / 256, 256>>>(a, b, n);
    CHECK(cudaDeviceSynchronize());
    float best = 1e30f;
    double total = 0;
    for (int r = 0; r < reps; ++r) {
      cudaEventRecord(e0);
      dot_kernel<<<blocks, tb>>>(a, b, sums, n);
      cudaEventRecord(e1);
      CHECK(cudaEventSynchronize(e1));
      total = 0;
      for (int i = 0; i < blocks; ++i) total += sums[i];
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      best = std::min(best, ms);
    }
    std::printf("cuda dot fp64 n=%zu: %.4f ms, %.1f GB/s (sum %.6g)\n", n, best,
                2.0 * n * sizeof(double) / (best * 1e-3) / 1e9, total);
    cudaFree(a);
    cudaFree(b);
    cudaFreeHost(sums);
  }
  {
    size_t n = size_t(1) << 28;
    float *a, *out;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&out, sizeof(float)));
    init_f<<<(n + 255) / 256, 256>>>(a, n);
    void* temp = nullptr;
    size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(temp, temp_bytes, a, out, n);
    CHECK(cudaMalloc(&temp, temp_bytes));
    float best = 1e30f;
    for (int r = 0; r < reps; ++r) {
      cudaEventRecord(e0);
      cub::DeviceReduce::Sum(temp, temp_bytes, a, out, n);
      cudaEventRecord(e1);
      CHECK(cudaEventSynchronize(e1));
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      best = std::min(best, ms);
    }
    std::printf("cub reduction sum fp32 n=%zu: %.4f ms, %.1f GB/s\n", n, best,
                n * sizeof(float) / (best * 1e-3) / 1e9);
  }
}
