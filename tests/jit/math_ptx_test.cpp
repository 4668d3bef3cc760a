// Device-code checks of math built-ins on NVIDIA GPUs: the kernels of math_kernels.cpp, compiled
// from bitcode by the JIT as the CUDA backend does. fdim is plain IR that LLVM folds exactly:
// libdevice's __nv_fdimf subtracts in inline PTX, which reached the driver's JIT with constant
// operands and was folded to the wrong neighbour of a rounding tie (the CTS's
// math_builtin_float_base_1 on the H100). No GPU needed.
#include "jit/jit.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace jit = syclone::jit;

const fs::path k_bitcode =
    std::getenv("SYCLONE_JIT_TEST_BITCODE_DIR")
        ? fs::path(std::getenv("SYCLONE_JIT_TEST_BITCODE_DIR")) / "math_kernels.bc"
        : fs::path(SYCLONE_MATH_BITCODE);

const std::vector<std::byte>& bitcode() {
  static const std::vector<std::byte> bytes = [] {
    std::ifstream in(k_bitcode, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), {});
    std::vector<std::byte> b(chars.size());
    std::memcpy(b.data(), chars.data(), chars.size());
    return b;
  }();
  return bytes;
}

// The PTX of one kernel (named by its kernel name class) for `arch`.
std::string ptx(const std::string& name, const std::string& arch = "sm_90") {
  EXPECT_FALSE(bitcode().empty()) << "missing " << k_bitcode;
  jit::request r;
  r.bitcode = bitcode();
  r.kernel = "_ZTS" + std::to_string(name.size()) + name;
  r.arch = arch;
  std::string text = jit::compile(r).ptx;
  // ptxas, where a CUDA toolkit is installed, must accept it.
  std::string ptxas = SYCLONE_JIT_TEST_PTXAS;
  if (!ptxas.empty()) {
    fs::path dir = fs::temp_directory_path() / ("syclone-math-ptx-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    fs::path file = dir / (name + "-" + arch + ".ptx");
    std::ofstream(file) << text;
    std::string cmd = ptxas + " -arch=" + arch + " " + file.string() + " -o " +
                      (dir / "out.cubin").string() + " > " + (dir / "log").string() + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << name << " for " << arch << ": ptxas rejects the PTX";
    fs::remove_all(dir);
  }
  return text;
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
