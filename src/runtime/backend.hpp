// The few interfaces every backend implements (STYLE.md: one folder per backend, same small
// interfaces). The core runtime only talks to devices through these.
#pragma once

#include <sycl/detail/kernel_launch.hpp>
#include <sycl/handler.hpp>
#include <sycl/info.hpp>
#include <sycl/usm.hpp>

#include <array>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace syclone::runtime {

struct device_properties {
  std::string name;
  std::string vendor;
  std::string driver_version;
  std::string version;
  sycl::info::device_type type = sycl::info::device_type::cpu;
  std::uint32_t vendor_id = 0;
  std::uint32_t compute_units = 1;
  std::uint32_t clock_mhz = 0;
  std::size_t max_work_group_size = 1;
  std::size_t max_work_item_sizes[3] = {1, 1, 1};
  // sycl_khr_max_work_group_queries: work-groups of an nd_range kernel, per dimension (SYCL
  // order, right-aligned as max_work_item_sizes) and in total.
  std::size_t max_work_groups[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
  std::size_t max_work_groups_total = SIZE_MAX;
  std::uint64_t local_mem_size = 0;
  sycl::info::local_mem_type local_mem_type = sycl::info::local_mem_type::global;
  std::uint64_t global_mem_size = 0;
  std::uint64_t max_mem_alloc_size = 0;
  std::uint64_t global_mem_cache_size = 0;
  std::uint32_t global_mem_cache_line_size = 64;
  std::uint32_t mem_base_addr_align = 1024; // bits
  std::vector<std::size_t> sub_group_sizes = {1};
  // Seed 004 info::device::primary_sub_group_size: one of sub_group_sizes.
  std::size_t primary_sub_group_size = 1;
  // A CPU's widest vector registers in bytes (info::device::native_vector_width_*); GPUs report
  // scalar widths instead (their vectors are the work-items of a warp).
  std::uint32_t simd_bytes = 16;
  std::uint32_t max_num_sub_groups = 1;
  bool sub_group_independent_forward_progress = false;
  std::vector<sycl::aspect> aspects;
  // sycl_ext_intel_device_info: each value holds only where `aspects` lists its aspect.
  std::string pci_address;                 // ext_intel_pci_address: "0000:65:00.0"
  std::uint32_t pci_device_id = 0;         // ext_intel_device_id
  std::array<unsigned char, 16> uuid = {}; // ext_intel_device_info_uuid
  std::uint32_t memory_clock_mhz = 0;      // ext_intel_memory_clock_rate
  std::uint32_t memory_bus_width = 0;      // ext_intel_memory_bus_width, in bits
  std::uint64_t max_mem_bandwidth = 0;     // ext_intel_max_mem_bandwidth, bytes per second
  // info::device::printf_buffer_size: where kernels' printf output waits to be printed.
  std::size_t printf_buffer_size = 0;
};

// Completion of an operation a backend started asynchronously.
class native_event {
public:
  virtual ~native_event() = default;
  // True once the operation completed.
  virtual bool query() = 0;
  // Blocks until the operation completed (the backend's cheapest way, e.g. cuEventSynchronize).
  virtual void wait() = 0;
  // Calls fn once, from any thread, after the operation completed, with the error it failed
  // with (or null). Only requested when something waits for this operation on the host, so a
  // backend may use something costly here.
  virtual void notify(std::function<void(std::exception_ptr)> fn) = 0;
  // Start and end of the operation on the steady_clock's nanosecond scale, once complete;
  // false when the backend cannot tell (the runtime then uses its own observations).
  virtual bool profile(std::uint64_t& start_ns, std::uint64_t& end_ns) {
    (void)start_ns;
    (void)end_ns;
    return false;
  }
  // SYCL 2020 4.5.1 get_native: the backend's handle of the operation (CUevent), or null.
  virtual void* native_handle() const noexcept { return nullptr; }
  // The operation's place in the order of its stream (1, 2, ... as operations entered it), or 0
  // where the backend does not number them. A stream runs its operations in order: once one
  // with a higher number completed, so did this one, so whoever waits for all of them may wait
  // for the newest alone (an out-of-order queue keeps only those, issue 16).
  virtual std::uint64_t stream_order() const noexcept { return 0; }
};

// An in-order sequence of operations on one device (one per SYCL queue). Operations run after
// the previous operations of the stream. Each returns the operation's native event, or null
// when it already completed before returning (the host device computes on the calling thread).
// Failures known at once throw sycl::exception; failures found later are rethrown by
// native_event::wait().
class stream {
public:
  virtual ~stream() = default;
  // Makes later operations wait for `e` on the device; false when this stream cannot (an event
  // of another backend or device): the scheduler then waits on the host.
  virtual bool wait_on_device(native_event& e) = 0;
  // SYCL 2020 4.13.1 / DESIGN.md "kernel errors": everything that decides whether `launch` can
  // run on this stream's device (device code found, compiled or taken from the cache, the
  // kernel's limits against its shape and local memory) is decided here, at submission, on the
  // submitting thread, so that a kernel that cannot run throws from queue::submit instead of
  // failing later where only wait_and_throw would tell. Throws sycl::exception: errc::build
  // (device code that does not compile; remembered, so a resubmission throws at once),
  // errc::kernel_not_supported, errc::nd_range, errc::memory_allocation. A backend may leave in
  // `launch.prepared` what run_kernel then reuses. Cached: after the first call for a kernel it
  // costs a lookup. What it decides and leaves in the launch may depend only on the kernel, the
  // launch's shape and local memory and the registry's generation: the queue remembers what
  // passed and skips the call for the same submission again (queue.cpp check_command).
  virtual void prepare_kernel_launch(sycl::detail::kernel_launch& launch,
                                     std::size_t local_memory_bytes) {
    (void)launch;
    (void)local_memory_bytes;
  }
  virtual std::shared_ptr<native_event> run_kernel(const sycl::detail::kernel_launch& launch,
                                                   std::size_t local_memory_bytes) = 0;
  virtual std::shared_ptr<native_event> copy(const sycl::detail::mem_region& src,
                                             const sycl::detail::mem_region& dst) = 0;
  virtual std::shared_ptr<native_event> fill(const sycl::detail::mem_region& dst,
                                             const void* pattern, std::size_t pattern_size) = 0;
  // Copies `bytes` (a few KiB at most) from device memory of this stream's device to pinned host
  // memory the device addresses directly (its usm::alloc::host), in the stream's order: what a
  // host accessor reads back right after a kernel (a reduction's result). A backend may have a
  // quicker way than a copy; the default copies.
  virtual std::shared_ptr<native_event> copy_to_pinned(const void* src, void* dst,
                                                       std::size_t bytes) {
    return copy(sycl::detail::contiguous(src, 1, bytes), sycl::detail::contiguous(dst, 1, bytes));
  }
  // SYCL 2020 4.5.1 get_native(queue) / interop_handle::get_native_queue: the backend's queue
  // (CUstream), or null where there is none (the host device).
  virtual void* native_handle() const noexcept { return nullptr; }
  // sycl_ext_oneapi_enqueue_native_command: calls `enqueue` (which adds native work to
  // native_handle()) in this stream's order, and returns the event of everything it added. The
  // default, for streams without native work, calls it and reports it complete.
  virtual std::shared_ptr<native_event> run_native(const std::function<void()>& enqueue) {
    enqueue();
    return nullptr;
  }
};

// What SYCL 2020 4.11.13.3's info::kernel_device_specific queries report for one kernel.
struct kernel_properties {
  std::size_t work_group_size = 1; // most work-items per work-group this kernel can run with
  std::size_t preferred_work_group_size_multiple = 1;
  std::size_t private_mem_size = 0; // bytes of private memory per work-item
};

// A device of some backend.
class device {
public:
  virtual ~device() = default;
  virtual sycl::backend backend() const noexcept = 0;
  virtual const device_properties& properties() const noexcept = 0;

  // USM: nullptr when the allocation cannot be made (SYCL 2020 4.8.3).
  virtual void* allocate(std::size_t bytes, std::size_t alignment, sycl::usm::alloc kind) = 0;
  virtual void deallocate(void* ptr, sycl::usm::alloc kind) noexcept = 0;
  // A hint for [ptr, ptr + bytes) of a shared allocation that the device and the host both
  // touch now and then (a reduction's result): keep it mapped for the device rather than
  // migrate its page at each access. Only a hint; the default does nothing.
  virtual void advise_shared_access(void* ptr, std::size_t bytes) noexcept {
    (void)ptr;
    (void)bytes;
  }
  // True when the host can dereference memory this device allocated with `kind`.
  virtual bool host_accessible(sycl::usm::alloc kind) const noexcept = 0;
  // sycl_ext_intel_device_info free_memory: the bytes of global memory the device could give
  // allocations now. Only asked of devices with aspect::ext_intel_free_memory; throws
  // sycl::exception when the backend cannot tell (a driver failure).
  virtual std::uint64_t free_memory() {
    sycl::detail::throw_error(sycl::errc::feature_not_supported,
                              "ext::intel::info::device::free_memory: " + properties().name +
                                  " cannot tell its free memory");
  }

  // profiling: native events of the stream must answer native_event::profile (costs time on
  // some backends, so only queues with property::queue::enable_profiling ask for it).
  virtual std::unique_ptr<stream> create_stream(bool profiling) = 0;

  // SYCL 2020 4.11.10 online compile and link: makes kernel `name` ready to launch with the
  // specialization constant values `values` (null: the defaults), so that launches with the same
  // values compile nothing, and reports what the kernel's info queries need. A GPU backend JITs
  // and loads the kernel here; the host device has nothing to compile. Throws sycl::exception:
  // errc::kernel_not_supported when the device has no code for the kernel, errc::build when
  // compiling it fails.
  virtual kernel_properties prepare_kernel(const std::string& name,
                                           const sycl::detail::spec_constant_values* values) {
    (void)name;
    (void)values;
    kernel_properties p;
    p.work_group_size = properties().max_work_group_size;
    return p;
  }

  // sycl_ext_oneapi_launch_queries' max_num_work_groups (and sycl_ext_oneapi_root_group's
  // bound for use_root_sync launches): how many work-groups of `local_items` work-items with
  // `local_bytes` of dynamic local memory run at once for kernel `name` (prepare_kernel's
  // arguments); 0 where such a work-group cannot run. The default: one.
  virtual std::size_t max_concurrent_work_groups(const std::string& name,
                                                 const sycl::detail::spec_constant_values* values,
                                                 std::size_t local_items, std::size_t local_bytes) {
    (void)name;
    (void)values;
    (void)local_bytes;
    return local_items <= properties().max_work_group_size ? 1 : 0;
  }

  // SYCL 2020 4.5.1 backend interoperability (README "Backend interoperability"). The native
  // device (CUdevice) as an integer; false where the backend has none.
  virtual bool native_device(std::int64_t& out) const noexcept {
    (void)out;
    return false;
  }
  // The native context the device's memory and streams live in (CUDA: the primary context).
  virtual void* native_context() const noexcept { return nullptr; }
  // A stream over a native queue the user created (make_queue); null when `native` is not a
  // queue of this device. The user keeps ownership of `native`.
  virtual std::unique_ptr<stream> adopt_stream(void* native, bool profiling) {
    (void)native;
    (void)profiling;
    return nullptr;
  }
  // make_context over a native context the user created on this device (CUDA: cuCtxCreate): a
  // device of its own whose memory, streams and kernels live in that context, owned by the
  // backend and kept for the process (the same native context gives the same device). Null
  // when `native` is no context of this device.
  virtual device* adopt_context(void* native) {
    (void)native;
    return nullptr;
  }
  // An event over a native event the user created (make_event); null when not this backend's.
  virtual std::shared_ptr<native_event> adopt_event(void* native) {
    (void)native;
    return nullptr;
  }
  // Makes the calling thread ready for native calls on this device (CUDA: its context current),
  // before a host task runs; never throws.
  virtual void bind_thread() noexcept {}

  // Issue 28, recovery after a fault: when a fault in a kernel left the device unusable (CUDA: a
  // sticky error poisons the context), resets it and returns true; false when it is healthy.
  // Memory, streams and events of the device from before a reset are gone: their holders tell
  // them by epoch(), which each reset increases, and neither use nor free them.
  virtual bool recover() { return false; }
  // Whether a fault left the device unusable now (until recover); only asked on error paths.
  virtual bool faulted() { return false; }
  virtual std::uint64_t epoch() const noexcept { return 0; }

  // sycl_ext_oneapi_peer_access between two devices of this backend. `atomics`: whether the
  // question is about atomic operations on the peer's memory.
  virtual bool can_access_peer(device& peer, bool atomics) {
    (void)atomics;
    return &peer == this;
  }
  // Lets kernels on this device access USM device memory of `peer`; throws sycl::exception
  // (errc::feature_not_supported) where the hardware cannot.
  virtual void enable_peer_access(device& peer) {
    if (&peer != this) no_peer_access(peer);
  }
  virtual void disable_peer_access(device& peer) {
    if (&peer != this) no_peer_access(peer);
  }
  // SYCL 2020 4.6.4.2 create_sub_devices: how many sub-devices this device can be split into
  // (its compute units), 0 where the backend cannot partition it (partition_equally and
  // partition_by_counts are then not supported).
  virtual std::uint32_t partition_max_sub_devices() const noexcept { return 0; }
  // A sub-device made of `compute_units` of this device's compute units (1 <= compute_units <=
  // properties().compute_units, checked by the caller): a device of its own that shares this
  // device's memory and runs kernels on at most that many compute units. Null where
  // partition_max_sub_devices() is 0.
  virtual std::unique_ptr<device> create_sub_device(std::uint32_t compute_units) {
    (void)compute_units;
    return nullptr;
  }

  // Whether `copy` on this device's streams may read memory of `src` directly (a buffer's newest
  // copy on another device of the same backend: CUDA copies peer to peer, or the driver stages
  // through host memory itself); false makes the runtime stage through the host copy.
  virtual bool copies_from(device& src) {
    (void)src;
    return false;
  }

protected:
  [[noreturn]] void no_peer_access(device& peer) const {
    sycl::detail::throw_error(sycl::errc::feature_not_supported,
                              "sycl_ext_oneapi_peer_access: " + properties().name +
                                  " cannot access the memory of " + peer.properties().name +
                                  " (check device::ext_oneapi_can_access_peer first)");
  }
};

// Every device of one backend, as one SYCL platform.
class platform {
public:
  virtual ~platform() = default;
  virtual sycl::backend backend() const noexcept = 0;
  virtual std::string name() const = 0;
  virtual std::string vendor() const = 0;
  virtual std::string version() const = 0;
  virtual std::vector<device*> devices() = 0;
};

// Strided copy and fill of host-addressable regions, shared by backends whose memory the host
// can address (the host device, and host/shared USM of others).
void host_copy(const sycl::detail::mem_region& src, const sycl::detail::mem_region& dst);
void host_fill(const sycl::detail::mem_region& dst, const void* pattern, std::size_t pattern_size);

// The host CPU platform (src/backends/host).
platform& host_platform();

// A backend plugin (a shared library loaded with dlopen) exports
//   extern "C" syclone::runtime::platform* syclone_backend_create(int abi_version,
//                                                                 std::string* error);
// returning nullptr (and why, in *error) when it cannot serve this machine, e.g. no driver.
// 3: plugins read kernel_registry::generation() inline, so the registry's layout is shared too.
// 4: stream::prepare_kernel_launch, kernel_launch::prepared.
// 5: backend interoperability (native handles, adopt_stream/event, run_native), peer access.
// 6: device::partition_max_sub_devices and create_sub_device.
// 7: native_event::stream_order.
// 8: sycl_ext_intel_device_info: device_properties' hardware facts, device::free_memory;
//    device_properties::printf_buffer_size.
// 9: device::max_concurrent_work_groups, kernel_launch::root_sync.
// 10: device::adopt_context.
inline constexpr int backend_abi_version = 10;
using backend_create_fn = platform* (*)(int abi_version, std::string* error);

} // namespace syclone::runtime
