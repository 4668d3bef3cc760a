// Text of a module in the syntax of SPIRV-Tools' spirv-dis (ids as %N or %name from OpName,
// enumerants by name), including the instructions its Debian version predates.
#pragma once

#include "module.hpp"

#include <string>

namespace syclone::spirv {

struct disassemble_options {
  // %name from an id's first OpName (else %N, as spirv-dis --raw-id). Unlike spirv-dis's friendly
  // names, types and constants without OpName are not named after themselves (%uint, %float_1):
  // names come only from OpName, with characters outside [A-Za-z0-9_] made '_', a '_' before an
  // all-digit name, and "_1", "_2", ... after a repeated one, so each name is one distinct token
  // that assemble() reads back.
  bool friendly_names = true;
  bool header = true; // the "; SPIR-V" comment block
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
