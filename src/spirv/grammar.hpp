// What each SPIR-V opcode's operands are: generated at build time from the grammar of Debian's
// spirv-headers (spirv.core.grammar.json, extinst.opencl.std.100.grammar.json) plus the newer
// instructions, capabilities and decorations syclone uses that it predates
// (grammar_supplement.json: SPV_INTEL_subgroup_buffer_prefetch, SPV_INTEL_cache_controls, ...).
// SPIR-V 1.6 section 3 gives the operands; the JSON grammar is its machine-readable form.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace syclone::spirv {

// Opcodes, capabilities and decorations named in code (the rest are only in the tables).
namespace op {
inline constexpr std::uint16_t Nop = 0, SourceContinued = 2, Source = 3, SourceExtension = 4,
                               Name = 5, MemberName = 6, String = 7, Line = 8, Extension = 10,
                               ExtInstImport = 11, ExtInst = 12, MemoryModel = 14, EntryPoint = 15,
                               ExecutionMode = 16, Capability = 17, TypeVoid = 19, TypeBool = 20,
                               TypeInt = 21, TypeFloat = 22, TypeVector = 23, TypeArray = 28,
                               TypeStruct = 30, TypePointer = 32, TypeFunction = 33,
                               ConstantTrue = 41, ConstantFalse = 42, Constant = 43,
                               ConstantComposite = 44, ConstantNull = 46, SpecConstantTrue = 48,
                               SpecConstantFalse = 49, SpecConstant = 50,
                               SpecConstantComposite = 51, SpecConstantOp = 52, Function = 54,
                               FunctionParameter = 55, FunctionEnd = 56, FunctionCall = 57,
                               Variable = 59, Load = 61, Store = 62, Decorate = 71,
                               MemberDecorate = 72, DecorationGroup = 73, GroupDecorate = 74,
                               GroupMemberDecorate = 75, CopyObject = 83, Bitcast = 124,
                               Label = 248, Return = 253, ModuleProcessed = 330,
                               ExecutionModeId = 331, DecorateId = 332, DecorateString = 5632,
                               MemberDecorateString = 5633, TypeUntypedPointerKHR = 4417,
                               SubgroupBlockPrefetchINTEL = 6221;
} // namespace op
namespace capability {
inline constexpr std::uint32_t Addresses = 4, Linkage = 5, Kernel = 6, Int8 = 39,
                               SubgroupBufferPrefetchINTEL = 6220, CacheControlsINTEL = 6441;
}
namespace decoration {
inline constexpr std::uint32_t SpecId = 1, BuiltIn = 11, FuncParamAttr = 38, LinkageAttributes = 41,
                               CacheControlLoadINTEL = 6442, CacheControlStoreINTEL = 6443;
}
// SPV_INTEL_cache_controls: the LoadCacheControl operand of CacheControlLoadINTEL.
namespace load_cache_control {
inline constexpr std::uint32_t Uncached = 0, Cached = 1, Streaming = 2, InvalidateAfterRead = 3,
                               ConstCached = 4;
}
// OpenCL.std extended instructions named in code.
namespace opencl_std {
inline constexpr std::uint32_t printf = 184, prefetch = 185;
}
namespace storage_class {
inline constexpr std::uint32_t UniformConstant = 0, Input = 1, Workgroup = 4, CrossWorkgroup = 5,
                               Function = 7, Generic = 8;
}

// How to read one operand (the grammar's operand kinds, folded to what decoding needs).
enum class operand_kind : std::uint8_t {
  result_type,  // <id> of the result's type
  result_id,    // <id> defined by this instruction
  id,           // <id> used
  literal,      // one word: integer, or an enumerant of a value enum (e.g. StorageClass)
  literal_wide, // a literal number whose width depends on a type (OpConstant, OpSwitch)
  string,       // literal string
  value_enum,   // one word naming an enumerant of `enum_name` (may take extra parameters)
  bit_enum,     // one word of flags of `enum_name` (set bits may take extra parameters)
  ext_inst,     // literal extended-instruction number of an OpExtInst's set
  pair_literal_id,
  pair_id_literal,
  pair_id_id, // OpSwitch targets, OpPhi, OpGroupMember...
};

enum class quantifier : std::uint8_t { one, optional, any };

struct operand_info {
  operand_kind kind;
  quantifier count;
  std::string_view enum_name; // for value_enum / bit_enum: "StorageClass", "MemoryAccess", ...
  std::string_view name;      // the grammar's name, e.g. "'Ptr'"; may be empty
  std::string_view grammar_kind =
      {}; // the grammar's operand kind: "IdScope", "LiteralInteger", ...
};

struct opcode_info {
  std::uint16_t opcode;
  std::string_view name; // "OpSubgroupBlockPrefetchINTEL"
  std::span<const operand_info> operands;
  std::span<const std::string_view> capabilities; // any of these enables it
  std::span<const std::string_view> extensions;
};

const opcode_info* find_opcode(std::uint16_t opcode);
const opcode_info* find_opcode(std::string_view name);
// Every opcode the tables know, by opcode (aliases of one opcode: the first is the one printed).
std::span<const opcode_info> opcodes();

// Enumerants of the grammar's enums (value and bit enums alike).
struct enumerant_info {
  std::string_view name;
  std::uint32_t value;
  std::span<const operand_info> parameters; // operands that follow when it is used
  std::span<const std::string_view> capabilities;
  std::span<const std::string_view> extensions;
};
const enumerant_info* find_enumerant(std::string_view enum_name, std::uint32_t value);
const enumerant_info* find_enumerant(std::string_view enum_name, std::string_view name);
// All enumerants of `enum_name`, by value (empty if there is no such enum), and whether its
// values are bit flags (a BitEnum: MemoryAccess, FunctionControl, ...).
std::span<const enumerant_info> enumerants(std::string_view enum_name);
bool is_bit_enum(std::string_view enum_name);

// The OpenCL.std extended instruction `number` ("prefetch" is 185), or nullptr.
struct ext_inst_info {
  std::uint32_t number;
  std::string_view name;
  std::span<const operand_info> operands;
};
const ext_inst_info* find_opencl_ext_inst(std::uint32_t number);
const ext_inst_info* find_opencl_ext_inst(std::string_view name);

} // namespace syclone::spirv
