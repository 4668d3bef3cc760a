// sycl_ext_intel_device_info: device::get_info for ext::intel::info::device descriptors. The
// backends fill in what their hardware tells (device_properties, device::free_memory) and list
// the aspect of each answer; a query without its aspect throws errc::feature_not_supported, as
// the extension's "Error Condition" sections require.
#include "device_impl.hpp"

#include <sycl/ext/intel/device_info.hpp>

SYCLONE_BEGIN_NAMESPACE
namespace {

// Throws unless the device has `a` (the descriptor's aspect).
void require(const detail::device_impl& d, aspect a, const char* descriptor,
             const char* aspect_name) {
  if (d.has(a)) return;
  detail::throw_error(errc::feature_not_supported,
                      std::string("device::get_info<ext::intel::info::device::") + descriptor +
                          ">: " + d.props().name + " lacks aspect::" + aspect_name +
                          " (sycl_ext_intel_device_info); check device::has(aspect::" +
                          aspect_name + ") before asking");
}

} // namespace

#define SYCLONE_INTEL_INFO(desc, asp, expr)                                                        \
  template <>                                                                                      \
  SYCLONE_EXPORT ext::intel::info::device::desc::return_type                                       \
  device::get_info<ext::intel::info::device::desc>() const {                                       \
    require(*m_impl, aspect::asp, #desc, #asp);                                                    \
    const auto& p = m_impl->props();                                                               \
    (void)p;                                                                                       \
    return expr;                                                                                   \
  }

SYCLONE_INTEL_INFO(device_id, ext_intel_device_id, p.pci_device_id)
SYCLONE_INTEL_INFO(uuid, ext_intel_device_info_uuid, p.uuid)
SYCLONE_INTEL_INFO(pci_address, ext_intel_pci_address, p.pci_address)
SYCLONE_INTEL_INFO(max_mem_bandwidth, ext_intel_max_mem_bandwidth, p.max_mem_bandwidth)
SYCLONE_INTEL_INFO(memory_clock_rate, ext_intel_memory_clock_rate, p.memory_clock_mhz)
SYCLONE_INTEL_INFO(memory_bus_width, ext_intel_memory_bus_width, p.memory_bus_width)
SYCLONE_INTEL_INFO(free_memory, ext_intel_free_memory, m_impl->backend_device().free_memory())

// Intel GPUs' layout and the version 7 queries: no syclone backend answers them, so no device
// lists their aspects (device_info.hpp says why) and each query throws.
#define SYCLONE_INTEL_INFO_NONE(desc, asp)                                                         \
  template <>                                                                                      \
  SYCLONE_EXPORT ext::intel::info::device::desc::return_type                                       \
  device::get_info<ext::intel::info::device::desc>() const {                                       \
    require(*m_impl, aspect::asp, #desc, #asp);                                                    \
    detail::throw_error(errc::feature_not_supported,                                               \
                        "ext::intel::info::device::" #desc ": no syclone backend answers it");     \
  }
SYCLONE_INTEL_INFO_NONE(gpu_eu_simd_width, ext_intel_gpu_eu_simd_width)
SYCLONE_INTEL_INFO_NONE(gpu_eu_count, ext_intel_gpu_eu_count)
SYCLONE_INTEL_INFO_NONE(gpu_slices, ext_intel_gpu_slices)
SYCLONE_INTEL_INFO_NONE(gpu_subslices_per_slice, ext_intel_gpu_subslices_per_slice)
SYCLONE_INTEL_INFO_NONE(gpu_eu_count_per_subslice, ext_intel_gpu_eu_count_per_subslice)
SYCLONE_INTEL_INFO_NONE(gpu_hw_threads_per_eu, ext_intel_gpu_hw_threads_per_eu)
SYCLONE_INTEL_INFO_NONE(current_clock_throttle_reasons, ext_intel_current_clock_throttle_reasons)
SYCLONE_INTEL_INFO_NONE(fan_speed, ext_intel_fan_speed)
SYCLONE_INTEL_INFO_NONE(min_power_limit, ext_intel_power_limits)
SYCLONE_INTEL_INFO_NONE(max_power_limit, ext_intel_power_limits)
#undef SYCLONE_INTEL_INFO_NONE
#undef SYCLONE_INTEL_INFO

SYCLONE_END_NAMESPACE
