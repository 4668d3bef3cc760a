// The subset of the CUDA driver API the CUDA backend uses, declared here (the backend never
// includes cuda.h: STYLE.md 2, the core never links a vendor SDK) and loaded at run time from
// libcuda.so.1 with dlopen, so that one binary runs with or without an NVIDIA driver.
//
// Every call goes through one checked wrapper (STYLE.md 5): call() throws sycl::exception naming
// the driver function and cuGetErrorString's text; invoke() returns the code for the few calls
// whose failures are expected answers (cuEventQuery's CUDA_ERROR_NOT_READY, an allocation that
// may not fit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace syclone::cuda {

// Types and values as the CUDA driver API defines them (CUDA 12/13 ABI, 64-bit Linux).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUarray = struct CUarray_st*;
using CUoccupancyB2DSize = std::size_t (*)(int block_size);
using CUstreamCallback = void (*)(CUstream stream, CUresult status, void* user_data);

enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_INVALID_SOURCE = 300,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
  CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705,
  CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
  CUDA_ERROR_NOT_PERMITTED = 800,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999,
};

enum CUdevice_attribute : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MAX_PITCH = 11,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
  CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
  CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,           // the device (slot) number of the PCI address
  CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,       // kHz
  CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37, // bits
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
  CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
  CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED = 86,
  CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 88,
  CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

enum CUdevice_P2PAttribute : int {
  CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED = 2,
  CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED = 3,
};

enum CUfunction_attribute : int {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

enum CUjit_option : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

enum CUmemorytype : int {
  CU_MEMORYTYPE_HOST = 1,
  CU_MEMORYTYPE_DEVICE = 2,
  CU_MEMORYTYPE_ARRAY = 3,
  CU_MEMORYTYPE_UNIFIED = 4,
};

inline constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
inline constexpr int CU_LIMIT_PRINTF_FIFO_SIZE = 0x01; // CUlimit
inline constexpr unsigned CU_EVENT_DEFAULT = 0x0;
inline constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
inline constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;
inline constexpr int CU_MEM_ADVISE_SET_ACCESSED_BY = 5; // CUmem_advise
inline constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 0x1;
inline constexpr unsigned CU_MEMHOSTALLOC_DEVICEMAP = 0x2;

// cuDeviceGetUuid's answer.
struct CUuuid {
  char bytes[16];
};

// cuMemcpy3DAsync's parameters (CUDA_MEMCPY3D_v2).
struct CUDA_MEMCPY3D {
  std::size_t srcXInBytes, srcY, srcZ, srcLOD;
  CUmemorytype srcMemoryType;
  const void* srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  void* reserved0;
  std::size_t srcPitch, srcHeight;
  std::size_t dstXInBytes, dstY, dstZ, dstLOD;
  CUmemorytype dstMemoryType;
  void* dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  void* reserved1;
  std::size_t dstPitch, dstHeight;
  std::size_t WidthInBytes, Height, Depth;
};
static_assert(sizeof(CUDA_MEMCPY3D) == 200, "CUDA_MEMCPY3D layout");

// A driver function: the symbol it was loaded from (for messages) and its address.
template <typename Signature>
struct entry_point;
template <typename... Params>
struct entry_point<CUresult(Params...)> {
  const char* name = nullptr;
  CUresult (*fn)(Params...) = nullptr;
};

// The driver functions the backend calls, each bound to the newest ABI version of its symbol
// (cuMemAlloc_v2, cuStreamDestroy_v2, cuEventElapsedTime_v2 ...).
struct driver_api {
  entry_point<CUresult(unsigned)> init;
  entry_point<CUresult(int*)> driver_get_version;
  entry_point<CUresult(CUresult, const char**)> get_error_string;
  entry_point<CUresult(CUresult, const char**)> get_error_name;

  entry_point<CUresult(int*)> device_get_count;
  entry_point<CUresult(CUdevice*, int)> device_get;
  entry_point<CUresult(char*, int, CUdevice)> device_get_name;
  entry_point<CUresult(int*, CUdevice_attribute, CUdevice)> device_get_attribute;
  entry_point<CUresult(std::size_t*, CUdevice)> device_total_mem;
  // Optional (sycl_ext_intel_device_info's uuid): null where the driver lacks it.
  entry_point<CUresult(CUuuid*, CUdevice)> device_get_uuid;
  entry_point<CUresult(CUcontext*, CUdevice)> primary_ctx_retain;
  entry_point<CUresult(CUdevice)> primary_ctx_release;
  entry_point<CUresult(CUdevice)> primary_ctx_reset;
  entry_point<CUresult()> ctx_synchronize;
  entry_point<CUresult(CUcontext)> ctx_set_current;
  // Optional (make_context over a user's context, cuda_interop.cpp): null where the driver
  // lacks them. cuCtxGetId (CUDA 12.0) tells a context from a later one at the same address.
  entry_point<CUresult(CUcontext)> ctx_push_current;
  entry_point<CUresult(CUcontext*)> ctx_pop_current;
  entry_point<CUresult(CUdevice*)> ctx_get_device;
  entry_point<CUresult(CUcontext, unsigned long long*)> ctx_get_id;
  // Optional (info::device::printf_buffer_size): null where the driver lacks it.
  entry_point<CUresult(std::size_t*, int)> ctx_get_limit;
  entry_point<CUresult(int*, CUdevice, CUdevice)> device_can_access_peer;
  entry_point<CUresult(int*, CUdevice_P2PAttribute, CUdevice, CUdevice)> device_get_p2p_attribute;
  entry_point<CUresult(CUcontext, unsigned)> ctx_enable_peer_access;
  entry_point<CUresult(CUcontext)> ctx_disable_peer_access;

  entry_point<CUresult(std::size_t*, std::size_t*)> mem_get_info;
  entry_point<CUresult(CUdeviceptr*, std::size_t)> mem_alloc;
  entry_point<CUresult(CUdeviceptr)> mem_free;
  entry_point<CUresult(void**, std::size_t, unsigned)> mem_host_alloc;
  entry_point<CUresult(void*)> mem_free_host;
  entry_point<CUresult(CUdeviceptr*, std::size_t, unsigned)> mem_alloc_managed;
  // Optional (advice only): null where the driver lacks it.
  entry_point<CUresult(CUdeviceptr, std::size_t, int, CUdevice)> mem_advise;
  entry_point<CUresult(CUdeviceptr, CUdeviceptr, std::size_t, CUstream)> memcpy_async;
  entry_point<CUresult(const CUDA_MEMCPY3D*, CUstream)> memcpy_3d_async;
  entry_point<CUresult(CUdeviceptr, unsigned char, std::size_t, CUstream)> memset_d8_async;
  entry_point<CUresult(CUdeviceptr, unsigned short, std::size_t, CUstream)> memset_d16_async;
  entry_point<CUresult(CUdeviceptr, unsigned, std::size_t, CUstream)> memset_d32_async;
  entry_point<CUresult(CUdeviceptr, std::size_t, unsigned char, std::size_t, std::size_t, CUstream)>
      memset_d2d8_async;
  entry_point<CUresult(CUdeviceptr, std::size_t, unsigned short, std::size_t, std::size_t,
                       CUstream)>
      memset_d2d16_async;
  entry_point<CUresult(CUdeviceptr, std::size_t, unsigned, std::size_t, std::size_t, CUstream)>
      memset_d2d32_async;

  entry_point<CUresult(CUstream*, unsigned)> stream_create;
  entry_point<CUresult(CUstream)> stream_destroy;
  entry_point<CUresult(CUstream)> stream_synchronize;
  entry_point<CUresult(CUstream, CUevent, unsigned)> stream_wait_event;
  entry_point<CUresult(CUstream, CUcontext*)> stream_get_ctx;
  // Optional (kernels' printf output at once): null where the driver lacks it.
  entry_point<CUresult(CUstream, CUstreamCallback, void*, unsigned)> stream_add_callback;

  entry_point<CUresult(CUevent*, unsigned)> event_create;
  entry_point<CUresult(CUevent)> event_destroy;
  entry_point<CUresult(CUevent, CUstream)> event_record;
  entry_point<CUresult(CUevent)> event_query;
  entry_point<CUresult(CUevent)> event_synchronize;
  entry_point<CUresult(float*, CUevent, CUevent)> event_elapsed_time;

  entry_point<CUresult(CUmodule*, const void*, unsigned, CUjit_option*, void**)>
      module_load_data_ex;
  entry_point<CUresult(CUmodule)> module_unload;
  entry_point<CUresult(CUfunction*, CUmodule, const char*)> module_get_function;
  // sycl_ext_oneapi_device_global: a module's pointer to the device's instance.
  entry_point<CUresult(CUdeviceptr*, std::size_t*, CUmodule, const char*)> module_get_global;
  entry_point<CUresult(CUdeviceptr, const void*, std::size_t)> memcpy_htod;
  entry_point<CUresult(int*, CUfunction_attribute, CUfunction)> func_get_attribute;
  entry_point<CUresult(CUfunction, CUfunction_attribute, int)> func_set_attribute;
  entry_point<CUresult(int*, int*, CUfunction, CUoccupancyB2DSize, std::size_t, int)>
      occupancy_max_potential_block_size;
  entry_point<CUresult(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                       unsigned, CUstream, void**, void**)>
      launch_kernel;
  // sycl_ext_oneapi_root_group: blocks that fit on one multiprocessor at once, and the launch
  // that keeps every block resident (grid-wide barriers).
  entry_point<CUresult(int*, CUfunction, int, std::size_t)> occupancy_max_active_blocks;
  entry_point<CUresult(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                       unsigned, CUstream, void**)>
      launch_cooperative_kernel;
};

// Loads libcuda.so.1 and binds every entry point, once per process. Null, with the reason in
// *error, when the library or one of its functions is missing.
const driver_api* load_driver(std::string* error);
// The loaded driver (load_driver succeeded before).
const driver_api& driver();

// "out of memory (CUDA_ERROR_OUT_OF_MEMORY)", from cuGetErrorString and cuGetErrorName.
std::string error_text(CUresult result);
// Throws sycl::exception for a failed driver call: errc::memory_allocation for
// CUDA_ERROR_OUT_OF_MEMORY, errc::runtime otherwise. `context` (may be empty) says what the
// backend was doing.
[[noreturn]] void throw_error(const char* call, CUresult result, const std::string& context = {});

// Results after which the context is unusable until it is reset (a fault in a kernel: illegal
// address, trap, misaligned access...): every later call of the context returns them.
bool is_sticky(CUresult result) noexcept;
// Whether a sticky result has been seen in this process (throw_error notes it): only then does
// cuda_device::recover ask a device whether its context failed.
bool sticky_error_seen() noexcept;

// True when SYCLONE_CUDA_TRACE is set: every driver call is printed to stderr with its result.
extern const bool trace_calls;
void trace(const char* call, CUresult result);

// The one wrapper every driver call goes through; returns the driver's code.
template <typename... Params, typename... Args>
CUresult invoke(const entry_point<CUresult(Params...)>& entry, Args&&... args) {
  CUresult result = entry.fn(static_cast<Params>(args)...);
  if (trace_calls) trace(entry.name, result);
  return result;
}

// invoke(), throwing sycl::exception on failure.
template <typename... Params, typename... Args>
void call(const entry_point<CUresult(Params...)>& entry, Args&&... args) {
  CUresult result = invoke(entry, static_cast<Args&&>(args)...);
  if (result != CUDA_SUCCESS) throw_error(entry.name, result);
}

// Makes `context` current on the calling thread; cheap when it already is (the driver's current
// context is per thread, and every thread that enters the backend must have one).
void make_current(CUcontext context);
// make_current() for destructors and other places that cannot throw: the driver's code.
CUresult try_make_current(CUcontext context) noexcept;
// Forgets which context make_current() set on this thread: user code (a native command, a host
// task calling the CUDA runtime) may have changed it behind the backend's back.
void forget_current() noexcept;

} // namespace syclone::cuda
