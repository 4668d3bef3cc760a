// Micro-benchmarks of the host device's execution engine (src/backends/host): the cost of a
// work-group barrier per work-item, of an empty launch, of waking the pool, and of running
// nd_range work-items as fibers compared with a plain loop. Prints numbers; asserts nothing.
//
//   host_barrier [seconds-per-measurement]     (SYCLONE_HOST_THREADS etc. apply as usual)
// Build: clang++-22 -std=c++20 -O2 -Iinclude -Isrc bench/host_barrier.cpp -Lbuild/lib -lsyclone
#include "backends/host/host_executor.hpp"

#include <sycl/detail/device/host.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

namespace host = syclone::host;
using clock_type = std::chrono::steady_clock;

double g_seconds = 0.2; // per measurement, best of 5 rounds

// Best time of one call of f(), in nanoseconds, over rounds of repeated calls.
template <typename F>
double time_ns(F&& f) {
  double best = 1e300;
  for (int round = 0; round < 5; ++round) {
    std::size_t reps = 0;
    auto start = clock_type::now();
    auto end = start;
    do {
      for (int i = 0; i < 8; ++i) f();
      reps += 8;
      end = clock_type::now();
    } while (std::chrono::duration<double>(end - start).count() < g_seconds / 5);
    best = std::min(best, std::chrono::duration<double, std::nano>(end - start).count() / reps);
  }
  return best;
}

template <typename F>
host::range_launch range_of(const F& f, std::size_t count) {
  return {&f,
          [](const void* k, std::size_t begin, std::size_t end) {
            const F& f = *static_cast<const F*>(k);
            for (std::size_t i = begin; i < end; ++i) f(i);
          },
          count};
}

template <typename F>
host::nd_range_launch nd_of(const F& f, std::size_t groups, std::size_t items,
                            std::size_t local_bytes) {
  host::nd_range_launch l{};
  l.kernel = &f;
  l.run_item = [](const void* k, const std::size_t* g, const std::size_t* li) {
    (*static_cast<const F*>(k))(g, li);
  };
  l.dimensions = 1;
  l.group_range[0] = groups;
  l.local_range[0] = items;
  l.group_range[1] = l.group_range[2] = l.local_range[1] = l.local_range[2] = 1;
  l.local_memory_bytes = local_bytes;
  return l;
}

// ns per work-item per barrier, from one work-group per launch (runs on the calling thread):
// (time with `barriers` barriers - time without) / (items * barriers).
double barrier_ns(std::size_t items, std::size_t barriers) {
  std::vector<std::uint32_t> sink(items);
  auto body = [&](std::size_t n) {
    return [&, n](const std::size_t*, const std::size_t* l) {
      auto* slots = reinterpret_cast<std::uint32_t*>(sycl::detail::host::local_memory());
      std::uint32_t acc = 0;
      for (std::size_t b = 0; b < n; ++b) {
        slots[l[0]] = static_cast<std::uint32_t>(b + l[0]);
        sycl::detail::host::work_group_barrier();
        acc += slots[(l[0] + 1) % items];
      }
      sink[l[0]] = acc;
    };
  };
  auto with = body(barriers);
  auto without = body(0);
  auto launch_with = nd_of(with, 1, items, items * 4);
  auto launch_without = nd_of(without, 1, items, items * 4);
  double t_with = time_ns([&] { host::run(launch_with); });
  double t_without = time_ns([&] { host::run(launch_without); });
  return (t_with - t_without) / double(items * barriers);
}

// The same, with many work-groups spread over the pool: ns per work-item per barrier per thread.
double barrier_pool_ns(std::size_t items, std::size_t barriers) {
  std::size_t groups = 16 * host::concurrency();
  auto body = [items](std::size_t n) {
    return [items, n](const std::size_t*, const std::size_t* l) {
      auto* slots = reinterpret_cast<std::uint32_t*>(sycl::detail::host::local_memory());
      for (std::size_t b = 0; b < n; ++b) {
        slots[l[0]] = static_cast<std::uint32_t>(b + l[0]);
        sycl::detail::host::work_group_barrier();
        if (slots[(l[0] + 1) % items] == 0xffffffffu) std::abort();
      }
    };
  };
  auto with = body(barriers);
  auto without = body(0);
  auto launch_with = nd_of(with, groups, items, items * 4);
  auto launch_without = nd_of(without, groups, items, items * 4);
  double t_with = time_ns([&] { host::run(launch_with); });
  double t_without = time_ns([&] { host::run(launch_without); });
  return (t_with - t_without) * double(host::concurrency()) / double(groups * items * barriers);
}

void report_barriers() {
  std::printf("barrier, one work-group on one thread (ns per work-item per barrier):\n");
  for (host::schedule_kind kind : {host::schedule_kind::in_order, host::schedule_kind::shuffled}) {
    host::set_schedule(kind, 1);
    for (std::size_t items : {16, 64, 256, 1024}) {
      double ns = barrier_ns(items, 64);
      std::printf("  %-9s work-group %5zu: %6.1f ns\n",
                  kind == host::schedule_kind::in_order ? "in-order" : "shuffled", items, ns);
    }
  }
  host::set_schedule(host::schedule_kind::in_order, 0);
  std::printf("barrier, %zu work-groups per thread over the pool (thread-ns per work-item per "
              "barrier):\n",
              std::size_t(16));
  for (std::size_t items : {64, 256, 1024})
    std::printf("  in-order  work-group %5zu: %6.1f ns\n", items, barrier_pool_ns(items, 16));
}

void report_launch_latency() {
  std::printf("launch latency (submit to complete on the calling thread):\n");
  auto empty_range = [](std::size_t) {};
  auto r1 = range_of(empty_range, 1);
  std::printf("  empty range kernel, 1 index:          %8.3f us\n",
              time_ns([&] { host::run(r1); }) / 1000);
  auto r1000 = range_of(empty_range, 1000);
  std::printf("  empty range kernel, 1000 indices:     %8.3f us\n",
              time_ns([&] { host::run(r1000); }) / 1000);
  auto empty_nd = [](const std::size_t*, const std::size_t*) {};
  auto n1 = nd_of(empty_nd, 1, 1, 0);
  std::printf("  empty nd_range kernel, 1 x 1:         %8.3f us\n",
              time_ns([&] { host::run(n1); }) / 1000);
  auto n64 = nd_of(empty_nd, 1, 64, 0);
  std::printf("  empty nd_range kernel, 1 x 64:        %8.3f us\n",
              time_ns([&] { host::run(n64); }) / 1000);

  // Launches that use the pool: workers polling (back to back) or asleep.
  std::vector<float> data(1 << 16, 1.0f);
  auto scale = [&](std::size_t i) { data[i] = data[i] * 0.5f + 1.0f; };
  auto big = range_of(scale, data.size());
  std::printf("  range kernel, 65536 indices, pool (%zu threads), back to back: %8.3f us\n",
              host::concurrency(), time_ns([&] { host::run(big); }) / 1000);
  auto caller_only = [&] { big.run_chunk(big.kernel, 0, big.count); };
  std::printf("  the same loop on the calling thread alone:                     %8.3f us\n",
              time_ns(caller_only) / 1000);
  std::vector<float> a(1 << 24, 1.0f), b(1 << 24, 2.0f), c(1 << 24, 0.0f);
  auto triad = [&](std::size_t i) { c[i] = a[i] + 3.0f * b[i]; };
  auto big_triad = range_of(triad, a.size());
  double pool_triad = time_ns([&] { host::run(big_triad); });
  double one_triad = time_ns([&] { big_triad.run_chunk(big_triad.kernel, 0, big_triad.count); });
  std::printf("  triad, 2^24 floats: pool %8.1f us, calling thread alone %8.1f us (x%.1f)\n",
              pool_triad / 1000, one_triad / 1000, one_triad / pool_triad);
  auto after_sleep = [&](const host::range_launch& launch) {
    double best = 1e300;
    for (int i = 0; i < 20; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5)); // pool threads go to sleep
      auto start = clock_type::now();
      host::run(launch);
      best = std::min(best,
                      std::chrono::duration<double, std::micro>(clock_type::now() - start).count());
    }
    return best;
  };
  std::printf("  range kernel, 65536 indices, pool asleep before the launch:    %8.3f us\n",
              after_sleep(big));
  std::printf("  triad, 2^24 floats, pool asleep before the launch:             %8.1f us\n",
              after_sleep(big_triad));
}

// Where the pool starts to pay off: a light range kernel of growing size, pool vs caller alone.
void report_range_scaling() {
  std::printf("range kernel x[i] = x[i] * 0.5 + 1, pool (%zu threads) vs calling thread alone:\n",
              host::concurrency());
  for (std::size_t count : {2048, 8192, 32768, 131072, 524288, 2097152}) {
    std::vector<float> x(count, 1.0f);
    auto f = [&](std::size_t i) { x[i] = x[i] * 0.5f + 1.0f; };
    auto launch = range_of(f, count);
    double pool = time_ns([&] { host::run(launch); });
    double alone = time_ns([&] { launch.run_chunk(launch.kernel, 0, count); });
    std::printf("  %8zu indices: pool %9.2f us, alone %9.2f us (x%.1f)\n", count, pool / 1000,
                alone / 1000, alone / pool);
  }
  auto empty = [](std::size_t) {};
  auto e = range_of(empty, 65536);
  std::printf("  empty kernel, 65536 indices on the pool: %.2f us\n",
              time_ns([&] { host::run(e); }) / 1000);
}

// The same nd_range kernel (no barrier) run as fibers by the executor, and as a plain loop over
// work-items (what an executor without barrier support would do).
void report_fiber_overhead() {
  std::printf("nd_range kernel without barriers, ns per work-item (one thread / whole pool):\n");
  for (std::size_t items : {1, 16, 64, 256, 1024}) {
    std::size_t groups = (1 << 20) / items;
    std::vector<float> out(groups * items);
    auto kernel = [&](const std::size_t* g, const std::size_t* l) {
      std::size_t i = g[0] * items + l[0];
      out[i] = out[i] * 0.5f + float(l[0]);
    };
    // The same run_item calls as the executor makes, through the function pointer (an executor
    // that cannot suspend work-items would loop like this).
    auto run_item_ptr = nd_of(kernel, 1, 1, 0).run_item;
    auto* volatile opaque = run_item_ptr;
    auto plain_chunk = [&](std::size_t group) {
      auto* run_item = opaque;
      std::size_t gid[3] = {group, 0, 0};
      for (std::size_t li = 0; li < items; ++li) {
        std::size_t lid[3] = {li, 0, 0};
        run_item(&kernel, gid, lid);
      }
    };
    auto fibers = nd_of(kernel, groups, items, 0);
    auto plain = range_of(plain_chunk, groups);
    // One thread: work-groups one launch each (launches of one work-group run on the caller).
    auto one_group = nd_of(kernel, 1, items, 0);
    double fiber_1 = time_ns([&] { host::run(one_group); }) / double(items);
    auto plain_one = range_of(plain_chunk, 1);
    double plain_1 = time_ns([&] { host::run(plain_one); }) / double(items);
    double fiber_n = time_ns([&] { host::run(fibers); }) / double(groups * items);
    double plain_n = time_ns([&] { host::run(plain); }) / double(groups * items);
    std::printf("  work-group %5zu: fibers %6.2f ns, plain loop %6.2f ns | pool: fibers %6.2f ns, "
                "plain loop %6.2f ns\n",
                items, fiber_1, plain_1, fiber_n, plain_n);
  }
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 1) g_seconds = std::max(0.01, std::atof(argv[1]));
  std::printf("host executor: %zu threads\n", host::concurrency());
  report_launch_latency();
  report_range_scaling();
  report_barriers();
  report_fiber_overhead();
}
