// Memory pressure (issue 28): buffers totalling more than the device memory the runtime may use
// (SYCLONE_DEVICE_MEMORY_LIMIT) through a chain of kernels, and the same program with room to
// spare. Run it twice, with and without the limit; the time covers the first upload to the last
// write-back in both. Also reports the plain copy bandwidth between pageable host memory (where
// a buffer's host copy lives) and the device for one buffer, the floor of any eviction scheme:
// under pressure, each kernel of a round-robin chain must bring its buffer back and write the
// least recently used one out.
//
// Usage: cuda_memory_pressure [buffers = 8] [MiB per buffer = 512] [rounds = 3]
#include <sycl/sycl.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}
struct step {
  sycl::accessor<unsigned, 1, sycl::access_mode::read_write> a;
  unsigned k;
  void operator()(sycl::item<1> it) const { a[it] = a[it] * 3u + k; }
};
} // namespace

int main(int argc, char** argv) {
  const int buffers = argc > 1 ? std::atoi(argv[1]) : 8;
  const std::size_t mib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 512;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
  const std::size_t n = mib << 20 >> 2;
  sycl::queue q(sycl::gpu_selector_v, sycl::property::queue::in_order());
  const std::size_t device_mib =
      q.get_device().get_info<sycl::info::device::global_mem_size>() >> 20;
  std::vector<std::vector<unsigned>> host(buffers, std::vector<unsigned>(n));
  for (int b = 0; b < buffers; ++b)
    for (std::size_t i = 0; i < n; ++i) host[b][i] = static_cast<unsigned>(i + b);

  // The floor: one buffer's size to the device and back, pageable host memory, 3 times.
  double copy_gbs = 0;
  {
    unsigned* d = sycl::malloc_device<unsigned>(n, q);
    q.memcpy(d, host[0].data(), n * 4).wait();
    auto t = clock_type::now();
    for (int i = 0; i < 3; ++i) {
      q.memcpy(host[0].data(), d, n * 4);
      q.memcpy(d, host[0].data(), n * 4);
    }
    q.wait();
    copy_gbs = 6.0 * n * 4 / seconds_since(t) / 1e9;
    sycl::free(d, q);
  }

  auto t = clock_type::now();
  {
    std::vector<sycl::buffer<unsigned, 1>> bufs;
    for (int b = 0; b < buffers; ++b) bufs.emplace_back(host[b].data(), sycl::range<1>(n));
    for (int r = 0; r < rounds; ++r)
      for (int b = 0; b < buffers; ++b)
        q.submit([&](sycl::handler& h) {
          sycl::accessor<unsigned, 1, sycl::access_mode::read_write> a(bufs[b], h);
          h.parallel_for(sycl::range<1>(n), step{a, static_cast<unsigned>(r)});
        });
  }
  const double s = seconds_since(t);
  std::size_t wrong = 0;
  for (int b = 0; b < buffers; ++b)
    for (std::size_t i = 0; i < n; i += 4093) {
      unsigned v = static_cast<unsigned>(i + b);
      for (int r = 0; r < rounds; ++r) v = v * 3u + static_cast<unsigned>(r);
      wrong += host[b][i] != v;
    }
  const double total_gib = static_cast<double>(buffers) * mib / 1024;
  std::printf("memory_pressure: %d buffers x %zu MiB = %.1f GiB (%.2fx the %zu MiB device) x %d "
              "rounds: %.3f s, %.1f kernels/s, copy floor %.1f GB/s, %s\n",
              buffers, mib, total_gib, total_gib * 1024 / device_mib, device_mib, rounds, s,
              buffers * rounds / s, copy_gbs, wrong ? "WRONG RESULTS" : "results correct");
  return wrong ? 1 : 0;
}
