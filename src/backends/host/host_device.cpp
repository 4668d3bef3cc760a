// The host CPU as a SYCL device: its properties, USM through aligned host allocations, and
// execution through the host executor.
#include "../../runtime/backend.hpp"
#include "../../runtime/device_global.hpp"
#include "host_executor.hpp"
#include "work_group.hpp"
#include "work_item_streams.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

namespace syclone::host {
namespace {

std::string cpu_field(const char* key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto v = line.substr(colon + 1);
        v.erase(0, v.find_first_not_of(" \t"));
        return v;
      }
    }
  return {};
}

// 32-bit lanes of the widest vector registers the CPU has: AVX-512 16, AVX 8, SSE 4.
std::size_t simd_width_32() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 16;
  if (__builtin_cpu_supports("avx")) return 8;
  return 4;
#elif defined(__aarch64__)
  return 4; // NEON
#else
  return 4;
#endif
}

// sycl_ext_intel_device_info free_memory: what the kernel estimates the program can still
// allocate without swapping (/proc/meminfo's MemAvailable: free pages plus caches it would drop);
// the free pages alone where the file says nothing (Linux before 3.14).
std::uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("MemAvailable:", 0) == 0) {
      unsigned long long kib = 0;
      if (std::sscanf(line.c_str() + 13, "%llu", &kib) == 1) return std::uint64_t(kib) * 1024;
    }
  long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

// The host device computes on the calling thread (with the pool): every operation has
// completed when it returns, so there are no native events to wait for.
class host_stream final : public runtime::stream {
public:
  // max_threads: the threads a launch may use (a sub-device's compute units; 0: the whole pool).
  host_stream(const runtime::device* device, std::size_t primary_sub_group_size,
              std::size_t max_threads)
      : m_device(device), m_primary_sub_group_size(primary_sub_group_size),
        m_max_threads(max_threads) {}
  bool wait_on_device(runtime::native_event&) override { return false; }
  // sycl_ext_oneapi_root_group: a use_root_sync launch has at most one work-group per thread.
  void prepare_kernel_launch(sycl::detail::kernel_launch& l, std::size_t) override {
    if (!l.root_sync || l.kind != sycl::detail::kernel_kind::nd_range) return;
    std::size_t groups = 1;
    for (int d = 0; d < l.dimensions; ++d) groups *= l.local[d] ? l.global[d] / l.local[d] : 0;
    const std::size_t most = max_root_sync_groups(m_max_threads);
    if (groups > most)
      sycl::detail::throw_error(sycl::errc::nd_range,
                                std::string("kernel `") + (l.name ? l.name : "?") +
                                    "` is launched with use_root_sync and " +
                                    std::to_string(groups) + " work-groups, more than the " +
                                    std::to_string(most) +
                                    " the host device runs at once (one per thread); ask "
                                    "info::kernel_queue_specific::max_num_work_groups");
  }
  std::shared_ptr<runtime::native_event> run_kernel(const sycl::detail::kernel_launch& l,
                                                    std::size_t local_bytes) override {
    const void* object = l.object.get();
    switch (l.kind) {
    case sycl::detail::kernel_kind::single_task: {
      range_kernel_scope in_kernel;
      runtime::host_device_scope on_device(m_device);
      if (l.work_item_streams) {
        // The one work-item starts with its own stream state on this thread.
        begin_thread_work_item();
        l.run_single(object);
        begin_thread_work_item();
      } else {
        l.run_single(object);
      }
      break;
    }
    case sycl::detail::kernel_kind::range: {
      std::size_t count = 1;
      for (int d = 0; d < l.dimensions; ++d) count *= l.global[d];
      // (A range launch that can run item by item is a hierarchical kernel.)
      run(range_launch{object, l.run_range, count, l.work_item_streams, m_max_threads,
                       l.run_item != nullptr, m_device});
      break;
    }
    case sycl::detail::kernel_kind::nd_range: {
      nd_range_launch nd{};
      nd.kernel = object;
      nd.run_item = l.run_item;
      nd.run_group = l.run_group;
      nd.name = l.name;
      nd.dimensions = l.dimensions;
      for (int d = 0; d < 3; ++d) {
        nd.group_range[d] = 1;
        nd.local_range[d] = 1;
      }
      for (int d = 0; d < l.dimensions; ++d) {
        nd.local_range[d] = l.local[d];
        nd.group_range[d] = l.global[d] / l.local[d];
      }
      nd.local_memory_bytes = local_bytes;
      nd.sub_group_size =
          l.sub_group_size ? l.sub_group_size : std::uint32_t(m_primary_sub_group_size);
      nd.work_item_streams = l.work_item_streams;
      nd.max_threads = m_max_threads;
      nd.root_sync = l.root_sync;
      nd.device = m_device;
      run(nd);
      break;
    }
    }
    return nullptr;
  }
  std::shared_ptr<runtime::native_event> copy(const sycl::detail::mem_region& src,
                                              const sycl::detail::mem_region& dst) override {
    runtime::host_copy(src, dst);
    return nullptr;
  }
  std::shared_ptr<runtime::native_event> fill(const sycl::detail::mem_region& dst,
                                              const void* pattern,
                                              std::size_t pattern_size) override {
    runtime::host_fill(dst, pattern, pattern_size);
    return nullptr;
  }

private:
  const runtime::device* m_device;
  std::size_t m_primary_sub_group_size;
  std::size_t m_max_threads;
};

class host_device final : public runtime::device {
public:
  host_device() {
    auto& p = m_props;
    p.name = cpu_field("model name");
    if (p.name.empty()) p.name = "host CPU";
    p.vendor = cpu_field("vendor_id");
    if (p.vendor.empty()) p.vendor = "unknown";
    p.vendor_id = p.vendor == "GenuineIntel" ? 0x8086 : p.vendor == "AuthenticAMD" ? 0x1022 : 0;
    p.driver_version = "syclone " + std::to_string(SYCLONE_VERSION_MAJOR) + "." +
                       std::to_string(SYCLONE_VERSION_MINOR);
    p.version = "host";
    p.type = sycl::info::device_type::cpu;
    p.compute_units = static_cast<std::uint32_t>(concurrency());
    p.clock_mhz = static_cast<std::uint32_t>(std::atof(cpu_field("cpu MHz").c_str()));
    // Work-items of a work-group are fibers: the limit is memory, not hardware.
    p.max_work_group_size = 1024;
    p.max_work_item_sizes[0] = p.max_work_item_sizes[1] = p.max_work_item_sizes[2] = 1024;
    p.local_mem_size = 256 * 1024;
    p.local_mem_type = sycl::info::local_mem_type::global;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    p.global_mem_size = pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
    p.max_mem_alloc_size = p.global_mem_size;
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    p.global_mem_cache_size = l2 > 0 ? std::uint64_t(l2) : 0;
    long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    p.global_mem_cache_line_size = line > 0 ? std::uint32_t(line) : 64;
    p.mem_base_addr_align = 8 * 128;
    // Seed 004: sub-groups of several sizes, run as fibers exchanging through scratch memory
    // (work_group.cpp); the primary size is the SIMD width for 32-bit values.
    p.primary_sub_group_size = simd_width_32();
    p.simd_bytes = static_cast<std::uint32_t>(4 * simd_width_32());
    p.sub_group_sizes = {1, 4, 8, 16, 32};
    p.max_num_sub_groups = static_cast<std::uint32_t>(p.max_work_group_size);
    // Kernels' printf writes to stdout at once: no buffer in between, no limit.
    p.printf_buffer_size = SIZE_MAX;
    p.sub_group_independent_forward_progress = false;
    using sycl::aspect;
    // online_compiler / online_linker: sycl::compile and sycl::link accept host images; their
    // code is the host program's, so there is nothing left to compile (SYCL 2020 4.11.3).
    p.aspects = {
        aspect::cpu, aspect::host_debuggable, aspect::online_compiler, aspect::online_linker,
        aspect::fp16, // sycl::half: _Float16 arithmetic on the CPU
        aspect::fp64, aspect::atomic64, aspect::queue_profiling, aspect::usm_device_allocations,
        // Images and samplers in software (detail/image_texel.hpp), every format.
        aspect::image, aspect::usm_host_allocations, aspect::usm_shared_allocations,
        // The host and a running kernel work on one allocation concurrently (SYCL 2020
        // 4.6.4.3): kernels run on worker threads (src/runtime/scheduler.cpp).
        aspect::usm_atomic_host_allocations, aspect::usm_atomic_shared_allocations,
        aspect::usm_system_allocations,
        // bfloat16 math in float (<sycl/ext/oneapi/bfloat16_math.hpp>)
        aspect::ext_oneapi_bfloat16_math_functions,
        // sycl_ext_intel_device_info: of its queries only free memory means something for the
        // CPU (no PCI address or device id; no memory clock, bus width or UUID the operating
        // system tells an unprivileged program).
        aspect::ext_intel_free_memory,
        // sycl_ext_oneapi_non_uniform_groups: exchanges of a group's members only
        // (host_group.hpp), on fibers where groups are used in divergent control flow.
        aspect::ext_oneapi_ballot_group, aspect::ext_oneapi_fixed_size_group,
        aspect::ext_oneapi_opportunistic_group, aspect::ext_oneapi_tangle_group};
  }
  // A sub-device (SYCL 2020 4.6.4.2): the parent's properties with `compute_units` of its
  // compute units, each a thread of the host pool; its kernels run on at most that many threads.
  host_device(const runtime::device_properties& parent, std::uint32_t compute_units)
      : m_props(parent), m_max_threads(compute_units) {
    m_props.compute_units = compute_units;
  }

  sycl::backend backend() const noexcept override { return sycl::backend::syclone_host; }
  const runtime::device_properties& properties() const noexcept override { return m_props; }

  void* allocate(std::size_t bytes, std::size_t alignment, sycl::usm::alloc) override {
    std::size_t align = alignment < 64 ? 64 : alignment;
    std::size_t rounded = (bytes + align - 1) / align * align;
    return std::aligned_alloc(align, rounded);
  }
  void deallocate(void* ptr, sycl::usm::alloc) noexcept override { std::free(ptr); }

  bool host_accessible(sycl::usm::alloc) const noexcept override { return true; }
  std::uint64_t free_memory() override { return available_memory(); }
  std::unique_ptr<runtime::stream> create_stream(bool profiling) override;

  // Work-groups run at once one per thread, with any amount of local memory.
  std::size_t max_concurrent_work_groups(const std::string&,
                                         const sycl::detail::spec_constant_values*,
                                         std::size_t local_items, std::size_t) override {
    if (local_items == 0 || local_items > m_props.max_work_group_size) return 0;
    return max_root_sync_groups(m_max_threads);
  }

  // Any number of threads of the pool, one per compute unit.
  std::uint32_t partition_max_sub_devices() const noexcept override {
    return m_props.compute_units;
  }
  std::unique_ptr<runtime::device> create_sub_device(std::uint32_t compute_units) override {
    return std::make_unique<host_device>(m_props, compute_units);
  }
  // Host devices and their sub-devices share the host's memory.
  bool can_access_peer(runtime::device& peer, bool) override {
    return peer.backend() == sycl::backend::syclone_host;
  }
  void enable_peer_access(runtime::device& peer) override {
    if (peer.backend() != sycl::backend::syclone_host) no_peer_access(peer);
  }
  void disable_peer_access(runtime::device& peer) override {
    if (peer.backend() != sycl::backend::syclone_host) no_peer_access(peer);
  }

private:
  runtime::device_properties m_props;
  std::size_t m_max_threads = 0; // 0: the whole pool (the root device)
};

std::unique_ptr<runtime::stream>
host_device::create_stream(bool /*profiling: host times are exact*/) {
  return std::make_unique<host_stream>(this, m_props.primary_sub_group_size, m_max_threads);
}

class host_platform final : public runtime::platform {
public:
  sycl::backend backend() const noexcept override { return sycl::backend::syclone_host; }
  std::string name() const override { return "syclone host"; }
  std::string vendor() const override { return "syclone"; }
  std::string version() const override { return "SYCL 2020 (syclone host CPU)"; }
  std::vector<runtime::device*> devices() override { return {&m_device}; }

private:
  host_device m_device;
};

} // namespace
} // namespace syclone::host

namespace syclone::runtime {
platform& host_platform() {
  static auto* p = new syclone::host::host_platform();
  return *p;
}
} // namespace syclone::runtime
