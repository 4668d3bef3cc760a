// Device-code checks of hierarchical parallelism on NVIDIA GPUs (DESIGN.md "The rest of SYCL
// 2020"): the kernels of hierarchical_kernels.cpp, compiled from bitcode by the JIT as the CUDA
// backend does, must run their work-items in parallel over the block -- each thread picks its
// work-items by %tid.x, barriers (bar.sync) stand wherever threads hand memory to each other
// around a parallel_for_work_item, the work-group-scope variables the work-items write live in
// .shared memory (those they only read in each thread's own copy), and the work-group scope's
// side effects happen on one thread. No GPU needed.
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

const std::vector<std::byte>& bitcode() {
  static const std::vector<std::byte> bytes = [] {
    const char* path = std::getenv("SYCLONE_HIERARCHICAL_BITCODE");
    std::ifstream in(path ? path : SYCLONE_HIERARCHICAL_BITCODE, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), {});
    std::vector<std::byte> b(chars.size());
    std::memcpy(b.data(), chars.data(), chars.size());
    return b;
  }();
  return bytes;
}

// The PTX of one kernel (named by its kernel name class; empty: every kernel) for sm_90.
std::string ptx(const std::string& name) {
  EXPECT_FALSE(bitcode().empty()) << "missing " << SYCLONE_HIERARCHICAL_BITCODE;
  jit::request r;
  r.bitcode = bitcode();
  r.kernel = name.empty() ? "" : "_ZTS" + std::to_string(name.size()) + name;
  r.arch = "sm_90";
  std::string text = jit::compile(r).ptx;
  std::string ptxas = SYCLONE_JIT_TEST_PTXAS;
  if (!ptxas.empty()) {
    fs::path dir = fs::temp_directory_path() / ("syclone-hier-ptx-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    fs::path file = dir / (name + ".ptx");
    std::ofstream(file) << text;
    std::string cmd = ptxas + " -arch=sm_90 " + file.string() + " -o " +
                      (dir / "out.cubin").string() + " > " + (dir / "log").string() + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << name << ": ptxas rejects the PTX";
    fs::remove_all(dir);
  }
  return text;
}

std::size_t count(const std::string& text, const std::string& pattern) {
  std::regex re(pattern);
  return std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator());
}

// Whether an instruction matching `pattern` runs only on thread 0: it lies between
// `@%p bra L` and `L:`, where %p is `%tid.x != 0`.
bool only_on_thread_zero(const std::string& text, const std::string& pattern) {
  std::smatch tid, pred;
  if (!std::regex_search(text, tid, std::regex(R"(mov\.u32\s+(%r\d+), %tid\.x;)"))) return false;
  if (!std::regex_search(text, pred,
                         std::regex(R"(setp\.ne\.[sub]32\s+(%p\d+), )" + tid[1].str() + ", 0;")))
    return false;
  std::regex guard("@" + pred[1].str() + R"(\s+bra(\.uni)?\s+(\$L__BB\d+_\d+);)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), guard);
       it != std::sregex_iterator(); ++it) {
    std::size_t from = it->position() + it->length();
    std::size_t to = text.find((*it)[2].str() + ":", from);
    if (to == std::string::npos) continue;
    if (std::regex_search(text.substr(from, to - from), std::regex(pattern))) return true;
  }
  return false;
}

TEST(HierarchicalPtx, WorkItemsSpreadOverTheBlockWithBarriersAndSharedVariables) {
  std::string text = ptx("HierNeighbour");
  // Each thread is a work-item: its id comes from %tid.x, not from a loop over the group.
  EXPECT_GE(count(text, R"(mov\.u32\s+%r\d+, %tid\.x;)"), 1u) << text;
  // Barriers where threads hand memory to each other: after the work-group scope's atomic (its
  // run on thread 0), between the two parallel_for_work_item calls (the array), before the
  // work-group scope's sum over the array and around its store of the total.
  EXPECT_GE(count(text, R"(bar\.sync\s+0;)"), 4u) << text;
  // `int shared[64]` is one array of the block in shared memory, read and written there.
  EXPECT_TRUE(count(text, R"(\.shared \.align \d+ \.b8 [\w$.]+\[256\];)") >= 1 ||
              count(text, R"(\.shared \.align \d+ \.b8 [\w$.]+\[2\d\d\];)") >= 1)
      << text;
  EXPECT_GE(count(text, R"(st\.shared\.)"), 1u) << text;
  EXPECT_GE(count(text, R"(ld\.shared\.)"), 1u) << text;
  // The work-group scope's atomic and its store of the total run once per group: guarded by a
  // comparison of the thread id with 0.
  EXPECT_EQ(
      count(text, R"(atom\.relaxed\.sys\.add\.u32|atom\.global\.add\.u32|red\.global\.add\.u32)"),
      1u)
      << text;
  EXPECT_TRUE(only_on_thread_zero(
      text, R"(atom\.relaxed\.sys\.add\.u32|atom\.global\.add\.u32|red\.global\.add\.u32)"))
      << text;
  EXPECT_TRUE(only_on_thread_zero(text, R"(st\.global\.[bu]32)")) << text;
}

TEST(HierarchicalPtx, PrivateMemoryStaysPerThreadAndFlexibleRangeLoops) {
  std::string text = ptx("HierPrivateFlexible");
  EXPECT_GE(count(text, R"(%tid\.x)"), 1u) << text;
  // A barrier before each parallel_for_work_item after the first (the work-items of each call
  // see what the previous call's wrote); none before the first, nothing precedes it.
  EXPECT_GE(count(text, R"(bar\.sync\s+0;)"), 2u) << text;
  // The flexible range (7x9 over the block) is a loop stepping by the group's range; the
  // private_memory object stays in each thread's private memory (registers, once the work-item
  // functions are inlined), never shared: no 32-bit value goes through shared memory.
  EXPECT_EQ(count(text, R"(st\.shared\.[bu]32)"), 0u) << text;
  EXPECT_EQ(count(text, R"(ld\.shared\.[bu]32)"), 0u) << text;
}

TEST(HierarchicalPtx, WorkGroupScopeOnlyKernelRunsItsBodyOnOneThread) {
  std::string text = ptx("HierScopeOnly");
  EXPECT_GE(count(text, R"(%tid\.x)"), 1u) << text;
  EXPECT_EQ(count(text, R"(st\.global\.[bu]32)"), 1u) << text;
  EXPECT_TRUE(only_on_thread_zero(text, R"(st\.global\.[bu]32)")) << text;
}

TEST(HierarchicalPtx, StreamStateSwitchesWithEachLogicalWorkItem) {
  std::string text = ptx("HierStreamFlexible");
  // One item serial per thread in shared memory (1024 x 4 bytes), which each thread zeroes at
  // the start, and which the work-items advance (load, add 1, store at %tid.x).
  EXPECT_GE(count(text, R"(\.shared \.align 4 \.b8 [\w$.]*item_serial[\w$.]*\[4096\];)"), 1u)
      << text;
  EXPECT_GE(count(text, R"(st\.shared\.[bu]32\s+\[%r?d?\d+\], 0;)"), 1u) << text;
  // Read at the loop's start and written back after it (the counter is the thread's own, so
  // the loop keeps it in a register), or read and written per work-item.
  EXPECT_GE(count(text, R"(ld\.shared\.[bu]32)"), 1u) << text;
  EXPECT_GE(count(text, R"(st\.shared\.[bu]32)"), 2u) << text;
  // The work-group scope's `os << hex` is made by every thread in its own kernel object, not
  // only by thread 0: no store of the base 16 lies under the thread-0 guard.
  EXPECT_FALSE(only_on_thread_zero(text, R"(st\.local\.[bu]8\s+\[[^]]+\], 16;)")) << text;
}

TEST(HierarchicalPtx, KernelsWithoutStreamsHaveNoItemSerials) {
  for (const char* kernel : {"HierNeighbour", "HierPrivateFlexible", "HierScopeOnly"}) {
    std::string text = ptx(kernel);
    EXPECT_EQ(count(text, R"(item_serial)"), 0u) << kernel << "\n" << text;
  }
}

TEST(HierarchicalPtx, PrivateMemoryMisuseIsRecordedInTheErrorSlot) {
  std::string text = ptx("HierPrivateMisuse");
  // The work-group scope stores the kernel's error slot in shared memory: every thread the same
  // value, so that no thread waits for another's store...
  EXPECT_GE(count(text, R"(st\.shared\.[bu]64)"), 1u) << text;
  EXPECT_FALSE(only_on_thread_zero(text, R"(st\.shared\.[bu]64)")) << text;
  // ...and a work-item that finds the misuse stores its record there at system scope (the slot
  // is host memory), then goes on: no trap.
  EXPECT_GE(count(text, R"(st\.relaxed\.sys(\.global)?\.[bu]64)"), 1u) << text;
  EXPECT_EQ(count(text, R"(\btrap;)"), 0u) << text;
}

TEST(HierarchicalPtx, WorkItemsThatOnlyReadTheScopeRunAsAnNdRangeKernel) {
  std::string text = ptx("HierScale");
  // Each thread keeps its own copy of the work-item function's closure (references to the
  // captures): no barrier, no thread-0 run, no stack, and the pointers' address spaces known.
  EXPECT_EQ(count(text, R"(bar\.sync)"), 0u) << text;
  EXPECT_EQ(count(text, R"(__local_depot)"), 0u) << text;
  EXPECT_GE(count(text, R"(ld\.global\.[bu]32)"), 1u) << text;
  EXPECT_GE(count(text, R"(st\.global\.[bu]32)"), 1u) << text;
  EXPECT_EQ(count(text, R"(\b(ld|st)\.[bu](32|64)\s)"), 0u) << text; // no generic access
  // A tile written by one call and read by the next: exactly the nd_range form's one barrier.
  text = ptx("HierTile");
  EXPECT_EQ(count(text, R"(bar\.sync\s+0;)"), 1u) << text;
  EXPECT_GE(count(text, R"(st\.shared\.[bu]32)"), 1u) << text;
  EXPECT_GE(count(text, R"(ld\.shared\.[bu]32)"), 2u) << text;
}

TEST(HierarchicalPtx, EveryKernelOfTheImageCompiles) {
  std::string text = ptx("");
  EXPECT_GE(count(text, R"(\.entry )"), 7u) << text;
}

} // namespace
