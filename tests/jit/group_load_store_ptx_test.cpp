// Device-code checks of sycl_ext_oneapi_group_load_store on NVIDIA GPUs: the kernels of
// group_load_store_kernels.cpp, compiled from bitcode by the JIT as the CUDA backend does. A
// blocked load or store of a contiguous pointer is coalesced: each access of a warp is one
// 16-byte vector per lane over 512 contiguous bytes (the next access 512 bytes on), and the
// elements reach their work-items through shfl.sync.bfly, without shared or local memory and
// without barriers; the striped placement needs no exchange, and blocks no vector unit fits
// (12 bytes) are each work-item's own accesses. No GPU needed.
#include "kernel_ptx.hpp"

#include <cstddef>
#include <iterator>
#include <regex>
#include <string>

namespace {

std::string ptx(const std::string& name, const std::string& arch = "sm_90") {
  return syclone_test::kernel_ptx(
      syclone_test::bitcode_path("group_load_store_kernels.bc", SYCLONE_GROUP_LOAD_STORE_BITCODE),
      name, arch, SYCLONE_JIT_TEST_PTXAS);
}

std::size_t count(const std::string& text, const std::string& pattern) {
  std::regex re(pattern);
  return static_cast<std::size_t>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

// Neither shared nor local memory nor a barrier: the exchange stays in registers and the warp.
void expect_registers_only(const std::string& text) {
  EXPECT_EQ(count(text, R"(\.shared)"), 0u) << text;
  EXPECT_EQ(count(text, R"(\.local)"), 0u) << text;
  EXPECT_EQ(count(text, R"(bar\.sync|barrier\.sync)"), 0u) << text;
}

// 8 floats (32 bytes) per work-item: two 16-byte accesses per lane, 512 bytes apart, then one
// butterfly step (4 shuffles of a 16-byte unit) each way.
TEST(GroupLoadStorePtx, BlockedLoadIsCoalescedVectorAccessesAndShuffles) {
  std::string text = ptx("BlockedFloat8");
  EXPECT_EQ(count(text, R"(ld\.global\.v4\.(b|u|f)32\s+\{[^}]*\}, \[%rd\d+\];)"), 1u) << text;
  EXPECT_EQ(count(text, R"(ld\.global\.v4\.(b|u|f)32\s+\{[^}]*\}, \[%rd\d+\+512\];)"), 1u) << text;
  EXPECT_EQ(count(text, R"(st\.global\.v4\.(b|u|f)32\s+\[%rd\d+\],)"), 1u) << text;
  EXPECT_EQ(count(text, R"(st\.global\.v4\.(b|u|f)32\s+\[%rd\d+\+512\],)"), 1u) << text;
  EXPECT_GE(count(text, R"(shfl\.sync\.bfly\.b32)"), 8u) << text;
  expect_registers_only(text);
}

// 16 bytes per work-item: one vector access each way, no exchange on that path.
TEST(GroupLoadStorePtx, SixteenBytesPerWorkItemIsOneVectorAccess) {
  std::string text = ptx("BlockedFloat4");
  EXPECT_EQ(count(text, R"(ld\.global\.v4\.(b|u|f)32)"), 1u) << text;
  EXPECT_EQ(count(text, R"(st\.global\.v4\.(b|u|f)32)"), 1u) << text;
  expect_registers_only(text);
}

// 64 bytes per work-item: four accesses 512 bytes apart each way.
TEST(GroupLoadStorePtx, SixtyFourBytesPerWorkItemAreFourContiguousAccesses) {
  std::string text = ptx("BlockedFloat16");
  for (const char* offset : {R"(\])", R"(\+512\])", R"(\+1024\])", R"(\+1536\])"}) {
    EXPECT_EQ(
        count(text, std::string(R"(ld\.global\.v4\.(b|u|f)32\s+\{[^}]*\}, \[%rd\d+)") + offset), 1u)
        << offset << text;
    EXPECT_EQ(count(text, std::string(R"(st\.global\.v4\.(b|u|f)32\s+\[%rd\d+)") + offset + ","),
              1u)
        << offset << text;
  }
  expect_registers_only(text);
}

// Doubles: 16-byte units where the chunk is 16-byte aligned, else the 8-byte units a double's
// alignment guarantees.
TEST(GroupLoadStorePtx, DoublesFallBackToEightByteUnits) {
  std::string text = ptx("BlockedDouble4");
  EXPECT_GE(count(text, R"(ld\.global\.v4\.(b|u|f)32)"), 2u) << text;
  EXPECT_GE(count(text, R"(ld\.global\.v2\.(b|u|f)32)"), 4u) << text;
  expect_registers_only(text);
}

TEST(GroupLoadStorePtx, SubGroupBlockedLoadIsCoalescedToo) {
  std::string text = ptx("SubGroupBlockedFloat8");
  EXPECT_EQ(count(text, R"(ld\.global\.v4\.(b|u|f)32\s+\{[^}]*\}, \[%rd\d+\+512\];)"), 1u) << text;
  EXPECT_EQ(count(text, R"(st\.global\.v4\.(b|u|f)32\s+\[%rd\d+\+512\],)"), 1u) << text;
  EXPECT_GE(count(text, R"(shfl\.sync\.bfly\.b32)"), 8u) << text;
  expect_registers_only(text);
}

TEST(GroupLoadStorePtx, StripedNeedsNoExchange) {
  std::string text = ptx("StripedFloat8");
  EXPECT_EQ(count(text, R"(shfl\.sync)"), 0u) << text;
  EXPECT_GE(count(text, R"(ld\.global\.(b|u|f)32)"), 8u) << text;
  expect_registers_only(text);
}

TEST(GroupLoadStorePtx, TwelveByteBlocksAreEachWorkItemsOwn) {
  std::string text = ptx("BlockedFloat3");
  EXPECT_EQ(count(text, R"(shfl\.sync)"), 0u) << text;
  expect_registers_only(text);
}

} // namespace
