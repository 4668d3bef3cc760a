// Sub-group sizes across translation units (seed 004 "Attributes"): what the clang plugin
// (tools/syclone-plugin) recorded for each compile travels in the object as a pseudo-target
// section (sub_group_section_target); at link time syclone++ checks that every SYCL_EXTERNAL
// function has one sub-group size in all translation units and the size of every kernel that
// reaches it, and registers the kernels' required sizes with the runtime.
#pragma once

#include "device_code.hpp"
#include "device_link.hpp"
#include "toolchain.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace syclone::driver {

// The name under which the records are embedded next to the device code (never a device target).
inline constexpr const char* sub_group_section_target = "sub-groups";

// The plugin's file of one compile: host compile for kernels (every build has one), device
// compile for SYCL_EXTERNAL functions. The text embedded in the object.
std::string merge_sub_group_records(const std::string& host_file, const std::string& device_file);

struct sub_group_records {
  // kernel unique stable name -> size ("16", "primary", "automatic")
  std::map<std::string, std::string> kernels;
  struct use {
    std::string size;
    std::string origin;
  };
  std::map<std::string, std::vector<use>> defined, declared; // symbol -> per translation unit
  // Kernels whose size comes from SYCL 2020's [[sycl::reqd_sub_group_size(N)]] (the plugin
  // writes "sycl:N"): the runtime rejects an unsupported N with errc::kernel_not_supported.
  std::set<std::string> core_kernels;
  // Kernels that state no size (the plugin writes "unstated"): primary, without a record.
  std::set<std::string> unstated_kernels;
  // kernel -> the specialization constants it reads, from the host compile (plugin "reads" lines)
  std::map<std::string, std::set<std::string>> reads;
  // SYCL 2020 5.8.1 attributes of each kernel (plugin "reqd_work_group_size",
  // "work_group_size_hint" lines: sizes in SYCL order; "device_has": aspect values)
  std::map<std::string, std::vector<std::string>> reqd_work_group_size, work_group_size_hint,
      device_has;
};

// The records of the objects and archive members the link includes.
sub_group_records read_sub_group_records(const link_inputs& inputs);

// Reports (on stderr) every SYCL_EXTERNAL function whose sub-group size differs between
// translation units, or from a kernel of `image` that calls it; returns false if any.
bool check_sub_group_sizes(const sub_group_records& records, const device_image& image);

// An object registering the kernels' required sub-group sizes
// (include/sycl/detail/kernel_info.hpp), or nothing when every kernel uses the default (primary).
std::optional<std::string> build_sub_group_registration(const sub_group_records& records,
                                                        const toolchain& tools, const runner& run,
                                                        temp_dir& temp);

} // namespace syclone::driver
