// Load (issue 28): many threads submitting many small kernels, to one queue or to a queue each.
// Reports the submissions per second, and the process's resident memory and the device's used
// memory over the run (sampled every 100 ms), so that a leak per submission shows as growth after
// the warm-up; a watchdog ends the run with exit code 2 if no thread made progress for 60 s (a
// deadlock). Every thread's kernels count into memory of its own, checked at the end.
//
// Usage: load_submission [threads = 16] [submissions per thread = 1000000] [one|each]
//   one: every thread submits to one in-order queue; each: every thread to an in-order queue of
//   its own. The device is the default one (SYCLONE_DEVICE_SELECTOR picks it).
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

long resident_kib() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

// The device's used memory through the driver the CUDA backend loaded (-1 without one). The
// sampling thread makes the device's primary context current for itself first.
long device_used_mib() {
  using get_t = int (*)(std::size_t*, std::size_t*);
  static get_t get = [] {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib) return get_t{nullptr};
    auto retain = reinterpret_cast<int (*)(void**, int)>(dlsym(lib, "cuDevicePrimaryCtxRetain"));
    auto set_current = reinterpret_cast<int (*)(void*)>(dlsym(lib, "cuCtxSetCurrent"));
    void* context = nullptr;
    if (!retain || !set_current || retain(&context, 0) != 0 || set_current(context) != 0)
      return get_t{nullptr};
    return reinterpret_cast<get_t>(dlsym(lib, "cuMemGetInfo_v2"));
  }();
  std::size_t free = 0, total = 0;
  if (!get || get(&free, &total) != 0) return -1;
  return static_cast<long>((total - free) >> 20);
}

struct sample {
  double seconds;
  long done, rss_kib, device_mib;
};

} // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 16;
  const long per_thread = argc > 2 ? std::atol(argv[2]) : 1000000;
  const std::string mode = argc > 3 ? argv[3] : "one";
  if (threads < 1 || per_thread < 1 || (mode != "one" && mode != "each")) {
    std::fprintf(stderr, "usage: %s [threads] [submissions per thread] [one|each]\n", argv[0]);
    return 1;
  }
  const sycl::property_list in_order{sycl::property::queue::in_order()};
  sycl::queue shared_queue(in_order);
  std::vector<sycl::queue> queues;
  for (int t = 0; t < threads; ++t)
    queues.push_back(mode == "one" ? shared_queue
                                   : sycl::queue(shared_queue.get_device(), in_order));
  // One counter per thread, a cache line apart.
  unsigned* counters =
      sycl::malloc_shared<unsigned>(16 * static_cast<std::size_t>(threads), shared_queue);
  std::memset(counters, 0, 16 * sizeof(unsigned) * static_cast<std::size_t>(threads));

  std::atomic<long> done{0};
  std::atomic<bool> finished{false};
  std::vector<sample> samples;
  const auto start = clock_type::now();
  std::thread monitor([&] {
    long last_done = -1;
    auto last_progress = clock_type::now();
    while (!finished.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const long d = done.load();
      const auto now = clock_type::now();
      samples.push_back({std::chrono::duration<double>(now - start).count(), d, resident_kib(),
                         device_used_mib()});
      if (d != last_done) {
        last_done = d;
        last_progress = now;
      } else if (now - last_progress > std::chrono::seconds(60)) {
        std::printf("DEADLOCK: no submission completed for 60 s (%ld done)\n", d);
        std::fflush(stdout);
        std::_Exit(2);
      }
    }
  });
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      sycl::queue& q = queues[static_cast<std::size_t>(t)];
      unsigned* c = counters + 16 * t;
      for (long i = 0; i < per_thread; ++i) {
        q.single_task([=] { *c += 1; });
        if ((i + 1) % 4096 == 0) {
          q.wait_and_throw();
          done.fetch_add(4096);
        }
      }
      q.wait_and_throw();
      done.fetch_add(per_thread % 4096);
    });
  for (auto& th : pool) th.join();
  const double seconds = std::chrono::duration<double>(clock_type::now() - start).count();
  finished = true;
  monitor.join();

  int wrong = 0;
  for (int t = 0; t < threads; ++t)
    if (counters[16 * t] != static_cast<unsigned>(per_thread)) ++wrong;
  const long total = static_cast<long>(threads) * per_thread;
  std::printf("device: %s\n",
              shared_queue.get_device().get_info<sycl::info::device::name>().c_str());
  std::printf("load: %d threads x %ld submissions, %s: %.2f s, %.0f submissions/s, "
              "%.2f us per submission per thread\n",
              threads, per_thread, mode == "one" ? "one queue" : "a queue each", seconds,
              total / seconds, seconds * 1e6 / static_cast<double>(per_thread));
  // Memory after the warm-up (the first tenth) and at the end.
  if (!samples.empty()) {
    const sample& first = samples[std::min(samples.size() - 1, samples.size() / 10)];
    const sample& last = samples.back();
    long peak = 0;
    for (const auto& s : samples) peak = std::max(peak, s.rss_kib);
    std::printf("memory: RSS %ld KiB after warm-up (%.1f s), %ld KiB at the end (%.1f s), peak %ld "
                "KiB; device used %ld MiB -> %ld MiB\n",
                first.rss_kib, first.seconds, last.rss_kib, last.seconds, peak, first.device_mib,
                last.device_mib);
    std::printf("samples (s, submissions done, RSS KiB, device MiB):");
    const std::size_t step = std::max<std::size_t>(1, samples.size() / 10);
    for (std::size_t i = 0; i < samples.size(); i += step)
      std::printf(" [%.1f %ld %ld %ld]", samples[i].seconds, samples[i].done, samples[i].rss_kib,
                  samples[i].device_mib);
    std::printf("\n");
  }
  sycl::free(counters, shared_queue);
  if (wrong) {
    std::printf("FAILED: %d thread(s) counted wrong\n", wrong);
    return 1;
  }
  return 0;
}
