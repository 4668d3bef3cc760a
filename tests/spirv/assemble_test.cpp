// The assembler: exact round trips of real modules through the disassembler, id numbering, header
// comments, literal encodings, invalid-but-encodable modules, and errors with line and column.
#include "assemble.hpp"
#include "disassemble.hpp"
#include "grammar.hpp"
#include "spirv_test_files.hpp"

#include <gtest/gtest.h>

using namespace syclone::spirv;
using namespace syclone::spirv::test;

namespace {
std::string error_of(std::string_view text) {
  try {
    assemble(text);
  } catch (const error& e) {
    return e.what();
  }
  return "(no error)";
}
} // namespace

TEST(Assemble, RoundTripsPipelineModulesExactly) {
  for (const auto& name : pipeline_modules()) {
    auto bytes = read_binary("dis_" + name + ".spv");
    module m = read(bytes);
    std::string text = disassemble(m, {false, true});
    EXPECT_EQ(write(assemble(text)), bytes) << name;
    // spirv-dis's own text (the committed .dis) assembles to the same bytes too.
    EXPECT_EQ(write(assemble(read_text("dis_" + name + ".dis"))), bytes) << name;
  }
}

TEST(Assemble, LiteralsRoundTrip) {
  module m = assemble(read_text("dis_literals.spvasm"));
  std::string text = disassemble(m, {false, true});
  EXPECT_EQ(write_words(assemble(text)), write_words(m));
}

TEST(Assemble, IdsNamedAndNumbered) {
  module m = assemble("%a = OpTypeVoid\n%3 = OpTypeBool\n%b = OpTypeInt 32 0\n"
                      "%c = OpTypeFunction %a\n%1 = OpTypeFloat 32\n");
  ASSERT_EQ(m.instructions.size(), 5u);
  // %1 and %3 are taken, so %a, %b, %c get 2, 4, 5.
  EXPECT_EQ(m.instructions[0].operands[0], 2u);
  EXPECT_EQ(m.instructions[1].operands[0], 3u);
  EXPECT_EQ(m.instructions[2].operands[0], 4u);
  EXPECT_EQ(m.instructions[3].operands, (std::vector<std::uint32_t>{5, 2}));
  EXPECT_EQ(m.instructions[4].operands[0], 1u);
  EXPECT_EQ(m.bound, 6u);
  EXPECT_EQ(m.version, 0x00010400u);
  EXPECT_EQ(m.generator, 0u);
}

TEST(Assemble, HeaderComments) {
  module m =
      assemble("; SPIR-V\n; Version: 1.2\n; Generator: Khronos LLVM/SPIR-V Translator; 14\n"
               "; Bound: 100\n; Schema: 0\nOpCapability Kernel\n; Version: 1.6 (not header)\n");
  EXPECT_EQ(m.version, 0x00010200u);
  EXPECT_EQ(m.generator, 6u << 16 | 14);
  EXPECT_EQ(m.bound, 100u);
  m = assemble("; Generator: Unknown(43); 22\n; Bound: 1\n%x = OpTypeVoid\n");
  EXPECT_EQ(m.generator, 43u << 16 | 22);
  EXPECT_EQ(m.bound, 2u); // never below max id + 1
}

TEST(Assemble, LiteralEncodings) {
  module m =
      assemble("%f = OpTypeFloat 32\n%d = OpTypeFloat 64\n%l = OpTypeInt 64 1\n"
               "%s = OpTypeInt 16 1\n%h = OpTypeFloat 16\n"
               "%1 = OpConstant %f 0.5\n%2 = OpConstant %d -2\n%3 = OpConstant %l -1\n"
               "%4 = OpConstant %f 0x1.8p+128\n%5 = OpConstant %s -3\n%6 = OpConstant %h 0x1.8p+0\n"
               "%7 = OpConstant %h 1.5\n%8 = OpConstant %f 0x1p-149\n");
  auto literal = [&](std::size_t i) {
    auto w = m.instructions[i].operands;
    return std::vector<std::uint32_t>(w.begin() + 2, w.end());
  };
  EXPECT_EQ(literal(5), (std::vector<std::uint32_t>{0x3f000000u}));
  EXPECT_EQ(literal(6), (std::vector<std::uint32_t>{0u, 0xc0000000u}));
  EXPECT_EQ(literal(7), (std::vector<std::uint32_t>{0xffffffffu, 0xffffffffu}));
  EXPECT_EQ(literal(8), (std::vector<std::uint32_t>{0x7fc00000u}));
  EXPECT_EQ(literal(9), (std::vector<std::uint32_t>{0xfffffffdu})); // sign extended (2.2.1)
  EXPECT_EQ(literal(10), (std::vector<std::uint32_t>{0x3e00u}));
  EXPECT_EQ(literal(11), (std::vector<std::uint32_t>{0x3e00u}));
  EXPECT_EQ(literal(12), (std::vector<std::uint32_t>{1u})); // smallest subnormal
}

TEST(Assemble, SubgroupBlockPrefetch) {
  module m = assemble(read_text("dis_prefetch_cache_controls.spvasm"));
  int prefetches = 0;
  for (const auto& inst : m.instructions) {
    if (inst.opcode == op::SubgroupBlockPrefetchINTEL) {
      ++prefetches;
      EXPECT_EQ(inst.operands[0] == 3 ? inst.operands.size() : inst.operands.size(),
                inst.operands[0] == 3 ? 2u : 4u);
    }
    if (inst.opcode == op::Decorate && inst.operands[1] == decoration::CacheControlStoreINTEL)
      EXPECT_EQ(inst.operands, (std::vector<std::uint32_t>{4, 6443, 2, 2}));
  }
  EXPECT_EQ(prefetches, 2);
  EXPECT_EQ(m.generator, 43u << 16 | 22);
  EXPECT_EQ(m.bound, 20u);
  // Written with the 6221 opcode and a word count of 3 (Ptr, Num Bytes).
  auto words = write_words(assemble("OpSubgroupBlockPrefetchINTEL %p %n\n"));
  EXPECT_EQ(words[5], 3u << 16 | 6221u);
}

TEST(Assemble, EncodesInvalidModules) {
  // Wrong types, undefined ids, out-of-order sections: encoded as written, for validator tests.
  module m = assemble("%f = OpTypeFloat 32\n%x = OpIAdd %f %undefined %f\nOpCapability Kernel\n"
                      "OpStore %f %f Volatile\n");
  ASSERT_EQ(m.instructions.size(), 4u);
  EXPECT_EQ(m.instructions[1].operands, (std::vector<std::uint32_t>{1, 2, 3, 1}));
  EXPECT_EQ(m.instructions[3].operands, (std::vector<std::uint32_t>{1, 1, 1}));
  // Numbers where names are expected, and raw words past the grammar.
  m = assemble("OpDecorate %a 9999 !7 !8\nOpMemoryModel 2 2\n");
  EXPECT_EQ(m.instructions[0].operands, (std::vector<std::uint32_t>{1, 9999, 7, 8}));
}

TEST(Assemble, ErrorsCarryLineAndColumn) {
  EXPECT_EQ(error_of("OpCapability Kernel\n\n  OpFrobnicate %a\n"),
            "3:3: expected an instruction the SPIR-V grammar knows, found 'OpFrobnicate'");
  EXPECT_EQ(error_of("OpCapability Kernal\n"), "1:14: expected a Capability name, found 'Kernal'");
  EXPECT_EQ(error_of("%t = OpTypeInt 32\n"),
            "1:18: expected an integer literal, found end of line");
  EXPECT_EQ(error_of("%i = OpTypeInt 32 0\n%c = OpConstant %i 1.5\n"),
            "2:20: expected an integer, found '1.5'");
  EXPECT_EQ(error_of("%i = OpTypeInt 64 1\n%c = OpConstant %i -9223372036854775809\n"),
            "2:20: expected an integer that fits in 64 bits, found '-9223372036854775809'");
  EXPECT_EQ(error_of("%i = OpTypeInt 8 1\n%c = OpConstant %i -129\n"),
            "2:20: expected an integer that fits in 8 bits, found '-129'");
  EXPECT_EQ(error_of("OpTypeVoid\n").substr(0, 4), "1:1:");
  EXPECT_EQ(error_of("%x = OpReturn\n").substr(0, 4), "1:1:");
  EXPECT_EQ(error_of("OpName %x \"unterminated\n").substr(0, 5), "1:11:");
  EXPECT_EQ(error_of("%l = OpLoad %t %p Aligned\n"),
            "1:26: expected an integer literal, found end of line");
  EXPECT_EQ(error_of("OpReturn %extra\n"),
            "1:10: expected end of line (OpReturn has no more operands), found '%extra'");
}
