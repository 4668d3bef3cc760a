// The work-item loop compiler (issue 29, DESIGN.md "Phase 3"): turns the body of one nd_range
// work-item into a function that runs a whole work-group as loops over its work-items, split at
// every work-group barrier. Each piece of the body between barriers (a region: the blocks
// reachable from the kernel's entry or from the block after a barrier without crossing another
// barrier) runs for all work-items of the group in a loop nest before the next region starts;
// which region comes next is where the work-items left the previous one, which must be the same
// for all of them (else the group stops with an error naming both barriers).
// Values live across a barrier move to memory: one slot per work-item, or one for the group
// where the value is uniform (uniformity.hpp); private variables used in several regions get a
// slot per work-item too. Everything else stays in registers, and the loops vectorize.
#pragma once

#include <llvm/IR/PassManager.h>
#include <llvm/Passes/OptimizationLevel.h>

namespace llvm {
class PassBuilder;
}

namespace syclone::host_loops {

class work_item_loops_pass : public llvm::PassInfoMixin<work_item_loops_pass> {
public:
  work_item_loops_pass(llvm::PassBuilder& builder, llvm::OptimizationLevel level)
      : m_builder(&builder), m_level(level) {}
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager& analyses);

private:
  llvm::PassBuilder* m_builder;
  llvm::OptimizationLevel m_level;
};

} // namespace syclone::host_loops
