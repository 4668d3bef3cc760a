#include "cuda_device.hpp"

#include "cuda_stream.hpp"
#include "launch_thread.hpp"

#include <sycl/exception.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>

namespace syclone::cuda {

namespace {

int attribute(CUdevice device, CUdevice_attribute a) {
  int v = 0;
  call(driver().device_get_attribute, &v, a, device);
  return v;
}

// An attribute some drivers may not report (deprecated ones): `fallback` then.
int attribute_or(CUdevice device, CUdevice_attribute a, int fallback) {
  int v = 0;
  return invoke(driver().device_get_attribute, &v, a, device) == CUDA_SUCCESS ? v : fallback;
}

unsigned positive(int v) {
  return v > 0 ? static_cast<unsigned>(v) : 1u;
}

// Allocations aligned beyond the driver's guarantee: the pointer handed out -> the driver's.
// Shared by all devices: the runtime frees host allocations through any device of the context.
struct aligned_allocations {
  std::mutex mutex;
  std::unordered_map<void*, void*> base;
};
aligned_allocations& aligned_map() {
  static auto* m = new aligned_allocations;
  return *m;
}

// SYCLONE_DEVICE_MEMORY_LIMIT=<bytes>[K|M|G]: the most device memory (cuMemAlloc and managed)
// the runtime allocates on each GPU; 0 or unset: the device's own. For running programs whose
// buffers exceed the device (buffer copies are evicted to make room) and for testing that.
std::size_t memory_limit_setting() {
  static const std::size_t limit = [] {
    const char* e = std::getenv("SYCLONE_DEVICE_MEMORY_LIMIT");
    if (!e || !*e) return std::size_t{0};
    char* end = nullptr;
    unsigned long long v = std::strtoull(e, &end, 10);
    int shift = 0;
    if (end != e && *end) {
      switch (*end++) {
      case 'K':
      case 'k':
        shift = 10;
        break;
      case 'M':
      case 'm':
        shift = 20;
        break;
      case 'G':
      case 'g':
        shift = 30;
        break;
      default:
        end = nullptr;
      }
    }
    if (end == e || !end || *end || v > (~0ull >> shift)) {
      std::fprintf(stderr,
                   "syclone: ignoring SYCLONE_DEVICE_MEMORY_LIMIT=\"%s\": expected a number of "
                   "bytes, optionally followed by K, M or G\n",
                   e);
      return std::size_t{0};
    }
    return static_cast<std::size_t>(v << shift);
  }();
  return limit;
}

} // namespace

std::string driver_version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

cuda_device::cuda_device(CUdevice device, int ordinal, int driver_version)
    : m_ordinal(ordinal), m_device(device) {
  call(driver().primary_ctx_retain, &m_context, device);
  make_current(m_context);
  query_properties(device, driver_version);
  m_driver_version = driver_version;
  start_context_services();
}

cuda_device::cuda_device(const cuda_device& like, CUcontext adopted)
    : m_ordinal(like.m_ordinal), m_device(like.m_device), m_context(adopted), m_user_context(true),
      m_props(like.m_props), m_limits(like.m_limits), m_max_pitch(like.m_max_pitch),
      m_max_shared_optin(like.m_max_shared_optin), m_arch(like.m_arch), m_managed(like.m_managed),
      m_memory_limit(like.m_memory_limit), m_driver_version(like.m_driver_version) {
  start_context_services();
}

void cuda_device::start_context_services() {
  m_all_events.push_back(std::make_unique<event_services>(m_context, m_life));
  m_events.store(m_all_events.back().get(), std::memory_order_release);
  kernel_cache::device_info info;
  info.context = m_context;
  info.arch = m_arch;
  info.driver_version = m_driver_version;
  info.device_name = m_props.name;
  info.device = this;
  m_all_kernels.push_back(std::make_unique<kernel_cache>(std::move(info)));
  m_kernels.store(m_all_kernels.back().get(), std::memory_order_release);
}

void cuda_device::give_up_context(const char* call, CUresult r) {
  // The old context is gone all the same: everything of it is stale from now on.
  m_life = std::make_shared<context_life>();
  m_epoch.fetch_add(1, std::memory_order_acq_rel);
  // NVIDIA documents sticky errors as needing a new process; drivers 580 (CUDA 13) refuse a new
  // primary context after the reset (cuDevicePrimaryCtxRetain answers the fault again).
  m_unrecoverable = m_props.name +
                    " cannot be used again in this process: after the fault in a kernel reported "
                    "before, the CUDA driver refuses the device a new context even once the old "
                    "one was reset (" +
                    std::string(call) + ": " + error_text(r) +
                    "; NVIDIA documents that the process must be restarted). Buffers keep the "
                    "contents they also had on the host; other devices work on";
  sycl::detail::throw_error(sycl::errc::runtime, m_unrecoverable);
}

std::shared_ptr<const context_life> cuda_device::life() const {
  std::lock_guard lock(m_life_mutex);
  return m_life;
}

bool cuda_device::faulted() {
  if (!sticky_error_seen()) return false;
  std::lock_guard lock(m_life_mutex);
  return try_make_current(m_context) == CUDA_SUCCESS && is_sticky(invoke(driver().ctx_synchronize));
}

bool cuda_device::recover() {
  if (!sticky_error_seen()) return false; // no fault anywhere: the common case, no driver call
  // A user's context is the user's to destroy: a fault in it stays (its commands keep failing).
  if (m_user_context) return false;
  std::lock_guard lock(m_life_mutex);
  if (!m_unrecoverable.empty()) sycl::detail::throw_error(sycl::errc::runtime, m_unrecoverable);
  const driver_api& d = driver();
  if (try_make_current(m_context) != CUDA_SUCCESS) return false;
  if (!is_sticky(invoke(d.ctx_synchronize))) return false;
  // Launches handed to launch threads fail now rather than after the reset.
  launch_thread::drain_all();
  m_life->alive.store(false, std::memory_order_release);
  // Nothing current on this thread while the context goes (the reset context would be).
  invoke(d.ctx_set_current, static_cast<CUcontext>(nullptr));
  forget_current();
  if (CUresult r = invoke(d.primary_ctx_reset, m_device); r != CUDA_SUCCESS)
    give_up_context(d.primary_ctx_reset.name, r);
  // The fault may still answer the first calls after the reset: a few tries.
  CUcontext again = nullptr;
  CUresult r = CUDA_SUCCESS;
  for (int attempt = 0; attempt < 5; ++attempt) {
    r = invoke(d.primary_ctx_retain, &again, m_device);
    if (r == CUDA_SUCCESS || !is_sticky(r)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (r != CUDA_SUCCESS) give_up_context(d.primary_ctx_retain.name, r);
  invoke(d.primary_ctx_release, m_device); // retained once, as before the reset
  if (again != m_context)
    sycl::detail::throw_error(sycl::errc::feature_not_supported,
                              "recovering " + m_props.name +
                                  " from a fault in a kernel: the driver gave the reset primary "
                                  "context a new handle, which syclone does not follow; restart "
                                  "the process to use the device again");
  forget_current();
  make_current(m_context);
  m_life = std::make_shared<context_life>();
  start_context_services();
  {
    std::lock_guard small(m_small_copy_mutex);
    m_small_copy_module = nullptr;
    m_small_copy.store(nullptr, std::memory_order_relaxed);
    m_small_copy_tried.store(false, std::memory_order_release);
  }
  {
    std::lock_guard peers(m_peer_mutex);
    m_copy_peers.clear();
  }
  {
    std::lock_guard advised(m_advise_mutex);
    m_advised.clear();
  }
  {
    std::lock_guard usage(m_usage_mutex);
    m_memory_used = 0;
    m_allocation_sizes.clear();
  }
  m_epoch.fetch_add(1, std::memory_order_acq_rel);
  return true;
}

void cuda_device::query_properties(CUdevice dev, int driver_version) {
  if (!attribute(dev, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING))
    sycl::detail::throw_error(sycl::errc::runtime,
                              "CUDA device " + std::to_string(m_ordinal) +
                                  " has no unified addressing, which the CUDA backend needs");
  auto& p = m_props;
  char name[256] = {};
  call(driver().device_get_name, name, static_cast<int>(sizeof name - 1), dev);
  p.name = name;
  p.vendor = "NVIDIA Corporation";
  p.vendor_id = 0x10de; // NVIDIA's PCI vendor id
  p.driver_version = driver_version_string(driver_version);
  int major = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  int minor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  m_arch = "sm_" + std::to_string(major * 10 + minor);
  p.version = m_arch;
  p.type = sycl::info::device_type::gpu;

  m_limits.multiprocessors = positive(attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
  m_limits.max_threads_per_block =
      positive(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  m_limits.warp_size = positive(attribute(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE));
  const CUdevice_attribute block_attr[3] = {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
                                            CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                                            CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  const CUdevice_attribute grid_attr[3] = {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                                           CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                                           CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
  for (int h = 0; h < 3; ++h) {
    m_limits.max_block[h] = positive(attribute(dev, block_attr[h]));
    m_limits.max_grid[h] = positive(attribute(dev, grid_attr[h]));
  }

  p.compute_units = m_limits.multiprocessors;
  p.clock_mhz = static_cast<std::uint32_t>(attribute_or(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 0) /
                                           1000); // kHz
  p.max_work_group_size = m_limits.max_threads_per_block;
  // SYCL order: the last dimension is CUDA's x.
  p.max_work_item_sizes[0] = m_limits.max_block[2];
  p.max_work_item_sizes[1] = m_limits.max_block[1];
  p.max_work_item_sizes[2] = m_limits.max_block[0];
  p.max_work_groups_total = 1;
  for (int h = 0; h < 3; ++h) {
    p.max_work_groups[2 - h] = m_limits.max_grid[h];
    p.max_work_groups_total *= m_limits.max_grid[h]; // (2^31 - 1) * 65535 * 65535 < 2^63
  }

  // Local memory is dynamic shared memory; kernels needing more than the default 48 KiB opt in
  // at launch (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES).
  auto shared_default =
      static_cast<std::size_t>(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  auto shared_optin = static_cast<std::size_t>(
      attribute_or(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 0));
  m_max_shared_optin = std::max(shared_default, shared_optin);
  p.local_mem_size = m_max_shared_optin;
  p.local_mem_type = sycl::info::local_mem_type::local;

  std::size_t total = 0;
  call(driver().device_total_mem, &total, dev);
  m_memory_limit = memory_limit_setting();
  if (m_memory_limit) total = std::min(total, m_memory_limit);
  p.global_mem_size = total;
  p.max_mem_alloc_size = total;
  p.global_mem_cache_size =
      static_cast<std::uint64_t>(attribute_or(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 0));
  p.global_mem_cache_line_size = 128;
  p.mem_base_addr_align = 256 * 8; // cuMemAlloc aligns to 256 bytes; SYCL counts bits

  p.sub_group_sizes = {m_limits.warp_size};
  p.primary_sub_group_size = m_limits.warp_size; // seed 004: a sub-group is a warp
  p.max_num_sub_groups = m_limits.max_threads_per_block / m_limits.warp_size;
  // Volta's independent thread scheduling.
  p.sub_group_independent_forward_progress = major >= 7;

  m_max_pitch = static_cast<std::size_t>(attribute_or(dev, CU_DEVICE_ATTRIBUTE_MAX_PITCH, 0));
  if (m_max_pitch == 0) m_max_pitch = 2147483647;
  m_managed = attribute_or(dev, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 0) != 0;
  bool concurrent_managed =
      attribute_or(dev, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 0) != 0;
  bool pageable = attribute_or(dev, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 0) != 0;
  // Atomics of a kernel on pinned host memory combine with the host's only where the link
  // carries them (NVLink-C2C, or PCIe with native atomics): on a plain PCIe machine the device's
  // read-modify-writes and the CPU's lose each other's updates (measured on the H100 machine).
  bool host_atomics = attribute_or(dev, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED, 0) != 0;

  using sycl::aspect;
  // online_compiler / online_linker: sycl::compile and sycl::link run the JIT (SYCL 2020 4.11.10).
  p.aspects = {aspect::gpu, aspect::online_compiler, aspect::online_linker, aspect::fp64,
               aspect::atomic64, aspect::queue_profiling, aspect::usm_device_allocations,
               aspect::usm_host_allocations,
               // bfloat16 math in float on every architecture (sm_80's bf16 instructions are
               // not needed for it): <sycl/ext/oneapi/bfloat16_math.hpp>
               aspect::ext_oneapi_bfloat16_math_functions,
               // Images and samplers: the elements in the image's device buffer, read, written
               // and sampled by the kernel's own code (detail/image_texel.hpp), as on the host.
               aspect::image,
               // sycl_ext_oneapi_non_uniform_groups: warp instructions with the group's member
               // mask (nvptx_group.hpp)
               aspect::ext_oneapi_ballot_group, aspect::ext_oneapi_fixed_size_group,
               aspect::ext_oneapi_opportunistic_group, aspect::ext_oneapi_tangle_group};
  if (host_atomics) p.aspects.push_back(aspect::usm_atomic_host_allocations);
  if (major * 10 + minor >= 53) p.aspects.push_back(aspect::fp16);
  if (m_managed) p.aspects.push_back(aspect::usm_shared_allocations);
  if (m_managed && concurrent_managed) p.aspects.push_back(aspect::usm_atomic_shared_allocations);
  // HMM / ATS: the GPU reads memory from malloc.
  if (pageable) p.aspects.push_back(aspect::usm_system_allocations);
  // Kernels' printf output waits in the context's printf buffer (1 MiB unless a program changed
  // it; cuda_kernels.hpp print_after_kernel); 0 where the driver does not tell.
  std::size_t fifo = 0;
  if (driver().ctx_get_limit.fn &&
      invoke(driver().ctx_get_limit, &fifo, CU_LIMIT_PRINTF_FIFO_SIZE) == CUDA_SUCCESS)
    p.printf_buffer_size = fifo;
  query_intel_device_info(dev);
}

namespace {
// The PCI device id of the NVIDIA device at `address` ("0000:65:00.0"), as the operating system
// lists it (/sys/bus/pci/devices/<address>/device); 0 where it does not show an NVIDIA device
// there (a container without /sys, a virtual device).
std::uint32_t pci_device_id(const std::string& address) {
  auto read_hex = [&](const char* file) -> unsigned long {
    std::string path = "/sys/bus/pci/devices/" + address + "/" + file;
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (!f) return 0;
    unsigned long v = 0;
    if (std::fscanf(f, "%lx", &v) != 1) v = 0;
    std::fclose(f);
    return v;
  };
  if (read_hex("vendor") != 0x10de) return 0;
  unsigned long id = read_hex("device");
  return id > 0 && id <= 0xffff ? static_cast<std::uint32_t>(id) : 0;
}
} // namespace

void cuda_device::query_intel_device_info(CUdevice dev) {
  using sycl::aspect;
  auto& p = m_props;
  const driver_api& d = driver();
  auto ask = [&](CUdevice_attribute a, int& v) {
    return invoke(d.device_get_attribute, &v, a, dev) == CUDA_SUCCESS && v >= 0;
  };
  // Free memory: cuMemGetInfo, asked at each query.
  p.aspects.push_back(aspect::ext_intel_free_memory);
  // The PCI address as lspci and nvidia-smi write it (a GPU is function 0 of its device).
  int domain = 0, bus = 0, slot = 0;
  if (ask(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, domain) && ask(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, bus) &&
      ask(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, slot)) {
    char address[32];
    std::snprintf(address, sizeof address, "%04x:%02x:%02x.0", static_cast<unsigned>(domain),
                  static_cast<unsigned>(bus), static_cast<unsigned>(slot));
    p.pci_address = address;
    p.aspects.push_back(aspect::ext_intel_pci_address);
    // The extension wants the PCI device id of a PCI device (0x2335 for an H200); the driver
    // API has none, the operating system lists it under the address.
    if (std::uint32_t id = pci_device_id(p.pci_address)) {
      p.pci_device_id = id;
      p.aspects.push_back(aspect::ext_intel_device_id);
    }
  }
  // The UUID nvidia-smi shows as GPU-xxxxxxxx-xxxx-... (MIG-... for a MIG instance).
  CUuuid uuid{};
  if (d.device_get_uuid.fn && invoke(d.device_get_uuid, &uuid, dev) == CUDA_SUCCESS) {
    std::memcpy(p.uuid.data(), uuid.bytes, sizeof uuid.bytes);
    p.aspects.push_back(aspect::ext_intel_device_info_uuid);
  }
  // Peak memory clock (kHz) and bus width (bits). Their product is the peak bandwidth at two
  // transfers per clock, as NVIDIA computes it (H100 SXM: 2619 MHz x 5120 bits = 3.35 TB/s).
  int clock_khz = 0, width = 0;
  const bool clock_known = ask(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, clock_khz);
  const bool width_known = ask(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, width);
  if (clock_known) {
    p.memory_clock_mhz = static_cast<std::uint32_t>(clock_khz / 1000);
    p.aspects.push_back(aspect::ext_intel_memory_clock_rate);
  }
  if (width_known) {
    p.memory_bus_width = static_cast<std::uint32_t>(width);
    p.aspects.push_back(aspect::ext_intel_memory_bus_width);
  }
  if (clock_known && width_known && clock_khz > 0 && width > 0) {
    p.max_mem_bandwidth = 2 * std::uint64_t(clock_khz) * 1000 * std::uint64_t(width) / 8;
    p.aspects.push_back(aspect::ext_intel_max_mem_bandwidth);
  }
}

std::uint64_t cuda_device::free_memory() {
  make_current(m_context);
  std::size_t free = 0, total = 0;
  call(driver().mem_get_info, &free, &total);
  if (m_memory_limit) {
    std::lock_guard lock(m_usage_mutex);
    free = std::min(free, m_memory_limit - std::min(m_memory_used, m_memory_limit));
  }
  return free;
}

void cuda_device::advise_shared_access(void* ptr, std::size_t bytes) noexcept {
  const driver_api& d = driver();
  if (!d.mem_advise.fn || !ptr || bytes == 0) return;
  {
    std::lock_guard lock(m_advise_mutex);
    if (std::find(m_advised.begin(), m_advised.end(), ptr) != m_advised.end()) return;
    if (m_advised.size() >= 64) m_advised.erase(m_advised.begin());
    m_advised.push_back(ptr);
  }
  if (try_make_current(m_context) != CUDA_SUCCESS) return;
  // The page stays where it is (the host, after the host read the result) and the device
  // reaches it through its mapping: no migration and no fault on each kernel.
  (void)invoke(d.mem_advise, reinterpret_cast<CUdeviceptr>(ptr), bytes,
               CU_MEM_ADVISE_SET_ACCESSED_BY, m_device);
}

void* cuda_device::allocate(std::size_t bytes, std::size_t alignment, sycl::usm::alloc kind) {
  if (bytes == 0 || (alignment & (alignment - 1))) return nullptr;
  if (kind == sycl::usm::alloc::shared && !m_managed) return nullptr;
  if (try_make_current(m_context) != CUDA_SUCCESS) return nullptr;
  // cuMemAlloc and cuMemAllocManaged align to 256 bytes; cuMemHostAlloc promises nothing (small
  // pinned blocks come 512-byte aligned on CUDA 13). Larger alignments over-allocate.
  if (alignment > 256) return allocate_aligned(bytes, alignment, kind);
  void* p = allocate_raw(bytes, kind);
  if (p && reinterpret_cast<std::uintptr_t>(p) % std::max<std::size_t>(alignment, 1) != 0) {
    free_raw(p, kind);
    return allocate_aligned(bytes, alignment, kind);
  }
  return p;
}

void* cuda_device::allocate_aligned(std::size_t bytes, std::size_t alignment,
                                    sycl::usm::alloc kind) {
  if (bytes + alignment < bytes) return nullptr;
  void* raw = allocate_raw(bytes + alignment, kind);
  if (!raw) return nullptr;
  auto addr = reinterpret_cast<std::uintptr_t>(raw);
  void* aligned = reinterpret_cast<void*>((addr + alignment - 1) / alignment * alignment);
  auto& map = aligned_map();
  std::lock_guard lock(map.mutex);
  map.base[aligned] = raw;
  return aligned;
}

void* cuda_device::allocate_raw(std::size_t bytes, sycl::usm::alloc kind) {
  const driver_api& d = driver();
  switch (kind) {
  case sycl::usm::alloc::device: {
    if (!charge(bytes)) return nullptr;
    CUdeviceptr p = 0;
    if (invoke(d.mem_alloc, &p, bytes) != CUDA_SUCCESS) {
      uncharge(nullptr, bytes);
      return nullptr;
    }
    record(reinterpret_cast<void*>(p), bytes);
    return reinterpret_cast<void*>(p);
  }
  case sycl::usm::alloc::host: {
    // Portable: usable from every device's context; mapped: kernels dereference it directly.
    void* p = nullptr;
    return invoke(d.mem_host_alloc, &p, bytes,
                  CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP) == CUDA_SUCCESS
               ? p
               : nullptr;
  }
  case sycl::usm::alloc::shared: {
    // Managed memory can oversubscribe the card, and then every kernel touching it pages: a
    // shared allocation larger than the free device memory fails instead (SYCL 2020 4.8.3
    // allows nullptr).
    std::size_t free = 0, total = 0;
    if (invoke(d.mem_get_info, &free, &total) != CUDA_SUCCESS || bytes > free) return nullptr;
    if (!charge(bytes)) return nullptr;
    CUdeviceptr p = 0;
    if (invoke(d.mem_alloc_managed, &p, bytes, CU_MEM_ATTACH_GLOBAL) != CUDA_SUCCESS) {
      uncharge(nullptr, bytes);
      return nullptr;
    }
    record(reinterpret_cast<void*>(p), bytes);
    return reinterpret_cast<void*>(p);
  }
  default:
    return nullptr;
  }
}

namespace {
// copy_bytes(src, dst, bytes) for one block of 256 threads: 8-byte words when the addresses and
// the size allow, else bytes. Generic addressing: either side may be device or pinned memory.
// PTX of the oldest target the driver's JIT takes for every architecture since.
constexpr const char* small_copy_ptx = R"(.version 6.0
.target sm_50
.address_size 64
.visible .entry syclone_copy_bytes(.param .u64 p_src, .param .u64 p_dst, .param .u64 p_bytes)
{
  .reg .pred %p<3>;
  .reg .b16 %h<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [p_src];
  ld.param.u64 %rd2, [p_dst];
  ld.param.u64 %rd3, [p_bytes];
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd4, %r1;
  or.b64 %rd5, %rd1, %rd2;
  or.b64 %rd5, %rd5, %rd3;
  and.b64 %rd5, %rd5, 7;
  setp.ne.u64 %p1, %rd5, 0;
  @%p1 bra BYTES;
  shl.b64 %rd6, %rd4, 3;
WORDS:
  setp.ge.u64 %p2, %rd6, %rd3;
  @%p2 bra DONE;
  add.u64 %rd7, %rd1, %rd6;
  ld.u64 %rd8, [%rd7];
  add.u64 %rd9, %rd2, %rd6;
  st.u64 [%rd9], %rd8;
  add.u64 %rd6, %rd6, 2048;
  bra WORDS;
BYTES:
  mov.u64 %rd6, %rd4;
BYTE:
  setp.ge.u64 %p2, %rd6, %rd3;
  @%p2 bra DONE;
  add.u64 %rd7, %rd1, %rd6;
  ld.u8 %h1, [%rd7];
  add.u64 %rd9, %rd2, %rd6;
  st.u8 [%rd9], %h1;
  add.u64 %rd6, %rd6, 256;
  bra BYTE;
DONE:
  ret;
}
)";
} // namespace

CUfunction cuda_device::small_copy_kernel() {
  // Every small read-back asks: no lock once it was tried in this context.
  if (m_small_copy_tried.load(std::memory_order_acquire))
    return m_small_copy.load(std::memory_order_relaxed);
  std::lock_guard lock(m_small_copy_mutex);
  if (m_small_copy_tried.load(std::memory_order_relaxed))
    return m_small_copy.load(std::memory_order_relaxed);
  CUfunction fn = nullptr;
  const char* e = std::getenv("SYCLONE_READBACK_KERNEL");
  const driver_api& d = driver();
  if (!(e && std::strcmp(e, "0") == 0) && try_make_current(m_context) == CUDA_SUCCESS) {
    if (invoke(d.module_load_data_ex, &m_small_copy_module, small_copy_ptx, 0u, nullptr, nullptr) !=
        CUDA_SUCCESS)
      m_small_copy_module = nullptr;
    else if (invoke(d.module_get_function, &fn, m_small_copy_module, "syclone_copy_bytes") !=
             CUDA_SUCCESS)
      fn = nullptr;
  }
  m_small_copy.store(fn, std::memory_order_relaxed);
  m_small_copy_tried.store(true, std::memory_order_release);
  return fn;
}

void cuda_device::free_raw(void* ptr, sycl::usm::alloc kind) noexcept {
  if (kind == sycl::usm::alloc::host) {
    invoke(driver().mem_free_host, ptr);
    return;
  }
  invoke(driver().mem_free, reinterpret_cast<CUdeviceptr>(ptr));
  uncharge(ptr, 0);
}

bool cuda_device::charge(std::size_t bytes) {
  if (!m_memory_limit) return true;
  std::lock_guard lock(m_usage_mutex);
  if (bytes > m_memory_limit - m_memory_used) return false;
  m_memory_used += bytes;
  return true;
}

void cuda_device::record(void* ptr, std::size_t bytes) {
  if (!m_memory_limit) return;
  std::lock_guard lock(m_usage_mutex);
  m_allocation_sizes[ptr] = bytes;
}

void cuda_device::uncharge(void* ptr, std::size_t bytes) noexcept {
  if (!m_memory_limit) return;
  std::lock_guard lock(m_usage_mutex);
  if (ptr) {
    auto it = m_allocation_sizes.find(ptr);
    if (it == m_allocation_sizes.end()) return;
    bytes = it->second;
    m_allocation_sizes.erase(it);
  }
  m_memory_used -= bytes;
}

void cuda_device::deallocate(void* ptr, sycl::usm::alloc kind) noexcept {
  if (!ptr) return;
  {
    auto& map = aligned_map();
    std::lock_guard lock(map.mutex);
    if (auto it = map.base.find(ptr); it != map.base.end()) {
      ptr = it->second;
      map.base.erase(it);
    }
  }
  // Kernels using the memory may still wait in a launch thread: made first, so that the free waits
  // for them as the driver's free waits for every launch it was given (launch_thread.hpp).
  launch_thread::drain_all();
  // Failures here (a driver already shut down at exit, a failed context) leave nothing to free.
  if (try_make_current(m_context) == CUDA_SUCCESS)
    free_raw(ptr, kind);
  else if (kind != sycl::usm::alloc::host)
    uncharge(ptr, 0);
}

bool cuda_device::host_accessible(sycl::usm::alloc kind) const noexcept {
  return kind == sycl::usm::alloc::host || kind == sycl::usm::alloc::shared;
}

std::unique_ptr<runtime::stream> cuda_device::create_stream(bool profiling) {
  return std::make_unique<cuda_stream>(*this, profiling);
}

runtime::kernel_properties
cuda_device::prepare_kernel(const std::string& name,
                            const sycl::detail::spec_constant_values* values) {
  kernel_function& fn = kernels().get(name, values);
  runtime::kernel_properties p;
  p.work_group_size = fn.limits.max_threads_per_block;
  // Work-groups are scheduled in whole warps.
  p.preferred_work_group_size_multiple = m_limits.warp_size;
  p.private_mem_size = fn.local_bytes_per_thread;
  return p;
}

std::size_t
cuda_device::max_concurrent_work_groups(const std::string& name,
                                        const sycl::detail::spec_constant_values* values,
                                        std::size_t local_items, std::size_t local_bytes) {
  kernel_function& fn = kernels().get(name, values);
  if (local_items == 0 || local_items > fn.limits.max_threads_per_block ||
      local_bytes + fn.static_shared_bytes > max_shared_optin())
    return 0;
  return resident_blocks(fn, local_items, local_bytes);
}

std::size_t cuda_device::resident_blocks(kernel_function& kernel, std::size_t block_items,
                                         std::size_t local_bytes) {
  const driver_api& d = driver();
  make_current(m_context);
  // Beyond 48 KiB of dynamic shared memory the function must opt in first, else the calculator
  // answers 0.
  if (local_bytes > kernel.dynamic_shared_limit.load(std::memory_order_acquire)) {
    std::lock_guard lock(kernel.attribute_mutex);
    if (local_bytes > kernel.dynamic_shared_limit.load(std::memory_order_relaxed)) {
      call(d.func_set_attribute, kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
           static_cast<int>(local_bytes));
      kernel.dynamic_shared_limit.store(local_bytes, std::memory_order_release);
    }
  }
  int per_multiprocessor = 0;
  call(d.occupancy_max_active_blocks, &per_multiprocessor, kernel.function,
       static_cast<int>(block_items), local_bytes);
  return std::size_t(std::max(per_multiprocessor, 0)) * m_limits.multiprocessors;
}

// cuda_platform

cuda_platform::cuda_platform(int driver_version, std::vector<std::unique_ptr<cuda_device>> devices)
    : m_driver_version(driver_version), m_devices(std::move(devices)) {}

std::string cuda_platform::version() const {
  return "CUDA " + driver_version_string(m_driver_version);
}

std::vector<runtime::device*> cuda_platform::devices() {
  std::vector<runtime::device*> out;
  for (auto& d : m_devices) out.push_back(d.get());
  return out;
}

} // namespace syclone::cuda

// The plugin's entry point (src/runtime/plugins.cpp): the NVIDIA platform, or null with the
// reason when this machine has no usable driver or device.
extern "C" __attribute__((visibility("default"))) syclone::runtime::platform*
syclone_backend_create(int abi_version, std::string* error) {
  using namespace syclone::cuda;
  auto set_error = [&](const std::string& message) {
    if (error) *error = message;
    return nullptr;
  };
  if (abi_version != syclone::runtime::backend_abi_version)
    return set_error("the CUDA backend plugin was built for runtime ABI " +
                     std::to_string(syclone::runtime::backend_abi_version) + ", the runtime has " +
                     std::to_string(abi_version) +
                     "; install matching libsyclone.so and libsyclone-cuda.so");
  std::string why;
  const driver_api* d = load_driver(&why);
  if (!d) return set_error(why);
  if (CUresult r = invoke(d->init, 0u); r != CUDA_SUCCESS)
    return set_error("cuInit failed: " + error_text(r));
  int version = 0, count = 0;
  if (CUresult r = invoke(d->driver_get_version, &version); r != CUDA_SUCCESS)
    return set_error("cuDriverGetVersion failed: " + error_text(r));
  if (CUresult r = invoke(d->device_get_count, &count); r != CUDA_SUCCESS)
    return set_error("cuDeviceGetCount failed: " + error_text(r));
  if (count <= 0) return set_error("no CUDA device");

  // A device that cannot be opened (exclusive mode taken, no unified addressing) is left out;
  // the platform exists while one device works.
  std::vector<std::unique_ptr<cuda_device>> devices;
  std::string skipped;
  for (int i = 0; i < count; ++i) {
    try {
      CUdevice dev = 0;
      call(d->device_get, &dev, i);
      devices.push_back(std::make_unique<cuda_device>(dev, i, version));
    } catch (const std::exception& e) {
      skipped += (skipped.empty() ? "" : "; ") + std::string("device ") + std::to_string(i) + ": " +
                 e.what();
    }
  }
  if (devices.empty()) return set_error("no usable CUDA device: " + skipped);
  if (!skipped.empty() && trace_calls)
    std::fprintf(stderr, "syclone cuda: left out %s\n", skipped.c_str());
  // Lives as long as the process: the runtime keeps pointers to it.
  return new cuda_platform(version, std::move(devices));
}
