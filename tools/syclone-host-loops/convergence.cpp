// Convergence of the functions that reach a barrier (convergence.hpp).
#include "convergence.hpp"

#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace syclone::host_loops {

llvm::PreservedAnalyses convergence_pass::run(llvm::Module& module, llvm::ModuleAnalysisManager&) {
  // The host device's convergent builtins (`__syclone_host_barrier`, the exchanges): the roots.
  std::vector<llvm::Function*> work;
  for (llvm::Function& f : module)
    if (f.isDeclaration() && f.isConvergent() && f.getName().starts_with("__syclone_host_"))
      work.push_back(&f);
  bool changed = false;
  // Upwards through direct calls: each caller of a convergent function is convergent too.
  while (!work.empty()) {
    llvm::Function* callee = work.back();
    work.pop_back();
    for (llvm::User* user : callee->users()) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(user);
      if (!call || call->getCalledOperand() != callee) continue;
      llvm::Function* caller = call->getFunction();
      if (caller->isConvergent()) continue;
      caller->setConvergent();
      work.push_back(caller);
      changed = true;
    }
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace syclone::host_loops
