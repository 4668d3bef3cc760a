// GPU to GPU copies through syclone (issue 18): USM device memory of GPU 0 copied into GPU 1's by
// a queue of GPU 0 (q.memcpy; peer access enabled with sycl_ext_oneapi_peer_access where the
// GPUs allow it), and a buffer moving between the two GPUs in dependency order (a kernel on each
// GPU in turn touches it: every turn moves the whole buffer). Baseline: cuda_peer_copy_native.cu
// (cudaMemcpyPeerAsync) in the same run, bench/run_multi_gpu.sh. Best of `reps` timed batches.
// Usage: cuda_peer_copy [reps]
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using clock_type = std::chrono::steady_clock;

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  auto gpus = sycl::device::get_devices(sycl::info::device_type::gpu);
  if (gpus.size() < 2) {
    std::printf("cuda_peer_copy: needs 2 GPUs, this machine has %zu\n", gpus.size());
    return 77;
  }
  sycl::queue q0(gpus[0], sycl::property::queue::in_order{});
  sycl::queue q1(gpus[1], sycl::property::queue::in_order{});
  bool peer =
      gpus[0].ext_oneapi_can_access_peer(gpus[1]) && gpus[1].ext_oneapi_can_access_peer(gpus[0]);
  if (peer) {
    gpus[0].ext_oneapi_enable_peer_access(gpus[1]);
    gpus[1].ext_oneapi_enable_peer_access(gpus[0]);
  }
  std::printf("%s -> %s, peer access: %s\n", gpus[0].get_info<sycl::info::device::name>().c_str(),
              gpus[1].get_info<sycl::info::device::name>().c_str(), peer ? "yes" : "no");
  for (std::size_t mib : {1, 16, 256, 1024}) {
    std::size_t bytes = mib << 20, n = bytes / sizeof(int);
    int* src = sycl::malloc_device<int>(n, q0);
    int* dst = sycl::malloc_device<int>(n, q1);
    q0.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { src[i] = int(i[0]); }).wait();
    const int batch = mib >= 256 ? 10 : 50;
    double best = 1e30;
    q0.memcpy(dst, src, bytes).wait(); // warm-up
    for (int r = 0; r < reps; ++r) {
      auto t0 = clock_type::now();
      for (int i = 0; i < batch; ++i) q0.memcpy(dst, src, bytes);
      q0.wait();
      best = std::min(best, std::chrono::duration<double>(clock_type::now() - t0).count());
    }
    int last = -1;
    q1.memcpy(&last, dst + n - 1, sizeof(int)).wait();
    if (last != int(n - 1)) {
      std::printf("cuda_peer_copy: wrong copy (%d)\n", last);
      return 1;
    }
    std::printf("syclone usm peer copy %5zu MiB: %7.1f GB/s\n", mib,
                bytes * double(batch) / best / 1e9);
    sycl::free(src, q0);
    sycl::free(dst, q1);

    // A buffer between the GPUs: each turn moves it to the other GPU before a one-work-item
    // kernel writes one element there.
    sycl::buffer<int> buf{sycl::range<1>(n)};
    q0.submit([&](sycl::handler& h) {
      sycl::accessor a(buf, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = 0; });
    });
    const int turns = mib >= 256 ? 10 : 40;
    best = 1e30;
    for (int r = 0; r < reps; ++r) {
      auto t0 = clock_type::now();
      for (int t = 0; t < turns; ++t) {
        sycl::queue& q = t % 2 ? q0 : q1;
        q.submit([&](sycl::handler& h) {
          sycl::accessor a(buf, h, sycl::read_write);
          h.single_task([=] { a[0] += 1; });
        });
      }
      q0.wait();
      q1.wait();
      best = std::min(best, std::chrono::duration<double>(clock_type::now() - t0).count());
    }
    {
      sycl::host_accessor a(buf, sycl::read_only);
      if (a[0] != turns * reps) {
        std::printf("cuda_peer_copy: buffer moved wrong (%d)\n", a[0]);
        return 1;
      }
    }
    std::printf("syclone buffer migration %5zu MiB: %7.1f GB/s (%d moves incl. a kernel each)\n",
                mib, bytes * double(turns) / best / 1e9, turns);
  }
  return 0;
}
