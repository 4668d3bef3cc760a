// The validator, one invalid module per rule: each differs from a valid module by the words under
// test, and must draw exactly that rule's diagnostic, naming the instruction. Structural rules
// are cross-checked against Debian's spirv-val (which predates seed 003, so the prefetch rules
// cannot be).
#include "module_builder.hpp"
#include "validate.hpp"

#include <functional>
#include <gtest/gtest.h>

using namespace syclone::spirv;
using syclone::spirv::test::builder;

namespace {

// Enumerants the modules use (SPIR-V 1.6 section 3).
constexpr std::uint32_t Physical64 = 2, OpenCL = 2, Kernel = 6, BuiltIn = 11,
                        GlobalInvocationId = 28, SubgroupLocalInvocationId = 41, Input = 1,
                        CrossWorkgroup = 5, Function = 7, Workgroup = 4, Aligned = 2, Volatile = 1,
                        MakePointerAvailable = 8, NonPrivatePointer = 0x20,
                        cap_GroupNonUniform = 61, cap_Int64 = 11;

struct shape {
  bool capability = true;
  bool extension = true;
  bool memory_model = true;
  std::function<void(builder&)> extensions; // more OpCapability/OpExtension
  std::function<void(builder&)> annotations;
  std::function<void(builder&)> globals;
  std::function<void(builder&)> body;
};

// A kernel `k(global uchar* p, uint n)` with a GlobalInvocationId input; `s` adds to it.
module kernel(const shape& s) {
  builder b;
  b.add("OpCapability", {capability::Addresses});
  b.add("OpCapability", {capability::Kernel});
  b.add("OpCapability", {capability::Int8});
  b.add("OpCapability", {cap_Int64});
  b.add("OpCapability", {cap_GroupNonUniform});
  if (s.capability) b.add("OpCapability", {capability::SubgroupBufferPrefetchINTEL});
  if (s.extensions) s.extensions(b);
  if (s.extension) b.add("OpExtension", {"\"SPV_INTEL_subgroup_buffer_prefetch\""});
  if (s.memory_model) b.add("OpMemoryModel", {Physical64, OpenCL});
  b.add("OpEntryPoint", {Kernel, "%k", "\"k\"", "%gid"});
  b.add("OpName", {"%p", "\"p\""});
  b.add("OpName", {"%gid", "\"gid\""});
  b.add("OpDecorate", {"%gid", BuiltIn, GlobalInvocationId});
  if (s.annotations) s.annotations(b);
  b.add("OpTypeInt", {"%uint", 32, 0});
  b.add("OpTypeInt", {"%ulong", 64, 0});
  b.add("OpTypeInt", {"%uchar", 8, 0});
  b.add("OpTypeFloat", {"%float", 32});
  b.add("OpTypeVector", {"%v3ulong", "%ulong", 3});
  b.add("OpTypePointer", {"%in_v3", Input, "%v3ulong"});
  b.add("OpTypePointer", {"%gptr", CrossWorkgroup, "%uchar"});
  b.add("OpTypeVoid", {"%void"});
  b.add("OpTypeFunction", {"%fnty", "%void", "%gptr", "%uint"});
  b.add("OpConstant", {"%uint", "%c16", 16});
  b.add("OpConstant", {"%uint", "%scope_sg", 3});
  b.add("OpVariable", {"%in_v3", "%gid", Input});
  if (s.globals) s.globals(b);
  b.add("OpFunction", {"%void", "%k", 0, "%fnty"});
  b.add("OpFunctionParameter", {"%gptr", "%p"});
  b.add("OpFunctionParameter", {"%uint", "%n"});
  b.add("OpLabel", {"%entry"});
  if (s.body) s.body(b);
  b.add("OpReturn", {});
  b.add("OpFunctionEnd", {});
  return b.m;
}

module prefetch(std::function<void(builder&)> body, shape s = {}) {
  s.body = std::move(body);
  return kernel(s);
}

std::string rules(const std::vector<diagnostic>& ds) {
  std::string out;
  for (const auto& d : ds) out += (out.empty() ? "" : ", ") + d.rule;
  return out;
}

// Exactly one diagnostic, of `rule`, at `level`, on instruction `index`, whose message names the
// instruction by `fragment` of its text.
void expect_only(const module& m, std::string_view rule, std::string_view fragment,
                 severity level = severity::error) {
  auto ds = validate(m);
  ASSERT_EQ(ds.size(), 1u) << format(ds);
  EXPECT_EQ(ds[0].rule, rule) << format(ds);
  EXPECT_EQ(ds[0].level, level) << format(ds);
  EXPECT_NE(ds[0].message.find(fragment), std::string::npos) << ds[0].message;
  if (ds[0].instruction != error::npos)
    EXPECT_NE(ds[0].message.find("instruction " + std::to_string(ds[0].instruction) + " `"),
              std::string::npos)
        << ds[0].message;
  EXPECT_NE(ds[0].message.find("[" + std::string(rule) + "]"), std::string::npos) << ds[0].message;
}

} // namespace

// --- valid modules ---

TEST(Validate, ValidPrefetchModulesHaveNoDiagnostics) {
  for (auto body : std::vector<std::function<void(builder&)>>{
           [](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%c16"}); },
           [](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%c16", Aligned, 4}); },
           [](builder& b) {
             b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%c16", Aligned | Volatile, 16});
           },
           [](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%c16", 0}); },
           // Ptr uniform again after a broadcast from the first invocation.
           [](builder& b) {
             b.add("OpLoad", {"%v3ulong", "%g", "%gid"});
             b.add("OpCompositeExtract", {"%ulong", "%x", "%g", 0});
             b.add("OpGroupNonUniformBroadcastFirst", {"%ulong", "%u", "%scope_sg", "%x"});
             b.add("OpInBoundsPtrAccessChain", {"%gptr", "%q", "%p", "%u"});
             b.add(op::SubgroupBlockPrefetchINTEL, {"%q", "%c16"});
           },
       }) {
    auto ds = validate(prefetch(body));
    EXPECT_TRUE(ds.empty()) << format(ds);
  }
}

TEST(Validate, SpecConstantNumBytesIsAConstantInstruction) {
  shape s;
  s.annotations = [](builder& b) { b.add("OpDecorate", {"%s", decoration::SpecId, 1}); };
  s.globals = [](builder& b) {
    b.add("OpSpecConstant", {"%uint", "%s", 32});
    b.add("OpSpecConstantOp", {"%uint", "%t", 128 /*IAdd*/, "%s", "%c16"});
  };
  s.body = [](builder& b) {
    b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%s"});
    b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%t"});
  };
  auto ds = validate(kernel(s));
  EXPECT_TRUE(ds.empty()) << format(ds);
}

TEST(Validate, UnknownUniformityIsNotReported) {
  // A pointer loaded from memory and a parameter: nothing is proven either way.
  shape s;
  s.globals = [](builder& b) {
    b.add("OpTypePointer", {"%wptr", Workgroup, "%gptr"});
    b.add("OpVariable", {"%wptr", "%slot", Workgroup});
  };
  s.body = [](builder& b) {
    b.add("OpLoad", {"%gptr", "%q", "%slot"});
    b.add(op::SubgroupBlockPrefetchINTEL, {"%q", "%c16"});
  };
  auto ds = validate(kernel(s));
  EXPECT_TRUE(ds.empty()) << format(ds);
}

TEST(Validate, StructureRulesAgreeWithSpirvValOnTheBaseModule) {
  shape s;
  s.capability = s.extension = false; // spirv-val 2023.1 predates seed 003
  module m = kernel(s);
  EXPECT_TRUE(validate(m).empty()) << format(validate(m));
  EXPECT_TRUE(test::spirv_val_accepts(m));
}

// --- structure ---

namespace {
// The base module without the seed's declarations (so spirv-val knows everything in it) after
// `change`; asserts both validators reject it and ours by exactly `rule`.
void expect_structure(std::function<void(module&)> change, std::string_view rule,
                      std::string_view fragment) {
  shape s;
  s.capability = s.extension = false;
  module m = kernel(s);
  change(m);
  expect_only(m, rule, fragment);
  EXPECT_FALSE(test::spirv_val_accepts(m)) << "spirv-val accepts the module testing " << rule;
}
std::size_t find(const module& m, std::uint16_t opcode, std::size_t nth = 0) {
  for (std::size_t i = 0; i < m.instructions.size(); ++i)
    if (m.instructions[i].opcode == opcode && nth-- == 0) return i;
  ADD_FAILURE() << "no opcode " << opcode;
  return 0;
}
} // namespace

TEST(Validate, HeaderVersion) {
  shape s;
  s.capability = s.extension = false;
  module m = kernel(s);
  m.version = 0x00010700;
  expect_only(m, "header.version", "0x00010700");
}

TEST(Validate, IdBound) {
  expect_structure([](module& m) { m.bound = 5; }, "id.bound", "OpTypeInt");
}

TEST(Validate, IdZero) {
  expect_structure([](module& m) { m.instructions[find(m, op::TypeFloat)].operands[0] = 0; },
                   "id.zero", "OpTypeFloat 32");
}

TEST(Validate, IdRedefined) {
  expect_structure(
      [](module& m) {
        auto f = find(m, op::TypeFloat);
        m.instructions.insert(m.instructions.begin() + f + 1, m.instructions[f]);
      },
      "id.redefined", "OpTypeFloat 32");
}

TEST(Validate, IdUndefined) {
  expect_structure([](module& m) { m.instructions[find(m, op::Variable)].operands[0] = m.bound++; },
                   "id.undefined", "OpVariable");
}

TEST(Validate, IdForwardReference) {
  expect_structure(
      [](module& m) {
        // The vector type before its component type.
        std::swap(m.instructions[find(m, op::TypeVector)], m.instructions[find(m, op::TypeInt)]);
      },
      "id.forward-reference", "OpTypeVector");
}

TEST(Validate, IdNotAType) {
  expect_structure(
      [](module& m) {
        auto c = find(m, op::Constant);
        m.instructions[c].operands[0] = m.instructions[c + 1].operands[1]; // type := a constant
        std::swap(m.instructions[c], m.instructions[c + 1]);
      },
      "id.not-a-type", "OpConstant %");
}

TEST(Validate, LayoutOrder) {
  expect_structure(
      [](module& m) {
        // OpName after the annotations.
        auto name = find(m, op::Name);
        instruction moved = m.instructions[name];
        m.instructions.erase(m.instructions.begin() + name);
        m.instructions.insert(m.instructions.begin() + find(m, op::Decorate) + 1, moved);
      },
      "layout.order", "OpName");
}

TEST(Validate, LayoutTypeInsideFunction) {
  expect_structure(
      [](module& m) {
        auto f = find(m, op::TypeFloat);
        instruction moved = m.instructions[f];
        m.instructions.erase(m.instructions.begin() + f);
        m.instructions.insert(m.instructions.begin() + find(m, op::Label) + 1, moved);
      },
      "layout.order", "OpTypeFloat");
}

TEST(Validate, LayoutMemoryModel) {
  shape s;
  s.capability = s.extension = s.memory_model = false;
  module m = kernel(s);
  expect_only(m, "layout.memory-model", "no OpMemoryModel");
  EXPECT_FALSE(test::spirv_val_accepts(m));
  expect_structure(
      [](module& m) {
        auto mm = find(m, op::MemoryModel);
        m.instructions.insert(m.instructions.begin() + mm, m.instructions[mm]);
      },
      "layout.memory-model", "OpMemoryModel Physical64 OpenCL");
}

TEST(Validate, LayoutOutsideFunction) {
  expect_structure(
      [](module& m) {
        auto end = find(m, op::FunctionEnd);
        m.instructions.push_back(m.instructions[end - 1]); // OpReturn after the function
      },
      "layout.outside-function", "OpReturn");
}

TEST(Validate, WordCount) {
  expect_structure([](module& m) { m.instructions[find(m, op::TypeInt)].operands.push_back(7); },
                   "instruction.word-count", "OpTypeInt");
  expect_structure([](module& m) { m.instructions[find(m, op::TypeVector)].operands.pop_back(); },
                   "instruction.word-count", "OpTypeVector");
}

TEST(Validate, UnknownOpcodeAndEnumerant) {
  expect_structure([](module& m) { m.instructions[find(m, op::TypeFloat)].opcode = 9999; },
                   "instruction.unknown-opcode", "<unknown opcode 9999>");
  expect_structure([](module& m) { m.instructions[find(m, op::TypePointer)].operands[1] = 777; },
                   "instruction.enumerant", "777 is not a StorageClass value");
}

TEST(Validate, FunctionNesting) {
  expect_structure([](module& m) { m.instructions.pop_back(); }, "function.nesting",
                   "no OpFunctionEnd");
}

TEST(Validate, BlockTerminator) {
  expect_structure([](module& m) { m.instructions.erase(m.instructions.end() - 2); },
                   "block.terminator", "OpFunctionEnd");
}

TEST(Validate, BlockLabel) {
  expect_structure(
      [](module& m) {
        auto label = find(m, op::Label);
        m.instructions.erase(m.instructions.begin() + label);
      },
      "block.label", "OpReturn");
  expect_structure(
      [](module& m) {
        auto ret = find(m, op::Return);
        m.instructions.insert(m.instructions.begin() + ret + 1, m.instructions[ret]);
      },
      "block.label", "OpReturn");
}

// --- seed 003: OpSubgroupBlockPrefetchINTEL ---

TEST(Validate, PrefetchCapability) {
  shape s;
  s.capability = false;
  expect_only(
      prefetch([](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%c16"}); }, s),
      "prefetch.capability", "OpSubgroupBlockPrefetchINTEL %p %");
}

TEST(Validate, PrefetchExtension) {
  shape s;
  s.extension = false;
  expect_only(
      prefetch([](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%c16"}); }, s),
      "prefetch.extension", "OpSubgroupBlockPrefetchINTEL %p %");
}

TEST(Validate, PrefetchPtrNotAPointer) {
  expect_only(prefetch([](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%n", "%c16"}); }),
              "prefetch.ptr-type", "OpSubgroupBlockPrefetchINTEL %");
}

TEST(Validate, PrefetchPtrStorageClass) {
  shape s;
  s.globals = [](builder& b) { b.add("OpTypePointer", {"%fptr", Function, "%uchar"}); };
  s.body = [](builder& b) {
    b.add("OpVariable", {"%fptr", "%local", Function});
    b.add(op::SubgroupBlockPrefetchINTEL, {"%local", "%c16"});
  };
  // OpVariable Function belongs at the top of the first block, where it is.
  expect_only(kernel(s), "prefetch.ptr-storage-class", "Function storage class");
}

TEST(Validate, PrefetchPtrPointee) {
  shape s;
  s.globals = [](builder& b) { b.add("OpTypePointer", {"%gfptr", CrossWorkgroup, "%float"}); };
  s.body = [](builder& b) {
    b.add("OpBitcast", {"%gfptr", "%fp", "%p"});
    b.add(op::SubgroupBlockPrefetchINTEL, {"%fp", "%c16"});
  };
  expect_only(kernel(s), "prefetch.ptr-pointee", "points to f32");
}

TEST(Validate, PrefetchUntypedPointer) {
  shape s;
  s.globals = [](builder& b) { b.add(op::TypeUntypedPointerKHR, {"%uptr", CrossWorkgroup}); };
  s.body = [](builder& b) {
    b.add("OpBitcast", {"%uptr", "%up", "%p"});
    b.add(op::SubgroupBlockPrefetchINTEL, {"%up", "%c16"});
  };
  expect_only(kernel(s), "prefetch.untyped-extension", "untyped pointer");
  s.extensions = [](builder& b) { b.add("OpExtension", {"\"SPV_KHR_untyped_pointers\""}); };
  auto ds = validate(kernel(s));
  EXPECT_TRUE(ds.empty()) << format(ds);
}

TEST(Validate, PrefetchNumBytesType) {
  for (auto type : {std::pair{64, 0}, std::pair{32, 1}, std::pair{16, 0}}) {
    shape s;
    s.globals = [&](builder& b) {
      b.add("OpTypeInt", {"%other", type.first, type.second});
      b.add("OpConstant", {"%other", "%k16", 16});
    };
    s.body = [](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%k16"}); };
    module m = kernel(s);
    if (type.first == 64) m.instructions[find(m, op::Constant, 2)].operands.push_back(0);
    expect_only(m, "prefetch.num-bytes-type", "not a 32-bit integer with Signedness 0");
  }
}

TEST(Validate, PrefetchNumBytesConstant) {
  expect_only(prefetch([](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%n"}); }),
              "prefetch.num-bytes-constant", "comes from OpFunctionParameter");
  shape s;
  s.globals = [](builder& b) { b.add("OpUndef", {"%uint", "%u"}); };
  s.body = [](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%u"}); };
  expect_only(kernel(s), "prefetch.num-bytes-constant", "comes from OpUndef");
}

TEST(Validate, PrefetchNumBytesValueWarns) {
  for (std::uint32_t v : {0u, 3u, 48u, 128u}) {
    shape s;
    s.globals = [&](builder& b) { b.add("OpConstant", {"%uint", "%odd", v}); };
    s.body = [](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%odd"}); };
    expect_only(kernel(s), "prefetch.num-bytes-value", "is " + std::to_string(v) + ", not",
                severity::warning);
  }
  shape s;
  s.globals = [](builder& b) {
    b.add("OpConstantNull", {"%uint", "%null"});
    b.add("OpSpecConstant", {"%uint", "%spec", 24});
  };
  s.body = [](builder& b) {
    b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%null"});
    b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%spec"});
  };
  auto ds = validate(kernel(s));
  ASSERT_EQ(ds.size(), 2u) << format(ds);
  EXPECT_EQ(ds[0].rule, "prefetch.num-bytes-value");
  EXPECT_NE(ds[1].message.find("is by default 24"), std::string::npos) << ds[1].message;
  for (std::uint32_t v : {1u, 2u, 4u, 8u, 32u, 64u}) {
    shape ok;
    ok.globals = [&](builder& b) { b.add("OpConstant", {"%uint", "%pow", v}); };
    ok.body = [](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%pow"}); };
    EXPECT_TRUE(validate(kernel(ok)).empty()) << v;
  }
}

TEST(Validate, PrefetchMemoryOperands) {
  struct bad {
    std::function<void(builder&)> body;
    std::string_view fragment;
  };
  for (const auto& c : std::vector<bad>{
           {[](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%c16", 0x40000000}); },
            "not a MemoryAccess mask"},
           {[](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%c16", Aligned}); },
            "needs a"},
           {[](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%c16", Volatile, 4}); },
            "do not take"},
           {[](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p", "%c16", Aligned, 6}); },
            "Aligned 6 is not a power of two"},
           {[](builder& b) {
              b.add(op::SubgroupBlockPrefetchINTEL,
                    {"%p", "%c16", MakePointerAvailable, "%scope_sg"});
            },
            "without NonPrivatePointer"},
       }) {
    expect_only(prefetch(c.body), "prefetch.memory-operands", c.fragment);
  }
  auto ok = validate(prefetch([](builder& b) {
    b.add(op::SubgroupBlockPrefetchINTEL,
          {"%p", "%c16", MakePointerAvailable | NonPrivatePointer, "%scope_sg"});
  }));
  EXPECT_TRUE(ok.empty()) << format(ok);
}

TEST(Validate, PrefetchMissingNumBytesIsAWordCountError) {
  expect_only(prefetch([](builder& b) { b.add(op::SubgroupBlockPrefetchINTEL, {"%p"}); }),
              "instruction.word-count", "OpSubgroupBlockPrefetchINTEL %p");
}

TEST(Validate, PrefetchPtrNotUniform) {
  // p + GlobalInvocationId.x * 16: every work-item of the sub-group prefetches elsewhere.
  expect_only(prefetch([](builder& b) {
                b.add("OpLoad", {"%v3ulong", "%g", "%gid"});
                b.add("OpCompositeExtract", {"%ulong", "%x", "%g", 0});
                b.add("OpUConvert", {"%uint", "%x32", "%x"});
                b.add("OpIMul", {"%uint", "%x16", "%x32", "%c16"});
                b.add("OpInBoundsPtrAccessChain", {"%gptr", "%q", "%p", "%x16"});
                b.add(op::SubgroupBlockPrefetchINTEL, {"%q", "%c16"});
              }),
              "prefetch.uniformity", "GlobalInvocationId");
}

TEST(Validate, PrefetchPtrThroughALaneIndexIsNotUniform) {
  shape s;
  s.annotations = [](builder& b) {
    b.add("OpDecorate", {"%lane_var", BuiltIn, SubgroupLocalInvocationId});
  };
  s.globals = [](builder& b) {
    b.add("OpTypePointer", {"%in_uint", Input, "%uint"});
    b.add("OpVariable", {"%in_uint", "%lane_var", Input});
  };
  s.body = [](builder& b) {
    b.add("OpLoad", {"%uint", "%lane", "%lane_var"});
    b.add("OpIAdd", {"%uint", "%i", "%lane", "%n"}); // n: a kernel argument, uniform
    b.add("OpPtrAccessChain", {"%gptr", "%q", "%p", "%i"});
    b.add(op::SubgroupBlockPrefetchINTEL, {"%q", "%c16"});
  };
  module m = kernel(s);
  auto ds = validate(m);
  ASSERT_EQ(rules(ds), "prefetch.uniformity") << format(ds);
  EXPECT_NE(ds[0].message.find("SubgroupLocalInvocationId"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].message.find("Ptr %"), std::string::npos) << ds[0].message;
}

// Values computed from varying built-ins that are the same on every work-item of a sub-group
// (its first index `gid.x - lane`, a quotient, a value merged in a loop) prove nothing: the rule
// reports only what it proves, so valid code passes.
TEST(Validate, UniformValuesFromVaryingBuiltInsAreNotReported) {
  shape s;
  s.annotations = [](builder& b) {
    b.add("OpDecorate", {"%lane_var", BuiltIn, SubgroupLocalInvocationId});
  };
  s.globals = [](builder& b) {
    b.add("OpTypePointer", {"%in_uint", Input, "%uint"});
    b.add("OpVariable", {"%in_uint", "%lane_var", Input});
    b.add("OpTypeBool", {"%bool"});
    b.add("OpConstantTrue", {"%bool", "%true"});
  };
  s.body = [](builder& b) {
    b.add("OpLoad", {"%v3ulong", "%g", "%gid"});
    b.add("OpCompositeExtract", {"%ulong", "%x", "%g", 0});
    b.add("OpUConvert", {"%uint", "%x32", "%x"});
    b.add("OpLoad", {"%uint", "%lane", "%lane_var"});
    b.add("OpISub", {"%uint", "%first", "%x32", "%lane"});
    b.add("OpPtrAccessChain", {"%gptr", "%q", "%p", "%first"});
    b.add(op::SubgroupBlockPrefetchINTEL, {"%q", "%c16"});
    b.add("OpUDiv", {"%uint", "%quotient", "%x32", "%c16"});
    b.add("OpPtrAccessChain", {"%gptr", "%r", "%p", "%quotient"});
    b.add(op::SubgroupBlockPrefetchINTEL, {"%r", "%c16"});
    b.add("OpBranch", {"%loop"});
    b.add("OpLabel", {"%loop"});
    b.add("OpPhi", {"%gptr", "%phi", "%p", "%entry", "%sel", "%loop"});
    b.add("OpPtrAccessChain", {"%gptr", "%t", "%phi", "%lane"});
    b.add("OpSelect", {"%gptr", "%sel", "%true", "%t", "%phi"});
    b.add(op::SubgroupBlockPrefetchINTEL, {"%phi", "%c16"});
    b.add("OpBranchConditional", {"%true", "%loop", "%exit"});
    b.add("OpLabel", {"%exit"});
  };
  module m = kernel(s);
  auto ds = validate(m);
  EXPECT_EQ(rules(ds), "") << format(ds);
}

// --- SPV_INTEL_cache_controls and OpenCL.std prefetch ---

namespace {
shape cache_controls(bool capability, bool extension, std::uint32_t target_is_pointer,
                     std::uint32_t control) {
  shape s;
  s.extensions = [=](builder& b) {
    if (capability) b.add("OpCapability", {capability::CacheControlsINTEL});
    if (extension) b.add("OpExtension", {"\"SPV_INTEL_cache_controls\""});
  };
  s.annotations = [=](builder& b) {
    b.add("OpDecorate",
          {target_is_pointer ? "%p" : "%n", decoration::CacheControlLoadINTEL, 0, control});
  };
  return s;
}
} // namespace

TEST(Validate, CacheControls) {
  EXPECT_TRUE(validate(kernel(cache_controls(true, true, 1, 1))).empty())
      << format(validate(kernel(cache_controls(true, true, 1, 1))));
  expect_only(kernel(cache_controls(false, true, 1, 1)), "cache-control.capability",
              "OpDecorate %p CacheControlLoadINTEL 0 CachedINTEL");
  expect_only(kernel(cache_controls(true, false, 1, 1)), "cache-control.extension",
              "OpDecorate %p CacheControlLoadINTEL");
  expect_only(kernel(cache_controls(true, true, 0, 1)), "cache-control.target", "is not a pointer");
  expect_only(kernel(cache_controls(true, true, 1, 9)), "cache-control.value",
              "9 is not a LoadCacheControl");
}

namespace {
module opencl_prefetch(const char* ptr, const char* count, const char* result = "%void") {
  builder b;
  b.add("OpCapability", {capability::Addresses});
  b.add("OpCapability", {capability::Kernel});
  b.add("OpCapability", {cap_Int64});
  b.add("OpExtInstImport", {"%ocl", "\"OpenCL.std\""});
  b.add("OpMemoryModel", {Physical64, OpenCL});
  b.add("OpEntryPoint", {Kernel, "%k", "\"k\""});
  b.add("OpTypeInt", {"%uint", 32, 0});
  b.add("OpTypeInt", {"%ulong", 64, 0});
  b.add("OpTypeFloat", {"%float", 32});
  b.add("OpTypePointer", {"%gptr", CrossWorkgroup, "%uint"});
  b.add("OpTypePointer", {"%wptr", Workgroup, "%uint"});
  b.add("OpTypeVoid", {"%void"});
  b.add("OpTypeFunction", {"%fnty", "%void", "%gptr", "%wptr"});
  b.add("OpConstant", {"%ulong", "%n8", 8, 0});
  b.add("OpConstant", {"%float", "%f8", 0x41000000});
  b.add("OpFunction", {"%void", "%k", 0, "%fnty"});
  b.add("OpFunctionParameter", {"%gptr", "%p"});
  b.add("OpFunctionParameter", {"%wptr", "%w"});
  b.add("OpLabel", {"%entry"});
  b.add("OpExtInst", {result, "%r", "%ocl", 185, ptr, count});
  b.add("OpReturn", {});
  b.add("OpFunctionEnd", {});
  return b.m;
}
} // namespace

TEST(Validate, OpenClPrefetch) {
  module ok = opencl_prefetch("%p", "%n8");
  EXPECT_TRUE(validate(ok).empty()) << format(validate(ok));
  EXPECT_TRUE(test::spirv_val_accepts(ok));
  expect_only(opencl_prefetch("%w", "%n8"), "ext-prefetch.ptr", "in Workgroup, not");
  expect_only(opencl_prefetch("%p", "%f8"), "ext-prefetch.count", "f32, not an integer");
  expect_only(opencl_prefetch("%p", "%n8", "%uint"), "ext-prefetch.result-type", "not void");
}

// --- modules from the compiler ---

TEST(Validate, CompilerOutputIsValid) {
  for (const char* name : {"spec_constants.spv", "prefetch_sub_group.spv", "spec_ops.spv"}) {
    module m = test::read_data(name);
    auto ds = validate(m);
    EXPECT_TRUE(ds.empty()) << name << ":\n" << format(ds);
  }
}

TEST(Validate, FormatPrefixesSeverity) {
  std::vector<diagnostic> ds{{severity::error, 0, "a.b", "first"},
                             {severity::warning, 1, "c.d", "second"}};
  EXPECT_EQ(format(ds), "error: first\nwarning: second\n");
}
