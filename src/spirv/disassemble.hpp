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

} // namespace syclone::spirv
