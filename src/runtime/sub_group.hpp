// Sub-group sizes of kernels on devices (seed 004 "Attributes", "Sub-group Queries"): which size
// a submission runs with, and the values of the kernel queries
// info::kernel_device_specific::{max,compile}_{sub_group_size,num_sub_groups}.
#pragma once

#include "backend.hpp"

#include <cstdint>
#include <string_view>

namespace syclone::runtime {

// The requirement syclone++ recorded for `kernel` (attributes, -fsycl-default-sub-group-size):
// N, sycl::detail::sub_group_size_primary or _automatic; 0 when none is recorded.
std::uint32_t recorded_sub_group_size(std::string_view kernel);

// What `kernel` requires: `stated` (from a sub_group_size property at the submission) when
// non-zero, else the recorded requirement, else 0.
std::uint32_t required_sub_group_size(std::string_view kernel, std::uint32_t stated = 0);

// The size `kernel` runs with on a device: the required size, or the primary size for primary,
// automatic or no requirement. A size the device does not support throws sycl::exception with
// errc::feature_not_supported (seed 004: "must throw a synchronous exception ... from the kernel
// invocation command").
std::uint32_t choose_sub_group_size(const device_properties& device, std::string_view kernel,
                                    std::uint32_t stated = 0);

// Counts the registrations of sub-group size records (starts at 1): what was found for a kernel
// holds while it is unchanged.
std::uint64_t sub_group_records_generation() noexcept;
// Sets launch.sub_group_size for the device at submission (throws as choose_sub_group_size).
void resolve_sub_group_size(sycl::detail::kernel_launch& launch, const device_properties& device);

// Seed 004 "Kernel Descriptors", for the kernel class's get_info:
// max_sub_group_size: the largest sub-group of a launch with `work_group_size` work-items.
std::uint32_t kernel_max_sub_group_size(const device_properties& device, std::string_view kernel,
                                        std::size_t work_group_size);
// compile_sub_group_size: the required size; 0 for automatic; the primary size for primary or
// no requirement (this implementation's default, seed 004: "as-if named_sub_group_size(primary)").
std::uint32_t kernel_compile_sub_group_size(const device_properties& device,
                                            std::string_view kernel);
// max_num_sub_groups: sub-groups of the largest work-group the kernel can run with
// (`max_work_group_size`, the kernel's own limit on the device).
std::uint32_t kernel_max_num_sub_groups(const device_properties& device, std::string_view kernel,
                                        std::size_t max_work_group_size);
// compile_num_sub_groups: no attribute requests a number of sub-groups, so 0.
std::uint32_t kernel_compile_num_sub_groups(std::string_view kernel);

} // namespace syclone::runtime
