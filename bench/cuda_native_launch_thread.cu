// Would a launch thread hide syclone's host work? (issue 16, before src/backends/cuda/
// launch_thread.hpp existed.) 2^16-element kernels back-to-back on one stream; the main thread
// spends `work` us per submission (syclone's bookkeeping), a worker thread does cuLaunchKernel
// (+ cuEventRecord). Build: nvcc -O3 -arch=sm_90 bench/cuda_native_launch_thread.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>
__global__ void k(float* a, float s) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[i] = a[i] * s + 1.0f; }
static void busy(double us) { auto t = std::chrono::steady_clock::now() + std::chrono::nanoseconds((long)(us * 1000)); while (std::chrono::steady_clock::now() < t) {} }
struct item { float s; int rec; };
int main() {
  const int N = 5000; float* a; cudaMalloc(&a, (1 << 16) * 4);
  cudaStream_t st; cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  std::vector<cudaEvent_t> ev(N); for (auto& e : ev) cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  auto run = [&](const char* name, double work, bool worker, bool record) {
    double best = 1e9;
    for (int rep = 0; rep < 5; ++rep) {
      cudaStreamSynchronize(st);
      auto t0 = std::chrono::steady_clock::now();
      if (!worker) {
        for (int i = 0; i < N; ++i) { busy(work); k<<<256, 256, 0, st>>>(a, 1.0f); if (record) cudaEventRecord(ev[i], st); }
      } else {
        static item ring[8192]; std::atomic<int> head{0}, tail{0}; std::atomic<bool> stop{false};
        std::thread w([&] { int t = 0; for (;;) { int h = head.load(std::memory_order_acquire); if (t == h) { if (stop.load()) break; continue; }
            while (t < h) { item& it = ring[t % 8192]; k<<<256, 256, 0, st>>>(a, it.s); if (it.rec) cudaEventRecord(ev[t], st); ++t; }
            tail.store(t, std::memory_order_release); } });
        for (int i = 0; i < N; ++i) { busy(work); ring[i % 8192] = {1.0f, record}; head.store(i + 1, std::memory_order_release); }
        stop = true; w.join();
      }
      cudaStreamSynchronize(st);
      double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / N;
      if (us < best) best = us;
    }
    printf("%-40s %.3f us/kernel\n", name, best);
  };
  for (int round = 0; round < 2; ++round) {
    run("native loop", 0, false, false);
    run("native loop + record", 0, false, true);
    run("inline, 0.6us work + record", 0.6, false, true);
    run("inline, 1.2us work + record", 1.2, false, true);
    run("worker, 1.2us work, launch only", 1.2, true, false);
    run("worker, 1.2us work, launch + record", 1.2, true, true);
    run("worker, 2.0us work, launch + record", 2.0, true, true);
  }
}
