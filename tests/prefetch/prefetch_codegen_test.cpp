// The instructions each prefetch hint becomes (DESIGN.md "Target mapping"; seed 000, seed 001):
// PTX from the JIT for sm_90, sm_80 and sm_75, assembled by ptxas where a CUDA toolkit is
// installed, and x86-64 assembly of the host path. A hint never disappears: every kernel that
// prefetches global memory holds a prefetch instruction on every architecture.
#include "jit/jit.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <string>
#include <vector>

extern char** environ;

namespace {
namespace fs = std::filesystem;
namespace jit = syclone::jit;

const fs::path k_dir = std::getenv("SYCLONE_PREFETCH_TEST_DIR")
                           ? std::getenv("SYCLONE_PREFETCH_TEST_DIR")
                           : SYCLONE_PREFETCH_TEST_DIR;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::byte> bitcode() {
  static std::vector<std::byte> bytes = [] {
    std::string text = read_text(k_dir / "prefetch_kernels.bc");
    std::vector<std::byte> b(text.size());
    std::memcpy(b.data(), text.data(), text.size());
    return b;
  }();
  return bytes;
}

// The unique stable name of a kernel name class at namespace scope.
std::string kernel_symbol(const std::string& name) {
  return "_ZTS" + std::to_string(name.size()) + name;
}

// The PTX of one kernel for `arch`, compiled once per (kernel, arch).
const std::string& ptx(const std::string& name, const std::string& arch) {
  static std::map<std::string, std::string> cache;
  std::string& text = cache[name + "/" + arch];
  if (text.empty()) {
    jit::request req;
    auto bytes = bitcode();
    req.bitcode = bytes;
    req.kernel = kernel_symbol(name);
    req.arch = arch;
    req.libdevice_path = "/nonexistent/libdevice.10.bc";
    ::setenv("SYCLONE_JIT_CACHE", "0", 1);
    text = jit::compile(req).ptx;
  }
  return text;
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}
bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}
std::size_t prefetches(const std::string& text) {
  return count(text, "prefetch.global.") + count(text, "cp.async.bulk.prefetch.");
}

// The instruction lines of one kernel.
std::string body(const std::string& name, const std::string& arch) {
  const std::string& all = ptx(name, arch);
  auto begin = all.find(".entry " + kernel_symbol(name) + "(");
  EXPECT_NE(begin, std::string::npos) << name << " not in the PTX for " << arch;
  if (begin == std::string::npos) return "";
  return all.substr(begin, all.find("\n}", begin) - begin);
}

// A loop: a branch back to a label defined before it.
bool has_back_edge(const std::string& text) {
  std::regex branch(R"(bra(?:\.uni)?\s+(\$L__\w+);)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), branch);
       it != std::sregex_iterator(); ++it) {
    auto label = text.find((*it)[1].str() + ":");
    if (label != std::string::npos && label < std::size_t(it->position())) return true;
  }
  return false;
}

const std::string k_l1 = "prefetch.global.L1 [";
const std::string k_l2 = "prefetch.global.L2 [";
const std::string k_evict_last = "prefetch.global.L2::evict_last [";
const std::string k_evict_normal = "prefetch.global.L2::evict_normal [";
const std::string k_policy_first = "createpolicy.fractional.L2::evict_first.b64";
const std::string k_policy_last = "createpolicy.fractional.L2::evict_last.b64";
const std::string k_bulk_hint = "cp.async.bulk.prefetch.L2.global.L2::cache_hint [";
const std::string k_bulk = "cp.async.bulk.prefetch.L2.global [";
const std::string k_isspacep = "isspacep.global";

const std::vector<std::string> k_kernels = {"PfL1",
                                            "PfL2",
                                            "PfL3",
                                            "PfL4",
                                            "PfL1nt",
                                            "PfL2nt",
                                            "PfL3nt",
                                            "PfL4nt",
                                            "PfDefault",
                                            "PfLowestWins",
                                            "PfLowestWinsNt",
                                            "PfRange",
                                            "PfGlobalPtr",
                                            "PfGenericPtr",
                                            "PfMultiPtrMember",
                                            "PfAccessor",
                                            "PfJointGroupL2",
                                            "PfJointGroupL3",
                                            "PfJointGroupL1",
                                            "PfJointGroupNt",
                                            "PfJointAccessor",
                                            "PfJointSubGroupSeed",
                                            "PfJointSubGroupAligned",
                                            "PfJointSubGroupL1",
                                            "PfJointSubGroupWalk",
                                            "PfWalkL2"};
const std::vector<std::string> k_archs = {"sm_90", "sm_80", "sm_75"};

TEST(PrefetchPtx, LevelsOnSm90) {
  for (const char* k : {"PfL1", "PfDefault", "PfMultiPtrMember", "PfLowestWinsNt"}) {
    auto b = body(k, "sm_90");
    EXPECT_EQ(count(b, k_l1), 1u) << k << "\n" << b;
    EXPECT_EQ(prefetches(b), count(b, k_l1)) << k << "\n" << b;
  }
  for (const char* k : {"PfL2", "PfLowestWins", "PfGlobalPtr", "PfGenericPtr"}) {
    auto b = body(k, "sm_90");
    EXPECT_EQ(count(b, k_l2), 1u) << k << "\n" << b;
    EXPECT_EQ(prefetches(b), 1u) << k << "\n" << b;
  }
  for (const char* k : {"PfL3", "PfL4"}) {
    auto b = body(k, "sm_90");
    EXPECT_EQ(count(b, k_evict_last), 1u) << k << "\n" << b;
    EXPECT_EQ(prefetches(b), 1u) << k << "\n" << b;
  }
}

TEST(PrefetchPtx, NontemporalIsEvictFirstOnSm90) {
  for (const char* k : {"PfL1nt", "PfL2nt", "PfL3nt", "PfL4nt"}) {
    auto b = body(k, "sm_90");
    EXPECT_TRUE(has(b, k_policy_first)) << k << "\n" << b;
    EXPECT_EQ(count(b, k_bulk_hint), 1u) << k << "\n" << b;
    EXPECT_EQ(prefetches(b), 1u) << k << "\n" << b;
  }
}

TEST(PrefetchPtx, OlderArchitecturesKeepEveryHint) {
  // sm_80 has L2 eviction priorities but no bulk prefetch or evict-first prefetch.
  EXPECT_EQ(count(body("PfL3", "sm_80"), k_evict_last), 1u);
  EXPECT_EQ(count(body("PfL1", "sm_80"), k_l1), 1u);
  for (const char* k : {"PfL1nt", "PfL4nt"}) {
    auto b = body(k, "sm_80");
    EXPECT_EQ(count(b, k_evict_normal), 1u) << k << "\n" << b;
    EXPECT_FALSE(has(b, "cp.async") || has(b, "createpolicy")) << k << "\n" << b;
  }
  // Before sm_80 every L2-level hint is a plain L2 prefetch.
  for (const char* k : {"PfL3", "PfL2nt"}) {
    auto b = body(k, "sm_75");
    EXPECT_EQ(count(b, k_l2), 1u) << k << "\n" << b;
    EXPECT_FALSE(has(b, "::evict")) << k << "\n" << b;
  }
  for (const auto& arch : k_archs)
    for (const char* k : {"PfJointGroupL3", "PfJointSubGroupSeed"}) {
      if (arch == "sm_90") continue;
      auto b = body(k, arch);
      EXPECT_FALSE(has(b, "cp.async")) << k << " " << arch << "\n" << b;
    }
}

TEST(PrefetchPtx, NoHintIsDropped) {
  for (const auto& arch : k_archs)
    for (const auto& k : k_kernels) EXPECT_GE(prefetches(body(k, arch)), 1u) << k << " " << arch;
}

TEST(PrefetchPtx, RangesLoopOverLines) {
  auto b = body("PfRange", "sm_90");
  EXPECT_TRUE(has_back_edge(b)) << b;
  EXPECT_TRUE(has(b, k_l2)) << b;
}

TEST(PrefetchPtx, GlobalPointersSkipTheAddressSpaceCheck) {
  // A generic pointer is checked (isspacep.global) and skipped unless it points to global
  // memory; a global multi_ptr, an accessor or a kernel argument is known to.
  EXPECT_TRUE(has(body("PfGenericPtr", "sm_90"), k_isspacep));
  for (const char* k : {"PfGlobalPtr", "PfAccessor", "PfMultiPtrMember", "PfJointAccessor", "PfL1"})
    EXPECT_FALSE(has(body(k, "sm_90"), k_isspacep)) << k;
}

TEST(PrefetchPtx, LocalMemoryIsNotPrefetched) {
  for (const auto& arch : k_archs) {
    auto b = body("PfLocal", arch);
    EXPECT_EQ(prefetches(b), 0u) << arch << "\n" << b;
  }
}

TEST(PrefetchPtx, GroupsIssueOneBulkPrefetchOnSm90) {
  // One cp.async.bulk.prefetch.L2 from the first work-item, with the hint's policy, for any
  // range (widened to the instruction's 16-byte alignment): no per-line fallback behind a test
  // of the address.
  auto l2 = body("PfJointGroupL2", "sm_90");
  EXPECT_EQ(count(l2, k_bulk), 1u) << l2;
  EXPECT_FALSE(has(l2, k_l2)) << l2;
  for (const char* k : {"PfJointGroupL3", "PfJointAccessor", "PfJointSubGroupSeed"}) {
    auto b = body(k, "sm_90");
    EXPECT_TRUE(has(b, k_policy_last)) << k << "\n" << b;
    EXPECT_EQ(count(b, k_bulk_hint), 1u) << k << "\n" << b;
    EXPECT_FALSE(has(b, k_evict_last)) << k << "\n" << b;
  }
  auto nt = body("PfJointGroupNt", "sm_90");
  EXPECT_TRUE(has(nt, k_policy_first)) << nt;
  EXPECT_GE(count(nt, k_bulk_hint), 1u) << nt;
  auto sg = body("PfJointSubGroupAligned", "sm_90");
  EXPECT_EQ(count(sg, k_bulk), 1u) << sg;
  // Bulk prefetches fill L2 only: an L1 hint stays per line.
  for (const char* k : {"PfJointGroupL1", "PfJointSubGroupL1"}) {
    auto b = body(k, "sm_90");
    EXPECT_TRUE(has(b, k_l1)) << k << "\n" << b;
    EXPECT_FALSE(has(b, "cp.async")) << k << "\n" << b;
  }
}

TEST(PrefetchPtx, JointWalkIsTheNativeLoop) {
  // bench/cuda_prefetch's latency-bound walk (issue 16: 1.29x slower than native CUDA issuing
  // the same instruction): the sub-group's prefetch is the one bulk instruction behind the first
  // work-item's test, as nvcc compiles `if (lane == 0) cp.async.bulk.prefetch...`, with no test
  // of the address's alignment and no per-line fallback loop in the walk's loop; the loop has
  // one test more than the per-work-item prefetch's (that of the first work-item).
  auto joint = body("PfJointSubGroupWalk", "sm_90");
  auto per_item = body("PfWalkL2", "sm_90");
  EXPECT_EQ(count(joint, k_bulk), 1u) << joint;
  EXPECT_EQ(count(joint, "prefetch.global"), 0u) << joint;
  EXPECT_EQ(count(joint, "setp."), count(per_item, "setp.") + 1) << joint << "\n" << per_item;
  EXPECT_EQ(count(per_item, k_l2), 1u) << per_item;
}

int run(std::vector<std::string> args, const fs::path& output) {
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(PrefetchPtx, PtxasAssemblesEveryKernel) {
  std::string ptxas = SYCLONE_PREFETCH_TEST_PTXAS;
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas";
  char pattern[] = "/tmp/syclone-prefetch-test-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  fs::path dir = pattern;
  for (const auto& arch : k_archs)
    for (const auto& k : k_kernels) {
      fs::path file = dir / (k + "-" + arch + ".ptx");
      std::ofstream(file) << ptx(k, arch);
      fs::path log = dir / "ptxas.log";
      EXPECT_EQ(
          run({ptxas, "-arch=" + arch, file.string(), "-o", (dir / "out.cubin").string()}, log), 0)
          << k << " " << arch << ":\n"
          << read_text(log);
    }
  fs::remove_all(dir);
}

// The host path: x86-64 assembly of prefetch_host.cpp.
std::string host_function(const std::string& name) {
  static std::string all = read_text(k_dir / "prefetch_host.s");
  auto begin = all.find("\n" + name + ":");
  EXPECT_NE(begin, std::string::npos) << name;
  if (begin == std::string::npos) return "";
  return all.substr(begin, all.find(".Lfunc_end", begin) - begin);
}

TEST(PrefetchHost, EachHintIsItsInstruction) {
  const std::vector<std::string> all = {"prefetcht0", "prefetcht1", "prefetcht2", "prefetchnta"};
  const std::map<std::string, std::string> expected = {
      {"host_l1", "prefetcht0"},          {"host_l2", "prefetcht1"},
      {"host_l3", "prefetcht2"},          {"host_l4", "prefetcht2"},
      {"host_l1_nt", "prefetchnta"},      {"host_l2_nt", "prefetchnta"},
      {"host_l3_nt", "prefetchnta"},      {"host_l4_nt", "prefetchnta"},
      {"host_lowest_wins", "prefetcht1"}, {"host_default", "prefetcht0"},
      {"host_range", "prefetcht1"},       {"host_multi_ptr", "prefetcht0"},
      {"host_joint", "prefetchnta"}};
  for (const auto& [function, instruction] : expected) {
    std::string text = host_function(function);
    for (const auto& other : all) {
      // "prefetcht0\t" etc.: the instruction followed by its operand.
      bool present = std::regex_search(text, std::regex("\\b" + other + "\\s"));
      EXPECT_EQ(present, other == instruction) << function << " " << other << "\n" << text;
    }
  }
  // One object: one instruction; a range: one per line, in a loop or unrolled.
  EXPECT_EQ(count(host_function("host_l1"), "prefetcht0"), 1u);
  EXPECT_GE(count(host_function("host_range"), "prefetcht1"), 2u);
}
} // namespace
