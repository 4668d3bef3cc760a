// Which load pattern reaches cub::DeviceReduce::Sum on a sum of 2^28 floats (issue 14): the
// same block reduction (warp shuffles, shared memory, one atomicAdd per block) after different
// per-thread loops. Native CUDA, so the pattern is measured apart from syclone; the winner is
// what syclone's range reductions should generate (include/sycl/reduction.hpp).
// nvcc -O3 -arch=sm_90 bench/cuda_reduction_patterns.cu && ./a.out [reps]
#include <algorithm>
#include <cstdio>
#include <cstdlib>

__device__ float block_sum(float v) {
  __shared__ float part[32];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) part[warp] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0.0f;
  if (warp == 0)
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// U loads of the grid stride in flight, U partial sums.
template <int U>
__global__ void grid_stride(const float* a, float* out, size_t n) {
  size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float acc[U] = {};
  for (; i + (U - 1) * stride < n; i += U * stride)
#pragma unroll
    for (int u = 0; u < U; ++u) acc[u] += a[i + u * stride];
  for (; i < n; i += stride) acc[0] += a[i];
  float v = 0;
#pragma unroll
  for (int u = 0; u < U; ++u) v += acc[u];
  v = block_sum(v);
  if (threadIdx.x == 0) atomicAdd(out, v);
}

// float4 loads (what CUB does), grid stride over vectors.
__global__ void vector4(const float* a, float* out, size_t n) {
  const float4* a4 = reinterpret_cast<const float4*>(a);
  size_t stride = size_t(gridDim.x) * blockDim.x;
  float v = 0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n / 4; i += stride) {
    float4 x = a4[i];
    v += (x.x + x.y) + (x.z + x.w);
  }
  v = block_sum(v);
  if (threadIdx.x == 0) atomicAdd(out, v);
}

// Each thread U consecutive elements per step (scalar loads), the block's threads side by side.
template <int U>
__global__ void consecutive(const float* a, float* out, size_t n) {
  size_t stride = size_t(gridDim.x) * blockDim.x * U;
  float acc[U] = {};
  size_t i = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) * U;
  for (; i + U <= n; i += stride)
#pragma unroll
    for (int u = 0; u < U; ++u) acc[u] += a[i + u];
  for (; i < n; ++i) acc[0] += a[i];
  float v = 0;
#pragma unroll
  for (int u = 0; u < U; ++u) v += acc[u];
  v = block_sum(v);
  if (threadIdx.x == 0) atomicAdd(out, v);
}

__global__ void init(float* a, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 1.0f;
}

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  size_t n = size_t(1) << 28;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  float *a, *out;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  init<<<(n + 255) / 256, 256>>>(a, n);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  int sms = prop.multiProcessorCount;
  std::printf("device: %s, %d SMs\n", prop.name, sms);
  auto run = [&](const char* name, int blocks, int threads, auto launch) {
    float best = 1e30f;
    for (int r = 0; r < reps; ++r) {
      cudaMemsetAsync(out, 0, sizeof(float));
      cudaEventRecord(e0);
      launch(blocks, threads);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      best = std::min(best, ms);
    }
    float h;
    cudaMemcpy(&h, out, sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("%-28s blocks %5d x %4d: %.4f ms, %.0f GB/s%s\n", name, blocks, threads, best,
                n * 4.0 / (best * 1e-3) / 1e9, h == float(n) ? "" : "  WRONG");
  };
  for (int per_sm : {8, 16, 32}) {
    int blocks = sms * per_sm, t = 2048 / 8;
    run("grid_stride<1>", blocks, t, [&](int b, int t) { grid_stride<1><<<b, t>>>(a, out, n); });
    run("grid_stride<4>", blocks, t, [&](int b, int t) { grid_stride<4><<<b, t>>>(a, out, n); });
    run("grid_stride<8>", blocks, t, [&](int b, int t) { grid_stride<8><<<b, t>>>(a, out, n); });
    run("vector4", blocks, t, [&](int b, int t) { vector4<<<b, t>>>(a, out, n); });
    run("consecutive<4>", blocks, t, [&](int b, int t) { consecutive<4><<<b, t>>>(a, out, n); });
  }
  run("grid_stride<4> 512", sms * 4, 512,
      [&](int b, int t) { grid_stride<4><<<b, t>>>(a, out, n); });
  run("grid_stride<4> 1024", sms * 2, 1024,
      [&](int b, int t) { grid_stride<4><<<b, t>>>(a, out, n); });
  return 0;
}
