#include "postpass.hpp"

#include "grammar.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace syclone::spirv {

namespace {

constexpr std::string_view prefetch_marker = "__syclone_spirv_prefetch";
constexpr std::string_view block_prefetch_marker = "__syclone_spirv_block_prefetch";

bool is_preamble(std::uint16_t opcode) {
  switch (opcode) {
  case op::Capability:
  case op::Extension:
  case op::ExtInstImport:
  case op::MemoryModel:
  case op::EntryPoint:
  case op::ExecutionMode:
  case op::ExecutionModeId:
  case op::String:
  case op::SourceExtension:
  case op::Source:
  case op::SourceContinued:
  case op::Name:
  case op::MemberName:
  case op::ModuleProcessed:
    return true;
  default:
    return false;
  }
}

bool is_annotation(std::uint16_t opcode) {
  switch (opcode) {
  case op::Decorate:
  case op::MemberDecorate:
  case op::DecorationGroup:
  case op::GroupDecorate:
  case op::GroupMemberDecorate:
  case op::DecorateId:
  case op::DecorateString:
  case op::MemberDecorateString:
    return true;
  default:
    return false;
  }
}

struct marker {
  std::string name;
  std::vector<std::uint32_t> parameter_types;
};

std::string hex_id(std::uint32_t id) {
  return "%" + std::to_string(id);
}

// LLVM's SPIR-V backend gives the BuiltIn variables it creates for __spirv_BuiltIn* Import
// linkage as well. A BuiltIn variable is provided by the consumer whatever its linkage
// (SPIR-V 1.6 section 3.21, BuiltIn decoration), so the linkage only costs the image the Linkage
// capability, which OpenCL consumers need not support: it goes.
void drop_builtin_linkage(module& m) {
  std::set<std::uint32_t> builtins;
  for (const auto& inst : m.instructions)
    if (inst.opcode == op::Decorate && inst.operands.size() >= 2 &&
        inst.operands[1] == decoration::BuiltIn)
      builtins.insert(inst.operands[0]);
  std::erase_if(m.instructions, [&](const instruction& x) {
    return x.opcode == op::Decorate && x.operands.size() >= 2 &&
           x.operands[1] == decoration::LinkageAttributes && builtins.count(x.operands[0]);
  });
}

void drop_unused_linkage_capability(module& m) {
  bool linkage_left =
      std::any_of(m.instructions.begin(), m.instructions.end(), [](const instruction& x) {
        return x.opcode == op::Decorate && x.operands.size() >= 2 &&
               x.operands[1] == decoration::LinkageAttributes;
      });
  if (!linkage_left)
    std::erase_if(m.instructions, [](const instruction& x) {
      return x.opcode == op::Capability && x.operands.size() == 1 &&
             x.operands[0] == capability::Linkage;
    });
}

// LLVM 22's SPIR-V backend decides whether a printf's format string needs
// SPV_EXT_relaxed_printf_string_address_space by looking up the format's type in whichever
// function it compiled last (a register number of another function), so with several kernels it
// may ask for the extension, or fail, whatever the format's storage class. syclone++ lets it add
// the extension and gives every printf its format in UniformConstant memory
// (tools/syclone++/spirv_lowering.cpp); the extension goes where no printf format is elsewhere.
void drop_unneeded_printf_extension(module& m) {
  const std::string_view name = "SPV_EXT_relaxed_printf_string_address_space";
  auto& in = m.instructions;
  auto extension = std::find_if(in.begin(), in.end(), [&](const instruction& x) {
    return x.opcode == op::Extension && x.string_at(0) == name;
  });
  if (extension == in.end()) return;
  std::set<std::uint32_t> opencl_sets;
  std::map<std::uint32_t, std::uint32_t> type_of;       // result id -> result type
  std::map<std::uint32_t, std::uint32_t> pointer_class; // pointer type -> storage class
  for (const auto& inst : in) {
    if (inst.opcode == op::ExtInstImport && inst.string_at(1) == "OpenCL.std")
      opencl_sets.insert(inst.operands[0]);
    if (inst.opcode == op::TypePointer && inst.operands.size() >= 2)
      pointer_class[inst.operands[0]] = inst.operands[1];
    const opcode_info* info = find_opcode(inst.opcode);
    if (info && info->operands.size() >= 2 && inst.operands.size() >= 2 &&
        info->operands[0].kind == operand_kind::result_type &&
        info->operands[1].kind == operand_kind::result_id)
      type_of[inst.operands[1]] = inst.operands[0];
  }
  for (const auto& inst : in) {
    if (inst.opcode != op::ExtInst || inst.operands.size() < 5 ||
        !opencl_sets.count(inst.operands[2]) || inst.operands[3] != opencl_std::printf)
      continue;
    auto type = type_of.find(inst.operands[4]);
    if (type == type_of.end()) return;
    auto storage = pointer_class.find(type->second);
    if (storage == pointer_class.end() || storage->second != storage_class::UniformConstant)
      return; // a format elsewhere: the extension is needed
  }
  in.erase(extension);
}

postpass_statistics lower_prefetch_markers(module& m) {
  postpass_statistics stats;
  auto& in = m.instructions;

  // The marker declarations, by the name their Import linkage gives them.
  std::map<std::uint32_t, marker> markers;
  for (const auto& inst : in) {
    if (inst.opcode != op::Decorate || inst.operands.size() < 3 ||
        inst.operands[1] != decoration::LinkageAttributes)
      continue;
    std::string name = inst.string_at(2);
    if (!name.starts_with("__syclone_")) continue;
    if (name != prefetch_marker && name != block_prefetch_marker)
      throw error("the SPIR-V image still imports " + name +
                  ", which no syclone pass resolves (a bug in syclone's device headers or its "
                  "pre-codegen pass)");
    markers[inst.operands[0]].name = name;
  }
  if (markers.empty()) return stats;

  // Their parameter types, and the constants a call may pass.
  std::map<std::uint32_t, std::uint64_t> constants;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto& inst = in[i];
    if (inst.opcode == op::Constant && inst.operands.size() >= 3) {
      std::uint64_t value = inst.operands[2];
      if (inst.operands.size() >= 4) value |= std::uint64_t(inst.operands[3]) << 32;
      constants[inst.operands[1]] = value;
    } else if (inst.opcode == op::ConstantNull && inst.operands.size() >= 2) {
      constants[inst.operands[1]] = 0;
    } else if (inst.opcode == op::Function && inst.operands.size() >= 2 &&
               markers.count(inst.operands[1])) {
      auto& mk = markers[inst.operands[1]];
      for (std::size_t p = i + 1; p < in.size() && in[p].opcode == op::FunctionParameter; ++p)
        mk.parameter_types.push_back(in[p].operands.at(0));
    }
  }
  std::optional<std::uint32_t> opencl_std;
  for (const auto& inst : in)
    if (inst.opcode == op::ExtInstImport && inst.operands.size() >= 2 &&
        inst.string_at(1) == "OpenCL.std")
      opencl_std = inst.operands[0];

  auto constant_of = [&](std::uint32_t id, const std::string& what,
                         const std::string& call) -> std::uint64_t {
    auto it = constants.find(id);
    if (it == constants.end())
      throw error("the " + what + " of " + call + " is " + hex_id(id) +
                  ", not a constant (a bug in syclone's device headers: they pass literals)");
    return it->second;
  };

  std::set<std::uint32_t> removed_ids; // markers, their parameters, the calls' void results
  std::vector<instruction> decorations;
  bool uses_block_prefetch = false;
  std::vector<instruction> out;
  out.reserve(in.size());

  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto& inst = in[i];
    if (inst.opcode == op::Function && inst.operands.size() >= 2 &&
        markers.count(inst.operands[1])) {
      removed_ids.insert(inst.operands[1]);
      for (++i; i < in.size() && in[i].opcode != op::FunctionEnd; ++i)
        if (in[i].opcode == op::FunctionParameter) removed_ids.insert(in[i].operands.at(1));
      continue; // skips OpFunctionEnd too
    }
    if (inst.opcode != op::FunctionCall || inst.operands.size() < 3 ||
        !markers.count(inst.operands[2])) {
      out.push_back(inst);
      continue;
    }
    const marker& mk = markers[inst.operands[2]];
    std::string call = "the call of " + mk.name + " (" + hex_id(inst.operands[1]) + ")";
    if (inst.operands.size() != 7 || mk.parameter_types.size() != 4)
      throw error(call + " does not pass the 4 arguments the device headers declare");
    std::uint32_t result_type = inst.operands[0], result = inst.operands[1];
    std::uint32_t pointer = inst.operands[3], bytes = inst.operands[4];
    std::uint64_t level = constant_of(inst.operands[5], "cache level", call);
    bool non_temporal = constant_of(inst.operands[6], "non-temporal flag", call) != 0;
    if (level < 1 || level > 4)
      throw error("the cache level of " + call + " is " + std::to_string(level) +
                  ", not 1..4 (SYCL's cache_level L1..L4)");

    // The cache level as decorations of a copy of the pointer, so that other uses of the
    // pointer keep their caching (SPV_INTEL_cache_controls: the decoration applies to accesses
    // through the decorated pointer). Prefetching into level L: the levels closer to the core
    // stay uncached, L itself is cached (non-temporal: invalidated once read).
    std::uint32_t decorated = m.new_id();
    out.push_back({op::CopyObject, {mk.parameter_types[0], decorated, pointer}});
    for (std::uint32_t l = 0; l + 1 < level; ++l)
      decorations.push_back(
          {op::Decorate,
           {decorated, decoration::CacheControlLoadINTEL, l, load_cache_control::Uncached}});
    decorations.push_back(
        {op::Decorate,
         {decorated, decoration::CacheControlLoadINTEL, static_cast<std::uint32_t>(level - 1),
          non_temporal ? load_cache_control::InvalidateAfterRead : load_cache_control::Cached}});
    stats.cache_controls += level;

    if (mk.name == block_prefetch_marker) {
      std::uint64_t n = constant_of(bytes, "byte count per invocation", call);
      if (n == 0 || n > 64 || (n & (n - 1)) != 0)
        throw error("the byte count per invocation of " + call + " is " + std::to_string(n) +
                    ", not a power of two in 1..64 (seed 003); the device headers only emit "
                    "those");
      // Seed 003: Ptr into CrossWorkgroup to an integer scalar (the marker's parameter is a
      // global char*), NumBytes a 32-bit unsigned constant (its parameter is uint32_t). The
      // instruction has no result: the call's void result goes.
      out.push_back({op::SubgroupBlockPrefetchINTEL, {decorated, bytes}});
      removed_ids.insert(result);
      uses_block_prefetch = true;
      ++stats.block_prefetches;
    } else {
      if (!opencl_std) {
        opencl_std = m.new_id();
        instruction import{op::ExtInstImport, {*opencl_std}};
        append_string(import.operands, "OpenCL.std");
        auto at = std::find_if(out.begin(), out.end(), [](const instruction& x) {
          return x.opcode != op::Capability && x.opcode != op::Extension;
        });
        out.insert(at, std::move(import));
      }
      // OpenCL.std prefetch (OpenCL extended instruction set, section 2.10): p, num_elements;
      // elements of char are bytes. The call's result id carries over.
      out.push_back({op::ExtInst,
                     {result_type, result, *opencl_std, opencl_std::prefetch, decorated, bytes}});
      ++stats.prefetches;
    }
  }

  // Names and decorations of what went away.
  std::erase_if(out, [&](const instruction& x) {
    bool targets_removed = (x.opcode == op::Name || x.opcode == op::Decorate ||
                            x.opcode == op::DecorateId || x.opcode == op::DecorateString) &&
                           !x.operands.empty() && removed_ids.count(x.operands[0]);
    return targets_removed;
  });
  auto has_capability = [&](std::uint32_t c) {
    return std::any_of(out.begin(), out.end(), [&](const instruction& x) {
      return x.opcode == op::Capability && x.operands.size() == 1 && x.operands[0] == c;
    });
  };
  auto has_extension = [&](std::string_view name) {
    return std::any_of(out.begin(), out.end(), [&](const instruction& x) {
      return x.opcode == op::Extension && x.string_at(0) == name;
    });
  };
  auto add_capability = [&](std::uint32_t c) {
    if (has_capability(c)) return;
    auto at = std::find_if(out.begin(), out.end(),
                           [](const instruction& x) { return x.opcode != op::Capability; });
    out.insert(at, instruction{op::Capability, {c}});
  };
  auto add_extension = [&](std::string_view name) {
    if (has_extension(name)) return;
    auto at = std::find_if(out.begin(), out.end(), [](const instruction& x) {
      return x.opcode != op::Capability && x.opcode != op::Extension;
    });
    instruction ext{op::Extension, {}};
    append_string(ext.operands, name);
    out.insert(at, std::move(ext));
  };
  if (uses_block_prefetch) {
    add_capability(capability::SubgroupBufferPrefetchINTEL);
    add_extension("SPV_INTEL_subgroup_buffer_prefetch");
  }
  if (!decorations.empty()) {
    add_capability(capability::CacheControlsINTEL);
    add_extension("SPV_INTEL_cache_controls");
    // After the last annotation, or where the annotations would start: before the first
    // instruction of the types, constants and globals section (SPIR-V 1.6 section 2.4).
    auto last_annotation = std::find_if(
        out.rbegin(), out.rend(), [](const instruction& x) { return is_annotation(x.opcode); });
    auto at = last_annotation != out.rend()
                  ? last_annotation.base()
                  : std::find_if(out.begin(), out.end(),
                                 [](const instruction& x) { return !is_preamble(x.opcode); });
    out.insert(at, decorations.begin(), decorations.end());
  }
  in = std::move(out);
  return stats;
}

} // namespace

postpass_statistics lower_syclone_markers(module& m) {
  drop_builtin_linkage(m);
  postpass_statistics stats = lower_prefetch_markers(m);
  drop_unused_linkage_capability(m);
  drop_unneeded_printf_extension(m);
  return stats;
}

} // namespace syclone::spirv
