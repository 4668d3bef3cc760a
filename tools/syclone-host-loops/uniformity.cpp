// Uniformity of a work-item body's values (uniformity.hpp).
//
// Varying: the local ids; private memory (allocas, and what is loaded from it); what a call with
// memory effects returns; atomics and volatile loads (another work-item may have changed the
// value in between); everything computed from a varying value; and everything defined in a block
// that only some work-items may execute: the blocks between a branch on a varying condition and
// its immediate post-dominator, including the phis there (sync and temporal divergence alike).
// Loads of non-private memory through a uniform address are uniform: a racing store by another
// work-item of the same region would be a data race, which SYCL leaves undefined.
#include "uniformity.hpp"

#include "frame.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace syclone::host_loops {

using namespace llvm;

namespace {

bool seeds_varying(const Instruction& i) {
  if (isa<AllocaInst>(i) || isa<AtomicRMWInst>(i) || isa<AtomicCmpXchgInst>(i) ||
      isa<LandingPadInst>(i))
    return true;
  if (const auto* load = dyn_cast<LoadInst>(&i)) return load->isAtomic() || load->isVolatile();
  if (const auto* call = dyn_cast<CallBase>(&i)) {
    if (const Function* callee = call->getCalledFunction(); callee && uniform_builtin(*callee))
      return false;
    return !call->doesNotAccessMemory() || call->isConvergent();
  }
  return false;
}

} // namespace

uniformity::uniformity(Function& body, ArrayRef<Value*> varying) {
  PostDominatorTree pdt(body);
  SmallVector<const Value*, 64> work;
  auto mark = [&](const Value* v) {
    if (m_varying.insert(v).second) work.push_back(v);
  };
  for (Value* v : varying) mark(v);
  for (BasicBlock& b : body)
    for (Instruction& i : b)
      if (seeds_varying(i)) mark(&i);

  DenseSet<const BasicBlock*> divergent_branches;
  auto diverge = [&](const BasicBlock* from) {
    if (!divergent_branches.insert(from).second) return;
    const DomTreeNode* node = pdt.getNode(from);
    const DomTreeNode* join = node ? node->getIDom() : nullptr;
    // Control dependence (Ferrante, Ottenstein, Warren): the blocks on the post-dominator tree
    // from each successor up to the branch's immediate post-dominator run only for the
    // work-items that took that successor. Their values may differ from work-item to work-item
    // (conservatively: every value there, which also covers loops left at different times),
    // and their own branches split the work-items further.
    for (const BasicBlock* s : successors(from))
      for (const DomTreeNode* n = pdt.getNode(s); n && n != join; n = n->getIDom()) {
        const BasicBlock* b = n->getBlock();
        if (!b || !m_divergent.insert(b).second) continue;
        for (const Instruction& i : *b) mark(&i);
      }
    // Sync dependence: where the paths meet again, phis pick values by the path each work-item
    // took. Every phi between the branch and its join (and at the join) is varying.
    const BasicBlock* join_block = join ? join->getBlock() : nullptr;
    SmallVector<const BasicBlock*, 16> blocks(succ_begin(from), succ_end(from));
    DenseSet<const BasicBlock*> seen;
    while (!blocks.empty()) {
      const BasicBlock* b = blocks.pop_back_val();
      if (!seen.insert(b).second) continue;
      for (const PHINode& phi : b->phis()) mark(&phi);
      if (b == join_block) continue;
      for (const BasicBlock* s : successors(b)) blocks.push_back(s);
    }
  };

  while (!work.empty()) {
    const Value* v = work.pop_back_val();
    // A branch on a varying condition, or any branch of a block only some work-items run.
    if (const auto* i = dyn_cast<Instruction>(v);
        i && i->isTerminator() && i->getNumSuccessors() > 1)
      diverge(i->getParent());
    for (const User* u : v->users()) {
      const auto* i = dyn_cast<Instruction>(u);
      if (!i) continue;
      if (const auto* store = dyn_cast<StoreInst>(i)) {
        (void)store; // a store has no value; what it writes is read back through loads
        continue;
      }
      mark(i);
    }
  }
}

} // namespace syclone::host_loops
