// Baseline for cuda_group_load_store.sycl.cpp: the same pass (blocked load -> compute -> blocked
// store over n floats, N items per thread, blocks of 256) with cub::BlockLoad / cub::BlockStore,
// best of N runs timed with CUDA events. Algorithms (the SYCL program's counterpart in brackets):
//   warp_transpose  BLOCK_LOAD_WARP_TRANSPOSE / BLOCK_STORE_WARP_TRANSPOSE  [work_group, sub_group]
//   transpose       BLOCK_LOAD_TRANSPOSE / BLOCK_STORE_TRANSPOSE (block-wide, shared memory)
//   vectorize       BLOCK_LOAD_VECTORIZE / BLOCK_STORE_VECTORIZE
//   striped         BLOCK_LOAD_STRIPED / BLOCK_STORE_STRIPED                 [striped]
//   direct          BLOCK_LOAD_DIRECT / BLOCK_STORE_DIRECT                   [direct]
// Output: result impl=cub variant=<v> items=<N> ms=<best> gbps=<(read + write) / best>
// Build: nvcc -O3 -arch=sm_90 bench/group_load_store/cuda_group_load_store_cub.cu -o cub_gls
// Usage: cub_gls [n = 2^28] [reps = 20]
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e = (call);                                                                        \
    if (e != cudaSuccess) {                                                                        \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(e));                                \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

constexpr int block = 256;

// The SYCL program's compute (exact in float for its inputs).
__host__ __device__ inline float compute(float x) {
  float y = x * 2.0f + 1.0f;
  y = y * 0.5f + 3.0f;
  return y * 4.0f - 2.0f;
}

template <int N, cub::BlockLoadAlgorithm L, cub::BlockStoreAlgorithm S>
__global__ void __launch_bounds__(block) pass(const float* in, float* out) {
  using load_t = cub::BlockLoad<float, block, N, L>;
  using store_t = cub::BlockStore<float, block, N, S>;
  __shared__ union {
    typename load_t::TempStorage load;
    typename store_t::TempStorage store;
  } temp;
  const size_t offset = size_t(blockIdx.x) * block * N;
  float data[N];
  load_t(temp.load).Load(in + offset, data);
#pragma unroll
  for (int i = 0; i < N; ++i) data[i] = compute(data[i]);
  __syncthreads(); // the temporary storage is reused
  store_t(temp.store).Store(out + offset, data);
}

__global__ void fill(float* in, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    in[i] = float(i % 1000) * 0.25f;
}

template <int N, cub::BlockLoadAlgorithm L, cub::BlockStoreAlgorithm S>
int run(const char* name, const float* in, float* out, size_t n, int reps) {
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const unsigned grid = unsigned(n / (size_t(block) * N));
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(start));
    pass<N, L, S><<<grid, block>>>(in, out);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = ms < best ? ms : best;
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  const size_t samples = 1000, stride = n / samples;
  for (size_t k = 0; k < samples; ++k) {
    size_t i = k * stride + k % 7;
    float got = 0;
    CHECK(cudaMemcpy(&got, out + i, sizeof(float), cudaMemcpyDeviceToHost));
    float want = compute(float(i % 1000) * 0.25f);
    if (got != want) {
      std::printf("cub %s items=%d: element %zu is %g, expected %g\n", name, N, i, got, want);
      return 1;
    }
  }
  std::printf("result impl=cub variant=%s items=%d ms=%.4f gbps=%.1f\n", name, N, best,
              2.0 * double(n) * sizeof(float) / 1e6 / best);
  return 0;
}

template <int N>
int run_all(const float* in, float* out, size_t n, int reps) {
  int status = 0;
  status |= run<N, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(
      "warp_transpose", in, out, n, reps);
  status |=
      run<N, cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>("transpose", in, out, n, reps);
  status |=
      run<N, cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>("vectorize", in, out, n, reps);
  status |= run<N, cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>("striped", in, out, n, reps);
  status |= run<N, cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>("direct", in, out, n, reps);
  return status;
}

int main(int argc, char** argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 28);
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  n = n / (size_t(block) * 16) * (size_t(block) * 16);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);
  std::printf("n=%zu floats, blocks of %d\n", n, block);
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  fill<<<1024, 256>>>(in, n);
  CHECK(cudaDeviceSynchronize());
  int status = 0;
  status |= run_all<4>(in, out, n, reps);
  status |= run_all<8>(in, out, n, reps);
  status |= run_all<16>(in, out, n, reps);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return status;
}
