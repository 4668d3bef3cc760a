// SYCL 2020 4.6 / A.1–A.6. Information descriptors of platform, context, device, queue, event
// and kernel. Each descriptor names its return type; the runtime instantiates get_info for
// every descriptor listed here.
#pragma once

#include <sycl/access.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/id.hpp>
#include <sycl/range.hpp>

#include <cstdint>
#include <string>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

class device;
class platform;
class context;
class kernel_id;

// SYCL 2020 4.6.4.5. Device aspects.
enum class aspect {
  cpu,
  gpu,
  accelerator,
  custom,
  emulated,
  host_debuggable,
  fp16,
  fp64,
  atomic64,
  image,
  online_compiler,
  online_linker,
  queue_profiling,
  usm_device_allocations,
  usm_host_allocations,
  usm_atomic_host_allocations,
  usm_shared_allocations,
  usm_atomic_shared_allocations,
  usm_system_allocations,
  // sycl_ext_oneapi_composite_device: no device of syclone's is made of others or part of one.
  ext_oneapi_is_composite,
  ext_oneapi_is_component,
  // sycl_ext_oneapi_bfloat16_math_functions: the device runs the bfloat16 math functions
  // (<sycl/ext/oneapi/bfloat16_math.hpp>). Every syclone device does; revision 7 of
  // sycl_ext_oneapi_bfloat16 dropped the aspect, code written before it still asks.
  ext_oneapi_bfloat16_math_functions,
  // sycl_ext_intel_device_info (<sycl/ext/intel/device_info.hpp>): the device answers the
  // ext::intel::info::device query of the same name.
  ext_intel_pci_address,
  ext_intel_gpu_eu_count,
  ext_intel_gpu_eu_simd_width,
  ext_intel_gpu_slices,
  ext_intel_gpu_subslices_per_slice,
  ext_intel_gpu_eu_count_per_subslice,
  ext_intel_max_mem_bandwidth,
  ext_intel_device_info_uuid,
  ext_intel_gpu_hw_threads_per_eu,
  ext_intel_free_memory,
  ext_intel_device_id,
  ext_intel_memory_clock_rate,
  ext_intel_memory_bus_width,
  ext_intel_current_clock_throttle_reasons,
  ext_intel_fan_speed,
  ext_intel_power_limits,
  // sycl_ext_oneapi_non_uniform_groups: the device runs kernels that use each kind of group.
  // Every syclone device does (warp instructions with member masks on NVIDIA GPUs, exchanges of
  // the members on the host device).
  ext_oneapi_ballot_group,
  ext_oneapi_fixed_size_group,
  ext_oneapi_opportunistic_group,
  ext_oneapi_tangle_group,
};

// SYCL 2020 4.1. Backends this implementation can serve (README "Backend interoperability").
enum class backend {
  syclone_host,    // the host CPU device
  ext_oneapi_cuda, // NVIDIA GPUs through the CUDA driver (DPC++'s name, SYCL 2020 4.1's rule)
  all,
  // AdaptiveCpp's and Khronos's draft CUDA backend specification's name for ext_oneapi_cuda.
  cuda = ext_oneapi_cuda,
};

namespace info {

enum class device_type : unsigned {
  cpu = 1,
  gpu = 2,
  accelerator = 4,
  custom = 8,
  automatic = 16,
  host = 32,
  all = 0xffffffff,
};
enum class local_mem_type { none, local, global };
enum class global_mem_cache_type { none, read_only, read_write };
enum class fp_config {
  denorm,
  inf_nan,
  round_to_nearest,
  round_to_zero,
  round_to_inf,
  fma,
  correctly_rounded_divide_sqrt,
  soft_float,
};
enum class partition_property {
  no_partition,
  partition_equally,
  partition_by_counts,
  partition_by_affinity_domain,
};
enum class partition_affinity_domain {
  not_applicable,
  numa,
  L4_cache,
  L3_cache,
  L2_cache,
  L1_cache,
  next_partitionable,
};
enum class execution_capability { exec_kernel, exec_native_kernel };
enum class event_command_status { submitted, running, complete };

#define SYCLONE_DESC(name, type)                                                                   \
  struct name {                                                                                    \
    using return_type = type;                                                                      \
  };

namespace platform {
SYCLONE_DESC(profile, std::string)
SYCLONE_DESC(version, std::string)
SYCLONE_DESC(name, std::string)
SYCLONE_DESC(vendor, std::string)
SYCLONE_DESC(extensions, std::vector<std::string>)
} // namespace platform

namespace context {
SYCLONE_DESC(platform, sycl::platform)
SYCLONE_DESC(devices, std::vector<sycl::device>)
SYCLONE_DESC(atomic_memory_order_capabilities, std::vector<memory_order>)
SYCLONE_DESC(atomic_memory_scope_capabilities, std::vector<memory_scope>)
SYCLONE_DESC(atomic_fence_order_capabilities, std::vector<memory_order>)
SYCLONE_DESC(atomic_fence_scope_capabilities, std::vector<memory_scope>)
} // namespace context

namespace device {
SYCLONE_DESC(device_type, info::device_type)
SYCLONE_DESC(vendor_id, std::uint32_t)
SYCLONE_DESC(max_compute_units, std::uint32_t)
SYCLONE_DESC(max_work_item_dimensions, std::uint32_t)
template <int Dimensions = 3>
struct max_work_item_sizes {
  using return_type = range<Dimensions>;
};
SYCLONE_DESC(max_work_group_size, std::size_t)
SYCLONE_DESC(max_num_sub_groups, std::uint32_t)
SYCLONE_DESC(sub_group_independent_forward_progress, bool)
SYCLONE_DESC(sub_group_sizes, std::vector<std::size_t>)
// seed 004 "Device Descriptors": a sub-group size that supports every core language feature.
SYCLONE_DESC(primary_sub_group_size, std::size_t)
SYCLONE_DESC(preferred_vector_width_char, std::uint32_t)
SYCLONE_DESC(preferred_vector_width_short, std::uint32_t)
SYCLONE_DESC(preferred_vector_width_int, std::uint32_t)
SYCLONE_DESC(preferred_vector_width_long, std::uint32_t)
SYCLONE_DESC(preferred_vector_width_float, std::uint32_t)
SYCLONE_DESC(preferred_vector_width_double, std::uint32_t)
SYCLONE_DESC(preferred_vector_width_half, std::uint32_t)
SYCLONE_DESC(max_clock_frequency, std::uint32_t)
SYCLONE_DESC(address_bits, std::uint32_t)
SYCLONE_DESC(max_mem_alloc_size, std::uint64_t)
SYCLONE_DESC(max_parameter_size, std::size_t)
SYCLONE_DESC(mem_base_addr_align, std::uint32_t)
SYCLONE_DESC(global_mem_cache_type, info::global_mem_cache_type)
SYCLONE_DESC(global_mem_cache_line_size, std::uint32_t)
SYCLONE_DESC(global_mem_cache_size, std::uint64_t)
SYCLONE_DESC(global_mem_size, std::uint64_t)
SYCLONE_DESC(local_mem_type, info::local_mem_type)
SYCLONE_DESC(local_mem_size, std::uint64_t)
SYCLONE_DESC(error_correction_support, bool)
SYCLONE_DESC(atomic_memory_order_capabilities, std::vector<memory_order>)
SYCLONE_DESC(atomic_memory_scope_capabilities, std::vector<memory_scope>)
SYCLONE_DESC(atomic_fence_order_capabilities, std::vector<memory_order>)
SYCLONE_DESC(atomic_fence_scope_capabilities, std::vector<memory_scope>)
// SYCL 2020 4.6.4.2: the device's built-in kernels (syclone devices have none).
SYCLONE_DESC(built_in_kernel_ids, std::vector<sycl::kernel_id>)
SYCLONE_DESC(built_in_kernels, std::vector<std::string>) // deprecated by SYCL 2020
SYCLONE_DESC(profiling_timer_resolution, std::size_t)
SYCLONE_DESC(is_available, bool)
// Deprecated in SYCL 2020 (Table 4.6.4.2) but still required: whether sycl::compile and
// sycl::link work for the device (they do on every syclone device).
SYCLONE_DESC(is_compiler_available, bool)
SYCLONE_DESC(is_linker_available, bool)
SYCLONE_DESC(name, std::string)
SYCLONE_DESC(vendor, std::string)
SYCLONE_DESC(driver_version, std::string)
SYCLONE_DESC(version, std::string)
SYCLONE_DESC(backend_version, std::string)
SYCLONE_DESC(aspects, std::vector<sycl::aspect>)
SYCLONE_DESC(platform, sycl::platform)
SYCLONE_DESC(partition_max_sub_devices, std::uint32_t)
SYCLONE_DESC(partition_properties, std::vector<info::partition_property>)
SYCLONE_DESC(partition_type_property, info::partition_property)
SYCLONE_DESC(partition_affinity_domains, std::vector<info::partition_affinity_domain>)
SYCLONE_DESC(partition_type_affinity_domain, info::partition_affinity_domain)
SYCLONE_DESC(parent_device, sycl::device)
SYCLONE_DESC(preferred_vector_width_long_long, std::uint32_t)
SYCLONE_DESC(native_vector_width_char, std::uint32_t)
SYCLONE_DESC(native_vector_width_short, std::uint32_t)
SYCLONE_DESC(native_vector_width_int, std::uint32_t)
SYCLONE_DESC(native_vector_width_long, std::uint32_t)
SYCLONE_DESC(native_vector_width_long_long, std::uint32_t)
SYCLONE_DESC(native_vector_width_float, std::uint32_t)
SYCLONE_DESC(native_vector_width_double, std::uint32_t)
SYCLONE_DESC(native_vector_width_half, std::uint32_t)
// Image limits (SYCL 2020 Appendix A.3): 0 on a device without aspect::image.
SYCLONE_DESC(max_read_image_args, std::uint32_t)
SYCLONE_DESC(max_write_image_args, std::uint32_t)
SYCLONE_DESC(image2d_max_width, std::size_t)
SYCLONE_DESC(image2d_max_height, std::size_t)
SYCLONE_DESC(image3d_max_width, std::size_t)
SYCLONE_DESC(image3d_max_height, std::size_t)
SYCLONE_DESC(image3d_max_depth, std::size_t)
SYCLONE_DESC(image_max_buffer_size, std::size_t)
SYCLONE_DESC(max_samplers, std::uint32_t)
SYCLONE_DESC(is_endian_little, bool)
SYCLONE_DESC(printf_buffer_size, std::size_t)
// Deprecated by SYCL 2020 (Appendix D), still answered.
SYCLONE_DESC(image_support, bool)
SYCLONE_DESC(max_constant_buffer_size, std::uint64_t)
SYCLONE_DESC(max_constant_args, std::uint32_t)
SYCLONE_DESC(host_unified_memory, bool)
SYCLONE_DESC(queue_profiling, bool)
SYCLONE_DESC(extensions, std::vector<std::string>)
SYCLONE_DESC(half_fp_config, std::vector<info::fp_config>)
SYCLONE_DESC(single_fp_config, std::vector<info::fp_config>)
SYCLONE_DESC(double_fp_config, std::vector<info::fp_config>)
} // namespace device

namespace queue {
SYCLONE_DESC(context, sycl::context)
SYCLONE_DESC(device, sycl::device)
} // namespace queue

namespace event {
SYCLONE_DESC(command_execution_status, info::event_command_status)
} // namespace event

namespace event_profiling {
SYCLONE_DESC(command_submit, std::uint64_t)
SYCLONE_DESC(command_start, std::uint64_t)
SYCLONE_DESC(command_end, std::uint64_t)
} // namespace event_profiling

// SYCL 2020 4.11.13.2. Kernel information descriptors (kernel::get_info).
namespace kernel {
SYCLONE_DESC(num_args, std::uint32_t)
SYCLONE_DESC(attributes, std::string)
} // namespace kernel

namespace kernel_device_specific {
SYCLONE_DESC(global_work_size, range<3>)
SYCLONE_DESC(work_group_size, std::size_t)
SYCLONE_DESC(compile_work_group_size, range<3>)
SYCLONE_DESC(preferred_work_group_size_multiple, std::size_t)
SYCLONE_DESC(private_mem_size, std::size_t)
SYCLONE_DESC(max_num_sub_groups, std::uint32_t)
SYCLONE_DESC(compile_num_sub_groups, std::uint32_t)
SYCLONE_DESC(max_sub_group_size, std::uint32_t)
SYCLONE_DESC(compile_sub_group_size, std::uint32_t)
} // namespace kernel_device_specific

#undef SYCLONE_DESC
} // namespace info

SYCLONE_END_NAMESPACE
