// NVIDIA GPUs as SYCL devices (src/runtime/backend.hpp): discovery, properties, USM and the
// per-device state streams share (primary context, kernels, events).
#pragma once

#include "../../runtime/backend.hpp"
#include "cuda_driver.hpp"
#include "cuda_event.hpp"
#include "cuda_kernels.hpp"
#include "launch_geometry.hpp"

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace syclone::cuda {

class cuda_device final : public runtime::device {
public:
  // Retains the device's primary context (the one the CUDA runtime API shares, so that
  // libraries using it see our allocations). Throws sycl::exception.
  cuda_device(CUdevice device, int ordinal, int driver_version);
  // make_context over `adopted`, a context the user created on `like`'s device: `like`'s
  // properties, everything else (memory, streams, kernels, events) in `adopted`, which stays the
  // user's (never destroyed, never reset).
  cuda_device(const cuda_device& like, CUcontext adopted);

  sycl::backend backend() const noexcept override { return sycl::backend::ext_oneapi_cuda; }
  const runtime::device_properties& properties() const noexcept override { return m_props; }

  // SYCL 2020 4.8.3: device memory (cuMemAlloc), pinned host memory (cuMemHostAlloc) and managed
  // memory (cuMemAllocManaged) for shared allocations.
  void* allocate(std::size_t bytes, std::size_t alignment, sycl::usm::alloc kind) override;
  void deallocate(void* ptr, sycl::usm::alloc kind) noexcept override;
  // cuMemAdvise(CU_MEM_ADVISE_SET_ACCESSED_BY this device), once per address.
  void advise_shared_access(void* ptr, std::size_t bytes) noexcept override;
  bool host_accessible(sycl::usm::alloc kind) const noexcept override;
  // sycl_ext_intel_device_info: cuMemGetInfo in the device's context (within
  // SYCLONE_DEVICE_MEMORY_LIMIT, where one is set).
  std::uint64_t free_memory() override;

  // runtime::device's streams profile: the interface does not say which queues need it.
  std::unique_ptr<runtime::stream> create_stream(bool profiling) override;
  // JITs and loads the kernel for `values` into the kernel cache that launches use.
  runtime::kernel_properties
  prepare_kernel(const std::string& name,
                 const sycl::detail::spec_constant_values* values) override;
  // sycl_ext_oneapi_root_group / launch queries: blocks of `kernel` resident at once on the
  // whole device (the occupancy calculator's blocks per multiprocessor, times multiprocessors).
  std::size_t max_concurrent_work_groups(const std::string& name,
                                         const sycl::detail::spec_constant_values* values,
                                         std::size_t local_items, std::size_t local_bytes) override;
  std::size_t resident_blocks(kernel_function& kernel, std::size_t block_items,
                              std::size_t local_bytes);

  // Backend interoperability and sycl_ext_oneapi_peer_access (cuda_interop.cpp).
  bool native_device(std::int64_t& out) const noexcept override {
    out = m_device;
    return true;
  }
  void* native_context() const noexcept override { return m_context; }
  std::unique_ptr<runtime::stream> adopt_stream(void* native, bool profiling) override;
  std::shared_ptr<runtime::native_event> adopt_event(void* native) override;
  runtime::device* adopt_context(void* native) override;
  void bind_thread() noexcept override;
  bool can_access_peer(runtime::device& peer, bool atomics) override;
  void enable_peer_access(runtime::device& peer) override;
  void disable_peer_access(runtime::device& peer) override;
  bool copies_from(runtime::device& src) override;

  CUcontext context() const noexcept { return m_context; }
  CUdevice handle() const noexcept { return m_device; }
  const device_limits& limits() const noexcept { return m_limits; }
  // CU_DEVICE_ATTRIBUTE_MAX_PITCH: larger strides are copied row by row.
  std::size_t max_pitch() const noexcept { return m_max_pitch; }
  // Dynamic shared memory a kernel may use after opting in (cuFuncSetAttribute).
  std::size_t max_shared_optin() const noexcept { return m_max_shared_optin; }
  const std::string& arch() const noexcept { return m_arch; }
  kernel_cache& kernels() noexcept { return *m_kernels.load(std::memory_order_acquire); }
  // syclone's own kernel copying up to `small_copy_limit` bytes between two addresses the device
  // reaches (copy_to_pinned); loaded at the first use, null where the driver cannot load it.
  static constexpr std::size_t small_copy_limit = 4096;
  CUfunction small_copy_kernel();
  event_services& events() noexcept { return *m_events.load(std::memory_order_acquire); }
  // The life of the context as it is now (context_life): streams and events made now hold it.
  std::shared_ptr<const context_life> life() const;
  // Issue 28: after a fault in a kernel poisoned the context (a sticky error, seen by
  // cuCtxSynchronize), drains the launch threads, resets the primary context
  // (cuDevicePrimaryCtxReset) and starts afresh: event services, kernel cache, memory accounting;
  // every stream and event made before stops calling the driver (context_life). True when it
  // reset; false when the context is healthy. Throws errc::runtime when the reset fails.
  bool recover() override;
  bool faulted() override;
  std::uint64_t epoch() const noexcept override { return m_epoch.load(std::memory_order_acquire); }

private:
  void query_properties(CUdevice device, int driver_version);
  // sycl_ext_intel_device_info's facts and their aspects, where the driver tells them.
  void query_intel_device_info(CUdevice device);
  void* allocate_aligned(std::size_t bytes, std::size_t alignment, sycl::usm::alloc kind);
  void* allocate_raw(std::size_t bytes, sycl::usm::alloc kind);
  void free_raw(void* ptr, sycl::usm::alloc kind) noexcept;
  // The event services and kernel cache of the context as it is now (construction, recover()).
  void start_context_services();
  // recover() failed for good: marks everything of the old context stale, remembers why, throws
  // errc::runtime saying so.
  [[noreturn]] void give_up_context(const char* call, CUresult r);
  // SYCLONE_DEVICE_MEMORY_LIMIT: device and managed memory beyond the limit is not allocated.
  // charge() reserves `bytes` under the limit (false: no room); record() notes what an
  // allocation got, uncharge() gives back a reservation or a recorded allocation's bytes.
  bool charge(std::size_t bytes);
  void record(void* ptr, std::size_t bytes);
  void uncharge(void* ptr, std::size_t bytes) noexcept;

  int m_ordinal;
  CUdevice m_device;
  CUcontext m_context = nullptr;
  bool m_user_context = false; // m_context is a user's (adopt_context), not the primary one
  // The devices adopt_context made over users' contexts of this device, by cuCtxGetId (the
  // address where the driver lacks it); kept for the process, as SYCL objects may hold them.
  struct adopted_context {
    unsigned long long id;
    std::unique_ptr<cuda_device> device;
  };
  std::mutex m_adopt_mutex;
  std::vector<adopted_context> m_adopted;
  // Peers this device's context has peer access to, enabled for buffer copies (copies_from).
  std::mutex m_peer_mutex;
  std::vector<const cuda_device*> m_copy_peers;
  // Addresses advise_shared_access advised (a few: reduction results).
  std::mutex m_advise_mutex;
  std::vector<void*> m_advised;
  runtime::device_properties m_props;
  device_limits m_limits;
  std::size_t m_max_pitch = 0;
  std::size_t m_max_shared_optin = 0;
  std::string m_arch;
  bool m_managed = false;
  std::size_t m_memory_limit = 0; // 0: none
  std::mutex m_usage_mutex;
  std::size_t m_memory_used = 0;
  std::unordered_map<void*, std::size_t> m_allocation_sizes; // only with a limit
  std::mutex m_small_copy_mutex;
  std::atomic<bool> m_small_copy_tried{false}; // in this context
  CUmodule m_small_copy_module = nullptr;      // guarded by m_small_copy_mutex
  std::atomic<CUfunction> m_small_copy{nullptr};
  // Replaced by recover(); the ones before are kept (never destroyed: threads' caches and events
  // of the old context may still refer to them).
  std::atomic<kernel_cache*> m_kernels{nullptr};
  std::atomic<event_services*> m_events{nullptr};
  std::vector<std::unique_ptr<kernel_cache>> m_all_kernels;
  std::vector<std::unique_ptr<event_services>> m_all_events;
  mutable std::mutex m_life_mutex; // guards m_life; recover() holds it throughout
  std::shared_ptr<context_life> m_life = std::make_shared<context_life>();
  std::atomic<std::uint64_t> m_epoch{0};
  std::string m_unrecoverable; // why recover() failed for good (under m_life_mutex)
  int m_driver_version = 0;
};

class cuda_platform final : public runtime::platform {
public:
  cuda_platform(int driver_version, std::vector<std::unique_ptr<cuda_device>> devices);
  sycl::backend backend() const noexcept override { return sycl::backend::ext_oneapi_cuda; }
  std::string name() const override { return "NVIDIA CUDA"; }
  std::string vendor() const override { return "NVIDIA Corporation"; }
  std::string version() const override;
  std::vector<runtime::device*> devices() override;

private:
  int m_driver_version;
  std::vector<std::unique_ptr<cuda_device>> m_devices;
};

// "13.0" from cuDriverGetVersion's 13000.
std::string driver_version_string(int version);

} // namespace syclone::cuda
