// Text to module: the syntax disassemble() and spirv-dis print, so tests can keep hand-written
// modules (valid or deliberately invalid) as readable .spvasm files.
//
// One instruction per line: `[%result =] OpName operands... [; comment]`. Operands as the grammar
// says: `%id`, enumerant names (`A|B` for masks, or a number), integers (decimal, 0x hex,
// negative), floats for OpConstant/OpSpecConstant/OpSwitch by the width of their type (decimal or
// spirv-dis's hex floats such as 0x1.8p+128), "strings" (\" and \\ escaped), and `!N` raw words:
// from the first `!N` of a line on, the rest of its operands are encoded without the grammar
// (`!N` and integers one word each, `%id` its number, "string" its words), which is how
// disassemble() prints operands it cannot decode. A line made only of `!N` words is a whole
// instruction, its first word included.
//
// `%name` ids take fresh numbers in order of first appearance, skipping the numbers `%N` ids use.
// Leading comment lines `; Version: 1.x`, `; Generator: ...; N`, `; Bound: N` and `; Schema: N`
// (the header disassemble() prints) set the header; otherwise version 1.4, generator 0, schema 0
// and bound max id + 1. It only encodes: types, ids and layout are not checked.
#pragma once

#include "module.hpp"

#include <string_view>

namespace syclone::spirv {

// Throws spirv::error "LINE:COLUMN: expected WHAT, found 'TOKEN'" for text it cannot encode.
module assemble(std::string_view text);

} // namespace syclone::spirv
