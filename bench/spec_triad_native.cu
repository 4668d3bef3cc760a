// Native CUDA baseline for cuda_spec_triad.sycl.cpp (nvcc -O3 -arch=sm_90): seed 002's modified
// STREAM triad with its inner trip count as a runtime variable and as a literal constant (a
// template parameter), over 2^26 threads in 256-thread blocks (the block size syclone gives range
// kernels), for trip counts 10 and 1000; best of N runs timed with cudaEvent pairs.
// Usage: spec_triad_native [threads] [runs]
#include <algorithm>
#include <cstdio>
#include <cstdlib>

__global__ void triad_variable(const float* A0, const float* B0, float* C0, size_t n, float scalar,
                               size_t inner_loop_size) {
  size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  auto runtime_trip_count_const = inner_loop_size;
  auto accum = 0;
  for (size_t j = 0; j < runtime_trip_count_const; j++) {
    auto multiplier = scalar * j;
    accum = accum + A0[idx] + B0[idx] * multiplier;
  }
  C0[idx] = accum;
}

template <size_t Trips>
__global__ void triad_literal(const float* A0, const float* B0, float* C0, size_t n, float scalar) {
  size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  size_t runtime_trip_count_const = Trips;
  auto accum = 0;
  for (size_t j = 0; j < runtime_trip_count_const; j++) {
    auto multiplier = scalar * j;
    accum = accum + A0[idx] + B0[idx] * multiplier;
  }
  C0[idx] = accum;
}

__global__ void init(float* a, float* b, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = 1.0f;
    b[i] = 2.0f;
  }
}

float expected(float scalar, size_t trips) {
  auto accum = 0;
  for (size_t j = 0; j < trips; j++) {
    auto multiplier = scalar * j;
    accum = accum + 1.0f + 2.0f * multiplier;
  }
  return accum;
}

constexpr int block = 256;

// The best of `runs` after one unmeasured run, in ms.
template <typename Launch>
double best_ms(int runs, Launch launch) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  launch();
  cudaDeviceSynchronize();
  double best = 1e30;
  for (int r = 0; r < runs; ++r) {
    cudaEventRecord(e0);
    launch();
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    best = std::min(best, double(ms));
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return best;
}

bool check(const float* c, size_t n, size_t trips, const char* what) {
  float got[2];
  cudaMemcpy(&got[0], c, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&got[1], c + n - 1, sizeof(float), cudaMemcpyDeviceToHost);
  float want = expected(3.0f, trips);
  if (got[0] == want && got[1] == want) return true;
  std::printf("native spec_triad: %s with %zu trips computed %g, %g instead of %g\n", what, trips,
              got[0], got[1], want);
  return false;
}

template <size_t Trips>
bool trio(const float* a, const float* b, float* c, size_t n, int runs) {
  unsigned grid = unsigned((n + block - 1) / block);
  bool ok = true;
  cudaMemset(c, 0xff, n * sizeof(float));
  double v = best_ms(runs, [&] { triad_variable<<<grid, block>>>(a, b, c, n, 3.0f, Trips); });
  ok = check(c, n, Trips, "runtime variable") && ok;
  cudaMemset(c, 0xff, n * sizeof(float));
  double l = best_ms(runs, [&] { triad_literal<Trips><<<grid, block>>>(a, b, c, n, 3.0f); });
  ok = check(c, n, Trips, "literal constant") && ok;
  std::printf("native spec_triad n=%zu trips=%zu runtime variable: %.4f ms\n", n, Trips, v);
  std::printf("native spec_triad n=%zu trips=%zu literal constant: %.4f ms\n", n, Trips, l);
  std::printf("native spec_triad trips=%zu: variable/literal %.3f\n", Trips, v / l);
  return ok;
}

int main(int argc, char** argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 26);
  int runs = argc > 2 ? std::atoi(argv[2]) : 20;
  float *a, *b, *c;
  if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&b, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&c, n * sizeof(float)) != cudaSuccess) {
    std::printf("native spec_triad: cannot allocate 3 x %zu floats\n", n);
    return 1;
  }
  init<<<unsigned((n + block - 1) / block), block>>>(a, b, n);
  bool ok = trio<10>(a, b, c, n, runs);
  ok = trio<1000>(a, b, c, n, runs) && ok;
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return ok ? 0 : 1;
}
