#include "cuda_driver.hpp"

#include <sycl/exception.hpp>

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <mutex>

namespace syclone::cuda {

namespace {

// Binds `entry` to the first of `names` the library exports: the newest ABI version first.
template <typename Signature>
bool bind(void* library, entry_point<Signature>& entry, std::initializer_list<const char*> names,
          std::string* missing) {
  for (const char* name : names)
    if (void* address = dlsym(library, name)) {
      entry.name = name;
      entry.fn = reinterpret_cast<decltype(entry.fn)>(address);
      return true;
    }
  if (missing->empty()) *missing = *names.begin();
  return false;
}

bool bind_all(void* lib, driver_api& d, std::string* missing) {
  bool ok = true;
  ok &= bind(lib, d.init, {"cuInit"}, missing);
  ok &= bind(lib, d.driver_get_version, {"cuDriverGetVersion"}, missing);
  ok &= bind(lib, d.get_error_string, {"cuGetErrorString"}, missing);
  ok &= bind(lib, d.get_error_name, {"cuGetErrorName"}, missing);
  ok &= bind(lib, d.device_get_count, {"cuDeviceGetCount"}, missing);
  ok &= bind(lib, d.device_get, {"cuDeviceGet"}, missing);
  ok &= bind(lib, d.device_get_name, {"cuDeviceGetName"}, missing);
  ok &= bind(lib, d.device_get_attribute, {"cuDeviceGetAttribute"}, missing);
  ok &= bind(lib, d.device_total_mem, {"cuDeviceTotalMem_v2"}, missing);
  {
    std::string optional; // v2 (CUDA 11.4) also names MIG instances; v1 since CUDA 9.2
    bind(lib, d.device_get_uuid, {"cuDeviceGetUuid_v2", "cuDeviceGetUuid"}, &optional);
  }
  ok &= bind(lib, d.primary_ctx_retain, {"cuDevicePrimaryCtxRetain"}, missing);
  ok &= bind(lib, d.primary_ctx_release, {"cuDevicePrimaryCtxRelease_v2"}, missing);
  ok &= bind(lib, d.primary_ctx_reset, {"cuDevicePrimaryCtxReset_v2"}, missing);
  ok &= bind(lib, d.ctx_synchronize, {"cuCtxSynchronize"}, missing);
  ok &= bind(lib, d.ctx_set_current, {"cuCtxSetCurrent"}, missing);
  {
    std::string optional;
    bind(lib, d.ctx_push_current, {"cuCtxPushCurrent_v2"}, &optional);
    bind(lib, d.ctx_pop_current, {"cuCtxPopCurrent_v2"}, &optional);
    bind(lib, d.ctx_get_device, {"cuCtxGetDevice"}, &optional);
    bind(lib, d.ctx_get_id, {"cuCtxGetId"}, &optional);
  }
  {
    std::string optional;
    bind(lib, d.ctx_get_limit, {"cuCtxGetLimit"}, &optional);
  }
  ok &= bind(lib, d.device_can_access_peer, {"cuDeviceCanAccessPeer"}, missing);
  ok &= bind(lib, d.device_get_p2p_attribute, {"cuDeviceGetP2PAttribute"}, missing);
  ok &= bind(lib, d.ctx_enable_peer_access, {"cuCtxEnablePeerAccess"}, missing);
  ok &= bind(lib, d.ctx_disable_peer_access, {"cuCtxDisablePeerAccess"}, missing);
  ok &= bind(lib, d.mem_get_info, {"cuMemGetInfo_v2"}, missing);
  ok &= bind(lib, d.mem_alloc, {"cuMemAlloc_v2"}, missing);
  ok &= bind(lib, d.mem_free, {"cuMemFree_v2"}, missing);
  ok &= bind(lib, d.mem_host_alloc, {"cuMemHostAlloc"}, missing);
  ok &= bind(lib, d.mem_free_host, {"cuMemFreeHost"}, missing);
  ok &= bind(lib, d.mem_alloc_managed, {"cuMemAllocManaged"}, missing);
  {
    std::string optional;
    bind(lib, d.mem_advise, {"cuMemAdvise"}, &optional); // v1: (ptr, bytes, advice, CUdevice)
  }
  ok &= bind(lib, d.memcpy_async, {"cuMemcpyAsync"}, missing);
  ok &= bind(lib, d.memcpy_3d_async, {"cuMemcpy3DAsync_v2"}, missing);
  ok &= bind(lib, d.memset_d8_async, {"cuMemsetD8Async"}, missing);
  ok &= bind(lib, d.memset_d16_async, {"cuMemsetD16Async"}, missing);
  ok &= bind(lib, d.memset_d32_async, {"cuMemsetD32Async"}, missing);
  ok &= bind(lib, d.memset_d2d8_async, {"cuMemsetD2D8Async"}, missing);
  ok &= bind(lib, d.memset_d2d16_async, {"cuMemsetD2D16Async"}, missing);
  ok &= bind(lib, d.memset_d2d32_async, {"cuMemsetD2D32Async"}, missing);
  ok &= bind(lib, d.stream_create, {"cuStreamCreate"}, missing);
  ok &= bind(lib, d.stream_destroy, {"cuStreamDestroy_v2"}, missing);
  ok &= bind(lib, d.stream_synchronize, {"cuStreamSynchronize"}, missing);
  ok &= bind(lib, d.stream_wait_event, {"cuStreamWaitEvent"}, missing);
  // cuStreamGetCtx_v2 (CUDA 12.5) takes a green context too; v1 is what make_queue needs.
  ok &= bind(lib, d.stream_get_ctx, {"cuStreamGetCtx"}, missing);
  {
    std::string optional; // NVIDIA means to retire it some day; printf then waits for a sync
    bind(lib, d.stream_add_callback, {"cuStreamAddCallback"}, &optional);
  }
  ok &= bind(lib, d.event_create, {"cuEventCreate"}, missing);
  ok &= bind(lib, d.event_destroy, {"cuEventDestroy_v2"}, missing);
  ok &= bind(lib, d.event_record, {"cuEventRecord"}, missing);
  ok &= bind(lib, d.event_query, {"cuEventQuery"}, missing);
  ok &= bind(lib, d.event_synchronize, {"cuEventSynchronize"}, missing);
  // CUDA 12.8 added _v2 (cuda.h 13 maps cuEventElapsedTime to it); older drivers have only v1.
  ok &= bind(lib, d.event_elapsed_time, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing);
  ok &= bind(lib, d.module_load_data_ex, {"cuModuleLoadDataEx"}, missing);
  ok &= bind(lib, d.module_unload, {"cuModuleUnload"}, missing);
  ok &= bind(lib, d.module_get_function, {"cuModuleGetFunction"}, missing);
  ok &= bind(lib, d.module_get_global, {"cuModuleGetGlobal_v2"}, missing);
  ok &= bind(lib, d.memcpy_htod, {"cuMemcpyHtoD_v2"}, missing);
  ok &= bind(lib, d.func_get_attribute, {"cuFuncGetAttribute"}, missing);
  ok &= bind(lib, d.func_set_attribute, {"cuFuncSetAttribute"}, missing);
  ok &= bind(lib, d.occupancy_max_potential_block_size, {"cuOccupancyMaxPotentialBlockSize"},
             missing);
  ok &= bind(lib, d.launch_kernel, {"cuLaunchKernel"}, missing);
  ok &= bind(lib, d.occupancy_max_active_blocks, {"cuOccupancyMaxActiveBlocksPerMultiprocessor"},
             missing);
  ok &= bind(lib, d.launch_cooperative_kernel, {"cuLaunchCooperativeKernel"}, missing);
  return ok;
}

driver_api g_driver;
const driver_api* g_loaded = nullptr;
std::string g_load_error;

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}

} // namespace

const bool trace_calls = env_flag("SYCLONE_CUDA_TRACE");

void trace(const char* call, CUresult result) {
  if (result == CUDA_SUCCESS)
    std::fprintf(stderr, "syclone cuda: %s\n", call);
  else
    std::fprintf(stderr, "syclone cuda: %s -> %s\n", call, error_text(result).c_str());
}

const driver_api* load_driver(std::string* error) {
  static std::once_flag once;
  std::call_once(once, [] {
    // The library stays loaded for the life of the process: devices, streams and events of it
    // outlive any scope that could close it.
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* why = dlerror();
      g_load_error = "libcuda.so.1 not found (" + std::string(why ? why : "dlopen failed") +
                     "); install the NVIDIA driver to use NVIDIA GPUs";
      return;
    }
    std::string missing;
    if (!bind_all(lib, g_driver, &missing)) {
      g_load_error = "libcuda.so.1 has no " + missing +
                     "; the NVIDIA driver is too old, install one for CUDA 12 or newer";
      return;
    }
    g_loaded = &g_driver;
  });
  if (!g_loaded && error) *error = g_load_error;
  return g_loaded;
}

const driver_api& driver() {
  return g_driver;
}

std::string error_text(CUresult result) {
  const char* text = nullptr;
  const char* name = nullptr;
  if (g_loaded) {
    if (g_driver.get_error_string.fn(result, &text) != CUDA_SUCCESS) text = nullptr;
    if (g_driver.get_error_name.fn(result, &name) != CUDA_SUCCESS) name = nullptr;
  }
  std::string s = text ? text : "unknown CUDA error";
  s += " (";
  s += name ? name : "CUresult " + std::to_string(result);
  s += ")";
  return s;
}

namespace {
std::atomic<bool> g_sticky_seen{false};
}

bool is_sticky(CUresult result) noexcept {
  const int r = static_cast<int>(result);
  return r == 700 || r == 710 || (r >= 714 && r <= 719);
}

bool sticky_error_seen() noexcept {
  return g_sticky_seen.load(std::memory_order_acquire);
}

void throw_error(const char* call, CUresult result, const std::string& context) {
  if (is_sticky(result)) g_sticky_seen.store(true, std::memory_order_release);
  std::string message = std::string(call) + " failed: " + error_text(result);
  if (!context.empty()) message = context + ": " + message;
  sycl::detail::throw_error(result == CUDA_ERROR_OUT_OF_MEMORY ? sycl::errc::memory_allocation
                                                               : sycl::errc::runtime,
                            message);
}

namespace {
thread_local CUcontext t_current = nullptr;
}

void make_current(CUcontext context) {
  if (t_current == context) return;
  call(driver().ctx_set_current, context);
  t_current = context;
}

void forget_current() noexcept {
  t_current = nullptr;
}

CUresult try_make_current(CUcontext context) noexcept {
  if (t_current == context) return CUDA_SUCCESS;
  CUresult r = invoke(driver().ctx_set_current, context);
  if (r == CUDA_SUCCESS) t_current = context;
  return r;
}

} // namespace syclone::cuda
