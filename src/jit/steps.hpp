// The steps of one compilation, in the order compiler.cpp runs them. Internal to src/jit: the
// only header of the JIT that names LLVM types.
#pragma once

#include "jit.hpp"

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace syclone::jit::detail {

[[noreturn]] void fail(const std::string& message);

// "a, b, c" for messages.
std::string join(const std::vector<std::string>& items);

// What the messages of one compilation call it: "kernel `K` for sm_90".
struct job {
  std::string kernel; // empty: every kernel of the image
  std::string arch;
  std::string describe() const;
};

// Collects the errors LLVM reports through its context (without a handler LLVM prints them and
// exits the process) so that they can be thrown as jit::error; warnings and remarks are
// dropped.
class diagnostics {
public:
  explicit diagnostics(llvm::LLVMContext& context);
  // Throws error with everything collected so far, prefixed by `stage`, if an error was reported.
  void check(const job& what, const char* stage);

private:
  std::vector<std::string> m_errors;
};

// target.cpp: the NVPTX target, architectures and PTX versions.
void initialize_nvptx();
// Runs `body`, which compiles `what` with LLVM. LLVM ends the process on a fatal error (an
// instruction the backend cannot select, for instance); inside `body` such an error jumps back
// here instead and is thrown as jit::error. The LLVM objects `body` had made are leaked, not
// destroyed: they may be inconsistent.
void run_guarded(const job& what, const std::function<void()>& body);
struct target_choice {
  std::string arch;     // validated, e.g. "sm_90"
  std::string features; // e.g. "+ptx80"
};
target_choice choose_target(const std::string& arch, const std::string& ptx_feature);
std::unique_ptr<llvm::TargetMachine> create_target_machine(const target_choice& target);

// kernels.cpp: which kernels an image holds and which ones survive.
std::vector<std::string> kernel_names(const llvm::Module& module);
// Internalizes every definition except the kernel (every kernel when `kernel` is empty) and
// deletes what became unreachable. Throws error naming the image's kernels when `kernel` is
// absent.
void keep_kernels(llvm::Module& module, const std::string& kernel);

// specialize.cpp: replaces every __syclone_spec_constant call by a store of the value given
// for its name (or by nothing, keeping the default) and removes the marker.
void specialize_constants(llvm::Module& module, std::span<const spec_constant> values,
                          const job& what);

// hierarchical.cpp: spreads each hierarchical kernel (parallel_for_work_group) over its block:
// work-group scope on thread 0 with its variables in shared memory, barriers around each
// parallel_for_work_item, whose work-items every thread runs its share of. Before O3.
void lower_hierarchical(llvm::Module& module, const job& what);

// libdevice.cpp: CUDA's math library.
// Rewrites calls of math intrinsics that the NVPTX backend cannot select (llvm.exp.f32,
// llvm.sin.f64, ...) into calls of the libdevice functions computing them. True if any changed.
bool lower_math_intrinsics(llvm::Module& module);
// Functions the module calls but does not define, other than intrinsics, __nvvm_reflect and
// what the CUDA driver provides (vprintf, malloc, free, __assertfail).
std::vector<std::string> undefined_functions(const llvm::Module& module);
// The libdevice file a request gets: its libdevice_path when set (which must exist), else the
// first found in the standard places; empty when there is none. `searched` lists the places.
std::string find_libdevice(const std::string& requested, std::vector<std::string>* searched);
// Links the libdevice functions the module calls (__nv_*, and C math functions libdevice
// implements as __nv_<name>), internalized. Throws error naming the missing functions and the
// fix when libdevice is needed but absent, or when a function stays undefined.
void link_libdevice(llvm::Module& module, const std::string& libdevice_path, const job& what);

// codegen.cpp
// The target's O3 pipeline (PassBuilder with the TargetMachine, so NVVMReflect resolves
// __nvvm_reflect("__CUDA_FTZ"/"__CUDA_ARCH") and NVPTX's own passes run).
void optimize(llvm::Module& module, llvm::TargetMachine& machine);
std::string emit_ptx(llvm::Module& module, llvm::TargetMachine& machine, diagnostics& diags,
                     const job& what);

// compiler.cpp: bitcode to PTX, no caching. `dump_ir`: where to write the optimized IR (empty:
// nowhere).
std::string compile_uncached(const request& req, const target_choice& target,
                             const std::string& libdevice_path, const std::string& dump_ir);

} // namespace syclone::jit::detail
