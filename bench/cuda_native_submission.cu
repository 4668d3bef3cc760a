// Native CUDA baseline for cuda_submission.sycl.cpp: the same kernels and patterns as launches
// with <<<>>> (and cuLaunchKernel for the empty kernel), plus what a SYCL runtime cannot do
// without the program's help: two explicit streams for the independent buffers, and a CUDA Graph
// captured once and replayed for the 1000-kernel graph pattern. Also the cost of the driver
// calls a runtime adds around a launch (cuEventRecord, cuStreamWaitEvent, cuEventQuery).
// Output lines as the SYCL program's, with impl=cuda.
// Build: nvcc -O3 -arch=sm_90 cuda_native_submission.cu -lcuda
// Usage: cuda_native_submission [kernels per run = 5000] [reps = 5]
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
using clk = std::chrono::steady_clock;
constexpr std::size_t N = std::size_t(1) << 16;
constexpr int block = 256;
constexpr int grid = N / block;
int g_failures = 0;

#define CK(x)                                                                                      \
  do {                                                                                             \
    auto r_ = (x);                                                                                 \
    if (r_ != 0) {                                                                                 \
      std::printf("%s failed: %d\n", #x, int(r_));                                                 \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

double us_since(clk::time_point t0) {
  return std::chrono::duration<double, std::micro>(clk::now() - t0).count();
}
void result(const char* pattern, const char* variant, double us) {
  std::printf("result pattern=%s impl=cuda variant=%s us=%.3f\n", pattern, variant, us);
}
template <typename Run>
double best(int reps, int count, Run run) {
  run();
  double b = 1e30;
  for (int r = 0; r < reps; ++r) b = std::min(b, run());
  return b / count;
}
void expect(bool ok, const char* what) {
  if (ok) return;
  std::printf("FAILED: %s\n", what);
  ++g_failures;
}

__global__ void update(float* a) {
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  a[i] = a[i] * 0.5f + 1.0f;
}
__global__ void step(const float* in, float* out) {
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  out[i] = in[i] * 0.5f + 1.0f;
}
extern "C" __global__ void empty_kernel() {}
__global__ void fill(float* a, float v) {
  a[blockIdx.x * std::size_t(blockDim.x) + threadIdx.x] = v;
}

float first(const float* d) {
  float v = 0;
  CK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

// usm_inorder and buffer_chain are the same thing natively: launches on one stream.
void chain(cudaStream_t s, int kernels, int reps) {
  float* a;
  CK(cudaMalloc(&a, N * sizeof(float)));
  fill<<<grid, block, 0, s>>>(a, 0.0f);
  double issue = 1e30;
  double us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) update<<<grid, block, 0, s>>>(a);
    issue = std::min(issue, us_since(t0));
    CK(cudaStreamSynchronize(s));
    return us_since(t0);
  });
  for (const char* p : {"usm_inorder", "buffer_chain"}) {
    result(p, "total", us);
    result(p, "issue", issue / kernels);
  }
  expect(std::fabs(first(a) - 2.0f) < 1e-3f, "chain: a[0] converges to 2");
  CK(cudaFree(a));
}

void two_buffers(cudaStream_t s1, cudaStream_t s2, int kernels, int reps) {
  float *a, *b;
  CK(cudaMalloc(&a, N * sizeof(float)));
  CK(cudaMalloc(&b, N * sizeof(float)));
  fill<<<grid, block, 0, s1>>>(a, 0.0f);
  fill<<<grid, block, 0, s1>>>(b, 4.0f);
  CK(cudaStreamSynchronize(s1));
  for (int streams : {1, 2}) {
    cudaStream_t t = streams == 1 ? s1 : s2;
    double us = best(reps, kernels, [&] {
      auto t0 = clk::now();
      for (int k = 0; k < kernels; ++k) {
        if (k % 2)
          update<<<grid, block, 0, t>>>(b);
        else
          update<<<grid, block, 0, s1>>>(a);
      }
      CK(cudaStreamSynchronize(s1));
      CK(cudaStreamSynchronize(t));
      return us_since(t0);
    });
    result("two_buffers", streams == 1 ? "total" : "two_streams", us);
  }
  expect(std::fabs(first(a) - 2.0f) < 1e-3f && std::fabs(first(b) - 2.0f) < 1e-3f,
         "two_buffers: both converge to 2");
  CK(cudaFree(a));
  CK(cudaFree(b));
}

// Only the round trip: `<<<>>>` then cudaStreamSynchronize, one kernel at a time
// (bench/run_pairs.sh alternates the two programs, one process each).
void roundtrip(cudaStream_t s, int kernels, int reps) {
  double us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) {
      empty_kernel<<<1, 1, 0, s>>>();
      cudaStreamSynchronize(s);
    }
    return us_since(t0);
  });
  result("roundtrip", "total", us);
}

void empty(cudaStream_t s, int kernels, int reps) {
  double issue = 1e30;
  double us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) empty_kernel<<<1, 1, 0, s>>>();
    issue = std::min(issue, us_since(t0));
    CK(cudaStreamSynchronize(s));
    return us_since(t0);
  });
  result("empty", "total", us);
  result("empty", "issue", issue / kernels);
  roundtrip(s, kernels, reps);

  // The driver API, as syclone launches (cuLaunchKernel), and the calls a runtime adds.
  CUfunction fn;
  {
    cudaFunction_t f;
    CK(cudaGetFuncBySymbol(&f, (const void*)empty_kernel));
    fn = (CUfunction)f;
  }
  CUstream cs = (CUstream)s;
  us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, cs, nullptr, nullptr);
    CK(cuStreamSynchronize(cs));
    return us_since(t0);
  });
  result("empty", "cuLaunchKernel", us);
  us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) {
      cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, cs, nullptr, nullptr);
      cuStreamSynchronize(cs);
    }
    return us_since(t0);
  });
  result("roundtrip", "cuLaunchKernel", us);
  std::vector<CUevent> events(kernels);
  for (auto& e : events) CK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
  // How syclone waits for a kernel's event: a completion event recorded after the launch, then
  // cuEventSynchronize on it; and the same event recorded but the stream synchronized.
  us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) {
      cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, cs, nullptr, nullptr);
      cuEventRecord(events[k], cs);
      cuEventSynchronize(events[k]);
    }
    return us_since(t0);
  });
  result("roundtrip", "cuLaunchKernel+cuEventRecord+cuEventSynchronize", us);
  us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) {
      cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, cs, nullptr, nullptr);
      cuEventRecord(events[k], cs);
      cuStreamSynchronize(cs);
    }
    return us_since(t0);
  });
  result("roundtrip", "cuLaunchKernel+cuEventRecord+cuStreamSynchronize", us);
  us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) {
      cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, cs, nullptr, nullptr);
      cuEventRecord(events[k], cs);
    }
    CK(cuStreamSynchronize(cs));
    return us_since(t0);
  });
  result("empty", "cuLaunchKernel+cuEventRecord", us);
  us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) {
      cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, cs, nullptr, nullptr);
      cuEventRecord(events[k], cs);
      cuEventQuery(events[k]);
    }
    CK(cuStreamSynchronize(cs));
    return us_since(t0);
  });
  result("empty", "cuLaunchKernel+cuEventRecord+cuEventQuery", us);
  for (auto& e : events) cuEventDestroy(e);
}

// Kernel k reads buffer (k + 2) % 4 and writes buffer k % 4: two chains, interleaved.
void graph(cudaStream_t s, int reps) {
  constexpr int kernels = 1000;
  float* bufs[4];
  for (auto& b : bufs) {
    CK(cudaMalloc(&b, N * sizeof(float)));
    fill<<<grid, block, 0, s>>>(b, 1.0f);
  }
  auto launch_all = [&](cudaStream_t t) {
    for (int k = 0; k < kernels; ++k) step<<<grid, block, 0, t>>>(bufs[(k + 2) % 4], bufs[k % 4]);
  };
  double us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    launch_all(s);
    CK(cudaStreamSynchronize(s));
    return us_since(t0);
  });
  result("graph", "total", us);

  cudaGraph_t g;
  cudaGraphExec_t exec;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  launch_all(s);
  CK(cudaStreamEndCapture(s, &g));
  CK(cudaGraphInstantiate(&exec, g, 0));
  us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    CK(cudaGraphLaunch(exec, s));
    CK(cudaStreamSynchronize(s));
    return us_since(t0);
  });
  result("graph", "cuda_graph_replay", us);
  // What recording a graph costs, paid once per distinct command sequence.
  auto t0 = clk::now();
  cudaGraph_t g2;
  cudaGraphExec_t exec2;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  launch_all(s);
  CK(cudaStreamEndCapture(s, &g2));
  CK(cudaGraphInstantiate(&exec2, g2, 0));
  result("graph", "cuda_graph_capture_instantiate", us_since(t0) / kernels);
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphExecDestroy(exec2));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(g2));
  for (auto& b : bufs) {
    expect(std::fabs(first(b) - 2.0f) < 1e-3f, "graph: every buffer reaches 2");
    CK(cudaFree(b));
  }
}
} // namespace

int main(int argc, char** argv) {
  int kernels = argc > 1 ? std::atoi(argv[1]) : 5000;
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  CK(cudaFree(nullptr));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %zu-element kernels, %d per run, best of %d runs\n", prop.name, N,
              kernels, reps);
  cudaStream_t s1, s2;
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  if (argc > 3 && std::string(argv[3]) == "roundtrip") {
    roundtrip(s1, kernels, reps);
    return g_failures ? 1 : 0;
  }
  chain(s1, kernels, reps);
  two_buffers(s1, s2, kernels, reps);
  empty(s1, kernels, reps);
  graph(s1, reps);
  return g_failures ? 1 : 0;
}
