// Device-code checks of sycl_ext_oneapi_work_group_static and work_group_scratch_memory on NVIDIA
// GPUs: the kernels of work_group_static_kernels.cpp, compiled from bitcode by the JIT as the
// CUDA backend does. Each work_group_static variable is one .shared variable of its size (one for
// a block-scope variable named from two functions), accessed with shared-memory instructions;
// scratch memory is the launch's dynamic shared memory at the kernel object's offset, with no
// static shared memory and no global memory for the offset. No GPU needed.
#include "kernel_ptx.hpp"

#include <cstddef>
#include <iterator>
#include <regex>
#include <string>

namespace {

std::string ptx(const std::string& name, const std::string& arch = "sm_90") {
  return syclone_test::kernel_ptx(
      syclone_test::bitcode_path("work_group_static_kernels.bc", SYCLONE_WORK_GROUP_STATIC_BITCODE),
      name, arch, SYCLONE_JIT_TEST_PTXAS);
}

std::size_t count(const std::string& text, const std::string& pattern) {
  std::regex re(pattern);
  return static_cast<std::size_t>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

TEST(WorkGroupStaticPtx, NamespaceScopeArrayIsOneSharedArray) {
  std::string text = ptx("StaticTile");
  EXPECT_EQ(count(text, R"(\.shared \.align 4 \.b8 \S+\[512\];)"), 1u) << text;
  EXPECT_EQ(count(text, R"(\n\s*(\.extern )?\.shared )"), 1u) << text; // declarations
  EXPECT_GE(count(text, R"(st\.shared\.(b|f|u)32)"), 1u) << text;
  EXPECT_GE(count(text, R"(ld\.shared\.(b|f|u)32)"), 1u) << text;
  EXPECT_EQ(count(text, R"(\.local)"), 0u) << text;
}

TEST(WorkGroupStaticPtx, BlockScopeVariableIsOneSharedVariableForEveryUse) {
  std::string text = ptx("StaticCounterTwoFunctions");
  EXPECT_EQ(count(text, R"(\.shared \.align 4 \.(b8|u32|b32) [^;\[]+(\[4\])?;)"), 1u) << text;
  EXPECT_EQ(count(text, R"(atom\.shared\.add\.u32)"), 1u) << text;
}

TEST(WorkGroupStaticPtx, ScratchMemoryIsTheDynamicSharedMemoryAtTheOffset) {
  std::string text = ptx("Scratch");
  EXPECT_EQ(count(text, R"(\.extern \.shared \.align 16 \.b8 __syclone_local_memory\[\];)"), 1u)
      << text;
  // No declaration but the dynamic memory: no slot is left for the offset.
  EXPECT_EQ(count(text, R"(\n\s*(\.extern )?\.shared )"), 1u) << text;
  EXPECT_GE(count(text, R"(st\.shared\.(b|f|u)32)"), 1u) << text;
  EXPECT_EQ(count(text, R"(st\.global\.(b|u)64)"), 0u) << text;
}

} // namespace
