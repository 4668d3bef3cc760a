// Backend interoperability with a context the user created, against the fake libcuda.so.1
// (tests/cuda_unit/fake_cuda.cpp), as the CTS's cuda_interop category does on a GPU:
// make_context<backend::cuda> over a cuCtxCreate context gives a SYCL context whose memory,
// streams and kernel launches are in that CUDA context; get_native gives it back (one
// CUcontext per device); making it again gives the same device; the calling thread's current
// context is the one it had before; get_native of a queue, make_queue over the user's stream,
// and the errors for handles that are no context.
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// An entry point of the fake driver. The fake defines them with its own CUDA handle types (the
// same opaque pointers under other names), which -fsanitize=function takes for a different
// function type: the call goes through here, where that check is off.
template <typename F>
struct entry;
template <typename R, typename... A>
struct entry<R(A...)> {
  R (*fn)(A...) = nullptr;
  explicit operator bool() const { return fn != nullptr; }
  __attribute__((no_sanitize("function"))) R operator()(A... a) const { return fn(a...); }
};

template <typename F>
entry<F> driver(const char* name) {
  static void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  entry<F> e;
  if (lib) e.fn = reinterpret_cast<decltype(e.fn)>(dlsym(lib, name));
  return e;
}

bool throws_invalid(void (*f)()) {
  try {
    f();
  } catch (const sycl::exception& e) {
    return e.code() == sycl::errc::invalid;
  }
  return false;
}
} // namespace

int main() {
  using sycl::backend;
  sycl::queue q{sycl::gpu_selector_v};
  auto ctx_create = driver<int(CUcontext*, unsigned, CUdevice)>("cuCtxCreate_v2");
  auto ctx_get_current = driver<int(CUcontext*)>("cuCtxGetCurrent");
  auto ctx_set_current = driver<int(CUcontext)>("cuCtxSetCurrent");
  auto stream_create = driver<int(CUstream*, unsigned)>("cuStreamCreate");
  auto stream_get_ctx = driver<int(CUstream, CUcontext*)>("cuStreamGetCtx");
  auto allocation_context = driver<void*(const void*)>("fake_cuda_allocation_context");
  auto launch_context = driver<void*()>("fake_cuda_last_launch_context");
  if (!ctx_create || !allocation_context || q.get_backend() != backend::cuda) {
    std::printf("FAILED: not running against the fake driver\n");
    return 1;
  }

  // The primary context: one per device of the context.
  std::vector<CUcontext> primary = sycl::get_native<backend::cuda>(q.get_context());
  CHECK(primary.size() == q.get_context().get_devices().size());
  CUcontext before = nullptr;
  CHECK(ctx_get_current(&before) == 0);

  // A context of the user's, made current by cuCtxCreate; the user makes theirs current again.
  CUdevice dev = sycl::get_native<backend::cuda>(q.get_device());
  CUcontext mine = nullptr;
  CHECK(ctx_create(&mine, 0, dev) == 0 && mine != nullptr);
  CHECK(ctx_set_current(before) == 0);

  sycl::context adopted = sycl::make_context<backend::cuda>(mine);
  CUcontext now = nullptr;
  CHECK(ctx_get_current(&now) == 0 && now == before); // make_context left it as it was
  std::vector<CUcontext> natives = sycl::get_native<backend::cuda>(adopted);
  CHECK(natives.size() == 1 && natives[0] == mine);
  CHECK(adopted.get_backend() == backend::cuda);
  sycl::device adopted_dev = adopted.get_devices().at(0);
  CHECK(sycl::get_native<backend::cuda>(adopted_dev) == dev);
  // The same native context again: the same device.
  sycl::context again = sycl::make_context<backend::cuda>(mine);
  CHECK(again.get_devices().at(0) == adopted_dev);
  CHECK(sycl::get_native<backend::cuda>(again).at(0) == mine);

  // Work in the adopted context: its queue's stream, USM memory and kernel launches are in it.
  {
    sycl::queue aq{adopted, adopted_dev};
    CUstream s = sycl::get_native<backend::cuda>(aq);
    CUcontext owner = nullptr;
    CHECK(stream_get_ctx(s, &owner) == 0 && owner == mine);
    int* d = sycl::malloc_device<int>(64, aq);
    CHECK(d != nullptr && allocation_context(d) == mine);
    std::vector<int> in(64), out(64, -1);
    for (int i = 0; i < 64; ++i) in[i] = 3 * i + 1;
    aq.memcpy(d, in.data(), 64 * sizeof(int)).wait();
    aq.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { d[i] += 1; }).wait();
    CHECK(launch_context() == mine);
    aq.memcpy(out.data(), d, 64 * sizeof(int)).wait();
    CHECK(out == in); // the fake runs no kernel: the copies went through the user's context
    sycl::free(d, aq);
    // A queue without a context names the adopted device's own context, not the platform's.
    sycl::queue dq{adopted_dev};
    CHECK(sycl::get_native<backend::cuda>(dq.get_context()).at(0) == mine);
  }
  // The primary context's queue still works in the primary context.
  {
    int* d = sycl::malloc_device<int>(4, q);
    CHECK(allocation_context(d) == primary[0]);
    q.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { d[i] = 0; }).wait();
    CHECK(launch_context() == primary[0]);
    sycl::free(d, q);
  }

  // make_queue over the user's stream of the user's context, in the adopted SYCL context.
  {
    CUcontext saved = nullptr;
    ctx_get_current(&saved);
    ctx_set_current(mine);
    CUstream user_stream = nullptr;
    CHECK(stream_create(&user_stream, 0) == 0);
    ctx_set_current(saved);
    sycl::queue uq = sycl::make_queue<backend::cuda>(user_stream, adopted);
    CHECK(sycl::get_native<backend::cuda>(uq) == user_stream);
    // The same stream in the primary context's SYCL context is no stream of it.
    bool invalid = false;
    try {
      (void)sycl::make_queue<backend::cuda>(user_stream, q.get_context());
    } catch (const sycl::exception& e) {
      invalid = e.code() == sycl::errc::invalid;
    }
    CHECK(invalid);
  }

  // Handles that are no context.
  CHECK(throws_invalid([] { (void)sycl::make_context<backend::cuda>(nullptr); }));
  CHECK(throws_invalid([] {
    static int not_a_context;
    (void)sycl::make_context<backend::cuda>(reinterpret_cast<CUcontext>(&not_a_context));
  }));

  if (g_failures) return 1;
  std::printf("fake_interop: OK\n");
  return 0;
}
