// cuBLAS from SYCL (README "Backend interoperability"): C = A * B with cublasSgemm on the SYCL
// queue's CUDA stream, once on buffers (interop_handle::get_native_mem in a native command, so
// the call is ordered with the kernels around it and the host never blocks) and once on
// malloc_device memory; both checked against a SYCL kernel computing the same product. libcublas
// is loaded at run time; without an NVIDIA GPU or libcublas only the SYCL kernel runs (checked
// against the host).
#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <vector>

using cublasHandle_t = struct cublasContext*;
struct cublas {
  int (*create)(cublasHandle_t*) = nullptr;
  int (*set_stream)(cublasHandle_t, CUstream) = nullptr;
  int (*sgemm)(cublasHandle_t, int, int, int, int, int, const float*, const float*, int,
               const float*, int, const float*, float*, int) = nullptr;
  int (*destroy)(cublasHandle_t) = nullptr;
  bool load() {
    void* lib = nullptr;
    for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so",
                             "/usr/local/cuda/lib64/libcublas.so"})
      if ((lib = dlopen(name, RTLD_NOW))) break;
    if (!lib) return false;
    create = reinterpret_cast<decltype(create)>(dlsym(lib, "cublasCreate_v2"));
    set_stream = reinterpret_cast<decltype(set_stream)>(dlsym(lib, "cublasSetStream_v2"));
    sgemm = reinterpret_cast<decltype(sgemm)>(dlsym(lib, "cublasSgemm_v2"));
    destroy = reinterpret_cast<decltype(destroy)>(dlsym(lib, "cublasDestroy_v2"));
    return create && set_stream && sgemm && destroy;
  }
};

constexpr int n = 256; // square matrices, column-major as cuBLAS wants
constexpr auto cuda = sycl::backend::ext_oneapi_cuda;

bool close(const float* x, const float* y) {
  for (int i = 0; i < n * n; ++i)
    if (std::fabs(x[i] - y[i]) > 1e-3f * (1.0f + std::fabs(y[i]))) {
      std::printf("element %d: %g vs %g\n", i, x[i], y[i]);
      return false;
    }
  return true;
}

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  std::vector<float> a(n * n), b(n * n), want(n * n), got(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = float(i % 17) * 0.125f - 1.0f;
    b[i] = float(i % 23) * 0.0625f;
  }
  sycl::buffer<float> A(a.data(), sycl::range<1>(n * n)), B(b.data(), sycl::range<1>(n * n));
  sycl::buffer<float> C{sycl::range<1>(n * n)}, Ref{sycl::range<1>(n * n)};
  // The product by a SYCL kernel: what cuBLAS must match.
  q.submit([&](sycl::handler& h) {
    sycl::accessor x(A, h, sycl::read_only), y(B, h, sycl::read_only);
    sycl::accessor r(Ref, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<2>(n, n), [=](sycl::id<2> id) {
      int col = int(id[0]), row = int(id[1]);
      float s = 0;
      for (int k = 0; k < n; ++k) s += x[row + k * n] * y[k + col * n];
      r[row + col * n] = s;
    });
  });
  {
    sycl::host_accessor r(Ref, sycl::read_only);
    for (int i = 0; i < n * n; ++i) want[i] = r[i];
  }
  // The kernel against the host, at a few places.
  for (int probe : {0, 1, n + 3, n * n - 1}) {
    int row = probe % n, col = probe / n;
    double s = 0;
    for (int k = 0; k < n; ++k) s += double(a[row + k * n]) * b[k + col * n];
    if (std::fabs(want[probe] - s) > 1e-3 * (1 + std::fabs(s))) {
      std::printf("SYCL kernel wrong at %d: %g vs %g\n", probe, want[probe], s);
      return 1;
    }
  }
  cublas blas;
  if (q.get_backend() != cuda || !blas.load()) {
    std::printf("no NVIDIA GPU with libcublas here: checked the SYCL kernel only\n");
    return 0;
  }
  cublasHandle_t handle = nullptr;
  blas.create(&handle);
  const float one = 1.0f, zero = 0.0f;

  // 1. Buffers: cuBLAS reads A and B and writes C on the queue's stream.
  q.submit([&](sycl::handler& h) {
    sycl::accessor x(A, h, sycl::read_only), y(B, h, sycl::read_only);
    sycl::accessor z(C, h, sycl::write_only, sycl::no_init);
    h.ext_oneapi_enqueue_native_command([=, &blas](sycl::interop_handle ih) {
      blas.set_stream(handle, ih.get_native_queue<cuda>());
      blas.sgemm(handle, 0, 0, n, n, n, &one,
                 reinterpret_cast<const float*>(ih.get_native_mem<cuda>(x)), n,
                 reinterpret_cast<const float*>(ih.get_native_mem<cuda>(y)), n, &zero,
                 reinterpret_cast<float*>(ih.get_native_mem<cuda>(z)), n);
    });
  });
  {
    sycl::host_accessor c(C, sycl::read_only);
    if (!close(&c[0], want.data())) return 1;
  }

  // 2. USM device memory.
  float* da = sycl::malloc_device<float>(n * n, q);
  float* db = sycl::malloc_device<float>(n * n, q);
  float* dc = sycl::malloc_device<float>(n * n, q);
  q.memcpy(da, a.data(), n * n * sizeof(float));
  q.memcpy(db, b.data(), n * n * sizeof(float));
  q.wait();
  sycl::event gemm = q.submit([&](sycl::handler& h) {
    h.ext_oneapi_enqueue_native_command([&](sycl::interop_handle ih) {
      blas.set_stream(handle, ih.get_native_queue<cuda>());
      blas.sgemm(handle, 0, 0, n, n, n, &one, da, n, db, n, &zero, dc, n);
    });
  });
  q.memcpy(got.data(), dc, n * n * sizeof(float), gemm).wait();
  bool ok = close(got.data(), want.data());
  sycl::free(da, q);
  sycl::free(db, q);
  sycl::free(dc, q);
  blas.destroy(handle);
  if (!ok) return 1;
  std::printf("cublasSgemm (buffers and USM) matches the SYCL kernel\n");
  return 0;
}
