// Native baseline for cuda_latency.sycl.cpp through the raw driver API: cuLaunchKernel +
// cuStreamSynchronize round trip of an empty kernel, and back-to-back cuLaunchKernel issue cost.
// Build: nvcc -O3 -arch=sm_90 cuda_native_latency.cu -lcuda
#include <cuda.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

extern "C" __global__ void empty_kernel() {}

using clk = std::chrono::steady_clock;
static double us_since(clk::time_point t0) {
  return std::chrono::duration<double, std::micro>(clk::now() - t0).count();
}
#define CK(x)                                                                                      \
  do {                                                                                             \
    CUresult r = (x);                                                                              \
    if (r != CUDA_SUCCESS) {                                                                       \
      std::printf("%s failed: %d\n", #x, int(r));                                                  \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

int main() {
  cudaFree(nullptr); // create the primary context through the runtime, then use the driver API
  CUfunction fn;
  {
    cudaFunction_t f;
    cudaGetFuncBySymbol(&f, (const void*)empty_kernel);
    fn = (CUfunction)f;
  }
  CUstream s;
  CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  for (int i = 0; i < 1000; ++i) {
    CK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, s, nullptr, nullptr));
    CK(cuStreamSynchronize(s));
  }
  const int trips = 20000;
  auto t0 = clk::now();
  for (int i = 0; i < trips; ++i) {
    cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, s, nullptr, nullptr);
    cuStreamSynchronize(s);
  }
  std::printf("native empty kernel cuLaunchKernel+cuStreamSynchronize: %.2f us\n",
              us_since(t0) / trips);
  const int burst = 20000;
  t0 = clk::now();
  for (int i = 0; i < burst; ++i) cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, s, nullptr, nullptr);
  double issue = us_since(t0) / burst;
  CK(cuStreamSynchronize(s));
  std::printf("native back-to-back cuLaunchKernel: %.2f us per kernel (issue), %.2f us per "
              "kernel (total)\n",
              issue, us_since(t0) / burst);
}
