// Device-code checks of math built-ins on NVIDIA GPUs: the kernels of math_kernels.cpp, compiled
// from bitcode by the JIT as the CUDA backend does. fdim is plain IR that LLVM folds exactly:
// libdevice's __nv_fdimf subtracts in inline PTX, which reached the driver's JIT with constant
// operands and was folded to the wrong neighbour of a rounding tie (the CTS's
// math_builtin_float_base_1 on the H100). No GPU needed.
#include "kernel_ptx.hpp"

#include <cstddef>
#include <iterator>
#include <regex>
#include <string>

namespace {

std::string ptx(const std::string& name, const std::string& arch = "sm_90") {
  return syclone_test::kernel_ptx(
      syclone_test::bitcode_path("math_kernels.bc", SYCLONE_MATH_BITCODE), name, arch,
      SYCLONE_JIT_TEST_PTXAS);
}

bool has(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

TEST(MathPtx, FdimOfConstantsIsFoldedToTheIeeeResult) {
  std::string text = ptx("FdimConstantTie");
  EXPECT_FALSE(has(text, R"(sub\.rn\.f32)")) << text;
  // 0x3F3B9656 (1060869718), round to nearest even of the tie, stored as a float or as its bits;
  // never the other neighbour 0x3F3B9655.
  EXPECT_TRUE(has(text, R"(0f3F3B9656|\b1060869718\b)")) << text;
  EXPECT_FALSE(has(text, R"(0f3F3B9655|\b1060869717\b)")) << text;
}

TEST(MathPtx, FdimAtRunTimeSubtractsAndSelects) {
  std::string text = ptx("FdimRuntime");
  EXPECT_TRUE(has(text, R"(sub(\.rn)?\.f32)")) << text;
  EXPECT_TRUE(has(text, R"(setp\.)")) << text;
  EXPECT_FALSE(has(text, R"(call)")) << text;
}

} // namespace
