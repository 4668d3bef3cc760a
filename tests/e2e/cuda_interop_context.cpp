// SYCLONE_E2E_GPU_ONLY (NVIDIA GPU only: CUDA contexts and streams of the program's own).
// The CTS's cuda_interop forms (Khronos's draft CUDA backend specification, README "Backend
// interoperability") with results computed on the GPU:
// - get_native<backend::cuda>(queue) is the stream syclone launches on: a slow kernel followed
//   by the program's own cuMemsetD32Async on that stream ends with the memset's value;
// - make_queue over a stream of the program's launches there, in the same way;
// - make_context over a context the program created (cuCtxCreate): the calling thread's current
//   context is left as it was, get_native gives it back (one per device), and a queue of it
//   allocates, launches and copies in it (cuPointerGetAttribute, cuStreamGetCtx) with the right
//   values;
// - in kernels, get_native of device, constant_buffer, target::local and local accessors: the
//   pointers reach the accessors' elements.
// libcuda is loaded at run time (exit 77 without it).
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <type_traits>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

constexpr auto cuda = sycl::backend::cuda;

struct driver_api {
  int (*ctx_create_v4)(CUcontext*, void*, unsigned, CUdevice) = nullptr;
  int (*ctx_create_v2)(CUcontext*, unsigned, CUdevice) = nullptr;
  int (*ctx_get_current)(CUcontext*) = nullptr;
  int (*ctx_set_current)(CUcontext) = nullptr;
  int (*stream_create)(CUstream*, unsigned) = nullptr;
  int (*stream_synchronize)(CUstream) = nullptr;
  int (*stream_get_ctx)(CUstream, CUcontext*) = nullptr;
  int (*memset_d32_async)(CUdeviceptr, unsigned, std::size_t, CUstream) = nullptr;
  int (*pointer_get_attribute)(void*, int, CUdeviceptr) = nullptr;

  int create_context(CUcontext* c, CUdevice d) const {
    return ctx_create_v4 ? ctx_create_v4(c, nullptr, 0, d) : ctx_create_v2(c, 0, d);
  }
};

template <typename F>
bool bind(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

// A kernel that takes a while (about `spins` iterations of dependent arithmetic) before it
// writes 1: work enqueued after it on the same stream ends after it.
void slow_write(sycl::queue& q, unsigned* p, unsigned spins) {
  q.single_task([=] {
    unsigned x = *p | 1u;
    for (unsigned i = 0; i < spins; ++i) x = x * 1664525u + 1013904223u;
    *p = (x == 12345u) ? 2u : 1u; // 12345 never comes up: 1
  });
}
} // namespace

int main() {
  sycl::queue q;
  try {
    q = sycl::queue{sycl::gpu_selector_v};
  } catch (const sycl::exception&) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
  if (q.get_backend() != cuda) {
    std::printf("no NVIDIA GPU: skipped\n");
    return 77;
  }
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    std::printf("libcuda.so.1 not found: skipped\n");
    return 77;
  }
  driver_api drv;
  bind(lib, drv.ctx_create_v4, "cuCtxCreate_v4");
  bool ok = (drv.ctx_create_v4 || bind(lib, drv.ctx_create_v2, "cuCtxCreate_v2")) &&
            bind(lib, drv.ctx_get_current, "cuCtxGetCurrent") &&
            bind(lib, drv.ctx_set_current, "cuCtxSetCurrent") &&
            bind(lib, drv.stream_create, "cuStreamCreate") &&
            bind(lib, drv.stream_synchronize, "cuStreamSynchronize") &&
            bind(lib, drv.stream_get_ctx, "cuStreamGetCtx") &&
            bind(lib, drv.memset_d32_async, "cuMemsetD32Async") &&
            bind(lib, drv.pointer_get_attribute, "cuPointerGetAttribute");
  if (!ok) {
    std::printf("FAILED: a driver function is missing\n");
    return 1;
  }
  constexpr unsigned spins = 1u << 24;

  // 1. The queue's own stream.
  {
    unsigned* p = sycl::malloc_device<unsigned>(1, q);
    q.memset(p, 0, sizeof(unsigned)).wait();
    CUstream s = sycl::get_native<cuda>(q);
    slow_write(q, p, spins);
    CHECK(drv.memset_d32_async(reinterpret_cast<CUdeviceptr>(p), 7u, 1, s) == 0);
    CHECK(drv.stream_synchronize(s) == 0);
    unsigned host = 0;
    q.memcpy(&host, p, sizeof(unsigned)).wait();
    CHECK(host == 7u);
    sycl::free(p, q);
  }

  // 2. make_queue over a stream of the program's (of the device's primary context).
  {
    std::vector<CUcontext> contexts = sycl::get_native<cuda>(q.get_context());
    CHECK(contexts.size() == q.get_context().get_devices().size());
    CHECK(drv.ctx_set_current(contexts.at(0)) == 0);
    CUstream mine = nullptr;
    CHECK(drv.stream_create(&mine, 0) == 0);
    sycl::queue mq = sycl::make_queue<cuda>(mine, q.get_context());
    CHECK(sycl::get_native<cuda>(mq) == mine);
    unsigned* p = sycl::malloc_device<unsigned>(1, q);
    q.memset(p, 0, sizeof(unsigned)).wait();
    slow_write(mq, p, spins);
    CHECK(drv.memset_d32_async(reinterpret_cast<CUdeviceptr>(p), 9u, 1, mine) == 0);
    CHECK(drv.stream_synchronize(mine) == 0);
    unsigned host = 0;
    q.memcpy(&host, p, sizeof(unsigned)).wait();
    CHECK(host == 9u);
    sycl::free(p, q);
  }

  // 3. A context of the program's own.
  {
    CUdevice dev = sycl::get_native<cuda>(q.get_device());
    CUcontext before = nullptr, mine = nullptr, now = nullptr;
    CHECK(drv.ctx_get_current(&before) == 0);
    CHECK(drv.create_context(&mine, dev) == 0 && mine != nullptr);
    CHECK(drv.ctx_set_current(before) == 0);
    sycl::context adopted = sycl::make_context<cuda>(mine);
    CHECK(drv.ctx_get_current(&now) == 0 && now == before);
    std::vector<CUcontext> natives = sycl::get_native<cuda>(adopted);
    CHECK(natives.size() == 1 && natives.at(0) == mine);
    sycl::device d = adopted.get_devices().at(0);
    CHECK(sycl::get_native<cuda>(d) == dev);
    sycl::queue aq{adopted, d};
    CUcontext owner = nullptr;
    CHECK(drv.stream_get_ctx(sycl::get_native<cuda>(aq), &owner) == 0 && owner == mine);
    constexpr int n = 4096;
    int* v = sycl::malloc_device<int>(n, aq);
    CUcontext where = nullptr;
    CHECK(drv.pointer_get_attribute(&where, 1 /* CU_POINTER_ATTRIBUTE_CONTEXT */,
                                    reinterpret_cast<CUdeviceptr>(v)) == 0 &&
          where == mine);
    aq.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        int x = static_cast<int>(i[0]);
        v[i] = x * x - 3 * x;
      }).wait();
    std::vector<int> host(n);
    aq.memcpy(host.data(), v, n * sizeof(int)).wait();
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += host[i] != i * i - 3 * i;
    CHECK(wrong == 0);
    sycl::free(v, aq);
    // A buffer used there, and a host task's interop_handle in it.
    std::vector<int> data(256, 2);
    {
      sycl::buffer<int> b(data.data(), sycl::range<1>(256));
      aq.submit([&](sycl::handler& h) {
        sycl::accessor a(b, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(256), [=](sycl::id<1> i) { a[i] *= static_cast<int>(i[0]); });
      });
      CUcontext seen = nullptr;
      aq.submit([&](sycl::handler& h) {
          h.host_task([&](sycl::interop_handle ih) {
            std::vector<CUcontext> c = ih.get_native_context<cuda>();
            seen = c.empty() ? nullptr : c[0];
          });
        }).wait();
      CHECK(seen == mine);
    }
    wrong = 0;
    for (int i = 0; i < 256; ++i) wrong += data[i] != 2 * i;
    CHECK(wrong == 0);
    // The same native context again: the same device.
    CHECK(sycl::make_context<cuda>(mine).get_devices().at(0) == d);
  }

  // 4. Accessors' native pointers in kernels.
  {
    constexpr int n = 128;
    std::vector<float> in(n), out(n, 0.0f);
    for (int i = 0; i < n; ++i) in[i] = 0.5f * i;
    {
      sycl::buffer<float> bin(in.data(), sycl::range<1>(n));
      sycl::buffer<float> bout(out.data(), sycl::range<1>(n));
      q.submit([&](sycl::handler& h) {
        auto c = bin.get_access<sycl::access_mode::read, sycl::target::constant_buffer>(h);
        sycl::accessor o(bout, h, sycl::write_only);
        sycl::local_accessor<float, 1> tile(sycl::range<1>(n), h);
        sycl::accessor<float, 1, sycl::access_mode::read_write, sycl::target::local> legacy(
            sycl::range<1>(n), h);
        h.parallel_for(sycl::nd_range<1>(n, n), [=](sycl::nd_item<1> it) {
          int i = static_cast<int>(it.get_local_id(0));
          float* cp = sycl::get_native<cuda>(c);
          float* tp = sycl::get_native<cuda>(tile);
          float* lp = sycl::get_native<cuda>(legacy);
          float* op = sycl::get_native<cuda>(o);
          static_assert(std::is_same_v<decltype(cp), float*>);
          tp[i] = cp[i] * 2.0f;
          lp[i] = 1.0f;
          sycl::group_barrier(it.get_group());
          op[i] = tp[(i + 1) % n] + lp[(i + 3) % n];
        });
      });
    }
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += out[i] != 0.5f * ((i + 1) % n) * 2.0f + 1.0f;
    CHECK(wrong == 0);
  }

  if (g_failures) return 1;
  std::printf("cuda_interop_context: OK on %s\n",
              q.get_device().get_info<sycl::info::device::name>().c_str());
  return 0;
}
