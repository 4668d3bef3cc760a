// Native CUDA baseline for cuda_peer_copy.sycl.cpp (nvcc -O3 -arch=sm_90): cudaMemcpyPeerAsync
// of device 0's memory into device 1's on a stream of device 0, peer access enabled both ways
// where cudaDeviceCanAccessPeer allows; the same sizes, batches and best-of timing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using clock_type = std::chrono::steady_clock;

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  int count = 0;
  cudaGetDeviceCount(&count);
  if (count < 2) {
    std::printf("native peer copy: needs 2 GPUs, this machine has %d\n", count);
    return 77;
  }
  int p01 = 0, p10 = 0;
  cudaDeviceCanAccessPeer(&p01, 0, 1);
  cudaDeviceCanAccessPeer(&p10, 1, 0);
  bool peer = p01 && p10;
  if (peer) {
    cudaSetDevice(0);
    cudaDeviceEnablePeerAccess(1, 0);
    cudaSetDevice(1);
    cudaDeviceEnablePeerAccess(0, 0);
  }
  std::printf("native: device 0 -> device 1, peer access: %s\n", peer ? "yes" : "no");
  cudaSetDevice(0);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (size_t mib : {1, 16, 256, 1024}) {
    size_t bytes = mib << 20, n = bytes / sizeof(int);
    int *src = nullptr, *dst = nullptr;
    cudaSetDevice(0);
    cudaMalloc(&src, bytes);
    std::vector<int> host(n);
    for (size_t i = 0; i < n; ++i) host[i] = int(i);
    cudaMemcpy(src, host.data(), bytes, cudaMemcpyHostToDevice);
    cudaSetDevice(1);
    cudaMalloc(&dst, bytes);
    cudaSetDevice(0);
    const int batch = mib >= 256 ? 10 : 50;
    double best = 1e30;
    cudaMemcpyPeerAsync(dst, 1, src, 0, bytes, s);
    cudaStreamSynchronize(s);
    for (int r = 0; r < reps; ++r) {
      auto t0 = clock_type::now();
      for (int i = 0; i < batch; ++i) cudaMemcpyPeerAsync(dst, 1, src, 0, bytes, s);
      cudaStreamSynchronize(s);
      best = std::min(best, std::chrono::duration<double>(clock_type::now() - t0).count());
    }
    int last = -1;
    cudaMemcpy(&last, dst + n - 1, sizeof(int), cudaMemcpyDeviceToHost);
    if (last != int(n - 1)) {
      std::printf("native peer copy wrong (%d)\n", last);
      return 1;
    }
    std::printf("native cudaMemcpyPeerAsync %5zu MiB: %7.1f GB/s\n", mib,
                bytes * double(batch) / best / 1e9);
    cudaFree(src);
    cudaSetDevice(1);
    cudaFree(dst);
    cudaSetDevice(0);
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    std::printf("native peer copy: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
