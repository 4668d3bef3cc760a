// Device-code checks of sycl_khr_work_item_queries on NVIDIA GPUs: the kernels of
// work_item_kernels.cpp, compiled from bitcode by the JIT as the CUDA backend does. A kernel that
// asks khr::this_nd_item for its work-item reads the ids and ranges from the hardware and the
// nd_range's offset from the block's shared memory, where the kernel stored it; a kernel that
// never asks keeps no such store (the offset variable is gone from its PTX). Each
// group_local_memory call of a kernel is a shared array of its own. No GPU needed.
#include "kernel_ptx.hpp"

#include <regex>
#include <string>

namespace {

std::string ptx(const std::string& name, const std::string& arch = "sm_90") {
  return syclone_test::kernel_ptx(
      syclone_test::bitcode_path("work_item_kernels.bc", SYCLONE_WORK_ITEM_BITCODE), name, arch,
      SYCLONE_JIT_TEST_PTXAS);
}

bool has(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

TEST(WorkItemPtx, AskingKernelReadsHardwareIdsAndTheOffset) {
  std::string text = ptx("AsksForItsNdItem");
  EXPECT_TRUE(has(text, R"(%ctaid\.[xy])")) << text;
  EXPECT_TRUE(has(text, R"(%tid\.[xy])")) << text;
  EXPECT_TRUE(has(text, R"(%ntid\.[xy])")) << text;
  EXPECT_TRUE(has(text, R"(%nctaid\.[xy])")) << text;
  EXPECT_TRUE(has(text, R"(\.shared .*nd_offset)")) << text;
  EXPECT_TRUE(has(text, R"(st\.shared\.[bu]64)")) << text;
  EXPECT_TRUE(has(text, R"(ld\.shared\.[bu]64)")) << text;
}

// sycl_ext_oneapi_local_memory: each group_local_memory call its own shared array, of its size.
TEST(WorkItemPtx, EachGroupLocalMemoryCallIsASharedArray) {
  std::string text = ptx("TwoGroupLocalArrays");
  std::regex array(R"(\.shared \.align 8 \.b8 \S*group_local_memory\S*\[2048\];)");
  EXPECT_EQ(
      std::distance(std::sregex_iterator(text.begin(), text.end(), array), std::sregex_iterator()),
      2)
      << text;
  EXPECT_FALSE(has(text, "__syclone_group_local_memory")) << text;
  EXPECT_TRUE(has(text, R"(bar(rier)?\.sync)")) << text;
  // The zeroing of the value-initialized array is shared by the work-items: no loop of one
  // thread over its 2048 bytes.
  EXPECT_FALSE(has(text, R"(st\.shared\.b8)")) << text;
}

TEST(WorkItemPtx, PlainKernelKeepsNoOffset) {
  std::string text = ptx("PlainNdRange");
  EXPECT_FALSE(has(text, R"(nd_offset)")) << text;
  EXPECT_FALSE(has(text, R"(st\.shared)")) << text;
}

// assert() in a kernel: the C library's __assert_fail, which the CUDA driver provides as
// __assertfail.
TEST(WorkItemPtx, AssertCallsTheDriversAssertFail) {
  std::string text = ptx("Asserts");
  EXPECT_TRUE(has(text, R"(\.extern \.func __assertfail)")) << text;
  EXPECT_TRUE(has(text, R"(call(\.uni)?\s+__assertfail)")) << text;
  // (glibc's name stays as a function of the module's own, not an external one.)
  EXPECT_FALSE(has(text, R"(\.extern \.func __assert_fail)")) << text;
}

} // namespace
