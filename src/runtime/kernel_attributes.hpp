// SYCL 2020 5.8.1 kernel attributes ([[sycl::reqd_work_group_size]],
// [[sycl::work_group_size_hint]], [[sycl::device_has]]) as syclone++ registered them, and the
// optional-kernel-feature errors of SYCL 2020 5.7 they lead to.
#pragma once

#include "backend.hpp"

#include <sycl/info.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {
class device_impl;
struct kernel_launch;
} // namespace detail
SYCLONE_END_NAMESPACE

namespace syclone::runtime {

struct kernel_attributes {
  int reqd_dims = 0; // 0: no reqd_work_group_size
  std::size_t reqd[3] = {0, 0, 0};
  int hint_dims = 0; // 0: no work_group_size_hint
  std::size_t hint[3] = {0, 0, 0};
  std::optional<std::vector<sycl::aspect>> device_has;
};

// "kernel `<demangled name>`", "8, 8, 1": for messages.
std::string kernel_text(std::string_view kernel);
std::string sizes_text(const std::size_t* sizes, int dims);

// The recorded attributes of `kernel`, or nullptr.
const kernel_attributes* find_kernel_attributes(std::string_view kernel);

// Why `kernel` cannot run on `device` because of its attributes (an aspect of device_has the
// device lacks, a required work-group size beyond the device's limits), or nothing.
std::optional<std::string> attribute_conflict(std::string_view kernel,
                                              const sycl::detail::device_impl& device);

// Why `kernel` cannot run on `device` because the sub-group size it requires
// ([[sycl::reqd_sub_group_size]], seed 004's attributes) is not one of the device's, or nothing.
std::optional<std::string> sub_group_conflict(std::string_view kernel,
                                              const sycl::detail::device_impl& device);

// Counts the registrations of kernel attributes (starts at 1): what was found for a kernel holds
// while it is unchanged.
std::uint64_t kernel_attributes_generation() noexcept;
// At submission (SYCL 2020 5.7, 5.8.1): errc::kernel_not_supported for an attribute_conflict,
// errc::nd_range when an nd_range's work-group size differs from reqd_work_group_size.
void check_kernel_attributes(const sycl::detail::kernel_launch& launch,
                             const sycl::detail::device_impl& device);

// info::kernel_device_specific::compile_work_group_size: reqd_work_group_size as range<3>
// (SYCL order, unused leading dimensions 1), or {0, 0, 0} without the attribute.
void compile_work_group_size(std::string_view kernel, std::size_t out[3]);

// info::kernel::attributes: the kernel's attributes as written in source, space-separated, e.g.
// "reqd_work_group_size(8, 8) device_has(aspect::fp64)"; empty without any.
std::string attributes_text(std::string_view kernel);

} // namespace syclone::runtime
