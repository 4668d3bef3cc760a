// Issue 28, memory pressure: buffers totalling twice the device memory run through chains of
// kernels. Run with SYCLONE_DEVICE_MEMORY_LIMIT (the memory the runtime may use on the GPU,
// src/backends/cuda): a buffer that finds no room on the device makes it by moving buffers no
// command uses back to the host (residency.hpp), and by waiting for the commands of the least
// recently used ones. What cannot fit at all (one buffer larger than the device, two buffers of
// one kernel larger than it together) is errc::memory_allocation from submit, naming the sizes;
// the buffers keep their host data and the queue goes on.
//
// Against the fake driver (tests/cuda_unit/fake_cuda.cpp) the fake runs the kernels; on a GPU,
// the GPU does.
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

struct step {
  sycl::accessor<unsigned, 1, sycl::access_mode::read_write> a;
  unsigned k;
  void operator()(sycl::item<1> it) const { a[it] = a[it] * 3u + k; }
};
struct add_from {
  sycl::accessor<unsigned, 1, sycl::access_mode::read_write> a;
  sycl::accessor<unsigned, 1, sycl::access_mode::read> b;
  void operator()(sycl::item<1> it) const { a[it] += b[it]; }
};

int emulate(const char* name, const void* object, const unsigned*, const unsigned*, unsigned) {
  if (std::strstr(name, "step")) {
    using object_t = sycl::detail::range_kernel<1, step>;
    object_t::run_range(object, 0, static_cast<const object_t*>(object)->m_range[0]);
  } else if (std::strstr(name, "add_from")) {
    using object_t = sycl::detail::range_kernel<1, add_from>;
    object_t::run_range(object, 0, static_cast<const object_t*>(object)->m_range[0]);
  }
  return 0;
}

int g_failures = 0;
#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAILED (line %d): ", __LINE__);                                                 \
      std::printf(__VA_ARGS__);                                                                    \
      std::printf("\n");                                                                           \
      ++g_failures;                                                                                \
    }                                                                                              \
  } while (0)

struct async_errors {
  std::string text;
  sycl::async_handler handler() {
    return [this](sycl::exception_list l) {
      for (auto& e : l) try {
          std::rethrow_exception(e);
        } catch (const sycl::exception& x) {
          if (text.size() < 2000) text += std::string(x.what()) + "\n";
        }
    };
  }
};

unsigned initial(int buffer, std::size_t i) {
  return static_cast<unsigned>(buffer * 7919 + i);
}
unsigned expected(int buffer, std::size_t i, int rounds) {
  unsigned v = initial(buffer, i);
  for (int r = 0; r < rounds; ++r) v = v * 3u + static_cast<unsigned>(r + buffer);
  return v;
}

// `count` buffers of `n` elements each, `rounds` kernels on each, buffer after buffer; checks the
// values written back.
void chain(sycl::queue& q, int first, int count, std::size_t n, int rounds, const char* what) {
  std::vector<std::vector<unsigned>> host(count, std::vector<unsigned>(n));
  for (int b = 0; b < count; ++b)
    for (std::size_t i = 0; i < n; ++i) host[b][i] = initial(first + b, i);
  try {
    std::vector<sycl::buffer<unsigned, 1>> buffers;
    for (int b = 0; b < count; ++b) buffers.emplace_back(host[b].data(), sycl::range<1>(n));
    for (int r = 0; r < rounds; ++r)
      for (int b = 0; b < count; ++b)
        q.submit([&](sycl::handler& h) {
          sycl::accessor<unsigned, 1, sycl::access_mode::read_write> a(buffers[b], h);
          h.parallel_for<class k_step>(sycl::range<1>(n),
                                       step{a, static_cast<unsigned>(r + first + b)});
        });
  } catch (const sycl::exception& e) {
    CHECK(false, "%s: %s", what, e.what());
    return;
  }
  int wrong = 0;
  for (int b = 0; b < count; ++b)
    for (std::size_t i = 0; i < n; ++i)
      if (host[b][i] != expected(first + b, i, rounds) && wrong++ < 3)
        std::printf("  %s: buffer %d [%zu] = %u, expected %u\n", what, b, i, host[b][i],
                    expected(first + b, i, rounds));
  CHECK(wrong == 0, "%s: %d wrong values", what, wrong);
}

} // namespace

int main() {
  const char* limit_text = std::getenv("SYCLONE_DEVICE_MEMORY_LIMIT");
  if (!limit_text) {
    std::printf("FAILED: run with SYCLONE_DEVICE_MEMORY_LIMIT set\n");
    return 1;
  }
  async_errors errors;
  sycl::queue q(sycl::gpu_selector_v, errors.handler(), sycl::property::queue::in_order());
  // The driver is loaded once the queue's device was found.
  if (void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
    using set_t =
        void (*)(int (*)(const char*, const void*, const unsigned*, const unsigned*, unsigned));
    if (auto set = reinterpret_cast<set_t>(dlsym(lib, "fake_cuda_set_kernel_emulator")))
      set(&emulate);
  }
  const std::size_t cap = q.get_device().get_info<sycl::info::device::global_mem_size>();
  CHECK(cap == std::strtoull(limit_text, nullptr, 10) << 20,
        "global_mem_size %zu does not report SYCLONE_DEVICE_MEMORY_LIMIT=%s", cap, limit_text);
  // A quarter of the device each, less the runtime's own allocations (staging, results).
  const std::size_t n = cap / 4 / sizeof(unsigned) - 16384;

  // 8 buffers of a quarter of the device: twice what fits.
  chain(q, 0, 8, n, 5, "in-order queue");

  sycl::queue ooo(q.get_device(), errors.handler());
  chain(ooo, 10, 8, n, 5, "out-of-order queue");

  {
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        sycl::queue tq(q.get_device(), errors.handler(), sycl::property::queue::in_order());
        chain(tq, 20 + 2 * t, 2, n, 5, "4 threads");
      });
    for (auto& t : threads) t.join();
  }

  // USM makes room too: buffers left on the device, idle, go back to the host.
  {
    std::vector<std::vector<unsigned>> host(3, std::vector<unsigned>(n));
    for (int b = 0; b < 3; ++b)
      for (std::size_t i = 0; i < n; ++i) host[b][i] = initial(40 + b, i);
    {
      std::vector<sycl::buffer<unsigned, 1>> buffers;
      for (int b = 0; b < 3; ++b) buffers.emplace_back(host[b].data(), sycl::range<1>(n));
      for (int b = 0; b < 3; ++b)
        q.submit([&](sycl::handler& h) {
          sycl::accessor<unsigned, 1, sycl::access_mode::read_write> a(buffers[b], h);
          h.parallel_for<class k_step>(sycl::range<1>(n), step{a, static_cast<unsigned>(40 + b)});
        });
      q.wait();
      void* p = sycl::malloc_device(cap / 2, q);
      CHECK(p != nullptr, "malloc_device of half the device with idle buffers on it: null");
      sycl::free(p, q);
    }
    int wrong = 0;
    for (int b = 0; b < 3; ++b)
      for (std::size_t i = 0; i < n; ++i) wrong += host[b][i] != expected(40 + b, i, 1);
    CHECK(wrong == 0, "USM eviction: %d wrong values written back", wrong);
  }

  // What cannot fit: a synchronous errc::memory_allocation naming the sizes; host data kept.
  {
    const std::size_t big = cap / sizeof(unsigned) + 1024;
    std::vector<unsigned> host(big, 5u);
    bool thrown = false;
    {
      sycl::buffer<unsigned, 1> b(host.data(), sycl::range<1>(big));
      try {
        q.submit([&](sycl::handler& h) {
          sycl::accessor<unsigned, 1, sycl::access_mode::read_write> a(b, h);
          h.parallel_for<class k_step>(sycl::range<1>(big), step{a, 1u});
        });
      } catch (const sycl::exception& e) {
        thrown = true;
        CHECK(e.code() == sycl::errc::memory_allocation, "larger than the device: errc %d",
              e.code().value());
        CHECK(std::strstr(e.what(), std::to_string(big * sizeof(unsigned)).c_str()) &&
                  std::strstr(e.what(), "elements of 4 bytes"),
              "the message does not name the sizes: %s", e.what());
      }
    }
    CHECK(thrown, "a buffer larger than the device: no exception");
    CHECK(host[0] == 5u && host[big - 1] == 5u, "the host data changed");

    const std::size_t m = cap * 6 / 10 / sizeof(unsigned);
    std::vector<unsigned> ha(m, 1u), hb(m, 2u);
    thrown = false;
    {
      sycl::buffer<unsigned, 1> a(ha.data(), sycl::range<1>(m)), b(hb.data(), sycl::range<1>(m));
      try {
        q.submit([&](sycl::handler& h) {
          sycl::accessor<unsigned, 1, sycl::access_mode::read_write> x(a, h);
          sycl::accessor<unsigned, 1, sycl::access_mode::read> y(b, h);
          h.parallel_for<class k_add_from>(sycl::range<1>(m), add_from{x, y});
        });
      } catch (const sycl::exception& e) {
        thrown = e.code() == sycl::errc::memory_allocation;
      }
    }
    CHECK(thrown, "two buffers of one kernel larger than the device: no memory_allocation");
    CHECK(ha[0] == 1u && hb[m - 1] == 2u, "the host data changed");
    // The queue goes on.
    chain(q, 50, 2, n, 2, "after the errors");
  }

  try {
    q.wait_and_throw();
    ooo.wait_and_throw();
  } catch (const sycl::exception& e) {
    errors.text += e.what();
  }
  CHECK(errors.text.empty(), "asynchronous errors:\n%s", errors.text.c_str());
  if (g_failures) return 1;
  std::printf("memory_pressure: passed on %s with %zu MiB\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), cap >> 20);
  return 0;
}
