// Smoke test of the CUDA backend on a real NVIDIA GPU: kernels of every kind run and compute the
// right values, with buffers and USM, local memory (also beyond 48 KiB), specialization
// constants, math through libdevice, copies and fills of several shapes, profiling, ordering
// across queues, and the errors a user sees. Exits 77 (skipped) when there is no GPU.
#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

struct big_pattern {
  unsigned char bytes[24];
};
} // namespace

constexpr sycl::specialization_id<int> repeat(1);

class vadd;
class rows2d;
class reduce_wg;
class big_local;
class triad;

int main() {
  sycl::queue q;
  try {
    q = sycl::queue(sycl::gpu_selector_v, sycl::property::queue::enable_profiling());
  } catch (const sycl::exception& e) {
    std::printf("cuda_smoke: no GPU (%s); skipped\n", e.what());
    return 77;
  }
  sycl::device dev = q.get_device();
  std::printf("cuda_smoke on %s (%s, driver %s)\n",
              dev.get_info<sycl::info::device::name>().c_str(),
              dev.get_info<sycl::info::device::version>().c_str(),
              dev.get_info<sycl::info::device::driver_version>().c_str());
  CHECK(dev.is_gpu());
  CHECK(dev.get_backend() == sycl::backend::ext_oneapi_cuda);

  // 1-D range over USM, an odd size (the last block is partial).
  const std::size_t n = (1u << 20) + 7;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000);
    b[i] = 2.0f * static_cast<float>(i % 77);
  }
  float* da = sycl::malloc_device<float>(n, q);
  float* db = sycl::malloc_device<float>(n, q);
  float* dc = sycl::malloc_device<float>(n, q);
  q.memcpy(da, a.data(), n * sizeof(float));
  q.memcpy(db, b.data(), n * sizeof(float));
  q.wait();
  auto e = q.parallel_for<vadd>(sycl::range<1>(n), [=](sycl::id<1> i) { dc[i] = da[i] + db[i]; });
  e.wait();
  q.memcpy(c.data(), dc, n * sizeof(float)).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok = ok && c[i] == a[i] + b[i];
  CHECK(ok);
  auto t0 = e.get_profiling_info<sycl::info::event_profiling::command_start>();
  auto t1 = e.get_profiling_info<sycl::info::event_profiling::command_end>();
  auto ts = e.get_profiling_info<sycl::info::event_profiling::command_submit>();
  CHECK(ts <= t0 && t0 <= t1);
  // GPU timestamps land on the host clock: the kernel ended before wait() returned (within the
  // calibration's error) and took less than a millisecond.
  {
    sycl::event k = q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { dc[i] *= 2; });
    k.wait();
    auto host_after =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       std::chrono::steady_clock::now().time_since_epoch())
                                       .count());
    auto k0 = k.get_profiling_info<sycl::info::event_profiling::command_start>();
    auto k1 = k.get_profiling_info<sycl::info::event_profiling::command_end>();
    CHECK(k1 <= host_after + 50000);
    CHECK(k1 - k0 < 1000000);
    std::printf("profiling: %.1f us kernel, ended %.1f us before wait() returned\n",
                (k1 - k0) * 1e-3, (double(host_after) - double(k1)) * 1e-3);
  }

  // 2-D range on a buffer, read back through a host accessor: x is the last dimension.
  {
    const std::size_t rows = 300, cols = 517;
    sycl::buffer<int, 2> buf(sycl::range<2>(rows, cols));
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(buf, h, sycl::write_only, sycl::no_init);
      h.parallel_for<rows2d>(sycl::range<2>(rows, cols), [=](sycl::item<2> it) {
        acc[it] = static_cast<int>(it.get_id(0) * 10000 + it.get_id(1));
      });
    });
    sycl::host_accessor h(buf, sycl::read_only);
    ok = true;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t col = 0; col < cols; ++col)
        ok = ok && h[r][col] == static_cast<int>(r * 10000 + col);
    CHECK(ok);
  }

  // nd_range with local memory and barriers: per-work-group sums.
  {
    const std::size_t groups = 512, local = 256;
    std::vector<int> in(groups * local);
    std::iota(in.begin(), in.end(), 0);
    std::vector<long long> sums(groups, 0);
    {
      sycl::buffer<int> bin(in.data(), sycl::range<1>(in.size()));
      sycl::buffer<long long> bsum(sums.data(), sycl::range<1>(groups));
      q.submit([&](sycl::handler& h) {
        sycl::accessor x(bin, h, sycl::read_only);
        sycl::accessor s(bsum, h, sycl::write_only);
        sycl::local_accessor<long long, 1> tmp(sycl::range<1>(local), h);
        h.parallel_for<reduce_wg>(sycl::nd_range<1>(groups * local, local),
                                  [=](sycl::nd_item<1> it) {
                                    std::size_t l = it.get_local_id(0);
                                    tmp[l] = x[it.get_global_id(0)];
                                    for (std::size_t step = local / 2; step > 0; step /= 2) {
                                      sycl::group_barrier(it.get_group());
                                      if (l < step) tmp[l] += tmp[l + step];
                                    }
                                    if (l == 0) s[it.get_group(0)] = tmp[0];
                                  });
      });
    }
    ok = true;
    for (std::size_t g = 0; g < groups; ++g) {
      long long first = static_cast<long long>(g * local);
      long long expect = first * local + static_cast<long long>(local * (local - 1) / 2);
      ok = ok && sums[g] == expect;
    }
    CHECK(ok);
  }

  // 96 KiB of local memory per work-group: needs the opt-in above 48 KiB.
  if (dev.get_info<sycl::info::device::local_mem_size>() >= 100 * 1024) {
    const std::size_t local = 256, words = 96 * 1024 / sizeof(int);
    int* out = sycl::malloc_shared<int>(4, q);
    q.submit([&](sycl::handler& h) {
       sycl::local_accessor<int, 1> big(sycl::range<1>(words), h);
       h.parallel_for<big_local>(sycl::nd_range<1>(4 * local, local), [=](sycl::nd_item<1> it) {
         std::size_t l = it.get_local_id(0);
         for (std::size_t i = l; i < words; i += local) big[i] = static_cast<int>(i);
         sycl::group_barrier(it.get_group());
         if (l == 0) out[it.get_group(0)] = big[words - 1] + big[1];
       });
     }).wait();
    for (int g = 0; g < 4; ++g) CHECK(out[g] == static_cast<int>(words - 1) + 1);
    sycl::free(out, q);
  }

  // Specialization constants (JIT-folded) and math through libdevice.
  {
    float* r = sycl::malloc_shared<float>(64, q);
    for (int value : {1, 3, 5}) {
      q.submit([&](sycl::handler& h) {
         h.set_specialization_constant<repeat>(value);
         h.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i, sycl::kernel_handler kh) {
           float acc = 0;
           for (int k = 0; k < kh.get_specialization_constant<repeat>(); ++k)
             acc += sycl::sin(static_cast<float>(i[0]) * 0.1f);
           r[i] = acc;
         });
       }).wait();
      ok = true;
      for (int i = 0; i < 64; ++i)
        ok = ok && std::fabs(r[i] - value * std::sin(i * 0.1f)) < 1e-4f * value;
      CHECK(ok);
    }
    sycl::free(r, q);
  }

  // single_task, fills of 1/2/4/8/24-byte patterns, a strided buffer copy.
  {
    int* x = sycl::malloc_shared<int>(1, q);
    q.single_task([=] { *x = 1234; }).wait();
    CHECK(*x == 1234);
    sycl::free(x, q);

    double* dd = sycl::malloc_device<double>(10000, q);
    q.fill(dd, 3.25, 10000).wait();
    std::vector<double> hd(10000);
    q.memcpy(hd.data(), dd, sizeof(double) * 10000).wait();
    ok = true;
    for (double v : hd) ok = ok && v == 3.25;
    CHECK(ok);
    big_pattern p;
    for (int i = 0; i < 24; ++i) p.bytes[i] = static_cast<unsigned char>(i * 7 + 1);
    auto* dp = sycl::malloc_device<big_pattern>(1000, q);
    q.fill(dp, p, 1000).wait();
    std::vector<big_pattern> hp(1000);
    q.memcpy(hp.data(), dp, sizeof(big_pattern) * 1000).wait();
    ok = true;
    for (auto& v : hp) ok = ok && std::memcmp(v.bytes, p.bytes, 24) == 0;
    CHECK(ok);
    sycl::free(dp, q);
    sycl::free(dd, q);

    std::vector<int> src(64 * 64);
    std::iota(src.begin(), src.end(), 0);
    std::vector<int> part(16 * 32, -1);
    {
      sycl::buffer<int, 2> b2(src.data(), sycl::range<2>(64, 64));
      q.submit([&](sycl::handler& h) {
        sycl::accessor acc(b2, h, sycl::range<2>(16, 32), sycl::id<2>(8, 4), sycl::read_only);
        h.copy(acc, part.data());
      });
      q.wait();
    }
    ok = true;
    for (int r = 0; r < 16; ++r)
      for (int col = 0; col < 32; ++col) ok = ok && part[r * 32 + col] == (8 + r) * 64 + 4 + col;
    CHECK(ok);
  }

  // Two queues ordered by an event: the second waits on the device.
  {
    sycl::queue q2(dev);
    int* v = sycl::malloc_device<int>(1 << 20, q);
    auto first = q.fill(v, 1, 1 << 20);
    auto second = q2.submit([&](sycl::handler& h) {
      h.depends_on(first);
      h.parallel_for(sycl::range<1>(1 << 20), [=](sycl::id<1> i) { v[i] += 1; });
    });
    std::vector<int> hv(1 << 20);
    q2.memcpy(hv.data(), v, sizeof(int) << 20, second).wait();
    ok = true;
    for (int x : hv) ok = ok && x == 2;
    CHECK(ok);
    sycl::free(v, q);
  }

  // Host threads submitting at once, with host tasks that depend on kernels of other queues
  // (completion notifications).
  {
    constexpr int threads = 4, rounds = 100;
    sycl::queue shared(dev);
    std::atomic<int> done[threads] = {};
    int* counts = sycl::malloc_shared<int>(threads * 256, q);
    for (int i = 0; i < threads * 256; ++i) counts[i] = 0;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        sycl::queue own(dev, sycl::property::queue::in_order());
        int* mine = counts + t * 256;
        for (int r = 0; r < rounds; ++r) {
          sycl::event k =
              own.parallel_for(sycl::range<1>(256), [=](sycl::id<1> i) { mine[i] += 1; });
          shared.submit([&](sycl::handler& h) {
            h.depends_on(k);
            h.host_task([&done, t] { done[t].fetch_add(1); });
          });
        }
        own.wait();
      });
    for (auto& th : pool) th.join();
    shared.wait();
    ok = true;
    for (int t = 0; t < threads; ++t) ok = ok && done[t].load() == rounds;
    for (int i = 0; i < threads * 256; ++i) ok = ok && counts[i] == rounds;
    CHECK(ok);
    sycl::free(counts, q);
  }

  // Errors: a work-group too large for the device.
  {
    bool thrown = false;
    try {
      q.parallel_for(sycl::nd_range<1>(4096, 2048), [=](sycl::nd_item<1>) {});
      q.wait_and_throw();
    } catch (const sycl::exception& ex) {
      thrown = ex.code() == sycl::errc::nd_range;
      std::printf("expected error: %s\n", ex.what());
    }
    CHECK(thrown);
  }

  // A float triad's bandwidth, for information.
  {
    const std::size_t m = std::size_t(1) << 27;
    float* x = sycl::malloc_device<float>(m, q);
    float* y = sycl::malloc_device<float>(m, q);
    float* z = sycl::malloc_device<float>(m, q);
    q.fill(x, 1.0f, m);
    q.fill(y, 2.0f, m);
    q.wait();
    double best = 1e30;
    for (int it = 0; it < 10; ++it) {
      auto ev = q.parallel_for<triad>(sycl::range<1>(m),
                                      [=](sycl::id<1> i) { z[i] = x[i] + 3.0f * y[i]; });
      ev.wait();
      double ns =
          static_cast<double>(ev.get_profiling_info<sycl::info::event_profiling::command_end>() -
                              ev.get_profiling_info<sycl::info::event_profiling::command_start>());
      if (ns > 0 && ns < best) best = ns;
    }
    float probe = 0;
    q.memcpy(&probe, z + m / 2, sizeof(float)).wait();
    CHECK(probe == 7.0f);
    std::printf("triad: %.3f ms, %.0f GB/s\n", best * 1e-6, 3.0 * m * sizeof(float) / best);
    sycl::free(x, q);
    sycl::free(y, q);
    sycl::free(z, q);
  }

  // Submit-to-completion latency of an empty kernel, for information.
  {
    sycl::queue lq(dev, sycl::property::queue::in_order());
    lq.single_task([] {}).wait(); // JIT and module load
    const int reps = 2000;
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) lq.single_task([] {}).wait();
    auto sync_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count() /
        reps;
    start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) lq.single_task([] {});
    lq.wait();
    auto async_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count() /
        reps;
    std::printf("empty kernel: %.1f us submit+wait, %.1f us per submit in a batch\n", sync_us,
                async_us);
  }

  sycl::free(da, q);
  sycl::free(db, q);
  sycl::free(dc, q);
  if (g_failures) {
    std::printf("cuda_smoke: %d failures\n", g_failures);
    return 1;
  }
  std::printf("cuda_smoke: OK\n");
  return 0;
}
