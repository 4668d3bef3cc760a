// The NVPTX target: which architectures and PTX versions exist, and the TargetMachine.
#include "steps.hpp"

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <charconv>
#include <csetjmp>
#include <cstdio>
#include <map>
#include <mutex>

namespace syclone::jit::detail {
namespace {

constexpr const char* k_triple = "nvptx64-nvidia-cuda";

// The compilation running on this thread inside run_guarded, and where to return to.
struct guard {
  std::jmp_buf resume;
};
thread_local guard* t_guard = nullptr;
thread_local std::string t_fatal_reason; // not on the stack that longjmp returns to

void on_fatal_error(void*, const char* reason, bool) {
  if (guard* active = t_guard) {
    t_fatal_reason = reason;
    std::longjmp(active->resume, 1);
  }
  // Outside a compilation (LLVM then ends the process): say at least where it came from.
  std::fprintf(stderr, "syclone: LLVM failed fatally in the NVPTX JIT: %s\n", reason);
}

const llvm::Target& nvptx_target() {
  initialize_nvptx();
  std::string message;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(llvm::Triple(k_triple), message);
  if (!target) fail("the NVPTX target is missing from this LLVM: " + message);
  return *target;
}

// The architectures and PTX versions (as feature names, "ptx80") this LLVM knows.
struct target_catalog {
  std::vector<std::string> archs;
  std::vector<int> ptx_versions; // 80 for PTX 8.0, ascending
};

const target_catalog& catalog() {
  static const target_catalog result = [] {
    target_catalog c;
    std::unique_ptr<llvm::MCSubtargetInfo> info(
        nvptx_target().createMCSubtargetInfo(llvm::Triple(k_triple), "", ""));
    if (!info) fail("LLVM could not describe the NVPTX target");
    for (const auto& cpu : info->getAllProcessorDescriptions()) c.archs.emplace_back(cpu.Key);
    for (const auto& feature : info->getAllProcessorFeatures()) {
      std::string_view key = feature.Key;
      int version = 0;
      if (key.starts_with("ptx") &&
          std::from_chars(key.data() + 3, key.data() + key.size(), version).ec == std::errc())
        c.ptx_versions.push_back(version);
    }
    std::sort(c.ptx_versions.begin(), c.ptx_versions.end());
    if (c.ptx_versions.empty()) fail("LLVM's NVPTX target lists no PTX versions");
    return c;
  }();
  return result;
}

void check_arch(const std::string& arch) {
  const auto& archs = catalog().archs;
  if (std::find(archs.begin(), archs.end(), arch) == archs.end())
    fail("unknown GPU architecture `" + arch + "`; this LLVM compiles for " + join(archs));
}

std::string ptx_feature(int version) {
  return "+ptx" + std::to_string(version);
}

// The oldest PTX version supporting `arch`. LLVM picks exactly that when no version is given and
// writes it into the PTX header, which is where it is read from (LLVM keeps the table internal).
int minimum_ptx(const std::string& arch) {
  static std::mutex mutex;
  static std::map<std::string, int> known;
  std::lock_guard lock(mutex);
  if (auto it = known.find(arch); it != known.end()) return it->second;

  auto machine = create_target_machine({arch, ""});
  llvm::LLVMContext context;
  llvm::Module empty("ptx-version-probe", context);
  empty.setTargetTriple(llvm::Triple(k_triple));
  empty.setDataLayout(machine->createDataLayout());
  llvm::SmallString<256> text;
  llvm::raw_svector_ostream out(text);
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, out, nullptr, llvm::CodeGenFileType::AssemblyFile))
    fail("the NVPTX target cannot write PTX");
  passes.run(empty);

  std::string_view header = text.str();
  auto at = header.find(".version ");
  int major = 0, minor = 0;
  if (at != std::string_view::npos) {
    const char* p = header.data() + at + 9;
    const char* end = header.data() + header.size();
    auto [dot, ec] = std::from_chars(p, end, major);
    if (ec == std::errc() && dot < end && *dot == '.') std::from_chars(dot + 1, end, minor);
  }
  if (major == 0) fail("could not read the PTX version LLVM uses for " + arch);
  return known[arch] = major * 10 + minor;
}

std::string version_text(int version) {
  return std::to_string(version / 10) + "." + std::to_string(version % 10);
}

} // namespace

void initialize_nvptx() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    llvm::install_fatal_error_handler(on_fatal_error, nullptr);
  });
}

void run_guarded(const job& what, const std::function<void()>& body) {
  initialize_nvptx();
  guard active;
  guard* outer = t_guard;
  struct restore {
    guard* outer;
    ~restore() { t_guard = outer; }
  } on_exit{outer};
  t_guard = &active;
  if (setjmp(active.resume) == 0) {
    body();
    return;
  }
  fail("LLVM failed compiling " + what.describe() + ": " + t_fatal_reason +
       ". The device code uses an operation this GPU architecture or PTX version cannot "
       "express (device code must choose by __nvvm_reflect(\"__CUDA_ARCH\")); "
       "SYCLONE_JIT_DUMP=<dir> keeps the optimized IR for a look");
}

target_choice choose_target(const std::string& arch, const std::string& ptx) {
  check_arch(arch);
  int minimum = minimum_ptx(arch);
  if (ptx.empty()) return {arch, default_ptx_feature(arch)};

  int version = 0;
  std::string_view digits = ptx;
  bool well_formed =
      digits.starts_with("+ptx") &&
      std::from_chars(digits.data() + 4, digits.data() + digits.size(), version).ptr ==
          digits.data() + digits.size();
  const auto& versions = catalog().ptx_versions;
  if (!well_formed || std::find(versions.begin(), versions.end(), version) == versions.end()) {
    std::vector<std::string> known;
    for (int v : versions) known.push_back(ptx_feature(v));
    fail("unknown PTX version feature `" + ptx + "`; this LLVM knows " + join(known));
  }
  if (version < minimum)
    fail("PTX " + version_text(version) + " (" + ptx + ") cannot target " + arch +
         ", which needs PTX " + version_text(minimum) + " or newer; ask for " +
         ptx_feature(minimum) + " or newer, or leave the PTX version empty for the default");
  return {arch, ptx};
}

std::unique_ptr<llvm::TargetMachine> create_target_machine(const target_choice& target) {
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(nvptx_target().createTargetMachine(
      llvm::Triple(k_triple), target.arch, target.features, options, std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine) fail("LLVM could not create an NVPTX target machine for " + target.arch);
  return machine;
}

} // namespace syclone::jit::detail

namespace syclone::jit {

std::string default_ptx_feature(const std::string& arch) {
  detail::check_arch(arch);
  // PTX 7.8 is CUDA 11.8, the first CUDA for sm_89/sm_90; sm_90's bulk prefetch needs 8.0.
  int floor = arch.starts_with("sm_90") ? 80 : 78;
  return detail::ptx_feature(std::max(detail::minimum_ptx(arch), floor));
}

std::string ptx_feature_for_cuda_version(int cuda_driver_version) {
  int major = cuda_driver_version / 1000;
  int minor = cuda_driver_version % 1000 / 10;
  int ptx = 0;
  if (major == 10) {
    ptx = 63 + std::min(minor, 2); // 10.0 -> 6.3, 10.1 -> 6.4, 10.2 -> 6.5
  } else if (major == 11) {
    ptx = 70 + std::min(minor, 8); // 11.x -> 7.x
  } else if (major == 12) {
    // 12.0 .. 12.4 -> 8.0 .. 8.4; 12.5 and 12.6 -> 8.5; 12.7 -> 8.6; 12.8 -> 8.7; 12.9 -> 8.8.
    ptx = minor <= 5 ? 80 + minor : minor == 6 ? 85 : 79 + minor;
  } else if (major >= 13) {
    ptx = 90 + (major - 13) * 10 + std::min(minor, 9); // 13.0 -> 9.0
  }
  if (ptx == 0) return "";
  const auto& versions = detail::catalog().ptx_versions;
  auto newest = std::upper_bound(versions.begin(), versions.end(), ptx);
  if (newest == versions.begin()) return "";
  return detail::ptx_feature(*std::prev(newest));
}

} // namespace syclone::jit
