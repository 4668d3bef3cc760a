// One case of the fault-injection matrix (issue 28, tests/cuda_unit/fault_matrix.sh): a program
// that uses the CUDA backend the common ways (a queue, buffers written back, USM copies and
// fills, kernels, waits) runs against the fake driver while FAKE_CUDA_FAIL makes one driver call
// fail. What a user may expect of that: a sycl::exception (synchronous, or asynchronous through
// the queue's handler) with the errc the failure calls for and a message naming the failed call,
// or a null pointer where SYCL 2020 4.8.3 gives one for a failed allocation; no crash, no hang;
// a buffer's host memory holding either its values from before or the correct results; and,
// when only that one call failed, the next round of the same work on the same queue succeeds.
//
// Prints one line, "RESULT <outcome> errc=<name> names_call=<0|1> data=<ok|stale|corrupt>
// recovered=<0|1>", and exits 1 when a rule above was broken. With --list, runs without a failure
// and prints each entry point the program called, with its number of calls.
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct scale {
  sycl::accessor<int, 1, sycl::access_mode::read_write> a;
  void operator()(sycl::item<1> it) const { a[it] = a[it] * 2 + 1; }
};
struct add_one {
  int* p;
  std::size_t n;
  void operator()(sycl::item<1> it) const {
    if (it.get_id(0) < n) p[it.get_id(0)] += 1;
  }
};

// The fake runs the kernels (as the fuzzer's emulator does).
int emulate(const char* name, const void* object, const unsigned*, const unsigned*, unsigned) {
  if (std::strstr(name, "scale")) {
    using object_t = sycl::detail::range_kernel<1, scale>;
    object_t::run_range(object, 0, static_cast<const object_t*>(object)->m_range[0]);
  } else if (std::strstr(name, "add_one")) {
    using object_t = sycl::detail::range_kernel<1, add_one>;
    object_t::run_range(object, 0, static_cast<const object_t*>(object)->m_range[0]);
  }
  return 0;
}

const char* errc_name(std::error_code c) {
  if (c == sycl::errc::runtime) return "runtime";
  if (c == sycl::errc::memory_allocation) return "memory_allocation";
  if (c == sycl::errc::kernel_not_supported) return "kernel_not_supported";
  if (c == sycl::errc::build) return "build";
  if (c == sycl::errc::invalid) return "invalid";
  if (c == sycl::errc::feature_not_supported) return "feature_not_supported";
  return "other";
}

std::string g_call;        // the entry point that fails, without its _v2 suffix
std::string g_first_error; // the first error seen (message)
std::string g_first_errc;
bool g_names_call = false;

void note(const sycl::exception& e) {
  if (!g_first_error.empty()) return;
  g_first_error = e.what();
  g_first_errc = errc_name(e.code());
  g_names_call = !g_call.empty() && g_first_error.find(g_call) != std::string::npos;
}

constexpr std::size_t n = 4096;

// One round of work; false when a synchronous error stopped it. `host` is the buffer's memory.
bool round(sycl::queue& q, std::vector<int>& host, bool& null_alloc) {
  try {
    {
      sycl::buffer<int, 1> b(host.data(), sycl::range<1>(n));
      q.submit([&](sycl::handler& h) {
        sycl::accessor<int, 1, sycl::access_mode::read_write> a(b, h);
        h.parallel_for<class k_scale>(sycl::range<1>(n), scale{a});
      });
      sycl::host_accessor r(b, sycl::read_only);
      (void)r[0];
    } // written back
    int* d = sycl::malloc_device<int>(n, q);
    int* s = sycl::malloc_shared<int>(n, q);
    if (!d || !s) {
      null_alloc = true;
      if (d) sycl::free(d, q);
      if (s) sycl::free(s, q);
      return false;
    }
    std::vector<int> back(n);
    q.fill(d, 5, n);
    for (int k = 0; k < 20; ++k) q.parallel_for<class k_add_one>(sycl::range<1>(n), add_one{d, n});
    q.memcpy(s, d, n * sizeof(int));
    q.memcpy(back.data(), s, n * sizeof(int)).wait_and_throw();
    q.wait_and_throw();
    sycl::free(d, q);
    sycl::free(s, q);
    for (int v : back)
      if (v != 25) return false;
    return true;
  } catch (const sycl::exception& e) {
    note(e);
    try {
      q.wait_and_throw();
    } catch (const sycl::exception& e2) {
      note(e2);
    }
    return false;
  }
}

} // namespace

int main(int argc, char** argv) {
  const bool list = argc > 1 && std::strcmp(argv[1], "--list") == 0;
  if (const char* spec = std::getenv("FAKE_CUDA_FAIL")) {
    g_call = std::string(spec, std::strchr(spec, ':') ? std::strchr(spec, ':') : spec);
    if (g_call.size() > 3 && g_call.compare(g_call.size() - 3, 3, "_v2") == 0)
      g_call.resize(g_call.size() - 3);
  }
  std::vector<int> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<int>(i);
  const std::vector<int> before = host;
  bool ok = false, recovered = false, null_alloc = false, no_device = false;
  try {
    sycl::queue q(
        sycl::gpu_selector_v,
        [](sycl::exception_list errors) {
          for (auto& e : errors) try {
              std::rethrow_exception(e);
            } catch (const sycl::exception& x) {
              note(x);
            }
        },
        sycl::property::queue::in_order());
    if (void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
      using set_t =
          void (*)(int (*)(const char*, const void*, const unsigned*, const unsigned*, unsigned));
      if (auto set = reinterpret_cast<set_t>(dlsym(lib, "fake_cuda_set_kernel_emulator")))
        set(&emulate);
    }
    ok = round(q, host, null_alloc);
    if (list) {
      void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
      using entries_t = int (*)(const char**, long*, int);
      auto entries = reinterpret_cast<entries_t>(dlsym(lib, "fake_cuda_entry_points"));
      const char* names[128];
      long calls[128];
      int m = entries ? entries(names, calls, 128) : 0;
      for (int i = 0; i < m && i < 128; ++i) std::printf("%s %ld\n", names[i], calls[i]);
      return ok ? 0 : 1;
    }
    // The next round on the same queue, same buffer memory.
    std::vector<int> second = before;
    bool unused = false;
    recovered = round(q, second, unused);
    if (recovered)
      for (std::size_t i = 0; i < n; ++i)
        if (second[i] != before[i] * 2 + 1) recovered = false;
  } catch (const sycl::exception& e) {
    note(e);
    no_device = true; // no queue could be made: the device did not come up
  }
  // The buffer's host memory: its old values, or the kernel's results, nothing else.
  bool stale = true, done = true;
  for (std::size_t i = 0; i < n; ++i) {
    stale = stale && host[i] == before[i];
    done = done && host[i] == before[i] * 2 + 1;
  }
  const char* data = done ? "ok" : stale ? "stale" : "corrupt";
  const char* outcome = ok ? "ok" : null_alloc ? "null_alloc" : no_device ? "no_device" : "error";
  std::printf("RESULT %s errc=%s names_call=%d data=%s recovered=%d\n", outcome,
              g_first_errc.empty() ? "-" : g_first_errc.c_str(), g_names_call ? 1 : 0, data,
              recovered ? 1 : 0);
  if (!g_first_error.empty()) std::printf("MESSAGE %s\n", g_first_error.c_str());
  bool good = std::strcmp(data, "corrupt") != 0;
  if (!ok && !null_alloc) good = good && !g_first_error.empty(); // a failure was reported
  // The message names the failed call, or (an allocation) what could not be allocated.
  if (!g_first_error.empty() && !null_alloc)
    good = good && (g_names_call || g_first_errc == "memory_allocation");
  // A single failed call after start-up must leave the queue usable.
  if (!no_device) good = good && recovered;
  return good ? 0 : 1;
}
