#include "targets.hpp"

#include <llvm/IR/CallingConv.h>

namespace syclone::driver {

const std::vector<device_target>& device_targets() {
  static const std::vector<device_target> targets = {
      {
          .name = "nvptx64",
          .aliases = {"nvptx64-nvidia-cuda"},
          // -nocudalib: the JIT links what it needs; no CUDA installation at compile time.
          .compile_flags = {"--offload-targets=nvptx64-nvidia-cuda", "-nocudalib"},
          .image_format = "llvm-bc",
          .kernel_calling_convention = llvm::CallingConv::PTX_Kernel,
          // libdevice and NVVM builtins, the CUDA device runtime's printf/malloc/assert, and the
          // runtime's own markers (__syclone_*, e.g. specialization constants).
          .provided_prefixes = {"__nv_", "__nvvm_", "__syclone_"},
          .provided_names = {"vprintf", "malloc", "free", "__assertfail"},
      },
  };
  return targets;
}

bool device_target::provides(std::string_view function) const {
  if (function.starts_with("llvm.")) return true;
  for (auto prefix : provided_prefixes)
    if (function.starts_with(prefix)) return true;
  for (auto name : provided_names)
    if (function == name) return true;
  return false;
}

const device_target* find_target(std::string_view name) {
  for (const auto& target : device_targets()) {
    if (target.name == name) return &target;
    for (auto alias : target.aliases)
      if (alias == name) return &target;
  }
  return nullptr;
}

std::string accepted_targets() {
  std::string text;
  for (const auto& target : device_targets()) {
    text += std::string(target.name);
    if (!target.aliases.empty()) {
      text += " (alias";
      for (auto alias : target.aliases) text += " " + std::string(alias);
      text += ")";
    }
    text += ", ";
  }
  return text + "host";
}

std::string device_section_name(std::string_view target) {
  return std::string(device_section_prefix) + std::string(target);
}

} // namespace syclone::driver
