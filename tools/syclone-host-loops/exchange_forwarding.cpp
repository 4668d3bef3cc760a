// After the loop vectorizer: exchanges of sub-groups in registers (exchange_forwarding.hpp).
#include "exchange_forwarding.hpp"

#include "frame.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/GVN.h>

#include <cstdint>
#include <cstdlib>

namespace syclone::host_loops {

using namespace llvm;

namespace {

// How far back from a load to look for the store that wrote its slots.
constexpr unsigned search_limit = 64;

// The store that last wrote the vector type `load` reads, at a constant offset from it that
// overlaps it, with nothing in between that may write what the load reads; or null.
StoreInst* overlapping_store(LoadInst& load, AAResults& aliases, const DataLayout& layout,
                             std::int64_t& offset) {
  MemoryLocation location = MemoryLocation::get(&load);
  unsigned steps = 0;
  for (Instruction* i = load.getPrevNode(); i && steps < search_limit;
       i = i->getPrevNode(), ++steps) {
    auto* store = dyn_cast<StoreInst>(i);
    if (store && store->isSimple() && store->getValueOperand()->getType() == load.getType()) {
      // The load's address less the store's, where both are one base plus constants.
      unsigned bits = layout.getIndexTypeSizeInBits(load.getPointerOperand()->getType());
      APInt at_store(bits, 0), at_load(bits, 0);
      const Value* base_store =
          store->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, at_store, true);
      const Value* base_load =
          load.getPointerOperand()->stripAndAccumulateConstantOffsets(layout, at_load, true);
      if (base_store == base_load) {
        offset = (at_load - at_store).getSExtValue();
        auto* type = cast<FixedVectorType>(load.getType());
        auto element = std::int64_t(layout.getTypeStoreSize(type->getElementType()));
        auto lanes = std::int64_t(type->getNumElements());
        if (offset % element == 0 && std::abs(offset / element) < lanes) return store;
      }
    }
    if (isModSet(aliases.getModRefInfo(i, location))) return nullptr;
  }
  return nullptr;
}

bool forward_exchanges(Function& function, AAResults& aliases) {
  const DataLayout& layout = function.getDataLayout();
  bool changed = false;
  for (BasicBlock& block : function)
    for (Instruction& i : make_early_inc_range(block)) {
      auto* load = dyn_cast<LoadInst>(&i);
      auto* type = load ? dyn_cast<FixedVectorType>(load->getType()) : nullptr;
      if (!type || !load->isSimple()) continue;
      std::int64_t offset = 0;
      StoreInst* store = overlapping_store(*load, aliases, layout, offset);
      if (!store) continue;
      // Lane k of the load is lane k + shift of the store where that lies inside it.
      auto lanes = int(type->getNumElements());
      int shift = int(offset / std::int64_t(layout.getTypeStoreSize(type->getElementType())));
      SmallVector<int, 32> mask;
      for (int k = 0; k < lanes; ++k)
        mask.push_back(k + shift >= 0 && k + shift < lanes ? k + shift : lanes + k);
      IRBuilder<> b(load->getNextNode());
      Value* forwarded = b.CreateShuffleVector(store->getValueOperand(), load, mask,
                                               load->getName() + ".forwarded");
      load->replaceUsesWithIf(forwarded, [&](Use& use) { return use.getUser() != forwarded; });
      changed = true;
    }
  return changed;
}

// Whether a load through `pointer` reads only memory that is not the loops' own: the frame
// (the loops' argument), and what the pointers read from the frame (the kernel object, local
// memory) and from the kernel object (buffers, USM) reach; not the exchange area, whose pointer
// the frame holds. (The optimizer drops the loops' alias scopes from loads it hoists out of
// conditional code, so this is read from the addresses.)
bool reads_outside(const Value* pointer, const Argument* frame, const DataLayout& layout,
                   unsigned depth = 0) {
  const Value* base = getUnderlyingObject(pointer, 0);
  if (base == frame) return true;
  const auto* load = dyn_cast<LoadInst>(base);
  if (!load || depth == 2) return false;
  APInt offset(layout.getIndexTypeSizeInBits(load->getPointerOperand()->getType()), 0);
  const Value* field =
      load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true);
  if (field == frame && offset == frame_offset::exchange) return false;
  return reads_outside(load->getPointerOperand(), frame, layout, depth + 1);
}

// The loops' stores to their own memory (per-work-item slots and the exchange area, which the
// loops mark with alias scopes, work_item_loops.cpp) that nothing in the loops reads any more:
// once exchanges are forwarded, a sub-group's values are written there for no one. Nothing
// outside the loops reads that memory either (the runtime only hands it out).
// Whether a store writes the loops' own memory: one of its alias scopes is of their domain (the
// vectorizer adds scopes of its own, to user memory too, where it checks for overlap at run time).
bool writes_own_memory(const StoreInst& store) {
  const MDNode* scopes = store.getMetadata(LLVMContext::MD_alias_scope);
  if (!scopes) return false;
  for (const MDOperand& operand : scopes->operands()) {
    const auto* scope = dyn_cast<MDNode>(operand);
    const MDNode* domain = scope ? AliasScopeNode(scope).getDomain() : nullptr;
    const auto* name = domain && domain->getNumOperands() > 1
                           ? dyn_cast<MDString>(domain->getOperand(1))
                           : nullptr;
    if (name && name->getString() == own_memory_domain) return true;
  }
  return false;
}

bool drop_unread_stores(Function& function, AAResults& aliases) {
  SmallVector<StoreInst*, 32> stores;
  SmallVector<Instruction*, 64> readers;
  for (BasicBlock& block : function)
    for (Instruction& i : block) {
      if (auto* store = dyn_cast<StoreInst>(&i);
          store && store->isSimple() && writes_own_memory(*store))
        stores.push_back(store);
      if (!i.mayReadFromMemory()) continue;
      if (auto* load = dyn_cast<LoadInst>(&i);
          load && function.arg_size() == 1 &&
          reads_outside(load->getPointerOperand(), function.getArg(0), function.getDataLayout()))
        continue;
      // The runtime's calls from the loops read none of it.
      if (const auto* call = dyn_cast<CallInst>(&i);
          call && call->getCalledFunction() &&
          (call->getCalledFunction()->getName() == storage_function ||
           call->getCalledFunction()->getName() == divergence_function))
        continue;
      readers.push_back(&i);
    }
  // (A bound on the queries: kernels with very many stores keep them.)
  if (stores.empty() || stores.size() * readers.size() > 200'000) return false;
  bool changed = false;
  for (StoreInst* store : stores) {
    MemoryLocation location = MemoryLocation::get(store);
    if (any_of(readers,
               [&](Instruction* i) { return isRefSet(aliases.getModRefInfo(i, location)); }))
      continue;
    store->eraseFromParent();
    changed = true;
  }
  return changed;
}

} // namespace

PreservedAnalyses exchange_forwarding_pass::run(Function& function,
                                                FunctionAnalysisManager& analyses) {
  if (!function.getName().contains(".work_group_loops.sg")) return PreservedAnalyses::all();
  // SYCLONE_HOST_LOOPS_FORWARD=0 (at compile time): exchanges stay in memory (to compare).
  if (const char* forward = std::getenv("SYCLONE_HOST_LOOPS_FORWARD"); forward && *forward == '0')
    return PreservedAnalyses::all();
  FunctionPassManager first;
  first.addPass(GVNPass());
  analyses.invalidate(function, first.run(function, analyses));
  if (forward_exchanges(function, analyses.getResult<AAManager>(function))) {
    analyses.invalidate(function, PreservedAnalyses::none());
    FunctionPassManager then;
    then.addPass(InstCombinePass());
    analyses.invalidate(function, then.run(function, analyses));
  }
  drop_unread_stores(function, analyses.getResult<AAManager>(function));
  return PreservedAnalyses::none();
}

} // namespace syclone::host_loops
