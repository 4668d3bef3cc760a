// After the loop vectorizer: the values a sub-group hands to its exchanges, kept in registers.
//
// Where the work-item loop compiler runs a sub-group as one vector and the regions between its
// exchanges one after another for each sub-group (a chain, work_item_loops.cpp), each region's lane
// loop becomes one vector iteration: an exchange is then a vector store of the sub-group's values
// to its slots followed by vector loads of the same slots shifted by a constant number of lanes
// (a shift, a butterfly step of permute_group_by_xor, a rotation). This pass answers such a load
// from the stored vector itself: a shufflevector that takes the lanes the store wrote from the
// stored value and the others from the load, which instcombine then drops where no lane of it is
// used (lanes outside the sub-group that the headers' selects discard). Loads of the per-work-item
// storage are forwarded by GVN first: the loops tell their memory apart with alias scopes (each
// per-work-item slot, the exchange area).
//
// It runs on the loops of sub-group-sized lanes only (".work_group_loops.sg<N>" functions).
#pragma once

#include <llvm/IR/PassManager.h>

namespace syclone::host_loops {

class exchange_forwarding_pass : public llvm::PassInfoMixin<exchange_forwarding_pass> {
public:
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

} // namespace syclone::host_loops
