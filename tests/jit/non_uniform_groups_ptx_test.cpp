// Device-code checks of sycl_ext_oneapi_non_uniform_groups on NVIDIA GPUs (DESIGN.md "Phase 3":
// what the hardware has): the kernels of non_uniform_groups_kernels.cpp, compiled from bitcode
// by the JIT as the CUDA backend does. A ballot group is one match.any.sync, a tangle and an
// opportunistic group one activemask; the groups' functions are warp instructions whose member
// mask is the group's (a register, not the whole warp): redux.sync for 32-bit integer reductions
// on sm_80+, shfl.sync.idx from the members' lanes, a butterfly within a fixed-size group,
// vote.sync, bar.warp.sync. No GPU needed.
#include "kernel_ptx.hpp"

#include <regex>
#include <string>

namespace {

std::string ptx(const std::string& name, const std::string& arch = "sm_90") {
  return syclone_test::kernel_ptx(syclone_test::bitcode_path("non_uniform_groups_kernels.bc",
                                                             SYCLONE_NON_UNIFORM_GROUPS_BITCODE),
                                  name, arch, SYCLONE_JIT_TEST_PTXAS);
}

bool has(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

TEST(NonUniformGroupsPtx, BallotGroupIsOneMatchAndReducesWithReduxOverItsMask) {
  std::string text = ptx("NugBallotReduceInt");
  EXPECT_TRUE(has(text, R"(match\.any\.sync\.b32\s+%r\d+, %r\d+, %r\d+;)")) << text;
  // The member mask is the match's result: a register.
  EXPECT_TRUE(has(text, R"(redux\.sync\.add\.u32\s+%r\d+, %r\d+, %r\d+;)")) << text;
  EXPECT_FALSE(has(text, R"(shfl\.sync)")) << text;
  // sm_75: match.sync, but no redux.sync yet: a tree of shuffles from the members' lanes.
  std::string sm75 = ptx("NugBallotReduceInt", "sm_75");
  EXPECT_TRUE(has(sm75, R"(match\.any\.sync\.b32)")) << sm75;
  EXPECT_FALSE(has(sm75, R"(redux\.sync)")) << sm75;
  EXPECT_TRUE(has(sm75, R"(shfl\.sync\.idx\.b32)")) << sm75;
}

TEST(NonUniformGroupsPtx, FloatReductionOfABallotGroupShufflesFromMemberLanes) {
  std::string text = ptx("NugBallotReduceFloat");
  EXPECT_TRUE(has(text, R"(shfl\.sync\.idx\.b32\s+%r\d+(\|%p\d+)?, %r\d+, %r\d+, 31, %r\d+;)"))
      << text;
  EXPECT_TRUE(has(text, R"(popc\.b32)")) << text; // ranks from the mask
  EXPECT_TRUE(has(text, R"(add(\.rn)?\.f32)")) << text;
}

TEST(NonUniformGroupsPtx, ScanOfABallotGroupShufflesFromMemberLanes) {
  std::string text = ptx("NugBallotScan");
  EXPECT_TRUE(has(text, R"(shfl\.sync\.idx\.b32)")) << text;
  EXPECT_FALSE(has(text, R"(shfl\.sync\.up)")) << text;
}

TEST(NonUniformGroupsPtx, BarrierOfABallotGroupIsAWarpBarrierOfItsMembers) {
  std::string text = ptx("NugBallotBarrier");
  EXPECT_TRUE(has(text, R"(bar\.warp\.sync\s+%r\d+;)")) << text;
  EXPECT_FALSE(has(text, R"(bar\.sync|barrier\.sync)")) << text;
}

TEST(NonUniformGroupsPtx, FixedSizeGroupsReduceWithAButterflyAndShuffleWithinThemselves) {
  std::string reduce = ptx("NugFixedReduceFloat");
  EXPECT_TRUE(has(reduce, R"(shfl\.sync\.bfly\.b32)")) << reduce;
  EXPECT_FALSE(has(reduce, R"(match\.|activemask)")) << reduce;
  std::string shifts = ptx("NugFixedShifts");
  EXPECT_TRUE(has(shifts, R"(shfl\.sync\.idx\.b32)")) << shifts;
  EXPECT_TRUE(has(shifts, R"(shfl\.sync\.bfly\.b32)")) << shifts;
}

TEST(NonUniformGroupsPtx, TangleIsTheActiveMaskAndVotesOverIt) {
  std::string text = ptx("NugTangleVote");
  EXPECT_TRUE(has(text, R"(activemask\.b32)")) << text;
  EXPECT_TRUE(has(text, R"(vote\.sync\.any\.pred\s+%p\d+, %p\d+, %r\d+;)")) << text;
  EXPECT_TRUE(has(text, R"(vote\.sync\.all\.pred\s+%p\d+, %p\d+, %r\d+;)")) << text;
}

TEST(NonUniformGroupsPtx, OpportunisticGroupIsTheActiveMask) {
  std::string text = ptx("NugOpportunisticBroadcast");
  EXPECT_TRUE(has(text, R"(activemask\.b32)")) << text;
  EXPECT_TRUE(has(text, R"(shfl\.sync\.idx\.b32)")) << text;
  EXPECT_TRUE(has(text, R"(popc\.b32)")) << text;
}

} // namespace
