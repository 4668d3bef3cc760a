// A fake libcuda.so.1 for testing the CUDA backend without a GPU (STYLE.md 9: unit tests
// against mocked backends). "Device" memory is host memory, operations run when enqueued, and
// completion is simulated: each operation keeps its stream busy for FAKE_CUDA_LATENCY_US
// microseconds. It also checks the backend's discipline: a context must be current on every
// thread that calls in (fake_cuda_violations counts the calls without one).
//
// FAKE_CUDA_MODE: "ok" (one H100-like device, default), "init_error" (cuInit fails),
// "no_device" (no device). Test hooks: the fake_cuda_* functions at the end.
#include "backends/cuda/cuda_driver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using clock_type = std::chrono::steady_clock;

// The driver's opaque handle types (declared in cuda_driver.hpp's namespace).
namespace syclone::cuda {
struct CUctx_st {
  int device;
};
struct CUmod_st {
  std::string ptx;
  std::map<std::string, CUfunction> functions;
};
struct CUfunc_st {
  std::string name;
  int max_dynamic_shared = 48 * 1024;
};
struct CUstream_st {
  unsigned flags;
  clock_type::time_point busy_until;
};
struct CUevent_st {
  unsigned flags;
  bool recorded = false;
  clock_type::time_point recorded_at, completes_at;
};
} // namespace syclone::cuda

using namespace syclone::cuda;

namespace {

CUctx_st g_context{0};

std::mutex g_mutex;
std::atomic<int> g_sticky_error{CUDA_SUCCESS};
std::atomic<int> g_violations{0};
std::atomic<int> g_launches{0};
std::atomic<int> g_module_loads{0};
std::atomic<int> g_small_copies{0}; // launches of syclone_copy_bytes
std::string g_last_ptx;             // guarded by g_mutex
std::atomic<long> g_live_allocations{0};
thread_local CUcontext t_current = nullptr;

std::string mode() {
  const char* m = std::getenv("FAKE_CUDA_MODE");
  return m ? m : "ok";
}

// FAKE_CUDA_LATENCY_US, or what fake_cuda_set_latency_us set (-1: not set).
std::atomic<long> g_latency_override{-1};
clock_type::duration latency() {
  static const long us = [] {
    const char* s = std::getenv("FAKE_CUDA_LATENCY_US");
    return s ? std::atol(s) : 0L;
  }();
  long set = g_latency_override.load();
  return std::chrono::microseconds(set >= 0 ? set : us);
}

constexpr std::size_t total_memory = 80ull << 30;
constexpr std::size_t free_memory = 79ull << 30;
// Allocations above this fail with CUDA_ERROR_OUT_OF_MEMORY (the fake allocates host memory).
constexpr std::size_t max_allocation = 1ull << 30;

// Checks what every call with a context needs.
CUresult enter() {
  if (t_current != &g_context) {
    ++g_violations;
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  return g_sticky_error.load();
}

// Marks an operation on `s`: it completes `latency` after the stream's previous one.
void occupy(CUstream s) {
  std::lock_guard lock(g_mutex);
  s->busy_until = std::max(s->busy_until, clock_type::now()) + latency();
}

struct launch_record {
  unsigned grid[3], block[3], shared;
  CUstream stream;
  std::size_t param_bytes;
  unsigned char params[512];
  char name[256];
};
launch_record g_last_launch;
// The operation log (fake_cuda_log_ops): kernel launches ('k', the first 4 bytes of the kernel
// object) and copies ('c'), with the calling thread, in the order the calls were made.
struct op_entry {
  char kind;
  unsigned first_word;
  std::size_t thread;
};
std::atomic<bool> g_log_ops{false};
std::vector<op_entry> g_ops; // guarded by g_mutex
std::atomic<int> g_fail_launches{0};
void log_op(char kind, unsigned first_word) {
  if (!g_log_ops.load()) return;
  std::lock_guard lock(g_mutex);
  g_ops.push_back({kind, first_word, std::hash<std::thread::id>()(std::this_thread::get_id())});
}
std::atomic<std::size_t> g_param_size{0}; // set by the test, read by launching threads
// The stream of the last cuMemcpyAsync (guarded by g_mutex).
CUstream g_last_copy_stream = nullptr;
CUstream g_last_memcpy_stream = nullptr; // of the last cuMemcpyAsync alone

const char* error_string(CUresult r) {
  switch (r) {
  case CUDA_SUCCESS:
    return "no error";
  case CUDA_ERROR_INVALID_VALUE:
    return "invalid argument";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "initialization error";
  case CUDA_ERROR_NO_DEVICE:
    return "no CUDA-capable device is detected";
  case CUDA_ERROR_INVALID_CONTEXT:
    return "invalid device context";
  case CUDA_ERROR_INVALID_PTX:
    return "a PTX JIT compilation failed";
  case CUDA_ERROR_NOT_FOUND:
    return "named symbol not found";
  case CUDA_ERROR_NOT_READY:
    return "device not ready";
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    return "an illegal memory access was encountered";
  case CUDA_ERROR_NOT_PERMITTED:
    return "operation not permitted";
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return "too many resources requested for launch";
  default:
    return nullptr;
  }
}

const char* error_name(CUresult r) {
  switch (r) {
  case CUDA_SUCCESS:
    return "CUDA_SUCCESS";
  case CUDA_ERROR_INVALID_VALUE:
    return "CUDA_ERROR_INVALID_VALUE";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  case CUDA_ERROR_INVALID_CONTEXT:
    return "CUDA_ERROR_INVALID_CONTEXT";
  case CUDA_ERROR_INVALID_PTX:
    return "CUDA_ERROR_INVALID_PTX";
  case CUDA_ERROR_NOT_FOUND:
    return "CUDA_ERROR_NOT_FOUND";
  case CUDA_ERROR_NOT_READY:
    return "CUDA_ERROR_NOT_READY";
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case CUDA_ERROR_NOT_PERMITTED:
    return "CUDA_ERROR_NOT_PERMITTED";
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  default:
    return nullptr;
  }
}

void* ptr(CUdeviceptr p) {
  return reinterpret_cast<void*>(p);
}

CUresult memset_rows(CUdeviceptr dst, std::size_t pitch, const void* value, unsigned unit,
                     std::size_t width, std::size_t height, CUstream s) {
  if (CUresult r = enter()) return r;
  if (dst % unit || (height > 1 && pitch % unit) || (height > 1 && pitch < width * unit))
    return CUDA_ERROR_INVALID_VALUE;
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < width; ++x)
      std::memcpy(static_cast<char*>(ptr(dst)) + y * pitch + x * unit, value, unit);
  occupy(s);
  return CUDA_SUCCESS;
}

} // namespace

extern "C" {

CUresult cuInit(unsigned flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  return mode() == "init_error" ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int* v) {
  *v = 13000;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult r, const char** s) {
  *s = error_string(r);
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuGetErrorName(CUresult r, const char** s) {
  *s = error_name(r);
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuDeviceGetCount(int* count) {
  *count = mode() == "no_device" ? 0 : 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice* d, int ordinal) {
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *d = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char* name, int len, CUdevice) {
  std::snprintf(name, static_cast<std::size_t>(len), "%s", "Fake NVIDIA H100");
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int* v, CUdevice_attribute a, CUdevice) {
  static const std::map<int, int> values = {
      {1, 1024},  {2, 1024},      {3, 1024}, {4, 64},          {5, 2147483647}, {6, 65535},
      {7, 65535}, {8, 49152},     {10, 32},  {11, 2147483647}, {13, 1980000},   {16, 132},
      {18, 0},    {38, 52428800}, {41, 1},   {75, 9},          {76, 0},         {83, 1},
      {86, 0},    {88, 0},        {89, 1},   {97, 232448}};
  auto it = values.find(a);
  if (it == values.end()) return CUDA_ERROR_INVALID_VALUE;
  *v = it->second;
  return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem_v2(std::size_t* bytes, CUdevice) {
  *bytes = total_memory;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext* c, CUdevice) {
  *c = &g_context;
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext c) {
  if (c != &g_context) return CUDA_ERROR_INVALID_CONTEXT;
  t_current = c;
  return CUDA_SUCCESS;
}
// One device: it is no peer of itself (as the driver answers), and has no other.
CUresult cuDeviceCanAccessPeer(int* can, CUdevice, CUdevice) {
  *can = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetP2PAttribute(int* v, int, CUdevice, CUdevice) {
  *v = 0;
  return CUDA_SUCCESS;
}
CUresult cuCtxEnablePeerAccess(CUcontext, unsigned) {
  if (CUresult r = enter()) return r;
  return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
}
CUresult cuCtxDisablePeerAccess(CUcontext) {
  if (CUresult r = enter()) return r;
  return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

CUresult cuMemGetInfo_v2(std::size_t* free, std::size_t* total) {
  if (CUresult r = enter()) return r;
  *free = free_memory;
  *total = total_memory;
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc_v2(CUdeviceptr* p, std::size_t bytes) {
  if (CUresult r = enter()) return r;
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  if (bytes > max_allocation) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = reinterpret_cast<CUdeviceptr>(std::aligned_alloc(256, (bytes + 255) / 256 * 256));
  ++g_live_allocations;
  return CUDA_SUCCESS;
}
CUresult cuMemAllocManaged(CUdeviceptr* p, std::size_t bytes, unsigned flags) {
  if (flags != CU_MEM_ATTACH_GLOBAL) return CUDA_ERROR_INVALID_VALUE;
  return cuMemAlloc_v2(p, bytes);
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  if (CUresult r = enter()) return r;
  std::free(ptr(p));
  --g_live_allocations;
  return CUDA_SUCCESS;
}
CUresult cuMemHostAlloc(void** p, std::size_t bytes, unsigned) {
  if (CUresult r = enter()) return r;
  if (bytes > max_allocation) return CUDA_ERROR_OUT_OF_MEMORY;
  // Like CUDA 13's small pinned blocks: 512-byte aligned, never page aligned.
  auto* base = static_cast<char*>(std::aligned_alloc(4096, (bytes + 512 + 4095) / 4096 * 4096));
  *p = base + 512;
  ++g_live_allocations;
  return CUDA_SUCCESS;
}
CUresult cuMemFreeHost(void* p) {
  if (CUresult r = enter()) return r;
  std::free(static_cast<char*>(p) - 512);
  --g_live_allocations;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes, CUstream s) {
  if (CUresult r = enter()) return r;
  std::memmove(ptr(dst), ptr(src), bytes);
  log_op('c', 0);
  {
    std::lock_guard lock(g_mutex);
    g_last_copy_stream = s;
    g_last_memcpy_stream = s;
  }
  occupy(s);
  return CUDA_SUCCESS;
}
CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* p, CUstream s) {
  if (CUresult r = enter()) return r;
  if (p->srcMemoryType != CU_MEMORYTYPE_UNIFIED || p->dstMemoryType != CU_MEMORYTYPE_UNIFIED ||
      p->srcArray || p->dstArray || p->reserved0 || p->reserved1 || p->srcLOD || p->dstLOD)
    return CUDA_ERROR_INVALID_VALUE;
  if (p->srcXInBytes + p->WidthInBytes > p->srcPitch ||
      p->dstXInBytes + p->WidthInBytes > p->dstPitch)
    return CUDA_ERROR_INVALID_VALUE;
  if (p->Depth > 1 && (p->srcHeight < p->srcY + p->Height || p->dstHeight < p->dstY + p->Height))
    return CUDA_ERROR_INVALID_VALUE;
  for (std::size_t z = 0; z < p->Depth; ++z)
    for (std::size_t y = 0; y < p->Height; ++y) {
      auto* src = static_cast<const char*>(ptr(p->srcDevice)) +
                  ((p->srcZ + z) * p->srcHeight + p->srcY + y) * p->srcPitch + p->srcXInBytes;
      auto* dst = static_cast<char*>(ptr(p->dstDevice)) +
                  ((p->dstZ + z) * p->dstHeight + p->dstY + y) * p->dstPitch + p->dstXInBytes;
      std::memmove(dst, src, p->WidthInBytes);
    }
  occupy(s);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, std::size_t n, CUstream s) {
  return memset_rows(d, n, &v, 1, n, 1, s);
}
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, std::size_t n, CUstream s) {
  return memset_rows(d, n * 2, &v, 2, n, 1, s);
}
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, std::size_t n, CUstream s) {
  return memset_rows(d, n * 4, &v, 4, n, 1, s);
}
CUresult cuMemsetD2D8Async(CUdeviceptr d, std::size_t pitch, unsigned char v, std::size_t w,
                           std::size_t h, CUstream s) {
  return memset_rows(d, pitch, &v, 1, w, h, s);
}
CUresult cuMemsetD2D16Async(CUdeviceptr d, std::size_t pitch, unsigned short v, std::size_t w,
                            std::size_t h, CUstream s) {
  return memset_rows(d, pitch, &v, 2, w, h, s);
}
CUresult cuMemsetD2D32Async(CUdeviceptr d, std::size_t pitch, unsigned v, std::size_t w,
                            std::size_t h, CUstream s) {
  return memset_rows(d, pitch, &v, 4, w, h, s);
}

CUresult cuStreamCreate(CUstream* s, unsigned flags) {
  if (CUresult r = enter()) return r;
  *s = new CUstream_st{flags, clock_type::now()};
  return CUDA_SUCCESS;
}
CUresult cuStreamGetCtx(CUstream s, CUcontext* c) {
  if (!s) return CUDA_ERROR_INVALID_HANDLE;
  *c = &g_context;
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy_v2(CUstream s) {
  if (CUresult r = enter(); r && r != g_sticky_error.load()) return r;
  // Like the driver, outstanding work still completes: host functions hold no pointer to it.
  delete s;
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream s) {
  if (CUresult r = enter()) return r;
  clock_type::time_point until;
  {
    std::lock_guard lock(g_mutex);
    until = s->busy_until;
  }
  std::this_thread::sleep_until(until);
  return g_sticky_error.load();
}
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags) {
  if (CUresult r = enter()) return r;
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  if (e->recorded) s->busy_until = std::max(s->busy_until, e->completes_at);
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent* e, unsigned flags) {
  if (CUresult r = enter()) return r;
  *e = new CUevent_st{flags};
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy_v2(CUevent e) {
  if (CUresult r = enter(); r && r != g_sticky_error.load()) return r;
  delete e;
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream s) {
  if (CUresult r = enter()) return r;
  std::lock_guard lock(g_mutex);
  e->recorded = true;
  e->recorded_at = clock_type::now();
  e->completes_at = std::max(s->busy_until, e->recorded_at);
  return CUDA_SUCCESS;
}
CUresult cuEventQuery(CUevent e) {
  if (CUresult r = enter()) return r;
  std::lock_guard lock(g_mutex);
  return clock_type::now() >= e->completes_at ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}
CUresult cuEventSynchronize(CUevent e) {
  if (CUresult r = enter()) return r;
  clock_type::time_point until;
  {
    std::lock_guard lock(g_mutex);
    until = e->completes_at;
  }
  std::this_thread::sleep_until(until);
  return g_sticky_error.load();
}
// Only the original symbol: the backend must fall back from cuEventElapsedTime_v2.
CUresult cuEventElapsedTime(float* ms, CUevent a, CUevent b) {
  if (CUresult r = enter()) return r;
  if (!a->recorded || !b->recorded || (a->flags | b->flags) & CU_EVENT_DISABLE_TIMING)
    return CUDA_ERROR_INVALID_VALUE;
  auto now = clock_type::now();
  if (now < a->completes_at || now < b->completes_at) return CUDA_ERROR_NOT_READY;
  *ms = std::chrono::duration<float, std::milli>(b->completes_at - a->completes_at).count();
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule* m, const void* image, unsigned n, CUjit_option* options,
                            void** values) {
  if (CUresult r = enter()) return r;
  std::string ptx = static_cast<const char*>(image);
  if (ptx.find(".version") == std::string::npos || ptx.find(".target") == std::string::npos) {
    for (unsigned i = 0; i < n; ++i)
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
        for (unsigned j = 0; j < n; ++j)
          if (options[j] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            std::snprintf(static_cast<char*>(values[i]),
                          reinterpret_cast<std::uintptr_t>(values[j]),
                          "ptxas fatal   : fake: no .version or .target directive");
    return CUDA_ERROR_INVALID_PTX;
  }
  *m = new CUmod_st{ptx, {}};
  ++g_module_loads;
  {
    std::lock_guard lock(g_mutex);
    g_last_ptx = ptx;
  }
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule m) {
  if (CUresult r = enter()) return r;
  for (auto& [name, f] : m->functions) delete f;
  delete m;
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction* f, CUmodule m, const char* name) {
  if (CUresult r = enter()) return r;
  if (m->ptx.find(".entry " + std::string(name)) == std::string::npos) return CUDA_ERROR_NOT_FOUND;
  auto& fn = m->functions[name];
  if (!fn) fn = new CUfunc_st{name};
  *f = fn;
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int* v, CUfunction_attribute a, CUfunction f) {
  if (CUresult r = enter()) return r;
  switch (a) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *v = 768;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *v = 0;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *v = 24;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *v = 40;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *v = f->max_dynamic_shared;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) {
  if (CUresult r = enter()) return r;
  if (a != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES || v > 232448)
    return CUDA_ERROR_INVALID_VALUE;
  f->max_dynamic_shared = v;
  return CUDA_SUCCESS;
}
CUresult cuOccupancyMaxPotentialBlockSize(int* min_grid, int* block, CUfunction, CUoccupancyB2DSize,
                                          std::size_t dynamic_shared, int) {
  if (CUresult r = enter()) return r;
  *block = dynamic_shared > 100000 ? 128 : 768;
  *min_grid = 264;
  return CUDA_SUCCESS;
}
#ifndef FAKE_CUDA_WITHOUT_LAUNCH_KERNEL
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, CUstream s, void** params,
                        void** extra) {
  if (CUresult r = enter()) return r;
  if (extra || !params || gx * gy * gz == 0 || bx * by * bz > 768 ||
      shared > static_cast<unsigned>(f->max_dynamic_shared))
    return CUDA_ERROR_INVALID_VALUE;
  // syclone's own read-back kernel (cuda_device.cpp) is the one the fake runs: a copy, counted
  // as one (cuMemcpyAsync's stream hook), not as a kernel launch.
  if (f->name == "syclone_copy_bytes") {
    CUdeviceptr src = *static_cast<CUdeviceptr*>(params[0]);
    CUdeviceptr dst = *static_cast<CUdeviceptr*>(params[1]);
    std::size_t bytes = *static_cast<std::size_t*>(params[2]);
    if (gx != 1 || bx != 256 || bytes > 4096) return CUDA_ERROR_INVALID_VALUE;
    std::memmove(ptr(dst), ptr(src), bytes);
    std::lock_guard lock(g_mutex);
    g_last_copy_stream = s;
    ++g_small_copies;
    return CUDA_SUCCESS;
  }
  if (g_fail_launches.load() > 0) {
    --g_fail_launches;
    return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  }
  {
    unsigned first_word = 0;
    if (g_param_size.load() >= sizeof first_word)
      std::memcpy(&first_word, params[0], sizeof first_word);
    log_op('k', first_word);
  }
  {
    std::lock_guard lock(g_mutex);
    const std::size_t param_size = g_param_size.load();
    g_last_launch = {{gx, gy, gz}, {bx, by, bz}, shared, s, param_size, {}, {}};
    std::memcpy(g_last_launch.params, params[0], std::min(param_size, sizeof g_last_launch.params));
    std::snprintf(g_last_launch.name, sizeof g_last_launch.name, "%s", f->name.c_str());
  }
  ++g_launches;
  occupy(s);
  return CUDA_SUCCESS;
}
#endif

// Test hooks.
void fake_cuda_set_param_size(std::size_t bytes) {
  g_param_size = bytes;
}
int fake_cuda_launches() {
  return g_launches.load();
}
// Modules loaded so far, and the PTX of the last one (copied into `ptx`, at most `size` bytes
// with the terminating zero).
int fake_cuda_small_copies() {
  return g_small_copies.load();
}
int fake_cuda_module_loads() {
  return g_module_loads.load();
}
void fake_cuda_last_ptx(char* ptx, std::size_t size) {
  std::lock_guard lock(g_mutex);
  std::snprintf(ptx, size, "%s", g_last_ptx.c_str());
}
void fake_cuda_last_launch(unsigned* grid, unsigned* block, unsigned* shared, void* params,
                           char* name) {
  std::lock_guard lock(g_mutex);
  std::memcpy(grid, g_last_launch.grid, sizeof g_last_launch.grid);
  std::memcpy(block, g_last_launch.block, sizeof g_last_launch.block);
  *shared = g_last_launch.shared;
  std::memcpy(params, g_last_launch.params, g_last_launch.param_bytes);
  std::memcpy(name, g_last_launch.name, sizeof g_last_launch.name);
}
// Later operations keep their stream busy for `us` microseconds (FAKE_CUDA_LATENCY_US until then).
void fake_cuda_set_latency_us(long us) {
  g_latency_override = us;
}
// Whether syclone's copy kernel last ran on the stream of the last cuMemcpyAsync.
int fake_cuda_copy_kernel_on_memcpy_stream() {
  std::lock_guard lock(g_mutex);
  return g_last_copy_stream && g_last_copy_stream == g_last_memcpy_stream;
}
// Starts (1) or stops (0) the operation log, emptying it.
void fake_cuda_log_ops(int on) {
  std::lock_guard lock(g_mutex);
  g_ops.clear();
  g_log_ops = on != 0;
}
// The logged operations (at most `max`): kind, first word of the kernel object, calling thread.
int fake_cuda_ops(char* kinds, unsigned* first_words, std::size_t* threads, int max) {
  std::lock_guard lock(g_mutex);
  int n = 0;
  for (; n < max && n < static_cast<int>(g_ops.size()); ++n) {
    kinds[n] = g_ops[n].kind;
    first_words[n] = g_ops[n].first_word;
    threads[n] = g_ops[n].thread;
  }
  return n;
}
// The next `n` kernel launches fail with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES.
void fake_cuda_fail_launches(int n) {
  g_fail_launches = n;
}
// Makes every later call fail with `code`, as a kernel fault does.
void fake_cuda_fail_context(int code) {
  g_sticky_error = code;
}
int fake_cuda_violations() {
  return g_violations.load();
}
long fake_cuda_live_allocations() {
  return g_live_allocations.load();
}

} // extern "C"
