// The generated grammar tables: core instructions from spirv-headers, the supplement's
// SPV_INTEL_subgroup_buffer_prefetch / SPV_INTEL_cache_controls entries, OpenCL.std, and the
// lookups by number and by name agreeing with each other.
#include "grammar.hpp"

#include <gtest/gtest.h>

using namespace syclone::spirv;

TEST(Grammar, CoreInstructionOperands) {
  const opcode_info* load = find_opcode(op::Load);
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->name, "OpLoad");
  ASSERT_EQ(load->operands.size(), 4u);
  EXPECT_EQ(load->operands[0].kind, operand_kind::result_type);
  EXPECT_EQ(load->operands[1].kind, operand_kind::result_id);
  EXPECT_EQ(load->operands[2].kind, operand_kind::id);
  EXPECT_EQ(load->operands[3].kind, operand_kind::bit_enum);
  EXPECT_EQ(load->operands[3].enum_name, "MemoryAccess");
  EXPECT_EQ(load->operands[3].count, quantifier::optional);
  EXPECT_EQ(find_opcode("OpLoad"), load);

  const opcode_info* sw = find_opcode("OpSwitch");
  ASSERT_NE(sw, nullptr);
  EXPECT_EQ(sw->opcode, 251);
  EXPECT_EQ(sw->operands.back().kind, operand_kind::pair_literal_id);
  EXPECT_EQ(sw->operands.back().count, quantifier::any);

  const opcode_info* constant = find_opcode(op::Constant);
  ASSERT_NE(constant, nullptr);
  EXPECT_EQ(constant->operands[2].kind, operand_kind::literal_wide);

  const opcode_info* barrier = find_opcode("OpControlBarrier");
  ASSERT_NE(barrier, nullptr);
  EXPECT_EQ(barrier->operands[0].grammar_kind, "IdScope");
  EXPECT_EQ(barrier->operands[2].grammar_kind, "IdMemorySemantics");
  EXPECT_EQ(barrier->operands[2].kind, operand_kind::id);

  EXPECT_EQ(find_opcode(std::uint16_t{65535}), nullptr);
  EXPECT_EQ(find_opcode("OpNoSuchThing"), nullptr);
}

TEST(Grammar, SubgroupBlockPrefetchFromSupplement) {
  const opcode_info* prefetch = find_opcode(op::SubgroupBlockPrefetchINTEL);
  ASSERT_NE(prefetch, nullptr);
  EXPECT_EQ(prefetch->opcode, 6221);
  EXPECT_EQ(prefetch->name, "OpSubgroupBlockPrefetchINTEL");
  ASSERT_EQ(prefetch->operands.size(), 3u);
  EXPECT_EQ(prefetch->operands[0].kind, operand_kind::id);
  EXPECT_EQ(prefetch->operands[0].name, "'Ptr'");
  EXPECT_EQ(prefetch->operands[1].name, "'Num Bytes'");
  EXPECT_EQ(prefetch->operands[2].enum_name, "MemoryAccess");
  EXPECT_EQ(prefetch->operands[2].count, quantifier::optional);
  ASSERT_EQ(prefetch->capabilities.size(), 1u);
  EXPECT_EQ(prefetch->capabilities[0], "SubgroupBufferPrefetchINTEL");
  ASSERT_EQ(prefetch->extensions.size(), 1u);
  EXPECT_EQ(prefetch->extensions[0], "SPV_INTEL_subgroup_buffer_prefetch");
  EXPECT_EQ(find_opcode("OpSubgroupBlockPrefetchINTEL"), prefetch);
}

TEST(Grammar, CapabilitiesAndCacheControlDecorations) {
  const enumerant_info* cap = find_enumerant("Capability", "SubgroupBufferPrefetchINTEL");
  ASSERT_NE(cap, nullptr);
  EXPECT_EQ(cap->value, capability::SubgroupBufferPrefetchINTEL);
  EXPECT_EQ(find_enumerant("Capability", capability::CacheControlsINTEL)->name,
            "CacheControlsINTEL");
  EXPECT_EQ(find_enumerant("Capability", std::uint32_t{6}), find_enumerant("Capability", "Kernel"));

  const enumerant_info* load = find_enumerant("Decoration", decoration::CacheControlLoadINTEL);
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->name, "CacheControlLoadINTEL");
  ASSERT_EQ(load->parameters.size(), 2u);
  EXPECT_EQ(load->parameters[0].kind, operand_kind::literal);
  EXPECT_EQ(load->parameters[1].kind, operand_kind::value_enum);
  EXPECT_EQ(load->parameters[1].enum_name, "LoadCacheControl");
  const enumerant_info* store = find_enumerant("Decoration", "CacheControlStoreINTEL");
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->value, decoration::CacheControlStoreINTEL);
  EXPECT_EQ(store->parameters[1].enum_name, "StoreCacheControl");

  EXPECT_EQ(find_enumerant("LoadCacheControl", std::uint32_t{4})->name, "ConstCachedINTEL");
  EXPECT_EQ(find_enumerant("LoadCacheControl", "InvalidateAfterReadINTEL")->value, 3u);
  EXPECT_EQ(find_enumerant("StoreCacheControl", "WriteBackINTEL")->value, 2u);
  EXPECT_EQ(enumerants("StoreCacheControl").size(), 4u);
  EXPECT_EQ(find_enumerant("StoreCacheControl", std::uint32_t{4}), nullptr);
}

TEST(Grammar, EnumsSortedAndConsistent) {
  EXPECT_TRUE(is_bit_enum("MemoryAccess"));
  EXPECT_FALSE(is_bit_enum("StorageClass"));
  EXPECT_FALSE(is_bit_enum("NoSuchEnum"));
  EXPECT_TRUE(enumerants("NoSuchEnum").empty());
  for (std::string_view name : {"Capability", "Decoration", "StorageClass", "BuiltIn"}) {
    auto all = enumerants(name);
    ASSERT_FALSE(all.empty()) << name;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (i > 0) EXPECT_LE(all[i - 1].value, all[i].value) << name;
      EXPECT_EQ(find_enumerant(name, all[i].name), &all[i]) << name << " " << all[i].name;
    }
  }
  EXPECT_EQ(find_enumerant("StorageClass", storage_class::CrossWorkgroup)->name, "CrossWorkgroup");
  EXPECT_EQ(find_enumerant("MemoryAccess", "Aligned")->parameters.size(), 1u);

  auto all = opcodes();
  ASSERT_GT(all.size(), 500u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i > 0) EXPECT_LE(all[i - 1].opcode, all[i].opcode);
    EXPECT_EQ(find_opcode(all[i].name), &all[i]);
  }
}

TEST(Grammar, OpenCLExtendedInstructions) {
  const ext_inst_info* prefetch = find_opencl_ext_inst(185);
  ASSERT_NE(prefetch, nullptr);
  EXPECT_EQ(prefetch->name, "prefetch");
  EXPECT_EQ(prefetch->operands.size(), 2u);
  EXPECT_EQ(find_opencl_ext_inst("prefetch"), prefetch);
  EXPECT_EQ(find_opencl_ext_inst("sqrt")->number, 61u);
  EXPECT_EQ(find_opencl_ext_inst("printf")->operands.back().count, quantifier::any);
  EXPECT_EQ(find_opencl_ext_inst(100000), nullptr);
}
