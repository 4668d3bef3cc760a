// SYCL 2020 4.6.5 and 3.9.2: queues may be shared between host threads and submissions from
// several threads are safe. Several threads submit to one queue, and to several queues that share
// buffers, mixing kernels, host tasks, events across threads and every kind of wait; the results
// are checked by value. ThreadSanitizer runs it (preset tsan), so it also checks the runtime's
// locking, not just the values this run happened to get.
#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

namespace {
int g_failures = 0;
std::mutex g_failures_mutex;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::lock_guard lock(g_failures_mutex);
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

using namespace std::chrono_literals;

constexpr int threads = 4;
constexpr int rounds = 24;
constexpr int n = 256;

template <typename F>
void run_threads(F body) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(body, t);
  for (auto& th : pool) th.join();
}

// One queue, each thread with its own buffer: kernel, host task, kernel per round (+1 in all);
// each thread waits in its own way (the host task's event, the whole queue, a host accessor)
// while the others keep submitting.
void one_queue_private_buffers(sycl::queue& q) {
  std::vector<std::vector<int>> data(threads, std::vector<int>(n, 0));
  {
    std::vector<sycl::buffer<int>> bufs;
    for (auto& d : data) bufs.emplace_back(d.data(), sycl::range<1>(n));
    run_threads([&](int t) {
      for (int r = 0; r < rounds; ++r) {
        q.submit([&](sycl::handler& h) {
          sycl::accessor a(bufs[t], h, sycl::read_write);
          h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 3; });
        });
        sycl::event e = q.submit([&](sycl::handler& h) {
          sycl::accessor a(bufs[t], h, sycl::read_write_host_task);
          h.host_task([=] {
            for (int i = 0; i < n; ++i) a[i] -= 1;
          });
        });
        q.submit([&](sycl::handler& h) {
          sycl::accessor a(bufs[t], h, sycl::read_write);
          h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] -= 1; });
        });
        switch ((r + t) % 3) {
        case 0:
          e.wait();
          break;
        case 1:
          q.wait();
          break;
        default: {
          sycl::host_accessor h(bufs[t], sycl::read_only);
          CHECK(h[0] == r + 1 && h[n - 1] == r + 1);
        }
        }
      }
    });
  }
  for (const auto& d : data)
    for (int i = 0; i < n; ++i) CHECK(d[i] == rounds);
}

// A queue per thread, all sharing two buffers: every thread's kernels and host tasks add to the
// same counters (the buffers order them, whichever queue they come from) and read a shared input
// concurrently.
void several_queues_shared_buffers(const sycl::device& dev, const sycl::context& ctx) {
  std::vector<int> input(n), counters(n, 0);
  for (int i = 0; i < n; ++i) input[i] = i;
  std::vector<int> sums(threads * rounds, -1);
  {
    sycl::buffer<int> in(input.data(), sycl::range<1>(n));
    sycl::buffer<int> count(counters.data(), sycl::range<1>(n));
    sycl::buffer<int> out(sums.data(), sycl::range<1>(sums.size()));
    run_threads([&](int t) {
      sycl::queue q(ctx, dev);
      for (int r = 0; r < rounds; ++r) {
        q.submit([&](sycl::handler& h) {
          sycl::accessor src(in, h, sycl::read_only);
          sycl::accessor c(count, h, sycl::read_write);
          h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { c[i] += src[i] + 1; });
        });
        if (r % 4 == t % 4) {
          q.submit([&](sycl::handler& h) {
            sycl::accessor c(count, h, sycl::read_write_host_task);
            h.host_task([=] {
              for (int i = 0; i < n; ++i) c[i] += 1000;
            });
          });
        }
        // Each (thread, round) writes its own element of a shared output buffer.
        const int slot = t * rounds + r;
        q.submit([&](sycl::handler& h) {
          sycl::accessor src(in, h, sycl::read_only);
          sycl::accessor o(out, h, sycl::read_write);
          h.single_task([=] {
            int s = 0;
            for (int i = 0; i < n; ++i) s += src[i];
            o[slot] = s + slot;
          });
        });
      }
      q.wait_and_throw();
    });
  }
  // Host tasks ran rounds/4 times per thread (r % 4 == t % 4 for rounds/4 values of r).
  const int host_adds = threads * (rounds / 4);
  for (int i = 0; i < n; ++i) CHECK(counters[i] == threads * rounds * (i + 1) + host_adds * 1000);
  const int total = n * (n - 1) / 2;
  for (int s = 0; s < threads * rounds; ++s) CHECK(sums[s] == total + s);
}

// Events crossing threads: one thread submits a slow host task, the others make their kernels
// depend on its event and must see its write; all wait on the same events concurrently.
void events_across_threads(sycl::queue& q) {
  int* flag = sycl::malloc_shared<int>(1, q);
  int* results = sycl::malloc_shared<int>(threads * n, q);
  *flag = 0;
  std::atomic<bool> published{false};
  sycl::event gate;
  std::vector<sycl::event> done(threads);
  run_threads([&](int t) {
    if (t == 0) {
      gate = q.submit([&](sycl::handler& h) {
        h.host_task([=] {
          std::this_thread::sleep_for(20ms); // the dependents must really wait
          *flag = 7;
        });
      });
      published.store(true, std::memory_order_release);
    } else {
      while (!published.load(std::memory_order_acquire)) std::this_thread::yield();
    }
    int* mine = results + t * n;
    done[t] = q.submit([&](sycl::handler& h) {
      h.depends_on(gate);
      h.parallel_for(sycl::range<1>(n),
                     [=](sycl::id<1> i) { mine[i] = *flag * 10 + t + static_cast<int>(i[0]); });
    });
    // Every thread waits on the gate too: several waiters on one event.
    sycl::event::wait({done[t], gate});
  });
  sycl::event::wait(done);
  for (int t = 0; t < threads; ++t)
    for (int i = 0; i < n; ++i) CHECK(results[t * n + i] == 70 + t + i);
  sycl::free(results, q);
  sycl::free(flag, q);
}

// An in-order queue shared by the threads: each thread's commands run in its submission order,
// which only holds if the queue serializes submissions coming from different threads.
void shared_in_order_queue(const sycl::device& dev) {
  sycl::queue q(dev, sycl::property::queue::in_order{});
  int* values = sycl::malloc_shared<int>(threads, q);
  for (int t = 0; t < threads; ++t) values[t] = t;
  run_threads([&](int t) {
    int* v = values + t;
    for (int r = 0; r < rounds; ++r) {
      if (r % 2 == 0)
        q.single_task([=] { *v = (*v * 3 + 1) % 1000003; });
      else
        q.submit([&](sycl::handler& h) { h.host_task([=] { *v = (*v * 5 + 2) % 1000003; }); });
    }
  });
  q.wait();
  for (int t = 0; t < threads; ++t) {
    int expected = t;
    for (int r = 0; r < rounds; ++r)
      expected = r % 2 == 0 ? (expected * 3 + 1) % 1000003 : (expected * 5 + 2) % 1000003;
    CHECK(values[t] == expected);
  }
  sycl::free(values, q);
}

// Buffers created, used and destroyed by every thread at once, with write-back to each thread's
// memory on destruction, and a queue copied between threads.
void buffer_lifetimes(sycl::queue q) {
  run_threads([q](int t) mutable {
    for (int r = 0; r < rounds; ++r) {
      std::vector<int> v(n, t);
      {
        sycl::buffer<int> b(v.data(), sycl::range<1>(n));
        q.submit([&](sycl::handler& h) {
          sycl::accessor a(b, h, sycl::read_write);
          h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += r; });
        });
      }
      bool ok = true;
      for (int i = 0; i < n; ++i) ok &= v[i] == t + r;
      CHECK(ok);
    }
  });
}

} // namespace

int main() {
  sycl::queue q;
  one_queue_private_buffers(q);
  several_queues_shared_buffers(q.get_device(), q.get_context());
  events_across_threads(q);
  shared_in_order_queue(q.get_device());
  buffer_lifetimes(q);
  q.wait_and_throw();
  if (g_failures) {
    std::printf("%d check(s) failed\n", g_failures);
    return 1;
  }
  std::printf("multi_threaded_submit: all checks passed on %s\n",
              q.get_device().get_info<sycl::info::device::name>().c_str());
  return 0;
}
