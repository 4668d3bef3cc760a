// Text of a module in the syntax of SPIRV-Tools' spirv-dis (ids as %N or %name from OpName,
// enumerants by name), including the instructions its Debian version predates.
#pragma once

#include "module.hpp"

#include <string>

namespace syclone::spirv {

struct disassemble_options {
  bool friendly_names = true; // %name from OpName (else %N)
  bool header = true;         // the "; SPIR-V" comment block
};

// Never throws for a module read() accepted: undecodable operands print as raw words with a
// "; malformed" comment.
std::string disassemble(const module& m, const disassemble_options& options = {});

// The name the header's "; Generator:" line gives a generator word's tool id (its high 16 bits,
// SPIR-V 1.6 section 2.3), as registered in the SPIR-V XML registry: "Khronos LLVM/SPIR-V
// Translator" for 6; empty for an id the registry of spirv-dis's time does not name (printed as
// "Unknown(N)").
std::string_view generator_tool_name(std::uint32_t tool);

} // namespace syclone::spirv
