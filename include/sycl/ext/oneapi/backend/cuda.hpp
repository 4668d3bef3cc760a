// The CUDA backend's native types (SYCL 2020 4.5.1; DPC++'s sycl_ext_oneapi_backend_cuda and
// Khronos's draft CUDA backend specification, whose backend::cuda is backend::ext_oneapi_cuda's
// other name; README "Backend interoperability" says where the two differ and which syclone
// follows). Included by <sycl/backend.hpp>.
//
// The CUDA driver's handle types are declared here exactly as cuda.h declares them, so that a
// program may include cuda.h (or cuda_runtime.h, cublas_v2.h) before or after <sycl/sycl.hpp>:
// C++ allows the same typedef twice. syclone itself never includes a CUDA header.
#pragma once

#include <sycl/accessor.hpp>
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
// What get_native returns (cuda_native_type) and what make_* takes (cuda_input_type, the same
// but for a context). No specialization: backend_return_t<ext_oneapi_cuda, T> is ill-formed.
template <typename T>
struct cuda_native_type;
template <>
struct cuda_native_type<platform> {
  using type = std::vector<CUdevice>; // every device of the platform
};
template <>
struct cuda_native_type<device> {
  using type = CUdevice;
};
// The draft CUDA backend specification: a SYCL context holds one CUDA context per device (the
// device's primary context, or the one make_context adopted), and is made from one. DPC++'s
// default answer, one CUcontext, is what its own experimental CUDA header replaces with this
// vector (and DPC++ deprecated context interop for CUDA).
template <>
struct cuda_native_type<context> {
  using type = std::vector<CUcontext>;
};
template <>
struct cuda_native_type<queue> {
  using type = CUstream;
};
template <>
struct cuda_native_type<event> {
  using type = CUevent;
};
// A buffer's memory on the device as a pointer (the draft specification's void*; DPC++ gives a
// CUdeviceptr, which a cast of this pointer is): interop_handle::get_native_mem and get_native.
template <typename T, int Dimensions, typename AllocatorT>
struct cuda_native_type<buffer<T, Dimensions, AllocatorT>> {
  using type = void*;
};
// In kernels (the draft specification's kernel function interoperability): an accessor of
// global, constant or local memory is a pointer to its elements, DataT as the accessor names it.
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder P>
struct cuda_native_type<accessor<DataT, Dimensions, AccessMode, target::device, P>> {
  using type = DataT*;
};
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder P>
struct cuda_native_type<accessor<DataT, Dimensions, AccessMode, target::constant_buffer, P>> {
  using type = DataT*;
};
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder P>
struct cuda_native_type<accessor<DataT, Dimensions, AccessMode, target::local, P>> {
  using type = DataT*;
};
template <typename DataT, int Dimensions>
struct cuda_native_type<local_accessor<DataT, Dimensions>> {
  using type = DataT*;
};

template <typename T>
struct cuda_input_type : cuda_native_type<T> {};
template <>
struct cuda_input_type<context> {
  using type = CUcontext;
};
} // namespace detail

template <>
class backend_traits<backend::ext_oneapi_cuda> {
public:
  template <class T>
  using input_type = typename detail::cuda_input_type<T>::type;
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
  static std::vector<CUcontext> get(const context& c) {
    std::vector<CUcontext> out;
    for (void* native : native_contexts(c, b)) out.push_back(static_cast<CUcontext>(native));
    return out;
  }
  static CUstream get(const queue& q) { return static_cast<CUstream>(native_queue(q, b)); }
  static CUevent get(const event& e) { return static_cast<CUevent>(native_event(e, b)); }
  template <typename T, int Dimensions, typename AllocatorT>
  static void* get(const buffer<T, Dimensions, AllocatorT>& buf) {
    return native_buffer(*impl_access::get(buf), b);
  }
  // In a kernel: the start of the accessor's memory (of the underlying buffer also for a ranged
  // accessor, as get_multi_ptr and interop_handle::get_native_mem give it).
  template <typename DataT, int Dimensions, access_mode AccessMode, target AccessTarget,
            access::placeholder P>
  static DataT* get(const accessor<DataT, Dimensions, AccessMode, AccessTarget, P>& acc) {
    static_assert(AccessTarget == target::device || AccessTarget == target::constant_buffer ||
                      AccessTarget == target::local,
                  "get_native<backend::cuda>: a host accessor has no native object");
    return const_cast<DataT*>(acc.get_pointer().get_raw());
  }
  template <typename DataT, int Dimensions>
  static DataT* get(const local_accessor<DataT, Dimensions>& acc) {
    return const_cast<DataT*>(acc.get_pointer().get_raw());
  }

  static std::vector<std::int64_t> platform_in(const std::vector<CUdevice>& devices) {
    return std::vector<std::int64_t>(devices.begin(), devices.end());
  }
  static std::int64_t device_in(CUdevice d) { return d; }
  static void* context_in(CUcontext c) { return c; }
  static void* queue_in(CUstream s) { return s; }
  static void* event_in(CUevent e) { return e; }

  template <typename Buffer>
  static void* mem_out(void* p) {
    return p;
  }
  static CUstream queue_out(void* s) { return static_cast<CUstream>(s); }
};
} // namespace detail

SYCLONE_END_NAMESPACE
