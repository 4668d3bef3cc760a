// Native CUDA baseline for cuda_prefetch.sycl.cpp (nvcc -O3 -arch=sm_90): the same kernels and
// launch shapes, with the prefetches written as the PTX syclone emits for each hint
// (include/sycl/detail/device/nvptx_memory.hpp): prefetch.global.L1 / .L2 on the 128-byte line,
// and cp.async.bulk.prefetch.L2 of the whole line from the first lane for the sub-group prefetch.
// Output lines as the SYCL program's, with impl=cuda.
// Usage: cuda_prefetch_native [log2 elements = 26] [reps = 20] [walk distance in lines = 32]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
int g_failures = 0;

__device__ __forceinline__ std::uint64_t line_of(const void* p) {
  return reinterpret_cast<std::uint64_t>(__cvta_generic_to_global(p)) & ~std::uint64_t(127);
}
__device__ __forceinline__ void prefetch_l1(const void* p) {
  asm volatile("prefetch.global.L1 [%0];" ::"l"(line_of(p)));
}
__device__ __forceinline__ void prefetch_l2(const void* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(line_of(p)));
}
// The lines holding [p, p + bytes) into L1.
__device__ __forceinline__ void prefetch_l1_range(const void* p, std::uint64_t bytes) {
  std::uint64_t a = reinterpret_cast<std::uint64_t>(__cvta_generic_to_global(p));
  for (std::uint64_t line = a / 128; line <= (a + bytes - 1) / 128; ++line)
    asm volatile("prefetch.global.L1 [%0];" ::"l"(line * 128));
}
__device__ __forceinline__ void prefetch_l2_range(const void* p, std::uint64_t bytes) {
  std::uint64_t a = reinterpret_cast<std::uint64_t>(__cvta_generic_to_global(p));
  for (std::uint64_t line = a / 128; line <= (a + bytes - 1) / 128; ++line)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(line * 128));
}

struct timer {
  cudaEvent_t start, stop;
  timer() {
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
  }
  ~timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
};

template <typename Launch>
double best_of(int reps, Launch launch) {
  timer t;
  launch();
  cudaDeviceSynchronize();
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(t.start);
    launch();
    cudaEventRecord(t.stop);
    cudaEventSynchronize(t.stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, t.start, t.stop);
    best = std::min(best, double(ms) * 1e-3);
  }
  return best;
}

void report(const char* bench, const char* variant, double seconds, double bytes) {
  std::printf("bench=%s impl=cuda variant=%s ms=%.4f gbps=%.1f\n", bench, variant, seconds * 1e3,
              bytes / seconds * 1e-9);
}

void compare(const char* bench, const char* variant, const std::vector<float>& got,
             const std::vector<float>& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i])))) {
      std::printf("bench=%s variant=%s: result %zu is %g, not %g\n", bench, variant, i,
                  double(got[i]), double(want[i]));
      ++g_failures;
      return;
    }
}

constexpr int TILE_SIZE = 8;

template <int P> // 0 none, 1 L1 (multi_ptr::prefetch), 2 L2
__global__ void tile(float* data, const float* data2) {
  float t_[TILE_SIZE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int t = 0; t < 4; ++t) {
    for (int j = 0; j < TILE_SIZE; ++j) t_[j] = data2[i * TILE_SIZE * 4 + t * 4 + j];
    if (t < 3) {
      const float* next = &data2[i * TILE_SIZE * 4 + (t + 1) * 4];
      if (P == 1) prefetch_l1_range(next, TILE_SIZE * sizeof(float));
      if (P == 2) prefetch_l2_range(next, TILE_SIZE * sizeof(float));
    }
    float dx = 0.0f;
    for (int j = 0; j < TILE_SIZE; ++j) {
      dx += 1.0f / sqrtf(t_[j]);
      data[i * 4 + t] = dx;
    }
  }
}

__global__ void fill_index(float* a, std::size_t n, int mod, float add) {
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) a[i] = float(i % mod) + add;
}

void run_tile(int N, int reps) {
  float *data, *data2;
  cudaMalloc(&data, N / TILE_SIZE * sizeof(float));
  cudaMalloc(&data2, std::size_t(N) * sizeof(float));
  fill_index<<<(N + 255) / 256, 256>>>(data2, N, 1 << 30, 1.0f);
  const double bytes = double(N) * 4 + double(N / TILE_SIZE) * 4;
  const int items = N / TILE_SIZE / 4;
  std::vector<float> want(N / TILE_SIZE), got(N / TILE_SIZE);
  auto measure = [&](const char* name, auto kernel) {
    cudaMemset(data, 0, N / TILE_SIZE * sizeof(float));
    report("tile", name, best_of(reps, [&] { kernel<<<items / 1024, 1024>>>(data, data2); }),
           bytes);
    cudaMemcpy(got.data(), data, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  };
  measure("none", tile<0>);
  want = got;
  measure("multi_ptr_L1", tile<1>);
  compare("tile", "multi_ptr_L1", got, want);
  measure("L2", tile<2>);
  compare("tile", "L2", got, want);
  cudaFree(data);
  cudaFree(data2);
}

template <int P> // 0 none, 1 L1, 2 L2, 3 sub-group (warp) bulk prefetch into L2
__global__ void walk(const float* a, float* out, std::size_t per_group, int distance, int mask) {
  const std::size_t lines = per_group / 32;
  const float* base = a + blockIdx.x * per_group;
  const unsigned lane = threadIdx.x;
  float acc = 0.0f;
  for (std::size_t k = 0; k < lines; ++k) {
    if (P != 0 && k + distance < lines) {
      const float* ahead = base + (k + distance) * 32;
      if (P == 1) prefetch_l1(ahead + lane);
      if (P == 2) prefetch_l2(ahead + lane);
      if (P == 3 && lane == 0)
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], 128;" ::"l"(
            reinterpret_cast<std::uint64_t>(__cvta_generic_to_global(ahead))));
    }
    float x = base[k * 32 + lane + (static_cast<int>(acc) & mask)];
    acc = acc * 0.5f + x;
  }
  out[blockIdx.x * 32 + lane] = acc;
}

void run_walk(std::size_t n, int reps, int distance) {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const std::size_t groups = sms;
  const std::size_t per_group = n / groups / 32 * 32;
  float *a, *out;
  cudaMalloc(&a, groups * per_group * sizeof(float));
  cudaMalloc(&out, groups * 32 * sizeof(float));
  fill_index<<<(groups * per_group + 255) / 256, 256>>>(a, groups * per_group, 7, 0.0f);
  const double bytes = double(groups * per_group) * 4;
  std::vector<float> want(groups * 32), got(groups * 32);
  auto measure = [&](const char* name, auto kernel, int d) {
    report("walk", name, best_of(reps, [&] { kernel<<<groups, 32>>>(a, out, per_group, d, 0); }),
           bytes);
    cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  };
  measure("none", walk<0>, 0);
  want = got;
  measure("L1", walk<1>, distance);
  compare("walk", "L1", got, want);
  measure("L2", walk<2>, distance);
  compare("walk", "L2", got, want);
  measure("joint_L2", walk<3>, distance);
  compare("walk", "joint_L2", got, want);
  cudaFree(a);
  cudaFree(out);
}

template <int P> // 0 none, 1 own elements into L1, 2 elements 16384 ahead into L2
__global__ void triad(float* a, const float* b, const float* c, std::size_t n) {
  constexpr std::size_t ahead = 1 << 14;
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (P == 1) {
    prefetch_l1(&b[i]);
    prefetch_l1(&c[i]);
  }
  if (P == 2 && i + ahead < n) {
    prefetch_l2(&b[i + ahead]);
    prefetch_l2(&c[i + ahead]);
  }
  a[i] = b[i] + 3.0f * c[i];
}

void run_triad(std::size_t n, int reps) {
  float *a, *b, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  fill_index<<<(n + 255) / 256, 256>>>(b, n, 13, 0.0f);
  fill_index<<<(n + 255) / 256, 256>>>(c, n, 5, 0.0f);
  const double bytes = 3.0 * double(n) * 4;
  std::vector<float> want(n), got(n);
  auto measure = [&](const char* name, auto kernel) {
    report("triad", name, best_of(reps, [&] { kernel<<<(n + 255) / 256, 256>>>(a, b, c, n); }),
           bytes);
    cudaMemcpy(got.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost);
  };
  measure("none", triad<0>);
  want = got;
  measure("own_L1", triad<1>);
  compare("triad", "own_L1", got, want);
  measure("ahead_L2", triad<2>);
  compare("triad", "ahead_L2", got, want);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
}
} // namespace

int main(int argc, char** argv) {
  int log2n = argc > 1 ? std::atoi(argv[1]) : 26;
  int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  int distance = argc > 3 ? std::atoi(argv[3]) : 32;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("device: %s (native CUDA)\n", prop.name);
  const std::size_t n = std::size_t(1) << log2n;
  run_tile(int(n), reps);
  run_walk(n, reps, distance);
  run_triad(n, reps);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  if (g_failures) std::printf("FAILED: %d prefetch variants changed a result\n", g_failures);
  return g_failures ? 1 : 0;
}
