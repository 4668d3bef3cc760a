// The CUDA backend's native types (SYCL 2020 4.5.1 with DPC++'s sycl_ext_oneapi_backend_cuda;
// README "Backend interoperability" says where they differ from Khronos's draft CUDA backend
// specification). Included by <sycl/backend.hpp>.
//
// The CUDA driver's handle types are declared here exactly as cuda.h declares them, so that a
// program may include cuda.h (or cuda_runtime.h, cublas_v2.h) before or after <sycl/sycl.hpp>:
// C++ allows the same typedef twice. syclone itself never includes a CUDA header.
#pragma once

#include <sycl/backend.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

typedef int CUdevice;
typedef struct CUctx_st* CUcontext;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
typedef unsigned long long CUdeviceptr; // 64-bit targets, as cuda.h since CUDA 3.2

SYCLONE_BEGIN_NAMESPACE

namespace detail {
template <typename T>
struct cuda_native_type; // no native type: backend_return_t<ext_oneapi_cuda, T> is ill-formed
template <>
struct cuda_native_type<platform> {
  using type = std::vector<CUdevice>; // every device of the platform
};
template <>
struct cuda_native_type<device> {
  using type = CUdevice;
};
template <>
struct cuda_native_type<context> {
  using type = CUcontext; // the device's primary context
};
template <>
struct cuda_native_type<queue> {
  using type = CUstream;
};
template <>
struct cuda_native_type<event> {
  using type = CUevent;
};
template <typename T, int Dimensions, typename AllocatorT>
struct cuda_native_type<buffer<T, Dimensions, AllocatorT>> {
  using type = CUdeviceptr;
};
} // namespace detail

template <>
class backend_traits<backend::ext_oneapi_cuda> {
public:
  template <class T>
  using input_type = typename detail::cuda_native_type<T>::type;
  template <class T>
  using return_type = typename detail::cuda_native_type<T>::type;
  using errc = int; // a CUresult
};

namespace detail {
template <>
struct native_conversion<backend::ext_oneapi_cuda> {
  static constexpr backend b = backend::ext_oneapi_cuda;

  static std::vector<CUdevice> get(const platform& p) {
    std::vector<CUdevice> out;
    for (std::int64_t d : native_platform(p, b)) out.push_back(static_cast<CUdevice>(d));
    return out;
  }
  static CUdevice get(const device& d) { return static_cast<CUdevice>(native_device(d, b)); }
  static CUcontext get(const context& c) { return static_cast<CUcontext>(native_context(c, b)); }
  static CUstream get(const queue& q) { return static_cast<CUstream>(native_queue(q, b)); }
  static CUevent get(const event& e) { return static_cast<CUevent>(native_event(e, b)); }
  template <typename T, int Dimensions, typename AllocatorT>
  static CUdeviceptr get(const buffer<T, Dimensions, AllocatorT>& buf) {
    return mem_out<void>(native_buffer(*impl_access::get(buf), b));
  }

  static std::vector<std::int64_t> platform_in(const std::vector<CUdevice>& devices) {
    return std::vector<std::int64_t>(devices.begin(), devices.end());
  }
  static std::int64_t device_in(CUdevice d) { return d; }
  static void* context_in(CUcontext c) { return c; }
  static void* queue_in(CUstream s) { return s; }
  static void* event_in(CUevent e) { return e; }

  template <typename Buffer>
  static CUdeviceptr mem_out(void* p) {
    return static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(p));
  }
  static CUstream queue_out(void* s) { return static_cast<CUstream>(s); }
};
} // namespace detail

SYCLONE_END_NAMESPACE
