// The device targets syclone++ compiles for, as a table: adding a target (spirv64) is a new row
// plus, where its image is not LLVM bitcode, a new case in device_link.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace syclone::driver {

struct device_target {
  std::string_view name;                 // -fsycl-targets value, section suffix, image target
  std::vector<std::string_view> aliases; // other -fsycl-targets spellings
  // Appended to "clang++ -fsycl -fsycl-device-only" for this target (before the user's flags).
  std::vector<std::string_view> compile_flags;
  std::string_view image_format;      // syclone_image_descriptor::format
  unsigned kernel_calling_convention; // llvm::CallingConv of kernels in its bitcode
  // Device functions that may stay undefined in a linked image because the runtime's JIT, the
  // device's libraries or the driver provide them (name prefixes; "llvm." intrinsics always may).
  std::vector<std::string_view> provided_prefixes;
  std::vector<std::string_view> provided_names; // exact names, same purpose
  std::vector<std::string_view> provided_math;  // C math functions, also with an "f" suffix
  // provided_math names OpenCL C built-ins, matched by their Itanium-mangled name (_Z4sqrtf)
  // instead of the C names.
  bool math_is_mangled = false;

  bool provides(std::string_view function) const;
};

// Every device target, the default first.
const std::vector<device_target>& device_targets();

// The target called `name` (or one of its aliases), or nullptr.
const device_target* find_target(std::string_view name);

// "nvptx64 (alias nvptx64-nvidia-cuda), host": what -fsycl-targets accepts, for messages.
std::string accepted_targets();

// The ELF section of host objects that carries device code for `target`.
std::string device_section_name(std::string_view target);
inline constexpr std::string_view device_section_prefix = ".syclone.dev.";

} // namespace syclone::driver
