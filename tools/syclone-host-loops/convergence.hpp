// Before anything else in a host compile: every function that reaches a work-group or sub-group
// barrier becomes convergent, as in a GPU compile.
//
// The headers declare the host device's barriers and exchanges convergent (host_loops.hpp), but
// in C++ a function that calls a convergent function is not convergent itself. The group
// algorithms that wrap them (`work_group_reduce`, scans, broadcasts) and a user's helpers around
// those are then ordinary calls that the optimizer may copy into several paths before the inliner
// brings the barrier into the kernel: jump threading copied a `reduce_over_group` after a loop
// that only some work-items enter into both paths of the loop's guard, and the work-item loop
// compiler saw two barriers behind a branch on the local id, a kernel it can only run on fibers.
// Marked convergent, each such call keeps its one place, as GPU compilers keep theirs. Functions
// that reach no barrier are untouched.
#pragma once

#include <llvm/IR/PassManager.h>

namespace syclone::host_loops {

class convergence_pass : public llvm::PassInfoMixin<convergence_pass> {
public:
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager& analyses);
  static bool isRequired() { return true; }
};

} // namespace syclone::host_loops
