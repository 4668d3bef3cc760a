// Which values of a work-item body are the same for every work-item of a work-group. The loop
// compiler keeps a uniform value live across a barrier in one slot for the whole group instead
// of one per work-item. Conservative: a value is uniform only where that is certain.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/Function.h>

namespace syclone::host_loops {

class uniformity {
public:
  // `varying` are the body's arguments that differ between work-items (the local ids).
  uniformity(llvm::Function& body, llvm::ArrayRef<llvm::Value*> varying);

  bool is_uniform(const llvm::Value* v) const { return !m_varying.contains(v); }
  // Whether only some work-items of a group may execute the block.
  bool is_divergent(const llvm::BasicBlock* b) const { return m_divergent.contains(b); }

private:
  llvm::DenseSet<const llvm::Value*> m_varying;
  llvm::DenseSet<const llvm::BasicBlock*> m_divergent;
};

} // namespace syclone::host_loops
