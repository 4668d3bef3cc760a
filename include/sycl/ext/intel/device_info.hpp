// sycl_ext_intel_device_info (version 7): low-level facts about a device's hardware, asked with
// device::get_info<ext::intel::info::device::...>(). Each descriptor has an aspect, and asking a
// device without it throws errc::feature_not_supported (the extension's "Error Condition").
//
// What syclone's devices answer (README "Intel's device information"):
// - NVIDIA GPUs: free_memory (cuMemGetInfo in the device's context), pci_address
//   (CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID / PCI_BUS_ID / PCI_DEVICE_ID), uuid (cuDeviceGetUuid),
//   memory_clock_rate and memory_bus_width (CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE /
//   GLOBAL_MEMORY_BUS_WIDTH), max_mem_bandwidth (from those two: double data rate over the whole
//   bus), device_id (the PCI device id, read from the operating system's PCI listing for the
//   device's address, where it shows the card).
// - The host CPU device: free_memory (the memory the operating system can give the program
//   without swapping, /proc/meminfo's MemAvailable).
// - Nothing else has a meaning there: the Intel GPU layout (EU counts and SIMD width, slices,
//   subslices, hardware threads per EU) belongs to Intel GPUs, and the version 7 queries
//   (throttle reasons, fan speed, power limits) come from a management library syclone does not
//   use. Their aspects are false on every device, and the queries throw.
#pragma once

#include <sycl/detail/config.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#define SYCL_EXT_INTEL_DEVICE_INFO 7

SYCLONE_BEGIN_NAMESPACE
namespace ext::intel {

// Version 7: why the hardware limits the clock (current_clock_throttle_reasons).
enum class throttle_reason {
  power_cap,
  current_limit,
  thermal_limit,
  psu_alert,
  sw_range,
  hw_range,
  other,
};

namespace info::device {

// Version 5: the PCI device id of a device driven by a PCI device (aspect::ext_intel_device_id).
struct device_id {
  using return_type = std::uint32_t;
};
// Version 2: the device's UUID (aspect::ext_intel_device_info_uuid).
struct uuid {
  using return_type = std::array<unsigned char, 16>;
};
// "domain:bus:device.function", hexadecimal as lspci writes it (aspect::ext_intel_pci_address).
struct pci_address {
  using return_type = std::string;
};
// Intel GPUs' execution units (aspect::ext_intel_gpu_eu_simd_width, _gpu_eu_count, ...).
struct gpu_eu_simd_width {
  using return_type = std::uint32_t;
};
struct gpu_eu_count {
  using return_type = std::uint32_t;
};
struct gpu_slices {
  using return_type = std::uint32_t;
};
struct gpu_subslices_per_slice {
  using return_type = std::uint32_t;
};
struct gpu_eu_count_per_subslice {
  using return_type = std::uint32_t;
};
// Version 3.
struct gpu_hw_threads_per_eu {
  using return_type = std::uint32_t;
};
// Bytes per second (aspect::ext_intel_max_mem_bandwidth).
struct max_mem_bandwidth {
  using return_type = std::uint64_t;
};
// Version 4: bytes of global memory free now (aspect::ext_intel_free_memory); other processes
// change it at any time.
struct free_memory {
  using return_type = std::uint64_t;
};
// Version 6: MHz (aspect::ext_intel_memory_clock_rate) and bits (ext_intel_memory_bus_width).
struct memory_clock_rate {
  using return_type = std::uint32_t;
};
struct memory_bus_width {
  using return_type = std::uint32_t;
};
// Version 7 (aspects ext_intel_current_clock_throttle_reasons, ext_intel_fan_speed and
// ext_intel_power_limits).
struct current_clock_throttle_reasons {
  using return_type = std::vector<ext::intel::throttle_reason>;
};
struct fan_speed {
  using return_type = std::int32_t;
};
struct min_power_limit {
  using return_type = std::int32_t;
};
struct max_power_limit {
  using return_type = std::int32_t;
};

} // namespace info::device
} // namespace ext::intel

// The extension's deprecated spellings, the same queries under their first names.
namespace info::device {
using ext_intel_device_info_uuid [[deprecated("use ext::intel::info::device::uuid")]] =
    ext::intel::info::device::uuid;
using ext_intel_pci_address [[deprecated("use ext::intel::info::device::pci_address")]] =
    ext::intel::info::device::pci_address;
using ext_intel_gpu_eu_simd_width
    [[deprecated("use ext::intel::info::device::gpu_eu_simd_width")]] =
        ext::intel::info::device::gpu_eu_simd_width;
using ext_intel_gpu_eu_count [[deprecated("use ext::intel::info::device::gpu_eu_count")]] =
    ext::intel::info::device::gpu_eu_count;
using ext_intel_gpu_slices [[deprecated("use ext::intel::info::device::gpu_slices")]] =
    ext::intel::info::device::gpu_slices;
using ext_intel_gpu_subslices_per_slice
    [[deprecated("use ext::intel::info::device::gpu_subslices_per_slice")]] =
        ext::intel::info::device::gpu_subslices_per_slice;
using ext_intel_gpu_eu_count_per_subslice
    [[deprecated("use ext::intel::info::device::gpu_eu_count_per_subslice")]] =
        ext::intel::info::device::gpu_eu_count_per_subslice;
using ext_intel_gpu_hw_threads_per_eu
    [[deprecated("use ext::intel::info::device::gpu_hw_threads_per_eu")]] =
        ext::intel::info::device::gpu_hw_threads_per_eu;
using ext_intel_max_mem_bandwidth
    [[deprecated("use ext::intel::info::device::max_mem_bandwidth")]] =
        ext::intel::info::device::max_mem_bandwidth;
} // namespace info::device
SYCLONE_END_NAMESPACE
