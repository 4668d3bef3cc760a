// Issue 11: a kernel whose device code does not compile for the GPU fails loudly and at once.
// Run with SYCLONE_LIBDEVICE naming a file that does not exist: a kernel calling sycl::sin then
// needs libdevice, and its JIT fails for real. SYCL 2020 4.13.1: the error is decided in
// queue::submit and thrown from it (errc::build, naming the kernel and the device); the failed
// compilation is remembered, so a second submission and sycl::build throw the same error without
// running the JIT again; the queue stays usable and buffers still write back.
// Runs against the fake driver (kernels do not execute; module loads are counted) and on a GPU.
#include <sycl/sycl.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

class needs_libdevice;
class doubles;

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// The fake driver's count of loaded modules; -1 on a real driver.
int module_loads() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto* get = lib ? reinterpret_cast<int (*)()>(dlsym(lib, "fake_cuda_module_loads")) : nullptr;
  return get ? get() : -1;
}

// stderr into a file while the runtime traces its JIT runs (SYCLONE_CUDA_TRACE).
struct captured_stderr {
  FILE* file = std::tmpfile();
  int saved = dup(2);
  captured_stderr() {
    std::fflush(stderr);
    dup2(fileno(file), 2);
  }
  std::string finish() {
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::string text;
    std::rewind(file);
    char chunk[4096];
    while (std::size_t n = std::fread(chunk, 1, sizeof chunk, file)) text.append(chunk, n);
    std::fclose(file);
    return text;
  }
};

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

void submit_failing(sycl::queue& q, sycl::buffer<float>& buf, std::string& message) {
  try {
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(buf, h, sycl::read_write);
      h.parallel_for<needs_libdevice>(sycl::range<1>(4),
                                      [=](sycl::id<1> i) { a[i] = sycl::sin(a[i]); });
    });
    CHECK(!"submit of a kernel whose JIT fails returned");
  } catch (const sycl::exception& e) {
    CHECK(e.code() == sycl::errc::build);
    message = e.what();
  }
}

} // namespace

int main() {
  // Read when the CUDA backend loads, at the first platform query below.
  setenv("SYCLONE_CUDA_TRACE", "1", 1);
  captured_stderr capture;
  std::string first, second, built;
  float data[4] = {1, 2, 3, 4};
  int loads_before = 0, loads_after = 0;
  std::string device_name;
  {
    sycl::queue q{sycl::gpu_selector_v};
    device_name = q.get_device().get_info<sycl::info::device::name>();
    sycl::buffer<float> buf(data, sycl::range<1>(4));
    loads_before = module_loads();
    submit_failing(q, buf, first);
    submit_failing(q, buf, second);
    auto input = sycl::get_kernel_bundle<needs_libdevice, sycl::bundle_state::input>(
        q.get_context(), {q.get_device()});
    try {
      sycl::build(input);
      CHECK(!"sycl::build of a kernel whose JIT fails returned");
    } catch (const sycl::exception& e) {
      CHECK(e.code() == sycl::errc::build);
      built = e.what();
    }
    loads_after = module_loads();
    // The queue still runs other kernels.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(buf, h, sycl::read_write);
      h.parallel_for<doubles>(sycl::range<1>(4), [=](sycl::id<1> i) { a[i] *= 2; });
    });
    q.wait_and_throw();
  } // the buffer writes back here
  std::string trace = capture.finish();

  std::printf("first error: %s\n", first.c_str());
  CHECK(first.find("needs_libdevice") != std::string::npos);
  CHECK(first.find(device_name) != std::string::npos);
  CHECK(first.find("libdevice") != std::string::npos);
  CHECK(second == first);
  CHECK(built == first);
  // One JIT run for three requests.
  const int jit_failures = count(trace, "syclone cuda: JIT of `_ZTS15needs_libdevice` for");
  std::printf("JIT runs of needs_libdevice: %d\n", jit_failures);
  CHECK(jit_failures == 1);
  CHECK(count(trace, "failed\n") >= 1);
  if (loads_before >= 0) {
    // The fake driver: no module of the failing kernel was loaded; kernels do not run.
    CHECK(loads_after == loads_before);
  } else {
    for (int i = 0; i < 4; ++i) CHECK(data[i] == 2.0f * float(i + 1));
  }
  if (g_failures) {
    std::printf("---- stderr:\n%s\n", trace.c_str());
    return 1;
  }
  std::printf("jit_failure: ok\n");
  return 0;
}
