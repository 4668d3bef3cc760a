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
#include <set>
#include <string>
#include <thread>
#include <vector>

using clock_type = std::chrono::steady_clock;

// How many times cuDevicePrimaryCtxReset ran: handles made before the last one are stale, and a
// call naming one counts as a stale use (fake_cuda_stale_uses), as it would be undefined on a GPU.
std::atomic<unsigned> g_generation{0};

// The driver's opaque handle types (declared in cuda_driver.hpp's namespace).
namespace syclone::cuda {
struct CUctx_st {
  int device;
  unsigned long long id = 0; // cuCtxGetId: the primary context's is 0
};
struct CUmod_st {
  std::string ptx;
  std::map<std::string, CUfunction> functions;
  std::map<std::string, std::uint64_t> globals; // .global variables of the PTX, 8 bytes each
  unsigned generation = g_generation.load();
};
struct CUfunc_st {
  std::string name;
  bool prints = false; // its module's PTX declares vprintf (printf in the kernel)
  int max_dynamic_shared = 48 * 1024;
  unsigned generation = g_generation.load();
};
struct CUstream_st {
  unsigned flags;
  clock_type::time_point busy_until;
  unsigned generation = g_generation.load();
  int printf_pending = 0;      // printing launches not followed by a stream callback yet
  CUcontext context = nullptr; // the one current when it was made
};
struct CUevent_st {
  unsigned flags;
  bool recorded = false;
  clock_type::time_point recorded_at, completes_at;
  unsigned generation = g_generation.load();
};
} // namespace syclone::cuda

using namespace syclone::cuda;

namespace {

CUctx_st g_context{0};

std::mutex g_mutex;
std::atomic<int> g_sticky_error{CUDA_SUCCESS};
std::atomic<int> g_violations{0};
std::atomic<int> g_launches{0};
// printf (cuStreamAddCallback): printing launches, those printed, callbacks (under g_mutex).
int g_printing_launches = 0, g_printf_printed = 0, g_default_printf_pending = 0;
int g_stream_callbacks = 0;
std::atomic<int> g_module_loads{0};
std::atomic<int> g_small_copies{0};                  // launches of syclone_copy_bytes
std::string g_last_ptx;                              // guarded by g_mutex
std::map<std::string, std::uint64_t*> g_last_global; // guarded by g_mutex
std::atomic<long> g_live_allocations{0};
thread_local CUcontext t_current = nullptr;
// Contexts made with cuCtxCreate (the primary context is g_context), and cuCtxPushCurrent's
// stack of each thread; the context of each allocation and of the last launch.
std::mutex g_context_mutex;
std::vector<CUcontext> g_user_contexts;                // guarded by g_context_mutex
thread_local std::vector<CUcontext> t_stack;           // the contexts below t_current
std::map<const void*, CUcontext> g_allocation_context; // guarded by g_mutex
std::atomic<CUcontext> g_last_launch_context{nullptr};
bool live_context(CUcontext c) {
  if (c == &g_context) return true;
  std::lock_guard lock(g_context_mutex);
  return std::find(g_user_contexts.begin(), g_user_contexts.end(), c) != g_user_contexts.end();
}

std::string mode() {
  const char* m = std::getenv("FAKE_CUDA_MODE");
  return m ? m : "ok";
}

// FAKE_CUDA_LAUNCH_US: how long cuLaunchKernel keeps its calling thread, as the driver's launch
// costs the host a few microseconds (issue 28: a launch thread then lags behind its submitter).
clock_type::duration launch_cost() {
  static const long us = [] {
    const char* s = std::getenv("FAKE_CUDA_LAUNCH_US");
    return s ? std::atol(s) : 0L;
  }();
  return std::chrono::microseconds(us);
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

std::atomic<long> g_stale_uses{0};
bool dead(const void* p); // memory a context reset destroyed (counted as a stale use)
std::atomic<int> g_resets{0};
// A handle made before the last context reset (null handles are the default stream).
template <typename T>
bool stale(const T* h) {
  if (!h || h->generation == g_generation.load()) return false;
  ++g_stale_uses;
  return true;
}
#define FAKE_FRESH(h)                                                                              \
  do {                                                                                             \
    if (stale(h)) return CUDA_ERROR_INVALID_HANDLE;                                                \
  } while (0)

// Checks what every call with a context needs.
CUresult enter() {
  if (!t_current || !live_context(t_current)) {
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
  bool cooperative;
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
  FAKE_FRESH(s);
  if (dead(ptr(dst))) return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (dst % unit || (height > 1 && pitch % unit) || (height > 1 && pitch < width * unit))
    return CUDA_ERROR_INVALID_VALUE;
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < width; ++x)
      std::memcpy(static_cast<char*>(ptr(dst)) + y * pitch + x * unit, value, unit);
  occupy(s);
  return CUDA_SUCCESS;
}

// Fault injection (issue 28): every entry point counts its calls, and a test makes the n-th call
// of one of them (counted from when it asks) fail with a code of its choice. Calls of one entry
// point are told apart by name; the table grows as entry points are first called.
struct fake_entry_point {
  const char* name;
  std::atomic<long> calls{0};
  std::atomic<long> fail_at{0}; // the call number that fails (0: none)
  std::atomic<int> code{0};
  std::atomic<int> repeat{0}; // further calls after fail_at that fail too (-1: all)
};
constexpr int max_entry_points = 128;
fake_entry_point g_entry_points[max_entry_points];
std::atomic<int> g_entry_count{0};
std::mutex g_entry_mutex;
std::atomic<bool> g_injection_armed{false};

// FAKE_CUDA_FAIL=<entry point>:<n>:<CUresult>[:<repeat>] arms a failure before the program
// runs, for failures during initialization (tests/cuda_unit/fault_matrix.sh).
void arm_from_environment(fake_entry_point& e) {
  const char* spec = std::getenv("FAKE_CUDA_FAIL");
  if (!spec) return;
  const char* colon = std::strchr(spec, ':');
  if (!colon || std::string(spec, colon) != e.name) return;
  long nth = 0;
  int code = 0, repeat = 0;
  if (std::sscanf(colon + 1, "%ld:%d:%d", &nth, &code, &repeat) < 2) return;
  e.fail_at = nth;
  e.code = code;
  e.repeat = repeat;
  g_injection_armed = true;
}

fake_entry_point* find_entry(const char* name, bool add) {
  std::lock_guard lock(g_entry_mutex);
  int n = g_entry_count.load();
  for (int i = 0; i < n; ++i)
    if (std::strcmp(g_entry_points[i].name, name) == 0) return &g_entry_points[i];
  if (!add || n == max_entry_points) return nullptr;
  g_entry_points[n].name = name;
  arm_from_environment(g_entry_points[n]);
  g_entry_count.store(n + 1);
  return &g_entry_points[n];
}

CUresult injected(fake_entry_point& e) {
  const long call = e.calls.fetch_add(1) + 1;
  if (!g_injection_armed.load(std::memory_order_relaxed)) return CUDA_SUCCESS;
  const long at = e.fail_at.load();
  if (at == 0 || call < at) return CUDA_SUCCESS;
  const int repeat = e.repeat.load();
  if (call == at || repeat < 0 || call <= at + repeat) return static_cast<CUresult>(e.code.load());
  return CUDA_SUCCESS;
}
#define FAKE_ENTRY(name)                                                                           \
  static fake_entry_point* const fake_entry_ = find_entry(name, true);                             \
  if (CUresult injected_result_ = fake_entry_ ? injected(*fake_entry_) : CUDA_SUCCESS)             \
  return injected_result_

// Live allocations (device, managed and pinned host), so that tests can ask whether a kernel's
// pointers lie inside one (a launch made after the memory it uses was freed: issue 28).
std::map<std::uintptr_t, std::size_t> g_live; // guarded by g_mutex
void note_allocation(const void* p, std::size_t bytes) {
  std::lock_guard lock(g_mutex);
  g_live[reinterpret_cast<std::uintptr_t>(p)] = bytes;
}
std::size_t note_free(const void* p) {
  std::lock_guard lock(g_mutex);
  auto it = g_live.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == g_live.end()) return 0;
  std::size_t bytes = it->second;
  g_live.erase(it);
  return bytes;
}
// Bytes of device (and managed) memory allocated now: cuMemGetInfo's free memory shrinks by them.
std::atomic<std::size_t> g_device_bytes{0};
// Allocations a context reset destroyed (kept, not freed: an access is counted, not a crash).
// Never destroyed, so that LeakSanitizer, which checks after static destructors ran, still finds
// them referenced.
std::map<std::uintptr_t, std::size_t>& g_dead = *new std::map<std::uintptr_t, std::size_t>();
// guarded by g_mutex
// Streams, events and modules not destroyed yet: a context reset destroys them on a GPU, and the
// runtime must not name them after one; here they stay listed (LeakSanitizer sees them held).
std::set<const void*>& g_handles = *new std::set<const void*>(); // guarded by g_mutex
template <typename T>
T* track(T* h) {
  std::lock_guard lock(g_mutex);
  g_handles.insert(h);
  return h;
}
void untrack(const void* h) {
  std::lock_guard lock(g_mutex);
  g_handles.erase(h);
}
bool dead(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(g_mutex);
  auto it = g_dead.upper_bound(a);
  if (it == g_dead.begin()) return false;
  --it;
  if (a >= it->first + it->second) return false;
  ++g_stale_uses;
  return true;
}

// A test's host implementation of kernels (fake_cuda_set_kernel_emulator): the fake runs it at
// the launch, as it runs copies when they are enqueued.
using kernel_emulator = int (*)(const char* name, const void* object, const unsigned* grid,
                                const unsigned* block, unsigned shared);
std::atomic<kernel_emulator> g_emulator{nullptr};

} // namespace

extern "C" {

CUresult cuInit(unsigned flags) {
  FAKE_ENTRY("cuInit");
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  return mode() == "init_error" ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int* v) {
  FAKE_ENTRY("cuDriverGetVersion");
  *v = 13000;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult r, const char** s) {
  FAKE_ENTRY("cuGetErrorString");
  *s = error_string(r);
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuGetErrorName(CUresult r, const char** s) {
  FAKE_ENTRY("cuGetErrorName");
  *s = error_name(r);
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuDeviceGetCount(int* count) {
  FAKE_ENTRY("cuDeviceGetCount");
  *count = mode() == "no_device" ? 0 : 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice* d, int ordinal) {
  FAKE_ENTRY("cuDeviceGet");
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *d = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char* name, int len, CUdevice) {
  FAKE_ENTRY("cuDeviceGetName");
  std::snprintf(name, static_cast<std::size_t>(len), "%s", "Fake NVIDIA H100");
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int* v, CUdevice_attribute a, CUdevice) {
  FAKE_ENTRY("cuDeviceGetAttribute");
  // For sycl_ext_intel_device_info: PCI bus 0xc1, device 0, domain 0 (attributes 33, 34 and
  // 50); an H100 SXM's HBM3, 2619 MHz and 5120 bits (36, 37).
  static const std::map<int, int> values = {
      {1, 1024},     {2, 1024},      {3, 1024}, {4, 64},          {5, 2147483647}, {6, 65535},
      {7, 65535},    {8, 49152},     {10, 32},  {11, 2147483647}, {13, 1980000},   {16, 132},
      {18, 0},       {38, 52428800}, {41, 1},   {75, 9},          {76, 0},         {83, 1},
      {86, 0},       {88, 0},        {89, 1},   {97, 232448},     {33, 0xc1},      {34, 0},
      {36, 2619000}, {37, 5120},     {50, 0}};
  auto it = values.find(a);
  if (it == values.end()) return CUDA_ERROR_INVALID_VALUE;
  *v = it->second;
  return CUDA_SUCCESS;
}
// The UUID nvidia-smi would show as GPU-5fa3c1d2-0b4e-4c6f-9a21-7e8d3b2c1f00.
CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice) {
  FAKE_ENTRY("cuDeviceGetUuid_v2");
  static const unsigned char bytes[16] = {0x5f, 0xa3, 0xc1, 0xd2, 0x0b, 0x4e, 0x4c, 0x6f,
                                          0x9a, 0x21, 0x7e, 0x8d, 0x3b, 0x2c, 0x1f, 0x00};
  std::memcpy(uuid->bytes, bytes, sizeof bytes);
  return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem_v2(std::size_t* bytes, CUdevice) {
  FAKE_ENTRY("cuDeviceTotalMem_v2");
  *bytes = total_memory;
  return CUDA_SUCCESS;
}
// FAKE_CUDA_RESET=refuse: as NVIDIA's drivers 580 do after a kernel fault, a context reset does
// not give the device back (every later retain answers the fault).
bool g_reset_refused = false;
CUresult cuDevicePrimaryCtxRetain(CUcontext* c, CUdevice) {
  FAKE_ENTRY("cuDevicePrimaryCtxRetain");
  if (g_reset_refused) return CUDA_ERROR_ILLEGAL_ADDRESS;
  *c = &g_context;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) {
  FAKE_ENTRY("cuDevicePrimaryCtxRelease_v2");
  return CUDA_SUCCESS;
}
// Destroys what the context held: its allocations (kept as dead ranges), streams, events and
// modules (stale from now on), and a kernel fault's sticky error.
CUresult cuDevicePrimaryCtxReset_v2(CUdevice) {
  FAKE_ENTRY("cuDevicePrimaryCtxReset_v2");
  std::lock_guard lock(g_mutex);
  for (auto& [a, bytes] : g_live) g_dead[a] = bytes;
  g_live.clear();
  g_live_allocations = 0;
  g_device_bytes = 0;
  ++g_generation;
  ++g_resets;
  const char* how = std::getenv("FAKE_CUDA_RESET");
  if (how && std::strcmp(how, "refuse") == 0 && g_sticky_error.load() != CUDA_SUCCESS)
    g_reset_refused = true; // the fault stays
  else
    g_sticky_error = CUDA_SUCCESS;
  return CUDA_SUCCESS;
}
// The printf buffer's size (CU_LIMIT_PRINTF_FIFO_SIZE), CUDA's default 1 MiB; no other limit.
CUresult cuCtxGetLimit(std::size_t* value, int limit) {
  FAKE_ENTRY("cuCtxGetLimit");
  if (CUresult r = enter()) return r;
  if (limit != 1) return CUDA_ERROR_INVALID_VALUE;
  *value = 1 << 20;
  return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize() {
  FAKE_ENTRY("cuCtxSynchronize");
  return enter();
}
CUresult cuCtxSetCurrent(CUcontext c) {
  FAKE_ENTRY("cuCtxSetCurrent");
  if (c && !live_context(c)) return CUDA_ERROR_INVALID_CONTEXT;
  t_current = c;
  return CUDA_SUCCESS;
}
// Users' contexts (make_context): made current on creation, as the driver does.
CUresult cuCtxCreate_v2(CUcontext* c, unsigned, CUdevice d) {
  FAKE_ENTRY("cuCtxCreate_v2");
  static std::atomic<unsigned long long> next_id{1};
  auto* made = new CUctx_st{d, next_id++};
  {
    std::lock_guard lock(g_context_mutex);
    g_user_contexts.push_back(made);
  }
  if (t_current) t_stack.push_back(t_current);
  t_current = made;
  *c = made;
  return CUDA_SUCCESS;
}
// CUDA 13's cuCtxCreate (cuda.h maps the name to it): no creation parameters here.
CUresult cuCtxCreate_v4(CUcontext* c, void* params, unsigned flags, CUdevice d) {
  FAKE_ENTRY("cuCtxCreate_v4");
  if (params) return CUDA_ERROR_NOT_SUPPORTED;
  return cuCtxCreate_v2(c, flags, d);
}
// CU_POINTER_ATTRIBUTE_CONTEXT (1) of an allocation: the context current when it was made.
CUresult cuPointerGetAttribute(void* data, int attribute, CUdeviceptr p) {
  FAKE_ENTRY("cuPointerGetAttribute");
  if (attribute != 1) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  auto it = g_allocation_context.find(ptr(p));
  if (it == g_allocation_context.end()) return CUDA_ERROR_INVALID_VALUE;
  *static_cast<CUcontext*>(data) = it->second;
  return CUDA_SUCCESS;
}
CUresult cuCtxDestroy_v2(CUcontext c) {
  FAKE_ENTRY("cuCtxDestroy_v2");
  std::lock_guard lock(g_context_mutex);
  auto it = std::find(g_user_contexts.begin(), g_user_contexts.end(), c);
  if (it == g_user_contexts.end()) return CUDA_ERROR_INVALID_CONTEXT;
  g_user_contexts.erase(it);
  if (t_current == c) t_current = nullptr;
  delete c;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetCurrent(CUcontext* c) {
  FAKE_ENTRY("cuCtxGetCurrent");
  *c = t_current;
  return CUDA_SUCCESS;
}
CUresult cuCtxPushCurrent_v2(CUcontext c) {
  FAKE_ENTRY("cuCtxPushCurrent_v2");
  if (!c || !live_context(c)) return CUDA_ERROR_INVALID_CONTEXT;
  t_stack.push_back(t_current);
  t_current = c;
  return CUDA_SUCCESS;
}
CUresult cuCtxPopCurrent_v2(CUcontext* c) {
  FAKE_ENTRY("cuCtxPopCurrent_v2");
  if (!t_current) return CUDA_ERROR_INVALID_CONTEXT;
  if (c) *c = t_current;
  t_current = t_stack.empty() ? nullptr : t_stack.back();
  if (!t_stack.empty()) t_stack.pop_back();
  return CUDA_SUCCESS;
}
CUresult cuCtxGetDevice(CUdevice* d) {
  FAKE_ENTRY("cuCtxGetDevice");
  if (!t_current || !live_context(t_current)) return CUDA_ERROR_INVALID_CONTEXT;
  *d = t_current->device;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetId(CUcontext c, unsigned long long* id) {
  FAKE_ENTRY("cuCtxGetId");
  if (!c || !live_context(c)) return CUDA_ERROR_INVALID_CONTEXT;
  *id = c->id;
  return CUDA_SUCCESS;
}
// One device: it is no peer of itself (as the driver answers), and has no other.
CUresult cuDeviceCanAccessPeer(int* can, CUdevice, CUdevice) {
  FAKE_ENTRY("cuDeviceCanAccessPeer");
  *can = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetP2PAttribute(int* v, int, CUdevice, CUdevice) {
  FAKE_ENTRY("cuDeviceGetP2PAttribute");
  *v = 0;
  return CUDA_SUCCESS;
}
CUresult cuCtxEnablePeerAccess(CUcontext, unsigned) {
  FAKE_ENTRY("cuCtxEnablePeerAccess");
  if (CUresult r = enter()) return r;
  return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
}
CUresult cuCtxDisablePeerAccess(CUcontext) {
  FAKE_ENTRY("cuCtxDisablePeerAccess");
  if (CUresult r = enter()) return r;
  return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

CUresult cuMemGetInfo_v2(std::size_t* free, std::size_t* total) {
  FAKE_ENTRY("cuMemGetInfo_v2");
  if (CUresult r = enter()) return r;
  *free = free_memory - std::min<std::size_t>(g_device_bytes.load(), free_memory);
  *total = total_memory;
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc_v2(CUdeviceptr* p, std::size_t bytes) {
  FAKE_ENTRY("cuMemAlloc_v2");
  if (CUresult r = enter()) return r;
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  if (bytes > max_allocation) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = reinterpret_cast<CUdeviceptr>(std::aligned_alloc(256, (bytes + 255) / 256 * 256));
  note_allocation(ptr(*p), bytes);
  {
    std::lock_guard lock(g_mutex);
    g_allocation_context[ptr(*p)] = t_current;
  }
  ++g_live_allocations;
  g_device_bytes += bytes;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, std::size_t bytes) {
  FAKE_ENTRY("cuMemcpyHtoD_v2");
  if (CUresult r = enter()) return r;
  std::memcpy(ptr(dst), src, bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemAllocManaged(CUdeviceptr* p, std::size_t bytes, unsigned flags) {
  FAKE_ENTRY("cuMemAllocManaged");
  if (flags != CU_MEM_ATTACH_GLOBAL) return CUDA_ERROR_INVALID_VALUE;
  return cuMemAlloc_v2(p, bytes);
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  FAKE_ENTRY("cuMemFree_v2");
  if (CUresult r = enter()) return r;
  if (dead(ptr(p))) return CUDA_ERROR_INVALID_VALUE;
  g_device_bytes -= note_free(ptr(p));
  std::free(ptr(p));
  --g_live_allocations;
  return CUDA_SUCCESS;
}
CUresult cuMemHostAlloc(void** p, std::size_t bytes, unsigned) {
  FAKE_ENTRY("cuMemHostAlloc");
  if (CUresult r = enter()) return r;
  if (bytes > max_allocation) return CUDA_ERROR_OUT_OF_MEMORY;
  // Like CUDA 13's small pinned blocks: 512-byte aligned, never page aligned.
  auto* base = static_cast<char*>(std::aligned_alloc(4096, (bytes + 512 + 4095) / 4096 * 4096));
  *p = base + 512;
  note_allocation(*p, bytes);
  ++g_live_allocations;
  return CUDA_SUCCESS;
}
CUresult cuMemFreeHost(void* p) {
  FAKE_ENTRY("cuMemFreeHost");
  if (CUresult r = enter()) return r;
  if (dead(p)) return CUDA_ERROR_INVALID_VALUE;
  note_free(p);
  std::free(static_cast<char*>(p) - 512);
  --g_live_allocations;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes, CUstream s) {
  FAKE_ENTRY("cuMemcpyAsync");
  if (CUresult r = enter()) return r;
  FAKE_FRESH(s);
  if (dead(ptr(dst)) || dead(ptr(src))) return CUDA_ERROR_ILLEGAL_ADDRESS;
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
  FAKE_ENTRY("cuMemcpy3DAsync_v2");
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
  FAKE_ENTRY("cuMemsetD8Async");
  return memset_rows(d, n, &v, 1, n, 1, s);
}
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, std::size_t n, CUstream s) {
  FAKE_ENTRY("cuMemsetD16Async");
  return memset_rows(d, n * 2, &v, 2, n, 1, s);
}
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, std::size_t n, CUstream s) {
  FAKE_ENTRY("cuMemsetD32Async");
  return memset_rows(d, n * 4, &v, 4, n, 1, s);
}
// The synchronous form a program's own code calls (the CTS's host_task CUDA case).
CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned v, std::size_t n) {
  FAKE_ENTRY("cuMemsetD32_v2");
  if (CUresult r = enter()) return r;
  if (dead(ptr(d))) return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (d % 4) return CUDA_ERROR_INVALID_VALUE;
  for (std::size_t i = 0; i < n; ++i) std::memcpy(static_cast<char*>(ptr(d)) + 4 * i, &v, 4);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD2D8Async(CUdeviceptr d, std::size_t pitch, unsigned char v, std::size_t w,
                           std::size_t h, CUstream s) {
  FAKE_ENTRY("cuMemsetD2D8Async");
  return memset_rows(d, pitch, &v, 1, w, h, s);
}
CUresult cuMemsetD2D16Async(CUdeviceptr d, std::size_t pitch, unsigned short v, std::size_t w,
                            std::size_t h, CUstream s) {
  FAKE_ENTRY("cuMemsetD2D16Async");
  return memset_rows(d, pitch, &v, 2, w, h, s);
}
CUresult cuMemsetD2D32Async(CUdeviceptr d, std::size_t pitch, unsigned v, std::size_t w,
                            std::size_t h, CUstream s) {
  FAKE_ENTRY("cuMemsetD2D32Async");
  return memset_rows(d, pitch, &v, 4, w, h, s);
}

CUresult cuStreamCreate(CUstream* s, unsigned flags) {
  FAKE_ENTRY("cuStreamCreate");
  if (CUresult r = enter()) return r;
  *s = track(new CUstream_st{flags, clock_type::now()});
  (*s)->context = t_current;
  return CUDA_SUCCESS;
}
// The driver prints kernels' printf output before it runs a stream callback: here a callback
// counts the printing launches before it on its stream as printed (fake_cuda_printf_unprinted),
// and runs at once.
CUresult cuStreamAddCallback(CUstream s, CUstreamCallback callback, void* data, unsigned flags) {
  FAKE_ENTRY("cuStreamAddCallback");
  FAKE_FRESH(s);
  if (CUresult r = enter()) return r;
  if (!callback || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  {
    std::lock_guard lock(g_mutex);
    int& pending = s ? s->printf_pending : g_default_printf_pending;
    g_printf_printed += pending;
    pending = 0;
    ++g_stream_callbacks;
  }
  callback(s, CUDA_SUCCESS, data);
  return CUDA_SUCCESS;
}
CUresult cuStreamGetCtx(CUstream s, CUcontext* c) {
  FAKE_ENTRY("cuStreamGetCtx");
  if (!s) return CUDA_ERROR_INVALID_HANDLE;
  *c = s->context ? s->context : &g_context;
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy_v2(CUstream s) {
  FAKE_ENTRY("cuStreamDestroy_v2");
  FAKE_FRESH(s);
  if (CUresult r = enter(); r && r != g_sticky_error.load()) return r;
  // Like the driver, outstanding work still completes: host functions hold no pointer to it.
  untrack(s);
  delete s;
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream s) {
  FAKE_ENTRY("cuStreamSynchronize");
  FAKE_FRESH(s);
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
  FAKE_ENTRY("cuStreamWaitEvent");
  FAKE_FRESH(s);
  FAKE_FRESH(e);
  if (CUresult r = enter()) return r;
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(g_mutex);
  if (e->recorded) s->busy_until = std::max(s->busy_until, e->completes_at);
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent* e, unsigned flags) {
  FAKE_ENTRY("cuEventCreate");
  if (CUresult r = enter()) return r;
  *e = track(new CUevent_st{flags});
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy_v2(CUevent e) {
  FAKE_ENTRY("cuEventDestroy_v2");
  FAKE_FRESH(e);
  if (CUresult r = enter(); r && r != g_sticky_error.load()) return r;
  untrack(e);
  delete e;
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream s) {
  FAKE_ENTRY("cuEventRecord");
  FAKE_FRESH(e);
  FAKE_FRESH(s);
  if (CUresult r = enter()) return r;
  std::lock_guard lock(g_mutex);
  e->recorded = true;
  e->recorded_at = clock_type::now();
  e->completes_at = std::max(s->busy_until, e->recorded_at);
  return CUDA_SUCCESS;
}
CUresult cuEventQuery(CUevent e) {
  FAKE_ENTRY("cuEventQuery");
  FAKE_FRESH(e);
  if (CUresult r = enter()) return r;
  std::lock_guard lock(g_mutex);
  return clock_type::now() >= e->completes_at ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}
CUresult cuEventSynchronize(CUevent e) {
  FAKE_ENTRY("cuEventSynchronize");
  FAKE_FRESH(e);
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
  FAKE_ENTRY("cuEventElapsedTime");
  FAKE_FRESH(a);
  FAKE_FRESH(b);
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
  FAKE_ENTRY("cuModuleLoadDataEx");
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
  *m = track(new CUmod_st{ptx, {}});
  ++g_module_loads;
  {
    std::lock_guard lock(g_mutex);
    g_last_ptx = ptx;
  }
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule m) {
  FAKE_ENTRY("cuModuleUnload");
  FAKE_FRESH(m);
  if (CUresult r = enter()) return r;
  for (auto& [name, f] : m->functions) delete f;
  untrack(m);
  delete m;
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction* f, CUmodule m, const char* name) {
  FAKE_ENTRY("cuModuleGetFunction");
  FAKE_FRESH(m);
  if (CUresult r = enter()) return r;
  if (m->ptx.find(".entry " + std::string(name)) == std::string::npos) return CUDA_ERROR_NOT_FOUND;
  auto& fn = m->functions[name];
  if (!fn) {
    fn = new CUfunc_st{name};
    fn->prints = m->ptx.find(") vprintf") != std::string::npos;
  }
  *f = fn;
  return CUDA_SUCCESS;
}
// A `.global` variable the PTX declares: 8 bytes of the module's own.
CUresult cuModuleGetGlobal_v2(CUdeviceptr* dptr, std::size_t* bytes, CUmodule m, const char* name) {
  FAKE_ENTRY("cuModuleGetGlobal_v2");
  FAKE_FRESH(m);
  if (CUresult r = enter()) return r;
  const std::string symbol = " " + std::string(name) + ";";
  if (m->ptx.find(symbol) == std::string::npos) return CUDA_ERROR_NOT_FOUND;
  std::lock_guard lock(g_mutex);
  auto& slot = m->globals[name];
  g_last_global[name] = &slot;
  if (dptr) *dptr = reinterpret_cast<CUdeviceptr>(&slot);
  if (bytes) *bytes = sizeof slot;
  return CUDA_SUCCESS;
}
// Test hook: the value of the `.global` variable `name` of the last module asked for it (what
// was written there through cuModuleGetGlobal's address), or 0.
std::uint64_t fake_cuda_module_global(const char* name) {
  std::lock_guard lock(g_mutex);
  auto it = g_last_global.find(name);
  return it == g_last_global.end() ? 0 : *it->second;
}
CUresult cuFuncGetAttribute(int* v, CUfunction_attribute a, CUfunction f) {
  FAKE_ENTRY("cuFuncGetAttribute");
  if (CUresult r = enter()) return r;
  FAKE_FRESH(f);
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
  FAKE_ENTRY("cuFuncSetAttribute");
  if (CUresult r = enter()) return r;
  if (a != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES || v > 232448)
    return CUDA_ERROR_INVALID_VALUE;
  f->max_dynamic_shared = v;
  return CUDA_SUCCESS;
}
CUresult cuOccupancyMaxPotentialBlockSize(int* min_grid, int* block, CUfunction, CUoccupancyB2DSize,
                                          std::size_t dynamic_shared, int) {
  FAKE_ENTRY("cuOccupancyMaxPotentialBlockSize");
  if (CUresult r = enter()) return r;
  *block = dynamic_shared > 100000 ? 128 : 768;
  *min_grid = 264;
  return CUDA_SUCCESS;
}
// Blocks per multiprocessor: 2048 threads and 227 KiB of shared memory each, at most 32.
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, CUfunction f, int block_size,
                                                     std::size_t dynamic_shared) {
  FAKE_ENTRY("cuOccupancyMaxActiveBlocksPerMultiprocessor");
  FAKE_FRESH(f);
  if (CUresult r = enter()) return r;
  if (!blocks || block_size <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (block_size > 768 || dynamic_shared > static_cast<std::size_t>(f->max_dynamic_shared)) {
    *blocks = 0;
    return CUDA_SUCCESS;
  }
  int n = std::min(32, 2048 / ((block_size + 31) / 32 * 32));
  if (dynamic_shared) n = std::min<int>(n, static_cast<int>(232448 / dynamic_shared));
  *blocks = n;
  return CUDA_SUCCESS;
}
namespace {
CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                unsigned bz, unsigned shared, CUstream s, void** params, void** extra,
                bool cooperative);
}
#ifndef FAKE_CUDA_WITHOUT_LAUNCH_KERNEL
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, CUstream s, void** params,
                        void** extra) {
  FAKE_ENTRY("cuLaunchKernel");
  return launch(f, gx, gy, gz, bx, by, bz, shared, s, params, extra, false);
}
#endif
// A cooperative launch: every block resident at once (132 multiprocessors), else
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE.
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                   unsigned by, unsigned bz, unsigned shared, CUstream s,
                                   void** params) {
  FAKE_ENTRY("cuLaunchCooperativeKernel");
  int per_sm = 0;
  if (CUresult r = cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, f, static_cast<int>(bx * by * bz), shared))
    return r;
  if (std::size_t(gx) * gy * gz > std::size_t(per_sm) * 132)
    return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
  return launch(f, gx, gy, gz, bx, by, bz, shared, s, params, nullptr, true);
}
namespace {
CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                unsigned bz, unsigned shared, CUstream s, void** params, void** extra,
                bool cooperative) {
  FAKE_FRESH(f);
  g_last_launch_context = t_current;
  FAKE_FRESH(s);
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
  if (launch_cost().count() > 0) std::this_thread::sleep_for(launch_cost());
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
    g_last_launch = {{gx, gy, gz}, {bx, by, bz}, shared, s, param_size, {}, {}, cooperative};
    std::memcpy(g_last_launch.params, params[0], std::min(param_size, sizeof g_last_launch.params));
    std::snprintf(g_last_launch.name, sizeof g_last_launch.name, "%s", f->name.c_str());
  }
  ++g_launches;
  if (f->prints) {
    std::lock_guard lock(g_mutex);
    ++g_printing_launches;
    ++(s ? s->printf_pending : g_default_printf_pending);
  }
  if (kernel_emulator emulate = g_emulator.load()) {
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    if (int r = emulate(f->name.c_str(), params[0], grid, block, shared)) {
      g_sticky_error = r;  // a kernel fault poisons the context, as on a GPU
      return CUDA_SUCCESS; // reported by a later call, as a fault is
    }
  }
  occupy(s);
  return CUDA_SUCCESS;
}
} // namespace

// Test hooks.
bool fake_cuda_last_launch_cooperative() {
  std::lock_guard lock(g_mutex);
  return g_last_launch.cooperative;
}
// Launches of kernels that call printf, and how many of them no stream callback followed yet
// (their output would wait for a synchronization point); stream callbacks made.
int fake_cuda_printing_launches() {
  std::lock_guard lock(g_mutex);
  return g_printing_launches;
}
int fake_cuda_printf_unprinted() {
  std::lock_guard lock(g_mutex);
  return g_printing_launches - g_printf_printed;
}
int fake_cuda_stream_callbacks() {
  std::lock_guard lock(g_mutex);
  return g_stream_callbacks;
}
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
// Kernel launches run `emulate` (null: none) with the kernel's name and object; a non-zero
// result is a fault in the kernel (its CUresult), which fails every later call.
void fake_cuda_set_kernel_emulator(kernel_emulator emulate) {
  g_emulator = emulate;
}
// The context current when `p` was allocated (cuMemAlloc), null for none of its allocations.
void* fake_cuda_allocation_context(const void* p) {
  std::lock_guard lock(g_mutex);
  auto it = g_allocation_context.find(p);
  return it == g_allocation_context.end() ? nullptr : it->second;
}
// The context current at the last kernel launch.
void* fake_cuda_last_launch_context() {
  return g_last_launch_context.load();
}
// 1 if [p, p + bytes) lies inside one live allocation of the fake.
int fake_cuda_live_range(const void* p, std::size_t bytes) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(g_mutex);
  auto it = g_live.upper_bound(a);
  if (it == g_live.begin()) return 0;
  --it;
  return a >= it->first && a + bytes <= it->first + it->second ? 1 : 0;
}
// The entry points called so far and how often: fills at most `max` names and counts; returns
// how many there are.
int fake_cuda_entry_points(const char** names, long* calls, int max) {
  const int n = g_entry_count.load();
  for (int i = 0; i < n && i < max; ++i) {
    names[i] = g_entry_points[i].name;
    calls[i] = g_entry_points[i].calls.load();
  }
  return n;
}
// The `nth` call from now of entry point `name` fails with `code`, and the `repeat` calls after it
// too (-1: every later call). `nth` 0 disarms it. Returns 0 when the table is full.
int fake_cuda_fail_call(const char* name, long nth, int code, int repeat) {
  // An entry point not called yet is added under a name of its own (the caller's may not last).
  fake_entry_point* e = find_entry(name, false);
  if (!e) e = find_entry(strdup(name), true);
  if (!e) return 0;
  e->code = code;
  e->repeat = repeat;
  e->fail_at = nth == 0 ? 0 : e->calls.load() + nth;
  g_injection_armed = true;
  return 1;
}
// Calls that named a handle or memory of the context from before a reset (cuDevicePrimaryCtxReset).
long fake_cuda_stale_uses() {
  return g_stale_uses.load();
}
int fake_cuda_resets() {
  return g_resets.load();
}
// Disarms every injected failure and clears a sticky error.
void fake_cuda_clear_faults() {
  for (int i = 0; i < g_entry_count.load(); ++i) g_entry_points[i].fail_at = 0;
  g_sticky_error = CUDA_SUCCESS;
}

} // extern "C"
