// A three-stage pipeline over several batches: a host task produces each batch (as a reader
// thread or a file would), a kernel transforms it, and a second host task consumes the result.
// The runtime orders every stage through the buffers' dependencies; batches overlap freely.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

int main() {
  constexpr std::size_t batches = 6, n = 4096;
  sycl::queue q;
  std::vector<long> checksums(batches, 0);
  {
    std::vector<sycl::buffer<int>> stage;
    for (std::size_t b = 0; b < batches; ++b) stage.emplace_back(sycl::range<1>(n));
    for (std::size_t b = 0; b < batches; ++b) {
      // Produce on the host.
      q.submit([&](sycl::handler& h) {
        sycl::accessor out(stage[b], h, sycl::write_only_host_task, sycl::no_init);
        h.host_task([=] {
          for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<int>(b * n + i);
        });
      });
      // Transform on the device.
      q.submit([&](sycl::handler& h) {
        sycl::accessor data(stage[b], h, sycl::read_write);
        h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = data[i] * 2 + 1; });
      });
      // Consume on the host.
      q.submit([&](sycl::handler& h) {
        sycl::accessor in(stage[b], h, sycl::read_only_host_task);
        long* result = &checksums[b];
        h.host_task([=] {
          long s = 0;
          for (std::size_t i = 0; i < n; ++i) s += in[i];
          *result = s;
        });
      });
    }
    q.wait_and_throw();
  }

  for (std::size_t b = 0; b < batches; ++b) {
    long want = 0;
    for (std::size_t i = 0; i < n; ++i) want += static_cast<long>(b * n + i) * 2 + 1;
    if (checksums[b] != want) {
      std::printf("host_task_pipeline: FAILED (batch %zu: checksum %ld, expected %ld)\n", b,
                  checksums[b], want);
      return 1;
    }
  }
  std::printf("host_task_pipeline: OK (%zu batches of %zu elements)\n", batches, n);
  return 0;
}
