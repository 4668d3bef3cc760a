// Checks a module against the rules syclone's SPIR-V images rely on: the structure that
// consumers assume (layout, ids, types), and every rule of SPV_INTEL_subgroup_buffer_prefetch
// (seed 003) and of the other Intel extensions the post-pass emits.
#pragma once

#include "module.hpp"

#include <string>
#include <vector>

namespace syclone::spirv {

enum class severity { error, warning };

struct diagnostic {
  severity level;
  std::size_t instruction;  // index into module::instructions, or error::npos for the module
  std::string rule;         // short stable tag, e.g. "prefetch.ptr-storage-class"
  std::string message;      // names the instruction (disassembled), the rule and the fix
};

std::vector<diagnostic> validate(const module& m);

// "error: <message>" / "warning: <message>", one per line.
std::string format(const std::vector<diagnostic>& diagnostics);

} // namespace syclone::spirv
