// The specializer: every folded OpSpecConstantOp checked by value (data/spec_ops.spvasm), values
// given by SpecId, the errors (unknown SpecId, wrong size, division by zero, operations it cannot
// fold), and modules from llc-22 that spirv-val still accepts afterwards.
#include "module_builder.hpp"
#include "specialize.hpp"
#include "validate.hpp"

#include <cstring>
#include <gtest/gtest.h>

using namespace syclone::spirv;

namespace {

const instruction& by_id(const module& m, std::uint32_t id) {
  for (const auto& inst : m.instructions)
    if (inst.operands.size() >= 2 && inst.opcode >= op::ConstantTrue &&
        inst.opcode <= op::SpecConstantOp && inst.operands[1] == id)
      return inst;
  throw error("no constant %" + std::to_string(id));
}

// The constant that OpName calls `name`.
const instruction& named(const module& m, const std::string& name) {
  for (const auto& inst : m.instructions)
    if (inst.opcode == op::Name && inst.string_at(1) == name) return by_id(m, inst.operands[0]);
  throw error("no OpName " + name);
}

std::uint64_t scalar(const module& m, const std::string& name) {
  const instruction& inst = named(m, name);
  if (inst.opcode == op::ConstantTrue) return 1;
  if (inst.opcode == op::ConstantFalse) return 0;
  EXPECT_EQ(inst.opcode, op::Constant) << name;
  std::uint64_t v = inst.operands.at(2);
  if (inst.operands.size() > 3) v |= std::uint64_t{inst.operands[3]} << 32;
  return v;
}

std::vector<std::uint64_t> vector2(const module& m, const std::string& name) {
  const instruction& inst = named(m, name);
  EXPECT_EQ(inst.opcode, op::ConstantComposite) << name;
  std::vector<std::uint64_t> out;
  for (std::size_t k = 2; k < inst.operands.size(); ++k)
    out.push_back(by_id(m, inst.operands[k]).operands.at(2));
  return out;
}

template <class T>
std::vector<std::byte> bytes(T v) {
  std::vector<std::byte> out(sizeof v);
  std::memcpy(out.data(), &v, sizeof v);
  return out;
}

float as_float(std::uint64_t bits) {
  float f;
  auto u = static_cast<std::uint32_t>(bits);
  std::memcpy(&f, &u, 4);
  return f;
}
double as_double(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

void expect_fully_specialized(const module& m) {
  for (const auto& inst : m.instructions) {
    EXPECT_FALSE(inst.opcode >= op::SpecConstantTrue && inst.opcode <= op::SpecConstantOp)
        << "opcode " << inst.opcode << " left";
    EXPECT_FALSE(inst.opcode == op::Decorate && inst.operands.at(1) == decoration::SpecId)
        << "SpecId decoration left";
  }
  auto ds = validate(m);
  EXPECT_TRUE(ds.empty()) << format(ds);
  EXPECT_TRUE(test::spirv_val_accepts(m));
}

} // namespace

TEST(Specialize, DefaultsFoldEveryOperation) {
  module m = test::read_data("spec_ops.spv");
  ASSERT_TRUE(test::spirv_val_accepts(m));
  specialize(m, {});
  expect_fully_specialized(m);
  // a = 100, b = 7, flag = true, byte = 200, f = 1.5, d = -2.75; sub = 7 - 100 = -93.
  EXPECT_EQ(scalar(m, "add"), 107u);
  EXPECT_EQ(scalar(m, "sub"), 0xffffffa3u);
  EXPECT_EQ(scalar(m, "mul"), 700u);
  EXPECT_EQ(scalar(m, "udiv"), 14u);
  EXPECT_EQ(scalar(m, "sdiv"), static_cast<std::uint32_t>(-13)); // truncates toward zero
  EXPECT_EQ(scalar(m, "srem"), static_cast<std::uint32_t>(-2));  // sign of the dividend
  EXPECT_EQ(scalar(m, "smod"), 5u);                              // sign of the divisor
  EXPECT_EQ(scalar(m, "umod"), 2u);
  EXPECT_EQ(scalar(m, "shl"), 12800u);
  EXPECT_EQ(scalar(m, "shr"), 0x7fffffd1u);
  EXPECT_EQ(scalar(m, "sra"), static_cast<std::uint32_t>(-47));
  EXPECT_EQ(scalar(m, "and"), 100u & 7u);
  EXPECT_EQ(scalar(m, "or"), 100u | 7u);
  EXPECT_EQ(scalar(m, "xor"), 100u ^ 7u);
  EXPECT_EQ(scalar(m, "not"), ~100u);
  EXPECT_EQ(scalar(m, "neg"), static_cast<std::uint32_t>(-100));
  EXPECT_EQ(scalar(m, "slt"), 1u);
  EXPECT_EQ(scalar(m, "ult"), 0u);
  EXPECT_EQ(scalar(m, "eq"), 0u);
  EXPECT_EQ(scalar(m, "ne"), 1u);
  EXPECT_EQ(scalar(m, "sge"), 1u);
  EXPECT_EQ(scalar(m, "ugt"), 1u);
  EXPECT_EQ(scalar(m, "lnot"), 0u);
  EXPECT_EQ(scalar(m, "land"), 0u);
  EXPECT_EQ(scalar(m, "lor"), 1u);
  EXPECT_EQ(scalar(m, "leq"), 0u);
  EXPECT_EQ(scalar(m, "sel"), 100u);
  EXPECT_EQ(scalar(m, "uconv"), 0xffffffa3u);
  EXPECT_EQ(scalar(m, "sconv"), 0xffffffffffffffa3u);
  EXPECT_EQ(scalar(m, "trunc"), 100u);
  EXPECT_EQ(scalar(m, "widen"), 200u);
  EXPECT_EQ(vector2(m, "vadd"), (std::vector<std::uint64_t>{200, 14}));
  EXPECT_EQ(scalar(m, "ext"), 14u);
  EXPECT_EQ(vector2(m, "ins"), (std::vector<std::uint64_t>{1, 7}));
  EXPECT_EQ(vector2(m, "shuf"), (std::vector<std::uint64_t>{14, 100}));
  EXPECT_EQ(as_float(scalar(m, "fadd")), 3.0f);
  EXPECT_EQ(as_double(scalar(m, "fconv")), 1.5);
  EXPECT_EQ(scalar(m, "ftos"), static_cast<std::uint32_t>(-2));
  EXPECT_EQ(as_float(scalar(m, "utof")), 100.0f);
  EXPECT_EQ(scalar(m, "bits"), 0x3fc00000u);
}

TEST(Specialize, GivenValuesReplaceDefaults) {
  module m = test::read_data("spec_ops.spv");
  specialize(m, {{0, bytes<std::uint32_t>(9)},
                 {1, bytes<std::uint32_t>(2)},
                 {2, {std::byte{0}}},
                 {3, bytes<std::uint64_t>(0x123456789ull)},
                 {4, {std::byte{0xff}}},
                 {5, bytes(0.25f)},
                 {6, bytes(8.5)}});
  expect_fully_specialized(m);
  EXPECT_EQ(scalar(m, "add"), 11u);
  EXPECT_EQ(scalar(m, "sub"), static_cast<std::uint32_t>(-7));
  EXPECT_EQ(scalar(m, "sdiv"), static_cast<std::uint32_t>(-3));
  EXPECT_EQ(scalar(m, "sel"), 2u); // flag false
  EXPECT_EQ(scalar(m, "lnot"), 1u);
  EXPECT_EQ(scalar(m, "widen"), 255u);
  EXPECT_EQ(as_float(scalar(m, "fadd")), 0.5f);
  EXPECT_EQ(scalar(m, "ftos"), 8u);
  // SpecId 3 (%wide) is unused by any operation but becomes an ordinary 64-bit constant.
  bool found = false;
  for (const auto& inst : m.instructions)
    if (inst.opcode == op::Constant && inst.operands.size() == 4 &&
        inst.operands[2] == 0x23456789u && inst.operands[3] == 1u)
      found = true;
  EXPECT_TRUE(found);
}

TEST(Specialize, LlcModuleStaysValid) {
  module m = test::read_data("spec_constants.spv");
  ASSERT_TRUE(test::spirv_val_accepts(m));
  specialize(m, {{3, bytes<std::uint32_t>(0xdeadbeef)},
                 {5, bytes<std::int64_t>(-3)},
                 {6, {std::byte{0}}},
                 {8, bytes(6.5f)}});
  expect_fully_specialized(m);
  bool saw_int = false, saw_long = false, saw_false = false, saw_float = false;
  for (const auto& inst : m.instructions) {
    if (inst.opcode == op::Constant && inst.operands.size() == 3) {
      saw_int |= inst.operands[2] == 0xdeadbeefu;
      saw_float |= as_float(inst.operands[2]) == 6.5f;
    }
    if (inst.opcode == op::Constant && inst.operands.size() == 4)
      saw_long |= inst.operands[2] == 0xfffffffdu && inst.operands[3] == 0xffffffffu;
    saw_false |= inst.opcode == op::ConstantFalse;
  }
  EXPECT_TRUE(saw_int && saw_long && saw_false && saw_float);
}

namespace {
std::string failure(module m, const spec_values& values) {
  auto before = write_words(m);
  try {
    specialize(m, values);
  } catch (const error& e) {
    EXPECT_EQ(write_words(m), before) << "a failed specialization changed the module";
    return e.what();
  }
  return "";
}
} // namespace

TEST(Specialize, UnknownSpecIdIsNamed) {
  std::string what = failure(test::read_data("spec_ops.spv"), {{42, bytes<std::uint32_t>(1)}});
  EXPECT_NE(what.find("SpecId 42"), std::string::npos) << what;
}

TEST(Specialize, SizeMustMatchTheType) {
  std::string what = failure(test::read_data("spec_ops.spv"), {{0, bytes<std::uint16_t>(1)}});
  EXPECT_NE(what.find("SpecId 0"), std::string::npos) << what;
  EXPECT_NE(what.find("give 4"), std::string::npos) << what;
  what = failure(test::read_data("spec_ops.spv"), {{3, bytes<std::uint32_t>(1)}});
  EXPECT_NE(what.find("give 8"), std::string::npos) << what;
}

TEST(Specialize, DivisionByZeroIsAnError) {
  std::string what = failure(test::read_data("spec_ops.spv"), {{1, bytes<std::uint32_t>(0)}});
  EXPECT_NE(what.find("OpUDiv"), std::string::npos) << what;
  EXPECT_NE(what.find("division by zero"), std::string::npos) << what;
}

TEST(Specialize, OversizedShiftIsAnError) {
  std::string what = failure(test::read_data("spec_ops.spv"), {{1, bytes<std::uint32_t>(32)}});
  EXPECT_NE(what.find("OpShiftLeftLogical"), std::string::npos) << what;
}

TEST(Specialize, SignedOverflowIsAnError) {
  using test::builder;
  builder b;
  b.add("OpCapability", {capability::Kernel});
  b.add("OpCapability", {capability::Addresses});
  b.add("OpMemoryModel", {2, 2});
  b.add("OpTypeInt", {"%uint", 32, 0});
  b.add("OpConstant", {"%uint", "%min", 0x80000000u});
  b.add("OpSpecConstant", {"%uint", "%m1", 0xffffffffu});
  b.add("OpSpecConstantOp", {"%uint", "%q", 135 /*SDiv*/, "%min", "%m1"});
  std::string what = failure(b.m, {});
  EXPECT_NE(what.find("overflows"), std::string::npos) << what;
}

TEST(Specialize, UnfoldableOperationIsNamed) {
  using test::builder;
  builder b;
  b.add("OpCapability", {capability::Kernel});
  b.add("OpCapability", {capability::Addresses});
  b.add("OpCapability", {11}); // Int64
  b.add("OpMemoryModel", {2, 2});
  b.add("OpTypeInt", {"%uint", 32, 0});
  b.add("OpTypeInt", {"%ulong", 64, 0});
  b.add("OpTypePointer", {"%gptr", 5, "%uint"});
  b.add("OpConstantNull", {"%gptr", "%null"});
  b.add("OpSpecConstant", {"%ulong", "%i", 1, 0});
  b.add("OpSpecConstantOp", {"%gptr", "%q", 67 /*PtrAccessChain*/, "%null", "%i"});
  std::string what = failure(b.m, {});
  EXPECT_NE(what.find("OpPtrAccessChain"), std::string::npos) << what;
  EXPECT_NE(what.find("cannot be folded"), std::string::npos) << what;
}

TEST(Specialize, BoolTakesAnyNonZeroByte) {
  module m = test::read_data("spec_ops.spv");
  specialize(m, {{2, {std::byte{0}, std::byte{4}}}});
  EXPECT_EQ(scalar(m, "lnot"), 0u);
  std::string what = failure(test::read_data("spec_ops.spv"), {{2, {}}});
  EXPECT_NE(what.find("is a bool"), std::string::npos) << what;
}
