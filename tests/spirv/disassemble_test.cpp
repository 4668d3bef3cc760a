// The disassembler: byte-identical to spirv-dis --raw-id (SPIRV-Tools v2023.1) on real modules,
// the seed 003 instruction and cache-control decorations spirv-dis cannot print, friendly names,
// and malformed operands printed as raw words instead of throwing.
#include "assemble.hpp"
#include "disassemble.hpp"
#include "grammar.hpp"
#include "spirv_test_files.hpp"

#include <gtest/gtest.h>

using namespace syclone::spirv;
using namespace syclone::spirv::test;

namespace {
const disassemble_options raw_ids{false, true};

module module_of(std::vector<instruction> instructions, std::uint32_t bound) {
  module m;
  m.bound = bound;
  m.instructions = std::move(instructions);
  return m;
}

std::vector<std::uint32_t> str(std::string_view s) {
  std::vector<std::uint32_t> out;
  append_string(out, s);
  return out;
}

std::vector<std::uint32_t> cat(std::vector<std::uint32_t> a, const std::vector<std::uint32_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
} // namespace

TEST(Disassemble, MatchesSpirvDisOnPipelineModules) {
  for (const auto& name : pipeline_modules()) {
    module m = read(read_binary("dis_" + name + ".spv"));
    EXPECT_EQ(disassemble(m, raw_ids), read_text("dis_" + name + ".dis")) << name;
  }
}

TEST(Disassemble, HeaderNamesTheGenerator) {
  module m;
  m.version = 0x00010300;
  m.generator = 6u << 16 | 14;
  m.bound = 9;
  std::string text = disassemble(m, raw_ids);
  EXPECT_EQ(text, "; SPIR-V\n; Version: 1.3\n; Generator: Khronos LLVM/SPIR-V Translator; 14\n"
                  "; Bound: 9\n; Schema: 0\n");
  m.generator = 43u << 16 | 22;
  EXPECT_NE(disassemble(m, raw_ids).find("; Generator: Unknown(43); 22\n"), std::string::npos);
  EXPECT_EQ(disassemble(m, {false, false}), "");
}

TEST(Disassemble, SubgroupBlockPrefetchAndCacheControls) {
  std::string source = read_text("dis_prefetch_cache_controls.spvasm");
  std::string text = disassemble(assemble(source), raw_ids);
  EXPECT_NE(text.find("\n               OpSubgroupBlockPrefetchINTEL %3 %10\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\n               OpSubgroupBlockPrefetchINTEL %4 %11 Aligned 16\n"),
            std::string::npos);
  EXPECT_NE(text.find("OpDecorate %3 CacheControlLoadINTEL 1 InvalidateAfterReadINTEL\n"),
            std::string::npos);
  EXPECT_NE(text.find("OpDecorate %4 CacheControlStoreINTEL 2 WriteBackINTEL\n"),
            std::string::npos);
  EXPECT_NE(text.find("OpCapability SubgroupBufferPrefetchINTEL\n"), std::string::npos);
  EXPECT_EQ(text.find("malformed"), std::string::npos);
  // The file is itself in the disassembler's layout: the instruction lines come back unchanged.
  std::string body = source.substr(source.find("               OpCapability"));
  EXPECT_NE(text.find(body), std::string::npos) << text;
}

TEST(Disassemble, FriendlyNamesFromOpName) {
  // OpName "a.b" and "a_b" both sanitize to a_b; "42" would read back as a numeric id.
  module m = module_of(
      {
          {op::Capability, {capability::Kernel}},
          {op::Name, cat({1}, str("a.b"))},
          {op::Name, cat({2}, str("a_b"))},
          {op::Name, cat({3}, str("42"))},
          {op::Name, cat({1}, str("second name ignored"))},
          {op::TypeInt, {1, 32, 0}},
          {op::TypeFloat, {2, 32}},
          {op::TypeVoid, {3}},
          {op::TypeBool, {4}},
      },
      5);
  std::string text = disassemble(m);
  EXPECT_NE(text.find("        %a_b = OpTypeInt 32 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("      %a_b_1 = OpTypeFloat 32\n"), std::string::npos) << text;
  EXPECT_NE(text.find("        %_42 = OpTypeVoid\n"), std::string::npos) << text;
  EXPECT_NE(text.find("          %4 = OpTypeBool\n"), std::string::npos) << text;
  EXPECT_NE(text.find("OpName %a_b \"a.b\"\n"), std::string::npos);
  // Friendly text assembles to the same instructions (ids renumbered by first appearance).
  module back = assemble(text);
  ASSERT_EQ(back.instructions.size(), m.instructions.size());
  EXPECT_EQ(back.instructions[5].opcode, op::TypeInt);
}

TEST(Disassemble, MalformedOperandsPrintAsRawWords) {
  module m = module_of(
      {
          {op::TypeInt, {1, 32, 0}},
          {op::TypePointer, {2, storage_class::CrossWorkgroup, 1}},
          // MemoryAccess bit 30 is not an enumerant.
          {op::Load, {1, 3, 4, 0x40000000u}},
          // StorageClass 999 does not exist.
          {op::Variable, {2, 5, 999}},
          // Opcode 4000 is unassigned.
          {4000, {7, 8}},
          // A string without its terminating nul.
          {op::Name, {1, 0x41414141u}},
          // Too few words for OpTypeInt.
          {op::TypeInt, {6}},
      },
      9);
  std::string text;
  ASSERT_NO_THROW(text = disassemble(m, raw_ids));
  EXPECT_NE(text.find("          %3 = OpLoad %1 %4 !0x40000000 ; malformed: bit 30 is not a "
                      "MemoryAccess\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("          %5 = OpVariable %2 !0x000003e7 ; malformed"), std::string::npos);
  EXPECT_NE(text.find("               !0x00030fa0 !0x00000007 !0x00000008 ; malformed: unknown "
                      "opcode 4000\n"),
            std::string::npos);
  EXPECT_NE(text.find("               OpName %1 !0x41414141 ; malformed"), std::string::npos);
  EXPECT_NE(
      text.find("               !0x00020015 !0x00000006 ; malformed: missing operand words\n"),
      std::string::npos)
      << text;
  // ... and the raw words assemble back to the same module.
  EXPECT_EQ(write_words(assemble(text)), write_words(m));
}

TEST(Disassemble, LiteralsBySpirvDisRules) {
  // Checked against spirv-dis: decimal with round-trip digits for normal floats, hex floats for
  // subnormals, infinities and NaNs (and always for half), signedness from OpTypeInt.
  std::string text = disassemble(assemble(read_text("dis_literals.spvasm")), raw_ids);
  for (const char* line :
       {"OpConstant %7 -5\n", "OpConstant %8 18446744073709551615\n", "OpConstant %9 -9000000000\n",
        "OpConstant %11 0.100000001\n", "OpConstant %11 0x1.16c2p-133\n",
        "OpConstant %11 0x1p+128\n", "OpConstant %11 -0x1.8p+128\n",
        "OpConstant %12 3.1415926535897931\n", "OpConstant %13 0x1.8p+0\n", "OpConstant %11 -0\n",
        "OpConstant %12 0x1p-1074\n", "OpSpecConstantOp %6 IAdd %4 %18\n",
        "OpSwitch %19 %39 -1 %40 7 %41\n", "OpEntryPoint Kernel %2 \"k\\\"quo\\\\te\" %3\n",
        "OpExtInst %11 %1 fmax %36 %36\n", "OpLoad %11 %34 Volatile|Aligned 4\n",
        "OpLoopMerge %39 %39 Unroll|DependencyLength 4\n"})
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
}
