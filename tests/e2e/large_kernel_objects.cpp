// Kernels that capture a lot by value (issue 28, found by tests/fuzz on an H200): kernel objects
// of 40 bytes to 6 KiB, submitted back to back on an in-order queue, each computing with
// everything it captured. On NVIDIA GPUs a kernel object beyond 4352 bytes needs PTX 8.1 (the
// JIT's PTX was 8.0: ptxas refused "parameter space 0x1168 bytes, 0x1100 max"); objects up to
// 4096 bytes go through the launch thread's hand-over slots, inline up to 256 bytes.
#include <sycl/sycl.hpp>

#include <array>
#include <cstdint>
#include <cstdio>

namespace {

template <int K>
struct weighted {
  unsigned* out;
  std::size_t n;
  std::array<unsigned, K> w;
  void operator()(sycl::item<1> it) const {
    const std::size_t i = it.get_id(0);
    if (i < n) out[i] = out[i] * 3u + w[i % K] + w[K - 1];
  }
};
template <int K>
class k_weighted;

template <int K>
void round(sycl::queue& q, unsigned* out, std::vector<unsigned>& ref, std::size_t n,
           unsigned seed) {
  weighted<K> k{out, n, {}};
  for (int j = 0; j < K; ++j) k.w[static_cast<std::size_t>(j)] = seed * 2654435761u + j;
  q.parallel_for<k_weighted<K>>(sycl::range<1>(n), k);
  for (std::size_t i = 0; i < n; ++i)
    ref[i] = ref[i] * 3u + k.w[i % K] + k.w[static_cast<std::size_t>(K - 1)];
}
} // namespace

int main() {
  sycl::queue q{sycl::property::queue::in_order()};
  constexpr std::size_t n = 4099;
  unsigned* out = sycl::malloc_shared<unsigned>(n, q);
  std::vector<unsigned> ref(n, 1u);
  q.fill(out, 1u, n).wait();
  // Sizes on both sides of the inline slot (256 bytes), of the launch thread's limit (4096)
  // and of PTX 8.0's parameter limit (4352), interleaved.
  for (unsigned r = 0; r < 40; ++r) {
    round<8>(q, out, ref, n, r);
    round<62>(q, out, ref, n, r);
    round<70>(q, out, ref, n, r);
    round<1000>(q, out, ref, n, r);
    round<1100>(q, out, ref, n, r);
    round<1500>(q, out, ref, n, r);
  }
  q.wait_and_throw();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += out[i] != ref[i];
  sycl::free(out, q);
  if (wrong) {
    std::printf("FAILED: %zu of %zu values differ\n", wrong, n);
    return 1;
  }
  std::printf("large_kernel_objects: passed on %s\n",
              q.get_device().get_info<sycl::info::device::name>().c_str());
  return 0;
}
