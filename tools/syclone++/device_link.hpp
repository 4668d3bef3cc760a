// Linking the device code of a program per target: what makes SYCL_EXTERNAL work across
// translation units (SYCL 2020 5.10.1).
#pragma once

#include "device_code.hpp"
#include "targets.hpp"
#include "toolchain.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class Value;
}

namespace syclone::driver {

struct device_image {
  std::string target;
  std::string format;               // syclone_image_descriptor::format
  std::string data;                 // the linked image
  std::vector<std::string> kernels; // sorted
  // Per entry of `kernels`: the unique stable names of the specialization constants the kernel
  // can read (syclone_image_descriptor::kernel_spec_constants), sorted.
  std::vector<std::vector<std::string>> kernel_spec_constants;
  // What a consumer of the image needs beyond its kernels (syclone_image_descriptor::manifest):
  // for SPIR-V, the SpecIds of each specialization constant and the extra kernel parameters.
  std::string manifest;
  // The linked LLVM bitcode the image was made from, where `data` is something else (SPIR-V):
  // link-time checks of the call graph read it (sub_groups.cpp). Not embedded.
  std::string linked_bitcode;

  const std::string& bitcode() const { return format == "llvm-bc" ? data : linked_bitcode; }
};

// Links the `target` device code of the units the host link includes, plus the archive members
// whose device code defines functions that code needs, the way a linker extracts members. Returns
// nothing where no unit has device code for `target`. An undefined device function that a
// kernel or SYCL_EXTERNAL function can reach is an error naming the function, the kernel and the
// objects that use it (printed; throws tool_failed).
// The name a __syclone_spec_constant call passes (its first argument): a constant string, also
// behind casts and behind a call of a function that only returns it; nothing otherwise.
std::optional<std::string> spec_constant_name(const llvm::Value* value, int depth = 0);

// The image holds the kernels, the SYCL_EXTERNAL functions `external_roots` names (their
// symbols, as the clang plugin recorded their definitions) and what those reach, nothing else:
// host-only code of the same translation units (explicit instantiations, virtual members through
// vtables, inline functions) never reaches it, and what it needs is no error.
// `sub_group_sizes` (kernel -> recorded size) annotates SPIR-V kernels with their required size.
std::optional<device_image>
link_device_code(const link_inputs& inputs, const device_target& target, const runner& run,
                 const std::set<std::string>& external_roots = {},
                 const std::map<std::string, std::string>& sub_group_sizes = {});

} // namespace syclone::driver
