// Host cost of the forms of a kernel launch on one stream (issue 16): <<<>>>, cuLaunchKernel
// with kernelParams and with the parameters packed in `extra` (what syclone passes),
// cuLaunchKernelEx, cudaLaunchKernel, each of them or with a cuEventRecord after it, and
// cuEventRecord, cuCtxGetCurrent and cuEventQuery alone: empty 1-thread kernels, 20000 in a row,
// best of 5, microseconds each. Build: nvcc -O3 -arch=sm_90 bench/cuda_native_launch_forms.cu
// -lcuda (results in bench/results/submission.md).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
struct obj {
  float* p;
  unsigned long n;
  int pad[4];
};
__global__ void k_ptr(float* p) {}
__global__ void k_obj(obj o) {}
using clk = std::chrono::steady_clock;
template <typename F>
double run(const char* what, int n, cudaStream_t s, F f) {
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    cudaStreamSynchronize(s);
    auto t0 = clk::now();
    for (int i = 0; i < n; ++i) f(i);
    cudaStreamSynchronize(s);
    double us = std::chrono::duration<double, std::micro>(clk::now() - t0).count() / n;
    if (us < best) best = us;
  }
  std::printf("%-45s %.3f us\n", what, best);
  return best;
}
int main() {
  const int n = 20000;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  CUstream cs = (CUstream)s;
  float* p;
  cudaMalloc(&p, 1024);
  cudaFunction_t fp, fo;
  cudaGetFuncBySymbol(&fp, (const void*)k_ptr);
  cudaGetFuncBySymbol(&fo, (const void*)k_obj);
  CUfunction cfp = (CUfunction)fp, cfo = (CUfunction)fo;
  static CUevent ev[20000];
  for (auto& e : ev) cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
  obj o{p, 5, {}};
  run("<<<>>> ptr", n, s, [&](int) { k_ptr<<<1, 1, 0, s>>>(p); });
  run("<<<>>> obj", n, s, [&](int) { k_obj<<<1, 1, 0, s>>>(o); });
  run("cuLaunchKernel ptr params", n, s, [&](int) {
    void* a[] = {&p};
    cuLaunchKernel(cfp, 1, 1, 1, 1, 1, 1, 0, cs, a, nullptr);
  });
  run("cuLaunchKernel obj params", n, s, [&](int) {
    void* a[] = {&o};
    cuLaunchKernel(cfo, 1, 1, 1, 1, 1, 1, 0, cs, a, nullptr);
  });
  run("cuLaunchKernel obj extra", n, s, [&](int) {
    size_t sz = sizeof o;
    void* x[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &o, CU_LAUNCH_PARAM_BUFFER_SIZE, &sz,
                 CU_LAUNCH_PARAM_END};
    cuLaunchKernel(cfo, 1, 1, 1, 1, 1, 1, 0, cs, nullptr, x);
  });
  run("cuLaunchKernelEx obj params", n, s, [&](int) {
    CUlaunchConfig c{};
    c.gridDimX = c.gridDimY = c.gridDimZ = 1;
    c.blockDimX = c.blockDimY = c.blockDimZ = 1;
    c.hStream = cs;
    void* a[] = {&o};
    cuLaunchKernelEx(&c, cfo, a, nullptr);
  });
  run("cudaLaunchKernel obj", n, s, [&](int) {
    void* a[] = {&o};
    cudaLaunchKernel((const void*)k_obj, dim3(1), dim3(1), a, 0, s);
  });
  run("cuLaunchKernel obj params + cuEventRecord", n, s, [&](int i) {
    void* a[] = {&o};
    cuLaunchKernel(cfo, 1, 1, 1, 1, 1, 1, 0, cs, a, nullptr);
    cuEventRecord(ev[i], cs);
  });
  run("cuLaunchKernel obj extra + cuEventRecord", n, s, [&](int i) {
    size_t sz = sizeof o;
    void* x[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &o, CU_LAUNCH_PARAM_BUFFER_SIZE, &sz,
                 CU_LAUNCH_PARAM_END};
    cuLaunchKernel(cfo, 1, 1, 1, 1, 1, 1, 0, cs, nullptr, x);
    cuEventRecord(ev[i], cs);
  });
  run("cuEventRecord alone", n, s, [&](int i) { cuEventRecord(ev[i], cs); });
  run("cuCtxGetCurrent", n, s, [&](int) {
    CUcontext c;
    cuCtxGetCurrent(&c);
  });
  run("cuEventQuery (done)", n, s, [&](int i) { cuEventQuery(ev[i]); });
  return 0;
}
