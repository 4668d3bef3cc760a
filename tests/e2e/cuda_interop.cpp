// SYCLONE_E2E_GPU_ONLY (NVIDIA GPU only: cuBLAS through backend interoperability).
// cuBLAS Sgemm on the queue's CUDA stream (README "Backend interoperability"): on malloc_device
// memory in a native command (sycl_ext_oneapi_enqueue_native_command), on buffers through
// interop_handle::get_native_mem in a native command and in a host task, in order with the
// kernels around it; results checked by value against the host. make_queue / make_event over a
// CUstream and CUevent the program created itself. libcublas and libcuda are loaded at run time;
// without libcublas the program says so and exits 77 (skipped).
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

constexpr auto cuda = sycl::backend::ext_oneapi_cuda;

// The few cuBLAS and driver functions used, as cublas_api.h and cuda.h declare them.
using cublasHandle_t = struct cublasContext*;
struct cublas_api {
  int (*create)(cublasHandle_t*);
  int (*destroy)(cublasHandle_t);
  int (*set_stream)(cublasHandle_t, CUstream);
  int (*sgemm)(cublasHandle_t, int, int, int, int, int, const float*, const float*, int,
               const float*, int, const float*, float*, int);
};
struct driver_api {
  int (*ctx_set_current)(CUcontext);
  int (*stream_create)(CUstream*, unsigned);
  int (*stream_destroy)(CUstream);
  int (*stream_synchronize)(CUstream);
  int (*event_create)(CUevent*, unsigned);
  int (*event_record)(CUevent, CUstream);
  int (*event_destroy)(CUevent);
};

void* open_first(const std::vector<std::string>& names, std::string& tried) {
  for (const auto& n : names) {
    if (void* h = dlopen(n.c_str(), RTLD_NOW | RTLD_GLOBAL)) return h;
    tried += (tried.empty() ? "" : ", ") + n;
  }
  return nullptr;
}

template <typename F>
void bind(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  if (!f) {
    std::printf("FAILED: %s not found\n", name);
    std::exit(1);
  }
}

constexpr int m = 96, n = 64, k = 80; // C(m x n) = A(m x k) * B(k x n), column-major
float a_at(int i, int l) {
  return float((i * 7 + l * 3) % 11) - 5.0f;
}
float b_at(int l, int j) {
  return float((l * 5 + j * 2) % 13) * 0.25f;
}

std::vector<float> reference() {
  std::vector<float> c(m * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int l = 0; l < k; ++l) s += double(a_at(i, l)) * b_at(l, j);
      c[i + j * m] = float(s);
    }
  return c;
}

bool same(const float* got, const std::vector<float>& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-3f * (1.0f + std::fabs(want[i]))) {
      std::printf("  element %zu: got %g, want %g\n", i, got[i], want[i]);
      return false;
    }
  return true;
}

// Fills A and B on the device with kernels, so the data is on the GPU before cuBLAS reads it.
template <typename AccA, typename AccB>
void fill_inputs(sycl::handler& h, AccA a, AccB b) {
  h.parallel_for(sycl::range<1>(k * (m > n ? m : n)), [=](sycl::id<1> id) {
    int x = int(id[0]);
    if (x < m * k) a[x] = float(((x % m) * 7 + (x / m) * 3) % 11) - 5.0f;
    if (x < k * n) b[x] = float(((x % k) * 5 + (x / k) * 2) % 13) * 0.25f;
  });
}

} // namespace

int main() {
  if (sycl::device::get_devices(sycl::info::device_type::gpu).empty()) {
    std::printf("skipped: no NVIDIA GPU\n");
    return 77;
  }
  std::string tried;
  void* blas =
      open_first({"libcublas.so.13", "libcublas.so.12", "libcublas.so",
                  "/usr/local/cuda/lib64/libcublas.so.13", "/usr/local/cuda/lib64/libcublas.so.12",
                  "/usr/local/cuda/lib64/libcublas.so"},
                 tried);
  if (!blas) {
    std::printf("skipped: no libcublas on this machine (tried %s)\n", tried.c_str());
    return 77;
  }
  void* cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  sycl::queue q{sycl::gpu_selector_v};
  if (!cu || q.get_backend() != cuda) {
    std::printf("skipped: no NVIDIA GPU\n");
    return 77;
  }
  cublas_api cb{};
  bind(blas, cb.create, "cublasCreate_v2");
  bind(blas, cb.destroy, "cublasDestroy_v2");
  bind(blas, cb.set_stream, "cublasSetStream_v2");
  bind(blas, cb.sgemm, "cublasSgemm_v2");
  driver_api drv{};
  bind(cu, drv.ctx_set_current, "cuCtxSetCurrent");
  bind(cu, drv.stream_create, "cuStreamCreate");
  bind(cu, drv.stream_destroy, "cuStreamDestroy_v2");
  bind(cu, drv.stream_synchronize, "cuStreamSynchronize");
  bind(cu, drv.event_create, "cuEventCreate");
  bind(cu, drv.event_record, "cuEventRecord");
  bind(cu, drv.event_destroy, "cuEventDestroy_v2");

  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  CHECK(drv.ctx_set_current(sycl::get_native<cuda>(q.get_context()).at(0)) == 0);
  cublasHandle_t handle = nullptr;
  CHECK(cb.create(&handle) == 0);
  const std::vector<float> want = reference();
  const float one = 1.0f, zero = 0.0f;

  // 1. USM device memory, cuBLAS in a native command between two SYCL commands.
  {
    float* A = sycl::malloc_device<float>(m * k, q);
    float* B = sycl::malloc_device<float>(k * n, q);
    float* C = sycl::malloc_device<float>(m * n, q);
    std::vector<float> ha(m * k), hb(k * n);
    for (int l = 0; l < k; ++l)
      for (int i = 0; i < m; ++i) ha[i + l * m] = a_at(i, l);
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < k; ++l) hb[l + j * k] = b_at(l, j);
    sycl::event ea = q.memcpy(A, ha.data(), ha.size() * sizeof(float));
    sycl::event eb = q.memcpy(B, hb.data(), hb.size() * sizeof(float));
    int status = -1;
    sycl::event gemm = q.submit([&](sycl::handler& h) {
      h.depends_on({ea, eb});
      h.ext_oneapi_enqueue_native_command([&](sycl::interop_handle ih) {
        CUstream s = ih.get_native_queue<cuda>();
        cb.set_stream(handle, s);
        status = cb.sgemm(handle, 0, 0, m, n, k, &one, A, m, B, k, &zero, C, m);
      });
    });
    std::vector<float> hc(m * n, -1.0f);
    q.submit([&](sycl::handler& h) {
       h.depends_on(gemm);
       h.memcpy(hc.data(), C, hc.size() * sizeof(float));
     }).wait();
    CHECK(status == 0);
    CHECK(same(hc.data(), want));
    sycl::free(A, q);
    sycl::free(B, q);
    sycl::free(C, q);
  }

  // 2. Buffers through get_native_mem in a native command; A and B written by a kernel first,
  // C scaled by a kernel after.
  {
    sycl::buffer<float> A{sycl::range<1>(m * k)}, B{sycl::range<1>(k * n)},
        C{sycl::range<1>(m * n)};
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(A, h, sycl::write_only, sycl::no_init);
      sycl::accessor b(B, h, sycl::write_only, sycl::no_init);
      fill_inputs(h, a, b);
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(A, h, sycl::read_only);
      sycl::accessor b(B, h, sycl::read_only);
      sycl::accessor c(C, h, sycl::write_only, sycl::no_init);
      h.ext_oneapi_enqueue_native_command([=, &cb](sycl::interop_handle ih) {
        auto pa = reinterpret_cast<const float*>(ih.get_native_mem<cuda>(a));
        auto pb = reinterpret_cast<const float*>(ih.get_native_mem<cuda>(b));
        auto pc = reinterpret_cast<float*>(ih.get_native_mem<cuda>(c));
        cb.set_stream(handle, ih.get_native_queue<cuda>());
        cb.sgemm(handle, 0, 0, m, n, k, &one, pa, m, pb, k, &zero, pc, m);
      });
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor c(C, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(m * n), [=](sycl::id<1> i) { c[i] *= 2.0f; });
    });
    sycl::host_accessor c(C, sycl::read_only);
    std::vector<float> want2 = want;
    for (float& x : want2) x *= 2.0f;
    CHECK(same(&c[0], want2));
  }

  // 3. Buffers through get_native_mem in a host task (which must finish its native work before
  // it returns: SYCL 2020 4.10).
  {
    sycl::buffer<float> A{sycl::range<1>(m * k)}, B{sycl::range<1>(k * n)},
        C{sycl::range<1>(m * n)};
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(A, h, sycl::write_only, sycl::no_init);
      sycl::accessor b(B, h, sycl::write_only, sycl::no_init);
      fill_inputs(h, a, b);
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(A, h, sycl::read_only);
      sycl::accessor b(B, h, sycl::read_only);
      sycl::accessor c(C, h, sycl::write_only, sycl::no_init);
      h.host_task([=, &cb, &drv](sycl::interop_handle ih) {
        CUstream s = ih.get_native_queue<cuda>();
        auto pa = reinterpret_cast<const float*>(ih.get_native_mem<cuda>(a));
        auto pb = reinterpret_cast<const float*>(ih.get_native_mem<cuda>(b));
        auto pc = reinterpret_cast<float*>(ih.get_native_mem<cuda>(c));
        cb.set_stream(handle, s);
        cb.sgemm(handle, 0, 0, m, n, k, &one, pa, m, pb, k, &zero, pc, m);
        drv.stream_synchronize(s);
      });
    });
    sycl::host_accessor c(C, sycl::read_only);
    CHECK(same(&c[0], want));
  }

  // 4. A queue over the program's own stream, an event over its own CUevent.
  {
    CUstream mine = nullptr;
    CHECK(drv.stream_create(&mine, 1) == 0);
    sycl::queue adopted = sycl::make_queue<cuda>(mine, q.get_context());
    CHECK(sycl::get_native<cuda>(adopted) == mine);
    int* p = sycl::malloc_shared<int>(1, q);
    *p = 5;
    adopted.single_task([=] { *p *= 3; }).wait();
    CHECK(*p == 15);
    CUevent ev = nullptr;
    CHECK(drv.event_create(&ev, 0) == 0);
    adopted.single_task([=] { *p += 1; });
    CHECK(drv.event_record(ev, mine) == 0);
    sycl::event made = sycl::make_event<cuda>(ev, q.get_context());
    // A kernel on another queue that depends on it runs after it.
    q.submit([&](sycl::handler& h) {
       h.depends_on(made);
       h.single_task([=] { *p *= 10; });
     }).wait();
    CHECK(*p == 160);
    adopted.wait();
    sycl::free(p, q);
    drv.event_destroy(ev);
    drv.stream_destroy(mine);
  }

  cb.destroy(handle);
  if (g_failures) return 1;
  std::printf("cuda_interop: all checks passed\n");
  return 0;
}
