// The validator: structure that consumers of syclone's SPIR-V images rely on (SPIR-V 1.6 sections
// 2.3 "Physical Layout", 2.4 "Logical Layout of a Module", 2.16 "Validation Rules"), every rule of
// SPV_INTEL_subgroup_buffer_prefetch (seed 003) and what syclone's post-pass emits
// (SPV_INTEL_cache_controls decorations, OpenCL.std prefetch).
//
// It never throws for a module read() accepted: any instruction it cannot decode becomes a
// diagnostic and is left out of the checks that need its operands.
#include "validate.hpp"

#include "grammar.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace syclone::spirv {

namespace {

// Opcodes this file names beyond grammar.hpp's `op` (SPIR-V 1.6 section 3.49 and the extensions
// that introduced them).
namespace opx {
inline constexpr std::uint16_t NoLine = 317, Undef = 1, TypeForwardPointer = 39, Phi = 245,
                               Branch = 249, BranchConditional = 250, Switch = 251, Kill = 252,
                               ReturnValue = 254, Unreachable = 255, GroupBroadcast = 263,
                               EnqueueKernel = 292, GetKernelMaxNumSubgroups = 326,
                               GroupNonUniformBroadcast = 337, GroupNonUniformBroadcastFirst = 338,
                               TerminateInvocation = 4416, UntypedVariableKHR = 4418,
                               IgnoreIntersectionKHR = 4448, TerminateRayKHR = 4449,
                               EmitMeshTasksEXT = 5294;
} // namespace opx

// Scope (SPIR-V 1.6 section 3.27).
inline constexpr std::uint32_t scope_invocation = 4;

// Built-ins whose value differs between the invocations of one sub-group (SPIR-V 1.6 section
// 3.21 and SPV_KHR_shader_ballot). WorkgroupId, SubgroupId, NumWorkgroups, ... are the same for
// every invocation of a sub-group (a sub-group never spans work-groups) and are not listed.
bool builtin_varies_in_subgroup(std::uint32_t builtin) {
  switch (builtin) {
  case 27: // LocalInvocationId
  case 28: // GlobalInvocationId
  case 29: // LocalInvocationIndex
  case 34: // GlobalLinearId
  case 41: // SubgroupLocalInvocationId
  case 4416:
  case 4417:
  case 4418:
  case 4419:
  case 4420: // Subgroup{Eq,Ge,Gt,Le,Lt}Mask
    return true;
  default:
    return false;
  }
}

// Instructions whose result is computed from their operands' values alone, so a result of
// varying operands is varying (arithmetic, conversions, composites, pointer arithmetic; SPIR-V
// 1.6 sections 3.49.8-3.49.15). Anything else (loads, calls, group operations, atomics) either
// makes the value uniform or makes it unknown; the uniformity rule only reports what it proves.
bool propagates_values(std::uint16_t opcode) {
  if (opcode >= 65 && opcode <= 70) return opcode != 68 && opcode != 69; // access chains
  if (opcode >= 77 && opcode <= 84) return true;                         // composites, copy
  if (opcode >= 109 && opcode <= 124) return true;                       // conversions
  if (opcode >= 126 && opcode <= 205) return true; // arithmetic, relational, logical, bits
  switch (opcode) {
  case opx::Phi:
  case 12:  // OpExtInst (OpenCL.std math, ...)
  case 400: // OpCopyLogical
  case 401:
  case 402:
  case 403: // OpPtrEqual, OpPtrNotEqual, OpPtrDiff
  case 4419:
  case 4420:
  case 4423:
  case 4424: // untyped access chains (SPV_KHR_untyped_pointers)
    return true;
  default:
    return false;
  }
}

bool is_cache_control(const instruction& inst) {
  return (inst.opcode == op::Decorate || inst.opcode == op::DecorateId) &&
         inst.operands.size() >= 2 &&
         (inst.operands[1] == decoration::CacheControlLoadINTEL ||
          inst.operands[1] == decoration::CacheControlStoreINTEL);
}

bool is_terminator(std::uint16_t opcode) {
  switch (opcode) {
  case opx::Branch:
  case opx::BranchConditional:
  case opx::Switch:
  case opx::Kill:
  case op::Return:
  case opx::ReturnValue:
  case opx::Unreachable:
  case opx::TerminateInvocation:
  case opx::IgnoreIntersectionKHR:
  case opx::TerminateRayKHR:
  case opx::EmitMeshTasksEXT:
    return true;
  default:
    return false;
  }
}

// Logical layout sections, SPIR-V 1.6 section 2.4, in the order they must appear.
enum class section : std::uint8_t {
  capability,
  extension,
  ext_inst_import,
  memory_model,
  entry_point,
  execution_mode,
  debug_source,
  debug_name,
  debug_processed,
  annotation,
  global,             // types, constants, global variables
  global_or_function, // OpVariable, OpUndef, OpLine, OpNoLine, OpExtInst: both places
  function,
  anywhere, // OpNop
};

section section_of(std::uint16_t opcode, std::string_view name) {
  switch (opcode) {
  case op::Capability:
    return section::capability;
  case op::Extension:
    return section::extension;
  case op::ExtInstImport:
    return section::ext_inst_import;
  case op::MemoryModel:
    return section::memory_model;
  case op::EntryPoint:
    return section::entry_point;
  case op::ExecutionMode:
  case op::ExecutionModeId:
    return section::execution_mode;
  case op::SourceContinued:
  case op::Source:
  case op::SourceExtension:
  case op::String:
    return section::debug_source;
  case op::Name:
  case op::MemberName:
    return section::debug_name;
  case op::ModuleProcessed:
    return section::debug_processed;
  case op::Decorate:
  case op::MemberDecorate:
  case op::DecorationGroup:
  case op::GroupDecorate:
  case op::GroupMemberDecorate:
  case op::DecorateId:
  case op::DecorateString:
  case op::MemberDecorateString:
    return section::annotation;
  case op::Variable:
  case opx::UntypedVariableKHR:
  case opx::Undef:
  case op::Line:
  case opx::NoLine:
  case op::ExtInst:
    return section::global_or_function;
  case op::Nop:
    return section::anywhere;
  default:
    break;
  }
  if (name.starts_with("OpType") || name.starts_with("OpConstant") ||
      name.starts_with("OpSpecConstant"))
    return section::global;
  return section::function;
}

std::string_view section_name(section s) {
  switch (s) {
  case section::capability:
    return "capabilities";
  case section::extension:
    return "extensions";
  case section::ext_inst_import:
    return "extended instruction set imports";
  case section::memory_model:
    return "the memory model";
  case section::entry_point:
    return "entry points";
  case section::execution_mode:
    return "execution modes";
  case section::debug_source:
    return "debug: OpString/OpSource";
  case section::debug_name:
    return "debug: OpName/OpMemberName";
  case section::debug_processed:
    return "debug: OpModuleProcessed";
  case section::annotation:
    return "annotations";
  case section::global:
    return "types, constants and global variables";
  case section::global_or_function:
    return "global variables";
  case section::function:
    return "function definitions";
  case section::anywhere:
    return "anywhere";
  }
  return "?";
}

// Where an operand lies in an instruction once decoded against the grammar.
struct operand_ref {
  operand_kind kind;
  std::uint32_t word;  // index into instruction::operands
  std::uint32_t count; // words it takes
  std::string_view enum_name;
};

struct decoded {
  const opcode_info* info = nullptr;
  std::vector<operand_ref> operands;
  std::uint32_t result_type = 0, result_id = 0;
  bool has_result_type = false, has_result_id = false;
  std::string problem; // why the words do not match the grammar; empty when they do
  std::size_t problem_word = 0;
  bool problem_is_enumerant = false; // a word that is no enumerant, rather than a bad count
  bool opaque_tail = false; // OpExtInst of a set we do not know: trailing words left undecoded
};

// SPV_KHR_untyped_pointers' pointer type, which seed 003 lets Ptr have, for a grammar that
// predates it: `<id> Result = OpTypeUntypedPointerKHR StorageClass`.
constexpr operand_info untyped_pointer_operands[] = {
    {operand_kind::result_id, quantifier::one, {}, "'Result'"},
    {operand_kind::value_enum, quantifier::one, "StorageClass", "'Storage Class'"},
};
constexpr opcode_info untyped_pointer_info{
    op::TypeUntypedPointerKHR, "OpTypeUntypedPointerKHR", untyped_pointer_operands, {}, {}};

class validator {
public:
  explicit validator(const module& m) : m_module(m) {}

  std::vector<diagnostic> run();

private:
  const module& m_module;
  std::vector<diagnostic> m_out;
  std::vector<decoded> m_decoded;
  std::unordered_map<std::uint32_t, std::size_t> m_defs; // result id -> instruction index
  std::unordered_map<std::uint32_t, std::string> m_names;
  std::set<std::string, std::less<>> m_extensions;
  std::set<std::uint32_t> m_capabilities;
  std::unordered_map<std::uint32_t, std::uint32_t> m_builtins; // variable -> BuiltIn
  std::unordered_set<std::uint32_t> m_forward_pointers;

  // --- decoding ---
  void decode_all();
  bool decode_list(const instruction& inst, std::span<const operand_info> list, std::size_t& p,
                   decoded& d, bool skip_results);
  bool decode_one(const instruction& inst, const operand_info& info, std::size_t& p, decoded& d);
  std::optional<std::uint32_t> literal_width(const instruction& inst) const;

  // --- helpers ---
  const instruction* def(std::uint32_t id) const {
    auto it = m_defs.find(id);
    return it == m_defs.end() ? nullptr : &m_module.instructions[it->second];
  }
  const decoded* def_decoded(std::uint32_t id) const {
    auto it = m_defs.find(id);
    return it == m_defs.end() ? nullptr : &m_decoded[it->second];
  }
  std::uint32_t type_of(std::uint32_t id) const {
    const decoded* d = def_decoded(id);
    return d && d->has_result_type ? d->result_type : 0;
  }
  std::optional<std::uint64_t> constant_value(std::uint32_t id, bool* is_spec = nullptr) const;
  bool is_int_type(std::uint32_t type, std::uint32_t width, std::uint32_t signedness) const;
  std::string id_text(std::uint32_t id) const;
  std::string type_text(std::uint32_t type, int depth = 0) const;
  std::string text(std::size_t index) const;
  std::string enumerant_text(std::string_view enum_name, std::uint32_t value) const;
  bool has_extension(std::string_view name) const { return m_extensions.contains(name); }

  void report(severity level, std::size_t index, std::string_view rule, const std::string& what,
              std::string_view fix);

  // --- rules ---
  void check_header();
  void check_layout();
  void check_ids();
  void check_functions();
  void check_prefetch(std::size_t index);
  void check_memory_operands(std::size_t index, std::size_t first_word);
  void check_cache_control(std::size_t index);
  void check_opencl_prefetch(std::size_t index);
  void compute_varying();
  std::unordered_map<std::uint32_t, std::uint32_t> m_varying; // value id -> BuiltIn it comes from
};

std::optional<std::uint32_t> validator::literal_width(const instruction& inst) const {
  std::uint32_t type = 0;
  if (inst.opcode == opx::Switch) {
    if (inst.operands.empty()) return std::nullopt;
    type = type_of(inst.operands[0]);
  } else {
    if (inst.operands.empty()) return std::nullopt;
    type = inst.operands[0];
  }
  const instruction* t = def(type);
  if (!t || (t->opcode != op::TypeInt && t->opcode != op::TypeFloat) || t->operands.size() < 2)
    return std::nullopt;
  return t->operands[1];
}

bool validator::decode_one(const instruction& inst, const operand_info& info, std::size_t& p,
                           decoded& d) {
  const auto& w = inst.operands;
  auto need = [&](std::size_t n) {
    if (p + n <= w.size()) return true;
    d.problem = "operand " + std::string(info.name.empty() ? "?" : info.name) + " is missing";
    d.problem_word = p;
    return false;
  };
  auto push = [&](operand_kind k, std::size_t n, std::string_view e = {}) {
    d.operands.push_back({k, static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(n), e});
    p += n;
  };
  switch (info.kind) {
  case operand_kind::result_type:
    if (!need(1)) return false;
    d.result_type = w[p];
    d.has_result_type = true;
    push(info.kind, 1);
    return true;
  case operand_kind::result_id:
    if (!need(1)) return false;
    d.result_id = w[p];
    d.has_result_id = true;
    push(info.kind, 1);
    return true;
  case operand_kind::id:
  case operand_kind::literal:
  case operand_kind::ext_inst:
    if (!need(1)) return false;
    push(info.kind, 1);
    return true;
  case operand_kind::literal_wide: {
    auto width = literal_width(inst);
    // Width unknown (the type is itself wrong and reported elsewhere): the literal takes the
    // rest, so the word count is not blamed twice.
    std::size_t n = width ? std::max<std::size_t>(1, (*width + 31) / 32)
                          : std::max<std::size_t>(1, w.size() - std::min(p, w.size()));
    if (!need(n)) return false;
    push(info.kind, n);
    return true;
  }
  case operand_kind::string: {
    std::size_t q = p;
    for (; q < w.size(); ++q) {
      std::uint32_t word = w[q];
      if ((word & 0xff) == 0 || (word & 0xff00) == 0 || (word & 0xff0000) == 0 ||
          (word & 0xff000000) == 0)
        break;
    }
    if (q >= w.size()) {
      d.problem = "literal string " + std::string(info.name) + " is not nul-terminated";
      d.problem_word = p;
      return false;
    }
    push(info.kind, q - p + 1);
    return true;
  }
  case operand_kind::value_enum: {
    if (!need(1)) return false;
    std::uint32_t value = w[p];
    push(info.kind, 1, info.enum_name);
    const enumerant_info* e = find_enumerant(info.enum_name, value);
    if (!e) {
      d.problem = std::to_string(value) + " is not a " + std::string(info.enum_name) + " value";
      d.problem_word = p - 1;
      d.problem_is_enumerant = true;
      return false;
    }
    return decode_list(inst, e->parameters, p, d, false);
  }
  case operand_kind::bit_enum: {
    if (!need(1)) return false;
    std::uint32_t mask = w[p];
    push(info.kind, 1, info.enum_name);
    // Parameters follow in the order of the set bits, lowest first (SPIR-V 1.6 section 2.2.2
    // "operands ... for each bit set, in order of increasing bit value").
    for (int bit = 0; bit < 32; ++bit) {
      std::uint32_t flag = std::uint32_t{1} << bit;
      if (!(mask & flag)) continue;
      const enumerant_info* e = find_enumerant(info.enum_name, flag);
      if (!e) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%x", flag);
        d.problem = std::string("bit ") + hex + " is not a " + std::string(info.enum_name) + " bit";
        d.problem_word = p - 1;
        d.problem_is_enumerant = true;
        return false;
      }
      if (!decode_list(inst, e->parameters, p, d, false)) return false;
    }
    return true;
  }
  case operand_kind::pair_literal_id:
  case operand_kind::pair_id_literal:
  case operand_kind::pair_id_id: {
    std::size_t first = 1;
    if (info.kind == operand_kind::pair_literal_id && inst.opcode == opx::Switch) {
      auto width = literal_width(inst);
      first = width ? std::max<std::size_t>(1, (*width + 31) / 32) : 1;
    }
    if (!need(first + 1)) return false;
    if (info.kind == operand_kind::pair_literal_id) {
      push(operand_kind::literal, first);
      push(operand_kind::id, 1);
    } else if (info.kind == operand_kind::pair_id_literal) {
      push(operand_kind::id, 1);
      push(operand_kind::literal, 1);
    } else {
      push(operand_kind::id, 1);
      push(operand_kind::id, 1);
    }
    return true;
  }
  }
  return false;
}

bool validator::decode_list(const instruction& inst, std::span<const operand_info> list,
                            std::size_t& p, decoded& d, bool skip_results) {
  for (const auto& info : list) {
    if (skip_results &&
        (info.kind == operand_kind::result_type || info.kind == operand_kind::result_id))
      continue;
    switch (info.count) {
    case quantifier::one:
      if (!decode_one(inst, info, p, d)) return false;
      break;
    case quantifier::optional:
      if (p < inst.operands.size() && !decode_one(inst, info, p, d)) return false;
      break;
    case quantifier::any:
      while (p < inst.operands.size())
        if (!decode_one(inst, info, p, d)) return false;
      break;
    }
  }
  return true;
}

void validator::decode_all() {
  m_decoded.resize(m_module.instructions.size());
  static constexpr operand_info ext_inst_head[] = {
      {operand_kind::result_type, quantifier::one, {}, "'Result Type'"},
      {operand_kind::result_id, quantifier::one, {}, "'Result'"},
      {operand_kind::id, quantifier::one, {}, "'Set'"},
      {operand_kind::ext_inst, quantifier::one, {}, "'Instruction'"},
  };
  static constexpr operand_info spec_op_head[] = {
      {operand_kind::result_type, quantifier::one, {}, "'Result Type'"},
      {operand_kind::result_id, quantifier::one, {}, "'Result'"},
      {operand_kind::literal, quantifier::one, {}, "'Opcode'"},
  };
  for (std::size_t i = 0; i < m_module.instructions.size(); ++i) {
    const instruction& inst = m_module.instructions[i];
    decoded& d = m_decoded[i];
    d.info = find_opcode(inst.opcode);
    if (!d.info && inst.opcode == op::TypeUntypedPointerKHR) d.info = &untyped_pointer_info;
    if (!d.info) continue;
    std::size_t p = 0;
    bool ok = true;
    if (inst.opcode == op::ExtInst) {
      // The operands after the instruction number are the extended instruction's own
      // (SPIR-V 1.6 section 3.49.1, OpExtInst); only OpenCL.std's are known here.
      ok = decode_list(inst, ext_inst_head, p, d, false);
      if (ok) {
        const instruction* set = def(inst.operands[2]);
        bool opencl = set && set->opcode == op::ExtInstImport && set->operands.size() >= 2;
        if (opencl) {
          try {
            opencl = set->string_at(1) == "OpenCL.std";
          } catch (const error&) {
            opencl = false;
          }
        }
        const ext_inst_info* ext = opencl ? find_opencl_ext_inst(inst.operands[3]) : nullptr;
        if (opencl && !ext) {
          d.problem = std::to_string(inst.operands[3]) + " is not an OpenCL.std instruction";
          d.problem_word = 3;
          ok = false;
        } else if (ext) {
          ok = decode_list(inst, ext->operands, p, d, true);
        } else {
          d.opaque_tail = true;
          p = inst.operands.size();
        }
      }
    } else if (inst.opcode == op::SpecConstantOp) {
      // The operation's operands follow its opcode, less its result type and id (SPIR-V 1.6
      // section 3.49.7, OpSpecConstantOp).
      ok = decode_list(inst, spec_op_head, p, d, false);
      if (ok) {
        const opcode_info* inner = find_opcode(static_cast<std::uint16_t>(inst.operands[2]));
        if (!inner || inst.operands[2] > 0xffff) {
          d.problem = std::to_string(inst.operands[2]) + " is not an opcode";
          d.problem_word = 2;
          ok = false;
        } else {
          ok = decode_list(inst, inner->operands, p, d, true);
        }
      }
    } else {
      ok = decode_list(inst, d.info->operands, p, d, false);
    }
    if (ok && p < inst.operands.size()) {
      d.problem = std::to_string(inst.operands.size() - p) + " word" +
                  (inst.operands.size() - p == 1 ? "" : "s") + " more than the grammar's operands";
      d.problem_word = p;
    }
    if (d.has_result_id && !m_defs.contains(d.result_id)) m_defs.emplace(d.result_id, i);
  }
}

std::string validator::id_text(std::uint32_t id) const {
  auto it = m_names.find(id);
  if (it != m_names.end()) return "%" + it->second;
  return "%" + std::to_string(id);
}

std::string validator::enumerant_text(std::string_view enum_name, std::uint32_t value) const {
  if (const enumerant_info* e = find_enumerant(enum_name, value)) return std::string(e->name);
  return std::to_string(value);
}

std::string validator::type_text(std::uint32_t type, int depth) const {
  const instruction* t = def(type);
  // A pointer may point to itself in a malformed module.
  if (!t || depth > 4) return id_text(type);
  auto op = [&](std::size_t i) { return i < t->operands.size() ? t->operands[i] : 0; };
  switch (t->opcode) {
  case op::TypeInt:
    return "i" + std::to_string(op(1)) + (op(2) ? " (signed)" : "");
  case op::TypeFloat:
    return "f" + std::to_string(op(1));
  case op::TypeBool:
    return "bool";
  case op::TypeVoid:
    return "void";
  case op::TypeVector:
    return type_text(op(1), depth + 1) + " x" + std::to_string(op(2)) + " vector";
  case op::TypePointer:
    return "pointer to " + type_text(op(2), depth + 1) + " in " +
           enumerant_text("StorageClass", op(1));
  case op::TypeUntypedPointerKHR:
    return "untyped pointer in " + enumerant_text("StorageClass", op(1));
  default: {
    const opcode_info* info = find_opcode(t->opcode);
    return info ? std::string(info->name) + " " + id_text(type) : id_text(type);
  }
  }
}

std::string validator::text(std::size_t index) const {
  const instruction& inst = m_module.instructions[index];
  const decoded& d = m_decoded[index];
  std::string out;
  if (!d.info) {
    out = "<unknown opcode " + std::to_string(inst.opcode) + ">";
    for (auto w : inst.operands) out += " " + std::to_string(w);
    return out;
  }
  if (d.has_result_id) out = id_text(d.result_id) + " = ";
  out += d.info->name;
  std::size_t covered = 0;
  for (const auto& r : d.operands) {
    if (r.kind == operand_kind::result_id) {
      covered = r.word + r.count;
      continue;
    }
    out += ' ';
    switch (r.kind) {
    case operand_kind::result_type:
    case operand_kind::id:
      out += id_text(inst.operands[r.word]);
      break;
    case operand_kind::string:
      try {
        out += "\"" + inst.string_at(r.word) + "\"";
      } catch (const error&) {
        out += "<string>";
      }
      break;
    case operand_kind::value_enum:
      out += enumerant_text(r.enum_name, inst.operands[r.word]);
      break;
    case operand_kind::bit_enum: {
      std::uint32_t mask = inst.operands[r.word];
      if (mask == 0) {
        out += enumerant_text(r.enum_name, 0);
        break;
      }
      bool first = true;
      for (int bit = 0; bit < 32; ++bit)
        if (mask & (std::uint32_t{1} << bit)) {
          if (!first) out += '|';
          first = false;
          out += enumerant_text(r.enum_name, std::uint32_t{1} << bit);
        }
      break;
    }
    case operand_kind::ext_inst:
      if (const ext_inst_info* e = find_opencl_ext_inst(inst.operands[r.word]);
          e && inst.opcode == op::ExtInst)
        out += e->name;
      else
        out += std::to_string(inst.operands[r.word]);
      break;
    default:
      if (r.count == 2)
        out +=
            std::to_string(std::uint64_t{inst.operands[r.word + 1]} << 32 | inst.operands[r.word]);
      else
        for (std::uint32_t k = 0; k < r.count; ++k)
          out += (k ? " " : "") + std::to_string(inst.operands[r.word + k]);
      break;
    }
    covered = r.word + r.count;
    if (out.size() > 200) break;
  }
  for (std::size_t k = covered; k < inst.operands.size() && out.size() <= 200; ++k)
    out += " " + std::to_string(inst.operands[k]);
  if (out.size() > 200) out = out.substr(0, 200) + " ...";
  return out;
}

void validator::report(severity level, std::size_t index, std::string_view rule,
                       const std::string& what, std::string_view fix) {
  std::string message;
  if (index != error::npos)
    message = "instruction " + std::to_string(index) + " `" + text(index) + "`: ";
  else
    message = "module: ";
  message += what;
  if (!fix.empty()) {
    message += "; ";
    message += fix;
  }
  message += " [";
  message += rule;
  message += "]";
  m_out.push_back({level, index, std::string(rule), std::move(message)});
}

std::optional<std::uint64_t> validator::constant_value(std::uint32_t id, bool* is_spec) const {
  const instruction* c = def(id);
  if (is_spec) *is_spec = false;
  if (!c) return std::nullopt;
  if (c->opcode == op::ConstantNull) return 0;
  if (c->opcode != op::Constant && c->opcode != op::SpecConstant) return std::nullopt;
  if (c->operands.size() < 3) return std::nullopt;
  if (is_spec) *is_spec = c->opcode == op::SpecConstant;
  std::uint64_t v = c->operands[2];
  if (c->operands.size() >= 4) v |= std::uint64_t{c->operands[3]} << 32;
  return v;
}

bool validator::is_int_type(std::uint32_t type, std::uint32_t width,
                            std::uint32_t signedness) const {
  const instruction* t = def(type);
  return t && t->opcode == op::TypeInt && t->operands.size() >= 3 && t->operands[1] == width &&
         t->operands[2] == signedness;
}

void validator::check_header() {
  std::uint32_t v = m_module.version;
  std::uint32_t major = v >> 16 & 0xff, minor = v >> 8 & 0xff;
  if ((v & 0xff0000ff) != 0 || major != 1 || minor > 6) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", v);
    report(severity::error, error::npos, "header.version",
           std::string("the header's version word is ") + hex +
               ", not a SPIR-V version 1.0 to 1.6 (0x00010000 to 0x00010600, SPIR-V 1.6 "
               "section 2.3)",
           "write the module for SPIR-V 1.6 or older (llc -mtriple=spirv64 does)");
  }
}

void validator::check_layout() {
  section current = section::capability;
  std::size_t memory_models = 0;
  std::size_t function_depth = 0;
  for (std::size_t i = 0; i < m_module.instructions.size(); ++i) {
    const instruction& inst = m_module.instructions[i];
    const decoded& d = m_decoded[i];
    if (!d.info) {
      report(severity::error, i, "instruction.unknown-opcode",
             "opcode " + std::to_string(inst.opcode) +
                 " is in neither SPIR-V 1.6 nor the extensions syclone knows",
             "remove it or declare the extension that defines it (and teach grammar.cpp about it)");
      continue;
    }
    // The prefetch's memory operands and the cache-control values have rules of their own.
    bool own_rule = (inst.opcode == op::SubgroupBlockPrefetchINTEL && inst.operands.size() > 2) ||
                    (is_cache_control(inst) && inst.operands.size() == 4 && d.problem_is_enumerant);
    if (!d.problem.empty() && !own_rule)
      report(severity::error, i,
             d.problem_is_enumerant ? "instruction.enumerant" : "instruction.word-count",
             (d.problem_is_enumerant ? "an operand is not what the grammar allows: "
                                     : "its " + std::to_string(inst.word_count()) +
                                           " words do not match the grammar: ") +
                 d.problem,
             "re-emit it with exactly the operands of " + std::string(d.info->name) +
                 " (SPIR-V 1.6 section 3.49)");

    if (inst.opcode == op::MemoryModel && ++memory_models == 2)
      report(severity::error, i, "layout.memory-model",
             "a second OpMemoryModel; a module has exactly one (SPIR-V 1.6 section 2.4)",
             "remove all but one");

    if (inst.opcode == op::Function) ++function_depth;
    bool in_function = function_depth > 0;
    if (inst.opcode == op::FunctionEnd && function_depth > 0) --function_depth;

    section s = section_of(inst.opcode, d.info->name);
    if (s == section::anywhere) continue;
    if (s == section::global_or_function) {
      // Global variables and OpUndef go with types and constants, OpLine/OpNoLine/OpExtInst too.
      if (!in_function) {
        if (current > section::global) {
          report(severity::error, i, "layout.order",
                 "outside a function after the function definitions began (SPIR-V 1.6 "
                 "section 2.4)",
                 "move it before the first OpFunction");
        } else {
          current = section::global;
        }
      }
      continue;
    }
    if (s == section::function) {
      if (!in_function) {
        report(severity::error, i, "layout.outside-function",
               "a function-body instruction outside any OpFunction ... OpFunctionEnd (SPIR-V "
               "1.6 section 2.4)",
               "move it into a function's block");
      }
      current = section::function;
      continue;
    }
    if (in_function || s < current) {
      report(severity::error, i, "layout.order",
             "belongs with " + std::string(section_name(s)) + ", but comes after " +
                 (in_function ? std::string("the start of a function")
                              : std::string(section_name(current))) +
                 " (SPIR-V 1.6 section 2.4 orders capabilities, extensions, imports, memory "
                 "model, entry points, execution modes, debug, annotations, types/constants/"
                 "globals, functions)",
             "move it into its section");
      continue;
    }
    current = s;
  }
  if (memory_models == 0)
    report(severity::error, error::npos, "layout.memory-model",
           "no OpMemoryModel; a module has exactly one (SPIR-V 1.6 section 2.4)",
           "add `OpMemoryModel Physical64 OpenCL` after the extended instruction imports");
}

void validator::check_ids() {
  // Each id is defined once and below the bound (SPIR-V 1.6 section 2.3: "all <id>s ... satisfy
  // 0 < id < Bound").
  std::unordered_map<std::uint32_t, std::size_t> seen;
  std::optional<std::size_t> first_over_bound;
  std::size_t over_bound = 0;
  std::uint32_t largest = 0;
  for (std::size_t i = 0; i < m_module.instructions.size(); ++i) {
    const decoded& d = m_decoded[i];
    if (!d.has_result_id) continue;
    std::uint32_t id = d.result_id;
    if (id == 0) {
      report(severity::error, i, "id.zero", "defines id 0, which no instruction may",
             "renumber it to an unused id below the header's bound");
      continue;
    }
    largest = std::max(largest, id);
    if (id >= m_module.bound && !over_bound++) first_over_bound = i;
    auto [it, fresh] = seen.emplace(id, i);
    if (!fresh)
      report(severity::error, i, "id.redefined",
             "defines %" + std::to_string(id) + " again; instruction " +
                 std::to_string(it->second) +
                 " already did (SPIR-V 1.6 section 2.2.2: ids are "
                 "defined once)",
             "give it a fresh id");
  }

  // Once, at the first: a wrong bound puts every later id over it.
  if (first_over_bound)
    report(severity::error, *first_over_bound, "id.bound",
           "defines id " + std::to_string(m_decoded[*first_over_bound].result_id) +
               ", not below the header's bound " + std::to_string(m_module.bound) + " (" +
               std::to_string(over_bound) + " result id(s) are; SPIR-V 1.6 section 2.3)",
           "set the header's bound to " +
               (largest == 0xffffffff ? std::string("a value above every id (renumber them)")
                                      : std::to_string(largest + 1)));

  // Every id used is defined; a use before its definition only where SPIR-V 1.6 section 2.4
  // allows forward references.
  for (std::size_t i = 0; i < m_module.instructions.size(); ++i) {
    const instruction& inst = m_module.instructions[i];
    const decoded& d = m_decoded[i];
    if (!d.info) continue;
    if (inst.opcode == opx::TypeForwardPointer && !inst.operands.empty())
      m_forward_pointers.insert(inst.operands[0]);
    section s = section_of(inst.opcode, d.info->name);
    bool forward_ok_all =
        s == section::entry_point || s == section::execution_mode || s == section::debug_name ||
        s == section::annotation || inst.opcode == opx::Phi ||
        inst.opcode == opx::TypeForwardPointer ||
        (inst.opcode >= opx::EnqueueKernel && inst.opcode <= opx::GetKernelMaxNumSubgroups);
    for (std::size_t k = 0; k < d.operands.size(); ++k) {
      const operand_ref& r = d.operands[k];
      if (r.kind != operand_kind::id && r.kind != operand_kind::result_type) continue;
      std::uint32_t id = inst.operands[r.word];
      auto it = m_defs.find(id);
      if (it == m_defs.end()) {
        report(severity::error, i, "id.undefined",
               "uses " + id_text(id) + ", which no instruction defines",
               "define it or use a defined id");
        continue;
      }
      if (r.kind == operand_kind::result_type) {
        const decoded& t = m_decoded[it->second];
        if (!t.info || !t.info->name.starts_with("OpType"))
          report(severity::error, i, "id.not-a-type",
                 "its result type " + id_text(id) + " is not defined by an OpType* instruction",
                 "use a type id as the result type");
      }
      if (it->second < i) continue;
      const instruction& target = m_module.instructions[it->second];
      bool ok = forward_ok_all || target.opcode == op::Label ||
                (inst.opcode == op::FunctionCall && r.word == 2) || m_forward_pointers.contains(id);
      if (!ok)
        report(severity::error, i, "id.forward-reference",
               "uses " + id_text(id) + " before instruction " + std::to_string(it->second) +
                   " defines it; only OpName/OpDecorate/OpEntryPoint/OpExecutionMode, OpPhi, "
                   "branch targets, OpFunctionCall's callee and forward-declared pointers may "
                   "(SPIR-V 1.6 section 2.4)",
               "move the definition before the use");
    }
  }
}

void validator::check_functions() {
  // SPIR-V 1.6 section 2.4 item 11 and section 2.2.5 (blocks): OpFunction, parameters, then
  // blocks each starting with OpLabel and ending with one terminator, then OpFunctionEnd.
  enum class state { outside, header, block, after_terminator } st = state::outside;
  std::size_t function_start = 0;
  for (std::size_t i = 0; i < m_module.instructions.size(); ++i) {
    std::uint16_t opc = m_module.instructions[i].opcode;
    if (opc == op::Line || opc == opx::NoLine || opc == op::Nop) continue;
    switch (st) {
    case state::outside:
      if (opc == op::Function) {
        st = state::header;
        function_start = i;
      } else if (opc == op::FunctionEnd || opc == op::FunctionParameter || opc == op::Label) {
        report(severity::error, i, "function.nesting",
               "outside any OpFunction (SPIR-V 1.6 section 2.4)",
               "open the function with OpFunction first");
      }
      break;
    case state::header:
      if (opc == op::FunctionParameter) break;
      if (opc == op::Label) {
        st = state::block;
      } else if (opc == op::FunctionEnd) {
        st = state::outside;
      } else {
        report(severity::error, i, "block.label",
               "the function of instruction " + std::to_string(function_start) +
                   " has a body that does not begin with OpLabel (SPIR-V 1.6 section 2.2.5)",
               "start the first block with OpLabel");
        // Go on as if the label were there, so one missing label is one diagnostic.
        st = is_terminator(opc) ? state::after_terminator : state::block;
        if (opc == op::Function) {
          st = state::header;
          function_start = i;
        }
      }
      break;
    case state::block:
      if (is_terminator(opc)) {
        st = state::after_terminator;
      } else if (opc == op::Label || opc == op::FunctionEnd || opc == op::Function) {
        report(severity::error, i, "block.terminator",
               "the block before it has no terminator (OpBranch, OpReturn, ...; SPIR-V 1.6 "
               "section 2.2.5)",
               "end the previous block with a branch or return");
        st = opc == op::Label ? state::block : opc == op::Function ? state::header : state::outside;
        if (opc == op::Function) function_start = i;
      }
      break;
    case state::after_terminator:
      if (opc == op::Label) {
        st = state::block;
      } else if (opc == op::FunctionEnd) {
        st = state::outside;
      } else {
        report(severity::error, i, "block.label",
               "follows a block terminator but is not OpLabel or OpFunctionEnd (SPIR-V 1.6 "
               "section 2.2.5)",
               "start a new block with OpLabel or end the function");
        st = opc == op::Function  ? state::header
             : is_terminator(opc) ? state::after_terminator
                                  : state::block;
        if (opc == op::Function) function_start = i;
      }
      break;
    }
  }
  if (st != state::outside)
    report(severity::error, function_start, "function.nesting",
           "this function has no OpFunctionEnd before the module ends",
           "end it with OpFunctionEnd");
}

// What the uniformity rule can prove. A value surely differs between the invocations of a
// sub-group (with more than one invocation) when it is a varying built-in, the first component
// of a vector one (consumers form sub-groups along x), or an injective function of exactly one
// such value whose other operands are surely uniform: constants, kernel arguments, uniform
// built-ins, broadcasts, loads through uniform pointers (a SYCL kernel cannot write its own
// arguments) and pure operations of those. `x - x`, divisions, masks and selections of a
// varying value may well be uniform (the sub-group's first index is `lid - lane`) and prove
// nothing, so valid code is never reported.
bool is_injective(std::uint16_t opcode) {
  switch (opcode) {
  case 67:  // OpPtrAccessChain
  case 70:  // OpInBoundsPtrAccessChain
  case 83:  // OpCopyObject
  case 113: // OpUConvert
  case 114: // OpSConvert
  case 117: // OpConvertPtrToU
  case 120: // OpConvertUToPtr
  case 121: // OpPtrCastToGeneric
  case 122: // OpGenericCastToPtr
  case 123: // OpGenericCastToPtrExplicit
  case 124: // OpBitcast
  case 126: // OpSNegate
  case 128: // OpIAdd
  case 130: // OpISub
  case 132: // OpIMul (by a non-zero constant)
  case 196: // OpShiftLeftLogical (by a constant)
  case 200: // OpNot
  case 4423:
  case 4424: // untyped pointer access chains
    return true;
  default:
    return false;
  }
}

void validator::compute_varying() {
  std::unordered_map<std::uint32_t, std::uint32_t> varying_pointers; // -> BuiltIn
  std::unordered_set<std::uint32_t> uniform, uniform_pointers;
  for (auto [var, builtin] : m_builtins)
    (builtin_varies_in_subgroup(builtin) ? (void)varying_pointers.emplace(var, builtin)
                                         : (void)uniform_pointers.insert(var));
  if (varying_pointers.empty()) return;
  std::unordered_set<std::uint32_t> entry_points;
  for (const instruction& inst : m_module.instructions)
    if (inst.opcode == op::EntryPoint && inst.operands.size() >= 2)
      entry_points.insert(inst.operands[1]);
  auto is_uniform = [&](std::uint32_t id) {
    return uniform.contains(id) || uniform_pointers.contains(id);
  };

  // Bounded: each round only adds; giving up early only loses reports.
  for (int round = 0; round < 64; ++round) {
    bool changed = false;
    bool in_entry_point = false;
    for (std::size_t i = 0; i < m_module.instructions.size(); ++i) {
      const instruction& inst = m_module.instructions[i];
      const decoded& d = m_decoded[i];
      if (inst.opcode == op::Function && inst.operands.size() >= 2)
        in_entry_point = entry_points.contains(inst.operands[1]);
      if (!d.info || !d.has_result_id || !d.problem.empty() || d.opaque_tail) continue;
      std::uint32_t id = d.result_id;
      if (m_varying.contains(id) || is_uniform(id) || varying_pointers.contains(id)) continue;

      std::vector<std::uint32_t> ids;
      for (const auto& r : d.operands)
        if (r.kind == operand_kind::id) ids.push_back(inst.operands[r.word]);
      std::optional<std::uint32_t> varying_from;
      std::size_t varying_operands = 0;
      bool others_uniform = true, all_uniform = true;
      for (std::uint32_t operand : ids) {
        if (auto it = m_varying.find(operand); it != m_varying.end()) {
          ++varying_operands;
          varying_from = it->second;
          all_uniform = false;
        } else if (!is_uniform(operand)) {
          others_uniform = all_uniform = false;
        }
      }

      bool now_uniform = false;
      std::optional<std::uint32_t> now_varying;
      std::uint16_t opc = inst.opcode;
      if ((opc >= 41 && opc <= 52) || opc == 45 /* constants */) {
        now_uniform = true;
      } else if (opc == op::FunctionParameter) {
        now_uniform = in_entry_point; // kernel arguments are the same for every invocation
      } else if (opc == op::Load && inst.operands.size() >= 3) {
        std::uint32_t pointer = inst.operands[2];
        if (auto it = varying_pointers.find(pointer); it != varying_pointers.end())
          now_varying = it->second;
        else if (is_uniform(pointer))
          now_uniform = true;
      } else if ((opc == opx::GroupNonUniformBroadcast ||
                  opc == opx::GroupNonUniformBroadcastFirst || opc == opx::GroupBroadcast) &&
                 inst.operands.size() >= 4) {
        auto scope = constant_value(inst.operands[2]);
        now_uniform = scope && *scope != scope_invocation;
      } else if (!ids.empty() && varying_pointers.contains(ids[0]) &&
                 (opc <= 70 || (opc >= 121 && opc <= 124))) {
        // An access chain or cast of a varying built-in variable still points at it.
        varying_pointers.emplace(id, varying_pointers[ids[0]]);
        changed = true;
        continue;
      } else if (opc == 81 /* OpCompositeExtract */ && inst.operands.size() >= 4) {
        if (auto it = m_varying.find(inst.operands[2]); it != m_varying.end()) {
          if (inst.operands[3] == 0) now_varying = it->second; // x varies; y, z may not
        } else {
          now_uniform = is_uniform(inst.operands[2]);
        }
      } else if (is_injective(opc) && varying_operands == 1 && others_uniform) {
        bool injective = true;
        if (opc == 132) { // multiplication by a known non-zero constant
          for (std::uint32_t operand : ids)
            if (!m_varying.contains(operand)) {
              auto c = constant_value(operand);
              injective = injective && c && *c != 0;
            }
        } else if (opc == 196) { // shifting the varying value by a constant
          injective = ids.size() == 2 && m_varying.contains(ids[0]) && constant_value(ids[1]);
        }
        if (injective) now_varying = varying_from;
      } else if (propagates_values(opc) && all_uniform && !ids.empty()) {
        now_uniform = true;
      }
      if (now_varying) {
        m_varying.emplace(id, *now_varying);
        changed = true;
      } else if (now_uniform) {
        uniform.insert(id);
        changed = true;
      }
    }
    if (!changed) break;
  }
}

void validator::check_memory_operands(std::size_t index, std::size_t first_word) {
  // Seed 003: "If present, any Memory Operands must begin with a memory operand literal"; the
  // literal is a MemoryAccess mask whose set bits each take their parameters, lowest bit first
  // (SPIR-V 1.6 section 3.26).
  const instruction& inst = m_module.instructions[index];
  if (first_word >= inst.operands.size()) return;
  std::uint32_t mask = inst.operands[first_word];
  std::size_t p = first_word + 1;
  const std::string fix =
      "give a MemoryAccess mask (None, Volatile, Aligned N, Nontemporal, ...) followed by "
      "exactly the operands its bits need, or no memory operands at all";
  for (int bit = 0; bit < 32; ++bit) {
    std::uint32_t flag = std::uint32_t{1} << bit;
    if (!(mask & flag)) continue;
    const enumerant_info* e = find_enumerant("MemoryAccess", flag);
    if (!e) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%x", mask);
      report(severity::error, index, "prefetch.memory-operands",
             std::string("its memory operands begin with ") + hex +
                 ", which is not a MemoryAccess mask (seed 003: memory operands begin with a "
                 "memory operand literal)",
             fix);
      return;
    }
    for (const auto& param : e->parameters) {
      if (p >= inst.operands.size()) {
        report(severity::error, index, "prefetch.memory-operands",
               "MemoryAccess " + std::string(e->name) + " needs a " +
                   std::string(param.name.empty() ? "parameter" : param.name) +
                   " operand after the mask, which is missing",
               fix);
        return;
      }
      std::uint32_t w = inst.operands[p++];
      if (param.kind == operand_kind::id) {
        if (!def(w)) {
          report(severity::error, index, "prefetch.memory-operands",
                 "MemoryAccess " + std::string(e->name) + "'s operand %" + std::to_string(w) +
                     " is not a defined id",
                 fix);
          return;
        }
      } else if (std::string_view(e->name) == "Aligned" && (w == 0 || (w & (w - 1)) != 0)) {
        report(severity::error, index, "prefetch.memory-operands",
               "MemoryAccess Aligned " + std::to_string(w) +
                   " is not a power of two (SPIR-V 1.6 section 3.26)",
               "give the alignment in bytes as a power of two");
        return;
      }
    }
  }
  // MakePointerAvailable (0x8) and MakePointerVisible (0x10) need NonPrivatePointer (0x20)
  // (SPIR-V 1.6 section 3.26).
  if ((mask & 0x18) && !(mask & 0x20)) {
    report(severity::error, index, "prefetch.memory-operands",
           "MemoryAccess MakePointerAvailable/MakePointerVisible without NonPrivatePointer "
           "(SPIR-V 1.6 section 3.26)",
           "add NonPrivatePointer to the mask");
    return;
  }
  if (p < inst.operands.size())
    report(severity::error, index, "prefetch.memory-operands",
           std::to_string(inst.operands.size() - p) +
               " word(s) after the memory operands that its MemoryAccess bits do not take",
           fix);
}

void validator::check_prefetch(std::size_t index) {
  // Seed 003, OpSubgroupBlockPrefetchINTEL: <id> Ptr, <id> NumBytes, optional memory operands.
  const instruction& inst = m_module.instructions[index];
  if (inst.operands.size() < 2) return; // instruction.word-count says so
  std::uint32_t ptr = inst.operands[0], num_bytes = inst.operands[1];
  const std::string seed = " (seed 003, SPV_INTEL_subgroup_buffer_prefetch)";

  // Ptr: a pointer into CrossWorkgroup; an OpTypePointer to an integer scalar.
  if (const instruction* ptr_def = def(ptr)) {
    std::uint32_t type = type_of(ptr);
    const instruction* t = def(type);
    if (!t || (t->opcode != op::TypePointer && t->opcode != op::TypeUntypedPointerKHR) ||
        t->operands.size() < 2) {
      report(severity::error, index, "prefetch.ptr-type",
             "Ptr " + id_text(ptr) + " has type " + (t ? type_text(type) : "<none>") +
                 ", not a pointer (OpTypePointer or OpTypeUntypedPointerKHR)" + seed,
             "pass a pointer into global memory");
    } else {
      std::uint32_t sc = t->operands[1];
      if (sc != storage_class::CrossWorkgroup)
        report(severity::error, index, "prefetch.ptr-storage-class",
               "Ptr " + id_text(ptr) + " points into the " + enumerant_text("StorageClass", sc) +
                   " storage class; the prefetch reads only CrossWorkgroup (global) memory" + seed,
               "pass a global pointer (cast a Generic pointer with OpGenericCastToPtr "
               "CrossWorkgroup first)");
      if (t->opcode == op::TypePointer && t->operands.size() >= 3) {
        const instruction* pointee = def(t->operands[2]);
        if (!pointee || pointee->opcode != op::TypeInt)
          report(severity::error, index, "prefetch.ptr-pointee",
                 "Ptr " + id_text(ptr) + " points to " + type_text(t->operands[2]) +
                     ", not an integer scalar type" + seed,
                 "bitcast the pointer to a pointer to i8 (or another integer) first");
      }
      if (t->opcode == op::TypeUntypedPointerKHR && !has_extension("SPV_KHR_untyped_pointers"))
        report(severity::error, index, "prefetch.untyped-extension",
               "Ptr " + id_text(ptr) +
                   " is an untyped pointer, but the module does not declare "
                   "SPV_KHR_untyped_pointers" +
                   seed,
               "add `OpExtension \"SPV_KHR_untyped_pointers\"` or use an OpTypePointer to an "
               "integer");
    }
    (void)ptr_def;
  }

  // NumBytes: a 32-bit integer with Signedness 0, from a constant instruction, ideally a power
  // of two in 1..64. "Constant instruction" is every instruction of SPIR-V 1.6 section 3.49.7
  // Constant-Creation Instructions: OpConstant/OpConstantNull and also OpSpecConstant and
  // OpSpecConstantOp, since the seed makes NumBytes an <id> precisely so it can be specialized
  // (issue 5). OpUndef, loads and arithmetic are not.
  if (const instruction* n = def(num_bytes)) {
    std::uint32_t type = type_of(num_bytes);
    if (!is_int_type(type, 32, 0))
      report(severity::error, index, "prefetch.num-bytes-type",
             "NumBytes " + id_text(num_bytes) + " has type " +
                 (def(type) ? type_text(type) : "<none>") +
                 ", not a 32-bit integer with Signedness 0" + seed,
             "use an `OpTypeInt 32 0` constant");
    bool constant =
        n->opcode >= op::ConstantTrue && n->opcode <= op::SpecConstantOp && n->opcode != 47;
    if (!constant) {
      const opcode_info* info = find_opcode(n->opcode);
      report(severity::error, index, "prefetch.num-bytes-constant",
             "NumBytes " + id_text(num_bytes) + " comes from " +
                 (info ? std::string(info->name) : "opcode " + std::to_string(n->opcode)) +
                 ", not a constant instruction (OpConstant, OpConstantNull, OpSpecConstant, "
                 "OpSpecConstantOp)" +
                 seed,
             "pass the byte count as a constant or specialization constant");
    } else if (is_int_type(type, 32, 0)) {
      bool spec = false;
      if (auto v = constant_value(num_bytes, &spec)) {
        bool pow2 = *v >= 1 && *v <= 64 && (*v & (*v - 1)) == 0;
        if (!pow2)
          report(severity::warning, index, "prefetch.num-bytes-value",
                 "NumBytes " + id_text(num_bytes) + " is " + (spec ? "by default " : "") +
                     std::to_string(*v) +
                     ", not a power of two from 1 to 64, so devices may silently ignore the "
                     "prefetch" +
                     seed,
                 "prefetch 1, 2, 4, 8, 16, 32 or 64 bytes per invocation");
      }
    }
  }

  check_memory_operands(index, 2);

  // Behaviour is undefined unless Ptr and NumBytes are dynamically uniform in the sub-group.
  for (auto [operand, name] : {std::pair{ptr, "Ptr"}, std::pair{num_bytes, "NumBytes"}}) {
    auto it = m_varying.find(operand);
    if (it == m_varying.end()) continue;
    report(severity::error, index, "prefetch.uniformity",
           std::string(name) + " " + id_text(operand) + " is computed from built-in " +
               enumerant_text("BuiltIn", it->second) +
               ", which differs between the invocations of a sub-group, but it must be "
               "dynamically uniform in the sub-group" +
               seed,
           "compute it from values every work-item of the sub-group shares (e.g. the sub-group's "
           "first work-item: OpGroupNonUniformBroadcastFirst Subgroup, "
           "sycl::group_broadcast(sg, x)), or prefetch per work-item with OpenCL.std prefetch");
  }
}

void validator::check_cache_control(std::size_t index) {
  // SPV_INTEL_cache_controls: OpDecorate %ptr CacheControlLoadINTEL|StoreINTEL CacheLevel
  // Control; the target is a pointer; the control is a LoadCacheControl / StoreCacheControl.
  const instruction& inst = m_module.instructions[index];
  bool load = inst.operands[1] == decoration::CacheControlLoadINTEL;
  const std::string ext = " (SPV_INTEL_cache_controls)";
  if (inst.operands.size() != 4) return; // instruction.word-count
  std::uint32_t target = inst.operands[0], control = inst.operands[3];
  if (def(target)) {
    std::uint32_t type = type_of(target);
    const instruction* t = def(type);
    if (!t || (t->opcode != op::TypePointer && t->opcode != op::TypeUntypedPointerKHR))
      report(severity::error, index, "cache-control.target",
             id_text(target) + " is not a pointer, so it has no accesses to control" + ext,
             "decorate the pointer the load or store uses");
  }
  // LoadCacheControl: Uncached, Cached, Streaming, InvalidateAfterRead, ConstCached (0-4);
  // StoreCacheControl: Uncached, WriteThrough, WriteBack, Streaming (0-3).
  std::uint32_t limit = load ? 4 : 3;
  if (control > limit)
    report(severity::error, index, "cache-control.value",
           std::to_string(control) + " is not a " +
               (load ? "LoadCacheControl (0-4)" : "StoreCacheControl (0-3)") + " value" + ext,
           load ? "use Uncached, Cached, Streaming, InvalidateAfterRead or ConstCached"
                : "use Uncached, WriteThrough, WriteBack or Streaming");
}

void validator::check_opencl_prefetch(std::size_t index) {
  // OpenCL.std 185, prefetch(global gentype* p, size_t num_elements) (OpenCL Extended
  // Instruction Set 2.7): a CrossWorkgroup pointer and an integer count; no result.
  const instruction& inst = m_module.instructions[index];
  if (inst.operands.size() != 6) return; // instruction.word-count
  const std::string where = " (OpenCL.std prefetch)";
  if (!def(inst.operands[0]) || def(inst.operands[0])->opcode != op::TypeVoid)
    report(severity::error, index, "ext-prefetch.result-type",
           "its result type " + id_text(inst.operands[0]) + " is not void" + where,
           "give it an OpTypeVoid result type");
  std::uint32_t ptr = inst.operands[4], count = inst.operands[5];
  if (def(ptr)) {
    const instruction* t = def(type_of(ptr));
    if (!t || (t->opcode != op::TypePointer && t->opcode != op::TypeUntypedPointerKHR) ||
        t->operands.size() < 2 || t->operands[1] != storage_class::CrossWorkgroup)
      report(severity::error, index, "ext-prefetch.ptr",
             "p " + id_text(ptr) + " has type " + type_text(type_of(ptr)) +
                 ", not a pointer into CrossWorkgroup" + where,
             "pass a global pointer");
  }
  if (def(count)) {
    const instruction* t = def(type_of(count));
    if (!t || t->opcode != op::TypeInt)
      report(severity::error, index, "ext-prefetch.count",
             "num_elements " + id_text(count) + " has type " + type_text(type_of(count)) +
                 ", not an integer scalar" + where,
             "pass the element count as a size_t (i64 on spirv64)");
  }
}

std::vector<diagnostic> validator::run() {
  // Names first: messages use them.
  for (const auto& inst : m_module.instructions) {
    if (inst.opcode == op::Name && inst.operands.size() >= 2) {
      try {
        std::string n = inst.string_at(1);
        bool ok = !n.empty() && n.size() <= 64 && std::all_of(n.begin(), n.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '.';
        });
        if (ok) m_names.emplace(inst.operands[0], n);
      } catch (const error&) {
      }
    } else if (inst.opcode == op::Extension && !inst.operands.empty()) {
      try {
        m_extensions.insert(inst.string_at(0));
      } catch (const error&) {
      }
    } else if (inst.opcode == op::Capability && !inst.operands.empty()) {
      m_capabilities.insert(inst.operands[0]);
    } else if (inst.opcode == op::Decorate && inst.operands.size() >= 3 &&
               inst.operands[1] == decoration::BuiltIn) {
      m_builtins.emplace(inst.operands[0], inst.operands[2]);
    }
  }
  decode_all();
  check_header();
  check_layout();
  check_ids();
  check_functions();
  compute_varying();

  std::optional<std::size_t> first_prefetch, first_cache_control;
  for (std::size_t i = 0; i < m_module.instructions.size(); ++i) {
    const instruction& inst = m_module.instructions[i];
    if (!m_decoded[i].info) continue;
    if (inst.opcode == op::SubgroupBlockPrefetchINTEL) {
      if (!first_prefetch) first_prefetch = i;
      check_prefetch(i);
    } else if (is_cache_control(inst)) {
      if (!first_cache_control) first_cache_control = i;
      check_cache_control(i);
    } else if (inst.opcode == op::ExtInst && inst.operands.size() >= 4 && inst.operands[3] == 185 &&
               !m_decoded[i].opaque_tail && m_decoded[i].problem.empty()) {
      check_opencl_prefetch(i);
    }
  }
  // Declarations, reported once at the first use (SPIR-V 1.6 section 2.16.1: "declare the
  // capabilities and extensions the module uses").
  if (first_prefetch) {
    if (!m_capabilities.contains(capability::SubgroupBufferPrefetchINTEL))
      report(severity::error, *first_prefetch, "prefetch.capability",
             "OpSubgroupBlockPrefetchINTEL needs capability SubgroupBufferPrefetchINTEL, which "
             "the module does not declare (seed 003)",
             "add `OpCapability SubgroupBufferPrefetchINTEL`");
    if (!has_extension("SPV_INTEL_subgroup_buffer_prefetch"))
      report(severity::error, *first_prefetch, "prefetch.extension",
             "OpSubgroupBlockPrefetchINTEL needs extension SPV_INTEL_subgroup_buffer_prefetch, "
             "which the module does not declare (seed 003)",
             "add `OpExtension \"SPV_INTEL_subgroup_buffer_prefetch\"`");
  }
  if (first_cache_control) {
    if (!m_capabilities.contains(capability::CacheControlsINTEL))
      report(severity::error, *first_cache_control, "cache-control.capability",
             "cache-control decorations need capability CacheControlsINTEL, which the module "
             "does not declare (SPV_INTEL_cache_controls)",
             "add `OpCapability CacheControlsINTEL`");
    if (!has_extension("SPV_INTEL_cache_controls"))
      report(severity::error, *first_cache_control, "cache-control.extension",
             "cache-control decorations need extension SPV_INTEL_cache_controls, which the "
             "module does not declare",
             "add `OpExtension \"SPV_INTEL_cache_controls\"`");
  }
  // Module-wide diagnostics first, then in instruction order, each instruction's in the order the
  // rules ran.
  std::vector<std::pair<std::size_t, std::size_t>> order;
  for (std::size_t k = 0; k < m_out.size(); ++k)
    order.emplace_back(m_out[k].instruction == error::npos ? 0 : m_out[k].instruction + 1, k);
  std::sort(order.begin(), order.end());
  std::vector<diagnostic> sorted;
  sorted.reserve(m_out.size());
  for (auto [key, k] : order) sorted.push_back(std::move(m_out[k]));
  return sorted;
}

} // namespace

std::vector<diagnostic> validate(const module& m) {
  return validator(m).run();
}

std::string format(const std::vector<diagnostic>& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics) {
    out += d.level == severity::error ? "error: " : "warning: ";
    out += d.message;
    out += '\n';
  }
  return out;
}

} // namespace syclone::spirv
