// Baseline for cuda_subgroup_reduce.sycl.cpp: cub::DeviceReduce::Sum of the same 2^28 floats,
// best of N runs timed with CUDA events (temporary storage allocated once, outside the timing).
// Build: nvcc -O3 -arch=sm_90 bench/cuda_subgroup_cub.cu -o cuda_subgroup_cub
// Usage: cuda_subgroup_cub [n] [reps]
#include <cub/device/device_reduce.cuh>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e = (call);                                                                        \
    if (e != cudaSuccess) {                                                                        \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(e));                                \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

__global__ void fill(float* in, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    in[i] = 0.5f * float(i % 4 + 1);
}

int main(int argc, char** argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 28);
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, sizeof(float)));
  fill<<<1024, 256>>>(in, n);
  CHECK(cudaDeviceSynchronize());
  void* temp = nullptr;
  size_t temp_bytes = 0;
  CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n));
  CHECK(cudaMalloc(&temp, temp_bytes));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  float expected = 0;
  for (size_t i = 0; i < n % 4; ++i) expected += 0.5f * float(i + 1);
  expected += float(n / 4) * 5.0f;
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(start));
    CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n));
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = ms < best ? ms : best;
    float result = 0;
    CHECK(cudaMemcpy(&result, out, sizeof(float), cudaMemcpyDeviceToHost));
    if (std::fabs(result - expected) > 1e-3f * expected) {
      std::printf("cub: wrong sum %.1f, expected %.1f\n", result, expected);
      return 1;
    }
  }
  std::printf("cub DeviceReduce::Sum n=%zu: %.3f ms, %.1f GB/s\n", n, best,
              double(n) * sizeof(float) / 1e9 / (best * 1e-3));
  return 0;
}
