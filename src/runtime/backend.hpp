// The few interfaces every backend implements (STYLE.md: one folder per backend, same small
// interfaces). The core runtime only talks to devices through these.
#pragma once

#include <sycl/detail/kernel_launch.hpp>
#include <sycl/handler.hpp>
#include <sycl/info.hpp>
#include <sycl/usm.hpp>

#include <cstdint>
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
  std::uint64_t local_mem_size = 0;
  sycl::info::local_mem_type local_mem_type = sycl::info::local_mem_type::global;
  std::uint64_t global_mem_size = 0;
  std::uint64_t max_mem_alloc_size = 0;
  std::uint64_t global_mem_cache_size = 0;
  std::uint32_t global_mem_cache_line_size = 64;
  std::uint32_t mem_base_addr_align = 1024; // bits
  std::vector<std::size_t> sub_group_sizes = {1};
  std::uint32_t max_num_sub_groups = 1;
  bool sub_group_independent_forward_progress = false;
  std::vector<sycl::aspect> aspects;
};

// A device of some backend. Execution entry points run the operation to completion on the
// calling thread (the host device computes there; an asynchronous backend waits for it).
class device {
public:
  virtual ~device() = default;
  virtual sycl::backend backend() const noexcept = 0;
  virtual const device_properties& properties() const noexcept = 0;

  // USM: nullptr when the allocation cannot be made (SYCL 2020 4.8.3).
  virtual void* allocate(std::size_t bytes, std::size_t alignment, sycl::usm::alloc kind) = 0;
  virtual void deallocate(void* ptr, sycl::usm::alloc kind) noexcept = 0;

  virtual void run_kernel(const sycl::detail::kernel_launch& launch,
                          std::size_t local_memory_bytes) = 0;
  virtual void copy(const sycl::detail::mem_region& src, const sycl::detail::mem_region& dst) = 0;
  virtual void fill(const sycl::detail::mem_region& dst, const void* pattern,
                    std::size_t pattern_size) = 0;
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

} // namespace syclone::runtime
