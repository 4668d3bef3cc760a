// Device-code checks of atomic_ref on NVIDIA GPUs (DESIGN.md "Target mapping"): the kernels of
// atomic_kernels.cpp, compiled from bitcode by the JIT as the CUDA backend does. Read-modify-
// writes of device and system scope are PTX atom instructions of system scope (.sys), so that a
// kernel's atomics and the host's on one shared allocation do not lose each other's updates
// (aspect::usm_atomic_shared_allocations); narrower scopes keep LLVM's own atom, and fences keep
// the scope asked for. No GPU needed.
#include "kernel_ptx.hpp"

#include <cstddef>
#include <iterator>
#include <regex>
#include <string>

namespace {

std::string ptx(const std::string& name, const std::string& arch = "sm_90") {
  return syclone_test::kernel_ptx(
      syclone_test::bitcode_path("atomic_kernels.bc", SYCLONE_ATOMIC_BITCODE), name, arch,
      SYCLONE_JIT_TEST_PTXAS);
}

std::size_t count(const std::string& text, const std::string& pattern) {
  std::regex re(pattern);
  return static_cast<std::size_t>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

TEST(AtomicPtx, DeviceScopeReadModifyWritesAreSystemScope) {
  std::string text = ptx("AtomicDeviceScope");
  EXPECT_EQ(count(text, R"(atom\.relaxed\.sys\.add\.u32)"), 1u) << text; // int fetch_add
  EXPECT_EQ(count(text, R"(atom\.relaxed\.sys\.max\.u64)"), 1u) << text; // unsigned fetch_max
  EXPECT_EQ(count(text, R"(atom\.relaxed\.sys\.min\.s64)"), 1u) << text; // signed fetch_min
  EXPECT_EQ(count(text, R"(atom\.relaxed\.sys\.or\.b32)"), 1u) << text;
  EXPECT_EQ(count(text, R"(atom\.relaxed\.sys\.add\.f64)"), 1u) << text;
  EXPECT_EQ(count(text, R"(atom\.relaxed\.sys\.exch\.b32)"), 1u) << text;
  // fetch_sub of long long and the pointer's fetch_add: adds of 64 bits.
  EXPECT_EQ(count(text, R"(atom\.relaxed\.sys\.add\.u64)"), 2u) << text;
  // Floating-point max has no atom: a compare-exchange loop of system scope.
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(atom\.relaxed\.sys(\.global)?\.cas\.b32)")))
      << text;
  // No read-modify-write of GPU scope is left (a plain atom is one).
  EXPECT_EQ(count(text, R"(atom(\.global)?\.(add|min|max|or|exch|cas)\.)"), 0u) << text;
}

TEST(AtomicPtx, SystemScopeIsNativeNotACompareExchangeLoop) {
  std::string text = ptx("AtomicSystemScope");
  EXPECT_EQ(count(text, R"(atom\.relaxed\.sys\.add\.u32)"), 1u) << text;
  EXPECT_EQ(count(text, R"(atom\.relaxed\.sys\.add\.f64)"), 1u) << text;
  EXPECT_EQ(count(text, R"(\.cas\.)"), 0u) << text;
}

TEST(AtomicPtx, WorkGroupScopeKeepsTheNarrowAtom) {
  std::string text = ptx("AtomicWorkGroupScope");
  EXPECT_EQ(count(text, R"(\.sys\.)"), 0u) << text;
  EXPECT_EQ(count(text, R"((atom|red)(\.global)?\.add\.u32)"), 1u) << text;
}

TEST(AtomicPtx, SeqCstDeviceScopeFencesStayAtGpuScope) {
  std::string text = ptx("AtomicDeviceScopeSeqCst");
  EXPECT_EQ(count(text, R"(atom\.relaxed\.sys\.add\.u32)"), 1u) << text;
  EXPECT_EQ(count(text, R"(fence\.sc\.gpu)"), 1u) << text;
  EXPECT_EQ(count(text, R"(fence\.acq_rel\.gpu)"), 1u) << text;
  EXPECT_EQ(count(text, R"(fence\.[a-z_]+\.sys)"), 0u) << text;
}

} // namespace
