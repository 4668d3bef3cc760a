// Device-code checks of the image accessors on NVIDIA GPUs: the kernels of image_kernels.cpp,
// compiled from bitcode by the JIT as the CUDA backend does. Images are read, written and sampled
// in software from the image's device buffer (detail/image_texel.hpp): plain global loads and
// stores, no texture or surface instructions; the 16-byte formats move as one aligned vector;
// unorm writes round to nearest even (cvt.rni), sampling floors coordinates (cvt.rmi); and the
// sampler's per-dimension state stays in registers (no local memory). No GPU needed.
#include "kernel_ptx.hpp"

#include <cstddef>
#include <iterator>
#include <regex>
#include <string>

namespace {

std::string ptx(const std::string& name, const std::string& arch = "sm_90") {
  return syclone_test::kernel_ptx(
      syclone_test::bitcode_path("image_kernels.bc", SYCLONE_IMAGE_BITCODE), name, arch,
      SYCLONE_JIT_TEST_PTXAS);
}

std::size_t count(const std::string& text, const std::string& pattern) {
  std::regex re(pattern);
  return static_cast<std::size_t>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

void expect_software_in_registers(const std::string& text) {
  EXPECT_EQ(count(text, R"(\b(tex|tld4|suld|sust|sured)\.)"), 0u) << text;
  EXPECT_EQ(count(text, R"(\.local)"), 0u) << text;
}

TEST(ImagePtx, UnsampledReadIsGlobalLoadsWithOneVectorForSixteenByteFormats) {
  std::string text = ptx("ImageRead2D");
  expect_software_in_registers(text);
  // r32g32b32a32_sfloat and the 32-bit integer formats: one 16-byte load.
  EXPECT_GE(count(text, R"(ld(\.global)?\.v4\.(f|b|u)32)"), 1u) << text;
  // Eight-byte formats: one 8-byte vector.
  EXPECT_GE(
      count(text,
            R"(ld(\.global)?\.v4\.(b|u)16|ld(\.global)?\.v2\.(b|u)32|ld(\.global)?\.(b|u)64)"),
      1u)
      << text;
}

TEST(ImagePtx, UnsampledWriteRoundsUnormToNearestEven) {
  std::string text = ptx("ImageWrite2D");
  expect_software_in_registers(text);
  EXPECT_GE(count(text, R"(st(\.global)?\.v4\.(f|b|u)32)"), 1u) << text;
  EXPECT_GE(count(text, R"(cvt\.rni)"), 1u) << text;
  // sfloat16 writes convert to half with round-to-nearest-even.
  EXPECT_GE(count(text, R"(cvt\.rn\.f16(x2)?\.f32)"), 1u) << text;
}

TEST(ImagePtx, SamplingFloorsCoordinatesInRegisters) {
  for (const char* kernel : {"SampledLinear2D", "SampledNearest3D"}) {
    std::string text = ptx(kernel);
    expect_software_in_registers(text);
    EXPECT_GE(count(text, R"(cvt\.rmi\.f32\.f32)"), 1u) << kernel << "\n" << text;
  }
}

} // namespace
