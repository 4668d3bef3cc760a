// Device-code checks of sub-groups on NVIDIA GPUs (STYLE.md 9, DESIGN.md "Target mapping"): the
// kernels of sub_group_kernels.cpp, compiled from bitcode by the JIT as the CUDA backend does,
// must use warp instructions -- shfl.sync for shuffles, redux.sync for 32-bit integer
// reductions where the architecture has it (sm_80+), vote.sync for any/all, bar.warp.sync for
// the sub-group barrier -- with a member mask that covers only the lanes that exist, so that
// partial sub-groups (work-groups whose size is not a multiple of 32) are correct. No GPU needed.
#include "kernel_ptx.hpp"

#include <regex>
#include <string>

namespace {

// The PTX of one kernel (named by its kernel name class) for `arch`.
std::string ptx(const std::string& name, const std::string& arch = "sm_90") {
  return syclone_test::kernel_ptx(
      syclone_test::bitcode_path("sub_group_kernels.bc", SYCLONE_SUB_GROUP_BITCODE), name, arch,
      SYCLONE_JIT_TEST_PTXAS);
}

bool has(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

TEST(SubGroupPtx, IntegerReductionUsesReduxOnSm80AndShufflesBefore) {
  std::string sm90 = ptx("SgReduceInt");
  EXPECT_TRUE(has(sm90, R"(redux\.sync\.add\.u32)")) << sm90;
  EXPECT_FALSE(has(sm90, R"(shfl\.sync)")) << sm90;
  std::string sm75 = ptx("SgReduceInt", "sm_75");
  EXPECT_FALSE(has(sm75, R"(redux\.sync)")) << sm75;
  EXPECT_TRUE(has(sm75, R"(shfl\.sync\.bfly\.b32)")) << sm75;
}

TEST(SubGroupPtx, FloatReductionButterflyForFullWarpsTreeForPartialOnes) {
  std::string text = ptx("SgReduceFloat");
  EXPECT_TRUE(has(text, R"(shfl\.sync\.bfly\.b32)")) << text;
  EXPECT_TRUE(has(text, R"(shfl\.sync\.down\.b32)")) << text;
  EXPECT_TRUE(has(text, R"(shfl\.sync\.idx\.b32)")) << text; // the partial warp's broadcast
  EXPECT_TRUE(has(text, R"(add(\.rn)?\.f32)")) << text;
}

TEST(SubGroupPtx, ScanUsesShuffleUp) {
  std::string text = ptx("SgScanFloat");
  EXPECT_TRUE(has(text, R"(shfl\.sync\.up\.b32)")) << text;
}

TEST(SubGroupPtx, ShufflesWithMaskOfExistingLanes) {
  std::string text = ptx("SgShuffles");
  for (const char* kind : {"idx", "down", "up", "bfly"})
    EXPECT_TRUE(has(text, std::string(R"(shfl\.sync\.)") + kind + R"(\.b32)")) << kind << text;
  // No shuffle names all 32 lanes literally: the mask is -1 for a full warp and the low
  // `size` bits for the partial last warp of a work-group.
  EXPECT_FALSE(has(text, R"(shfl\.sync\.[a-z]+\.b32[^;]*, -1;)")) << text;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      text, m, std::regex(R"(shfl\.sync\.idx\.b32\s+%r\d+, %r\d+, %r\d+, 31, (%r\d+);)")))
      << text;
  std::string mask = m[1];
  EXPECT_TRUE(has(text, R"(selp\.b32\s+)" + mask + R"(, -1, %r\d+, %p\d+;)")) << mask << text;
  EXPECT_TRUE(has(text, R"(shl\.b32\s+%r\d+, %r\d+, %r\d+;)")) << text;
}

TEST(SubGroupPtx, VotesForAnyAndAll) {
  std::string text = ptx("SgVote");
  EXPECT_TRUE(has(text, R"(vote\.sync\.any\.pred)")) << text;
  EXPECT_TRUE(has(text, R"(vote\.sync\.all\.pred)")) << text;
}

TEST(SubGroupPtx, SubGroupBarrierIsWarpSync) {
  std::string text = ptx("SgBarrier");
  EXPECT_TRUE(has(text, R"(bar\.warp\.sync)")) << text;
  EXPECT_FALSE(has(text, R"(barrier\.sync|bar\.sync)")) << text;
}

TEST(SubGroupPtx, WorkGroupReductionThroughSharedMemory) {
  std::string text = ptx("WgReduce");
  EXPECT_TRUE(has(text, R"(shfl\.sync\.bfly\.b32)")) << text;
  EXPECT_TRUE(has(text, R"(st\.shared)")) << text;
  EXPECT_TRUE(has(text, R"(barrier\.sync|bar\.sync)")) << text;
  EXPECT_TRUE(has(text, R"(\.shared \.align 16 \.b8 \S*group_scratch)")) << text;
}

TEST(SubGroupPtx, WorkGroupAnyIsBarrierReduction) {
  std::string text = ptx("WgAnyAll");
  EXPECT_TRUE(has(text, R"(bar(rier)?\.red\.or\.pred)")) << text;
}

} // namespace
