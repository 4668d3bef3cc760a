// The hierarchical pass (SYCL 2020 4.9.4.2.3; DESIGN.md "The rest of SYCL 2020"): spreads a
// hierarchical kernel over its CUDA block, one thread per physical work-item.
//
// What the headers give it (include/sycl/hierarchical.hpp, detail/device/nvptx.hpp): the kernel
// calls __syclone_hierarchical_group_scope(); every parallel_for_work_item is a never-inlined
// function that calls __syclone_hierarchical_work_item_scope() and runs, on each thread, the
// logical work-items of that thread; each private_memory object is passed to
// __syclone_hierarchical_private(this).
//
// What it makes of the kernel, before O3:
// 1. Every function the work-group scope calls (not the work-item functions) is inlined into the
//    kernel, and SROA turns the work-group-scope variables that nothing outside reaches into
//    values. What stays in memory is what parallel_for_work_item reaches (its address escapes
//    into the work-item function's closure).
// 2. Each remaining variable (alloca) of the kernel moves to a shared-memory variable of the
//    block, except private_memory objects, which stay in each thread's private memory, and the
//    variables no work-item writes, whose address goes nowhere but to loads (the closures of
//    parallel_for_work_item, which hold references to the kernel's captures): every thread
//    writes its own copy of those the same way (step 3) and reads it, as if it were shared.
// 3. Every thread runs the work-group-scope code, so control flow and the values it computes are
//    the same on every thread (redundant execution, safe for what has no side effects). Each
//    run of instructions with side effects on memory others see (stores to shared or global
//    memory, atomics, calls) runs on thread 0 only, between barriers; the values it computes
//    that the rest of the kernel uses are broadcast through shared memory.
// 4. A barrier precedes and follows each parallel_for_work_item call, which every thread makes,
//    where memory others see was read or written since the last barrier (before), or is read
//    or written before the next one or the kernel's end (after); the kernel object, private and
//    per-thread variables do not count. A kernel whose work-items only read the work-group
//    scope's values then runs with as many barriers as its nd_range form.
// The markers are removed and the work-item functions may then be inlined by O3.
// Stores of the work-group scope to the kernel object, which each thread has its own copy of, and
// to private_memory objects are made by every thread (step 3's exception). The item serials that
// give each logical work-item its own sycl::stream state become a counter per thread in shared
// memory (lower_item_serials).
#include "steps.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <unordered_set>
#include <vector>

namespace syclone::jit::detail {
namespace {

constexpr const char* k_group_scope = "__syclone_hierarchical_group_scope";
constexpr const char* k_work_item_scope = "__syclone_hierarchical_work_item_scope";
constexpr const char* k_private = "__syclone_hierarchical_private";
constexpr const char* k_item_serial = "__syclone_hierarchical_item_serial";
constexpr const char* k_next_item = "__syclone_hierarchical_next_item";
constexpr unsigned k_shared_space = 3;
// The most threads of a hierarchical kernel's (1-D) block (hierarchical_max_group_size).
constexpr unsigned k_max_block = 1024;

const llvm::Function* called(const llvm::Instruction& instruction) {
  const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
  return call ? call->getCalledFunction() : nullptr;
}

std::vector<llvm::CallBase*> calls_of(llvm::Function* marker) {
  std::vector<llvm::CallBase*> found;
  if (!marker) return found;
  for (llvm::User* user : marker->users())
    if (auto* call = llvm::dyn_cast<llvm::CallBase>(user);
        call && call->getCalledFunction() == marker)
      found.push_back(call);
  return found;
}

// Work-group-wide operations every thread must reach: barriers and warp collectives.
bool is_collective(const llvm::Function* callee) {
  if (!callee || !callee->isIntrinsic()) return false;
  llvm::StringRef name = callee->getName();
  for (const char* prefix : {"llvm.nvvm.barrier", "llvm.nvvm.bar.", "llvm.nvvm.shfl.",
                             "llvm.nvvm.vote.", "llvm.nvvm.redux.", "llvm.nvvm.match."})
    if (name.starts_with(prefix)) return true;
  return false;
}

bool is_barrier(const llvm::Instruction& instruction) {
  const llvm::Function* callee = called(instruction);
  return callee && callee->isIntrinsic() &&
         (callee->getName().starts_with("llvm.nvvm.barrier") ||
          callee->getName().starts_with("llvm.nvvm.bar.sync"));
}

// Where an instruction of the work-group scope runs.
enum class where { anywhere, every_thread, leader };

class kernel_lowering {
public:
  kernel_lowering(llvm::Function& kernel, const std::unordered_set<const llvm::Function*>& items,
                  const job& what)
      : m_kernel(kernel), m_module(*kernel.getParent()), m_items(items), m_what(what) {}

  void run() {
    llvm::BasicBlock& entry = m_kernel.getEntryBlock();
    llvm::IRBuilder<> builder(&*entry.getFirstInsertionPt());
    llvm::Value* thread = builder.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {});
    m_leader = builder.CreateICmpEQ(thread, builder.getInt32(0), "syclone.wg.leader");
    for (llvm::CallBase* call : calls_of(m_module.getFunction(k_group_scope)))
      if (call->getFunction() == &m_kernel) call->eraseFromParent();
    find_private_objects();
    find_thread_copies();
    move_variables_to_shared_memory();
    std::vector<llvm::BasicBlock*> work;
    for (llvm::BasicBlock& block : m_kernel) work.push_back(&block);
    for (llvm::BasicBlock* block : work) lower_block(block);
  }

private:
  void find_private_objects() {
    llvm::Function* marker = m_module.getFunction(k_private);
    for (llvm::CallBase* call : calls_of(marker)) {
      if (call->getFunction() != &m_kernel) continue;
      const llvm::Value* object = llvm::getUnderlyingObject(call->getArgOperand(0), 0);
      const auto* variable = llvm::dyn_cast<llvm::AllocaInst>(object);
      if (!variable)
        fail("a private_memory object of " + m_what.describe() +
             " is not a variable of the work-group scope; declare private_memory objects "
             "directly in the parallel_for_work_group function (SYCL 2020 4.10.7.3)");
      m_private.insert(variable);
      call->eraseFromParent();
    }
  }

  bool is_private(const llvm::Value* pointer) const {
    const llvm::Value* object = llvm::getUnderlyingObject(pointer, 0);
    return m_private.count(object) != 0;
  }
  // The kernel object (the kernel's byval parameter): each thread writes its own copy of it
  // (the backend copies a written byval parameter to local memory), so a write of the
  // work-group scope to it -- a sycl::stream's formatting state, a mutable capture -- is made by
  // every thread, the same on each, and every thread's work-items see it.
  bool is_kernel_object(const llvm::Value* pointer) const {
    const auto* argument = llvm::dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(pointer, 0));
    return argument && argument->getParent() == &m_kernel && argument->hasByValAttr();
  }
  bool per_thread(const llvm::Value* pointer) const {
    return is_private(pointer) || is_kernel_object(pointer) ||
           m_copies.count(llvm::getUnderlyingObject(pointer, 0)) != 0 || is_misuse_slot(pointer);
  }
  // The block's private_memory misuse slot (detail/device/nvptx.hpp): every thread stores the
  // same value, the kernel's, before it reads it, so no thread waits for another's store.
  static bool is_misuse_slot(const llvm::Value* pointer) {
    const auto* slot = llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(pointer, 0));
    return slot && slot->getName().contains("hierarchical_misuse_slot");
  }

  // Whether what `pointer` points to is only read from here on, also inside the work-item
  // functions it is passed to (and the functions they pass it to): loads and address arithmetic,
  // nothing that stores through it or lets its address go elsewhere.
  bool only_read(const llvm::Value* pointer, std::unordered_set<const llvm::Value*>& seen,
                 int depth) const {
    if (depth > 8) return false;
    for (const llvm::Use& use : pointer->uses()) {
      const auto* user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
      if (!user) return false;
      if (llvm::isa<llvm::LoadInst>(user) || llvm::isa<llvm::ICmpInst>(user)) continue;
      if (llvm::isa<llvm::GetElementPtrInst>(user) || llvm::isa<llvm::CastInst>(user) ||
          llvm::isa<llvm::PHINode>(user) || llvm::isa<llvm::SelectInst>(user)) {
        if (seen.insert(user).second && !only_read(user, seen, depth)) return false;
        continue;
      }
      const auto* call = llvm::dyn_cast<llvm::CallBase>(user);
      if (!call || !call->isArgOperand(&use)) return false;
      if (const auto* transfer = llvm::dyn_cast<llvm::MemTransferInst>(call)) {
        if (use.getOperandNo() == 1 && transfer->getRawDest() != pointer) continue; // a copy of it
        return false;
      }
      if (const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(call);
          intrinsic && (intrinsic->isAssumeLikeIntrinsic() || intrinsic->isLifetimeStartOrEnd()))
        continue;
      const llvm::Function* callee = call->getCalledFunction();
      if (!callee || callee->isDeclaration() || callee->isVarArg()) return false;
      const llvm::Argument* parameter = callee->getArg(call->getArgOperandNo(&use));
      if (seen.insert(parameter).second && !only_read(parameter, seen, depth + 1)) return false;
    }
    return true;
  }

  // Step 2's exception: the variables that every thread may keep a copy of. Their uses in the
  // kernel (the work-group scope) may store to them; everywhere else, they are only read.
  void find_thread_copies() {
    for (llvm::Instruction& instruction : llvm::instructions(m_kernel)) {
      auto* variable = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
      if (!variable || m_private.count(variable)) continue;
      bool copy = true;
      std::unordered_set<const llvm::Value*> seen{variable};
      std::vector<const llvm::Value*> addresses{variable};
      while (copy && !addresses.empty()) {
        const llvm::Value* address = addresses.back();
        addresses.pop_back();
        for (const llvm::Use& use : address->uses()) {
          const auto* user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
          if (const auto* store = llvm::dyn_cast_or_null<llvm::StoreInst>(user);
              store && store->getPointerOperand() == address && !store->isVolatile() &&
              !store->isAtomic())
            continue; // the work-group scope writes it (every thread, the same value)
          if (user &&
              (llvm::isa<llvm::GetElementPtrInst>(user) || llvm::isa<llvm::CastInst>(user))) {
            if (seen.insert(user).second) addresses.push_back(user);
            continue;
          }
          if (const auto* set = llvm::dyn_cast_or_null<llvm::MemIntrinsic>(user);
              set && set->getRawDest() == address && !set->isVolatile())
            continue;
          // Anything else: only reads, from here or in the functions it goes to.
          std::unordered_set<const llvm::Value*> reads;
          bool ok = true;
          if (user && (llvm::isa<llvm::LoadInst>(user) || llvm::isa<llvm::ICmpInst>(user))) {
            ok = !llvm::cast<llvm::Instruction>(user)->isAtomic();
          } else if (const auto* call = llvm::dyn_cast_or_null<llvm::CallBase>(user);
                     call && call->isArgOperand(&use)) {
            const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(call);
            if (const auto* transfer = llvm::dyn_cast_or_null<llvm::MemTransferInst>(intrinsic))
              ok = transfer->getRawSource() == address && transfer->getRawDest() != address;
            else if (intrinsic)
              ok = intrinsic->isAssumeLikeIntrinsic() || intrinsic->isLifetimeStartOrEnd();
            else {
              const llvm::Function* callee = call->getCalledFunction();
              ok = callee && m_items.count(callee) && !callee->isVarArg() &&
                   only_read(callee->getArg(call->getArgOperandNo(&use)), reads, 0);
            }
          } else {
            ok = false;
          }
          if (!ok) {
            copy = false;
            break;
          }
        }
      }
      if (copy) m_copies.insert(variable);
    }
  }

  void move_variables_to_shared_memory() {
    std::vector<llvm::AllocaInst*> variables;
    for (llvm::Instruction& instruction : llvm::instructions(m_kernel))
      if (auto* variable = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
        if (!m_private.count(variable) && !m_copies.count(variable)) variables.push_back(variable);
    const llvm::DataLayout& layout = m_module.getDataLayout();
    for (llvm::AllocaInst* variable : variables) {
      std::optional<llvm::TypeSize> size = variable->getAllocationSize(layout);
      if (!size || size->isScalable())
        fail("a work-group-scope variable of " + m_what.describe() +
             " has no size known at compile time; work-group-scope variables move to shared "
             "memory and need one");
      llvm::Type* type = variable->getAllocatedType();
      if (variable->isArrayAllocation())
        type = llvm::ArrayType::get(
            type, llvm::cast<llvm::ConstantInt>(variable->getArraySize())->getZExtValue());
      auto* shared = new llvm::GlobalVariable(
          m_module, type, false, llvm::GlobalValue::InternalLinkage, llvm::PoisonValue::get(type),
          "syclone.wg." + variable->getName(), nullptr, llvm::GlobalValue::NotThreadLocal,
          k_shared_space);
      shared->setAlignment(std::max(variable->getAlign(), layout.getPrefTypeAlign(type)));
      // Lifetime markers take allocas only.
      for (llvm::User* user : llvm::make_early_inc_range(variable->users()))
        if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(user);
            intrinsic && intrinsic->isLifetimeStartOrEnd())
          intrinsic->eraseFromParent();
      variable->replaceAllUsesWith(
          llvm::ConstantExpr::getAddrSpaceCast(shared, variable->getType()));
      variable->eraseFromParent();
    }
  }

  where place(const llvm::Instruction& instruction) const {
    if (llvm::isa<llvm::PHINode>(instruction) || instruction.isTerminator() ||
        llvm::isa<llvm::AllocaInst>(instruction))
      return where::every_thread;
    if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      if (is_private(load->getPointerOperand()) ||
          m_copies.count(llvm::getUnderlyingObject(load->getPointerOperand(), 0)))
        return where::every_thread;
      return load->isUnordered() ? where::anywhere : where::leader;
    }
    if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
      return per_thread(store->getPointerOperand()) ? where::every_thread : where::leader;
    if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
      const llvm::Function* callee = call->getCalledFunction();
      if (callee && m_items.count(callee)) return where::every_thread;
      if (is_collective(callee)) return where::every_thread;
      if (const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(call)) {
        if (intrinsic->isAssumeLikeIntrinsic() || intrinsic->isLifetimeStartOrEnd())
          return where::every_thread;
        if (const auto* transfer = llvm::dyn_cast<llvm::AnyMemIntrinsic>(intrinsic))
          return per_thread(transfer->getRawDest()) ? where::every_thread : where::leader;
      }
      if (!call->mayHaveSideEffects()) {
        for (const llvm::Use& argument : call->args())
          if (argument->getType()->isPointerTy() &&
              (is_private(argument) || m_copies.count(llvm::getUnderlyingObject(argument, 0))))
            return where::every_thread;
        return where::anywhere;
      }
      return where::leader;
    }
    return instruction.mayHaveSideEffects() ? where::leader : where::anywhere;
  }

  void barrier(llvm::Instruction* before) {
    llvm::IRBuilder<> builder(before);
    builder.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier_cta_sync_aligned_all, {},
                            {builder.getInt32(0)});
  }

  // Whether `instruction` touches only the calling thread's memory (or none): the kernel
  // object, private_memory objects, per-thread copies and the misuse slot.
  bool own_memory_only(const llvm::Instruction& instruction) const {
    if (!instruction.mayReadOrWriteMemory()) return true;
    if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
      return load->isUnordered() && per_thread(load->getPointerOperand());
    if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
      return store->isUnordered() && per_thread(store->getPointerOperand());
    if (const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction))
      return intrinsic->isAssumeLikeIntrinsic() || intrinsic->isLifetimeStartOrEnd();
    return false;
  }

  // A barrier is due before `at` unless one comes after the last access to memory other threads
  // see on the way there (within its block; the kernel's start counts as a barrier). Loads of
  // broadcast slots do not count: only the leader's code writes them, after the next barrier.
  bool barrier_due(llvm::Instruction* at) const {
    for (llvm::Instruction* previous = at->getPrevNode(); previous;
         previous = previous->getPrevNode()) {
      if (is_barrier(*previous)) return false;
      if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(previous);
          load && m_slots.count(load->getPointerOperand()))
        continue;
      if (!own_memory_only(*previous)) return true;
    }
    return at->getParent() != &m_kernel.getEntryBlock();
  }

  // A barrier is due after `at` (a parallel_for_work_item call) unless the block goes on to a
  // barrier, or to the kernel's end, without touching memory other threads see. A following
  // parallel_for_work_item or leader run finds the call itself on its way back (barrier_due).
  bool barrier_due_after(llvm::Instruction* at) const {
    for (llvm::Instruction* next = at->getNextNode(); next; next = next->getNextNode()) {
      if (is_barrier(*next)) return false;
      if (llvm::isa<llvm::ReturnInst>(next)) return false;
      if (next->isTerminator()) return true;
      const llvm::Function* callee = called(*next);
      if (callee && m_items.count(callee)) return false;
      if (!own_memory_only(*next)) return true;
    }
    return true;
  }

  void lower_block(llvm::BasicBlock* block) {
    while (block) {
      llvm::BasicBlock* rest = nullptr;
      for (llvm::Instruction& instruction : *block) {
        const llvm::Function* callee = called(instruction);
        if (callee && m_items.count(callee)) {
          // parallel_for_work_item: what the work-group scope wrote is visible to every
          // work-item, and what the work-items wrote is visible to what follows.
          if (barrier_due(&instruction)) barrier(&instruction);
          if (barrier_due_after(&instruction)) barrier(instruction.getNextNode());
          continue;
        }
        if (place(instruction) == where::leader) {
          rest = guard_run(&instruction);
          break;
        }
      }
      block = rest;
    }
  }

  // Puts the run of instructions that starts at `first` (up to its last leader instruction
  // before something every thread must run) under `if (leader)`, followed by a barrier and the
  // broadcast of the values it computed. Returns the block holding what follows the run.
  llvm::BasicBlock* guard_run(llvm::Instruction* first) {
    llvm::Instruction* last = first;
    for (llvm::Instruction* next = first->getNextNode(); next; next = next->getNextNode()) {
      const llvm::Function* callee = called(*next);
      if (callee && m_items.count(callee)) break;
      where w = place(*next);
      if (w == where::every_thread) break;
      if (w == where::leader) last = next;
    }
    bool due = barrier_due(first);
    llvm::BasicBlock* block = first->getParent();
    llvm::BasicBlock* run = block->splitBasicBlock(first, "syclone.wg.leader");
    llvm::BasicBlock* rest = run->splitBasicBlock(last->getNextNode(), "syclone.wg.join");
    llvm::Instruction* jump = block->getTerminator();
    if (due) barrier(jump);
    llvm::BranchInst::Create(run, rest, m_leader, jump->getIterator());
    jump->eraseFromParent();

    llvm::IRBuilder<> join(&*rest->getFirstInsertionPt());
    join.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier_cta_sync_aligned_all, {},
                         {join.getInt32(0)});
    for (llvm::Instruction& value : *run) {
      if (value.getType()->isVoidTy()) continue;
      bool escapes = false;
      for (const llvm::Use& use : value.uses())
        escapes |= llvm::cast<llvm::Instruction>(use.getUser())->getParent() != run;
      if (!escapes) continue;
      if (value.getType()->isTokenTy())
        fail("a value of the work-group scope of " + m_what.describe() +
             " cannot be shared with the other work-items (token type)");
      auto* slot = new llvm::GlobalVariable(
          m_module, value.getType(), false, llvm::GlobalValue::InternalLinkage,
          llvm::PoisonValue::get(value.getType()), "syclone.wg.broadcast", nullptr,
          llvm::GlobalValue::NotThreadLocal, k_shared_space);
      m_slots.insert(slot);
      new llvm::StoreInst(&value, slot, run->getTerminator()->getIterator());
      llvm::LoadInst* shared = join.CreateLoad(value.getType(), slot);
      value.replaceUsesWithIf(shared, [&](llvm::Use& use) {
        auto* user = llvm::cast<llvm::Instruction>(use.getUser());
        return user != shared && user->getParent() != run;
      });
    }
    return rest;
  }

  llvm::Function& m_kernel;
  llvm::Module& m_module;
  const std::unordered_set<const llvm::Function*>& m_items;
  const job& m_what;
  llvm::Value* m_leader = nullptr;
  std::unordered_set<const llvm::Value*> m_private;
  // Work-group-scope variables each thread keeps a copy of (find_thread_copies).
  std::unordered_set<const llvm::Value*> m_copies;
  std::unordered_set<const llvm::Value*> m_slots;
};

// The functions reached from `root` without entering a work-item function; `indirect` tells
// whether one of them calls through a function pointer.
std::vector<llvm::Function*>
group_scope_functions(llvm::Function& root, const std::unordered_set<const llvm::Function*>& items,
                      bool& indirect) {
  indirect = false;
  std::vector<llvm::Function*> order;
  std::unordered_set<llvm::Function*> seen{&root};
  std::vector<llvm::Function*> work{&root};
  while (!work.empty()) {
    llvm::Function* function = work.back();
    work.pop_back();
    order.push_back(function);
    for (llvm::Instruction& instruction : llvm::instructions(*function)) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      if (!call || call->isInlineAsm()) continue;
      llvm::Function* callee = call->getCalledFunction();
      if (!callee) {
        indirect = true;
        continue;
      }
      if (items.count(callee) || callee->isDeclaration()) continue;
      if (seen.insert(callee).second) work.push_back(callee);
    }
  }
  return order;
}

void remove_calls(llvm::Module& module, const char* name) {
  llvm::Function* marker = module.getFunction(name);
  if (!marker) return;
  for (llvm::CallBase* call : calls_of(marker)) call->eraseFromParent();
  if (marker->use_empty()) marker->eraseFromParent();
}

// The item serials (detail/device/nvptx.hpp hierarchical_item_serial): with hierarchical kernels
// whose code reads them, one counter per thread in shared memory, indexed by %tid.x, which each
// logical work-item's start and end advance; every other read is 0. Returns the counters, or
// null when nothing reads them (the markers are then gone).
llvm::GlobalVariable* lower_item_serials(llvm::Module& module, bool hierarchical) {
  std::vector<llvm::CallBase*> reads = calls_of(module.getFunction(k_item_serial));
  std::vector<llvm::CallBase*> steps = calls_of(module.getFunction(k_next_item));
  llvm::GlobalVariable* serials = nullptr;
  llvm::ArrayType* type = nullptr;
  if (hierarchical && !reads.empty()) {
    llvm::Type* i32 = llvm::Type::getInt32Ty(module.getContext());
    type = llvm::ArrayType::get(i32, k_max_block);
    serials = new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::InternalLinkage,
                                       llvm::PoisonValue::get(type), "syclone.wg.item_serial",
                                       nullptr, llvm::GlobalValue::NotThreadLocal, k_shared_space);
    serials->setAlignment(llvm::Align(4));
  }
  auto slot = [&](llvm::IRBuilder<>& builder) {
    llvm::Value* thread = builder.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {});
    return builder.CreateInBoundsGEP(
        type, serials, {builder.getInt32(0), builder.CreateZExt(thread, builder.getInt64Ty())});
  };
  for (llvm::CallBase* call : reads) {
    llvm::IRBuilder<> builder(call);
    llvm::Value* value = serials ? static_cast<llvm::Value*>(builder.CreateLoad(
                                       builder.getInt32Ty(), slot(builder), "syclone.item_serial"))
                                 : builder.getInt32(0);
    call->replaceAllUsesWith(value);
    call->eraseFromParent();
  }
  for (llvm::CallBase* call : steps) {
    if (serials) {
      llvm::IRBuilder<> builder(call);
      llvm::Value* at = slot(builder);
      llvm::Value* next =
          builder.CreateAdd(builder.CreateLoad(builder.getInt32Ty(), at), builder.getInt32(1));
      builder.CreateStore(next, at);
    }
    call->eraseFromParent();
  }
  for (const char* name : {k_item_serial, k_next_item})
    if (llvm::Function* marker = module.getFunction(name); marker && marker->use_empty())
      marker->eraseFromParent();
  return serials;
}

// Each thread starts its kernel with its item serial at 0 (the work-group scope). In every
// kernel of the module, since a function reading the serials may be shared by kernels that are
// not hierarchical (their threads then read 0 throughout).
void start_item_serials(llvm::Module& module, llvm::GlobalVariable* serials) {
  for (llvm::Function& function : module) {
    if (function.isDeclaration() || function.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      continue;
    llvm::IRBuilder<> builder(&*function.getEntryBlock().getFirstInsertionPt());
    llvm::Value* thread = builder.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {});
    llvm::Value* at = builder.CreateInBoundsGEP(
        serials->getValueType(), serials,
        {builder.getInt32(0), builder.CreateZExt(thread, builder.getInt64Ty())});
    builder.CreateStore(builder.getInt32(0), at);
  }
}

} // namespace

void lower_hierarchical(llvm::Module& module, const job& what) {
  llvm::Function* group_marker = module.getFunction(k_group_scope);
  llvm::Function* item_marker = module.getFunction(k_work_item_scope);
  std::unordered_set<const llvm::Function*> items;
  for (llvm::CallBase* call : calls_of(item_marker)) items.insert(call->getFunction());

  std::vector<llvm::Function*> kernels;
  for (llvm::Function& function : module) {
    if (function.isDeclaration() || function.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      continue;
    bool hierarchical = false, indirect = false;
    std::unordered_set<const llvm::Function*> scope;
    for (llvm::Function* reached : group_scope_functions(function, items, indirect)) {
      scope.insert(reached);
      for (llvm::CallBase* call : calls_of(group_marker))
        hierarchical |= call->getFunction() == reached;
    }
    if (!hierarchical) continue;
    if (indirect)
      fail("the work-group scope of " + what.describe() +
           " calls through a function pointer, which hierarchical kernels cannot on this "
           "device; call the function directly");
    kernels.push_back(&function);
    for (const llvm::Function* reached : scope) {
      auto* inlined = const_cast<llvm::Function*>(reached);
      if (inlined == &function) continue;
      inlined->removeFnAttr(llvm::Attribute::NoInline);
      inlined->removeFnAttr(llvm::Attribute::OptimizeNone);
      inlined->addFnAttr(llvm::Attribute::AlwaysInline);
    }
  }
  // Before the work-group scope is lowered: a read of the serial there is a load, which every
  // thread may make.
  llvm::GlobalVariable* serials = lower_item_serials(module, !kernels.empty());
  if (kernels.empty()) {
    if (!items.empty() && !calls_of(item_marker).empty()) {
      bool reached = false;
      for (llvm::Function& function : module)
        if (!function.isDeclaration() && function.getCallingConv() == llvm::CallingConv::PTX_Kernel)
          for (llvm::Instruction& instruction : llvm::instructions(function))
            reached |= called(instruction) && items.count(called(instruction));
      if (reached)
        fail(what.describe() +
             " calls group::parallel_for_work_item outside parallel_for_work_group; "
             "parallel_for_work_item belongs to the work-group scope of a hierarchical "
             "kernel (SYCL 2020 4.9.4.2.3)");
    }
    return;
  }

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  {
    llvm::ModulePassManager inline_scope;
    inline_scope.addPass(llvm::AlwaysInlinerPass(false));
    inline_scope.run(module, modules);
  }
  modules.clear();
  functions.clear();
  for (llvm::Function* kernel : kernels) {
    llvm::FunctionPassManager promote;
    promote.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
    promote.run(*kernel, functions);
    functions.clear();
    kernel_lowering(*kernel, items, what).run();
  }
  // After it: the store of each thread's own counter is no work-group-scope side effect.
  if (serials) start_item_serials(module, serials);
  remove_calls(module, k_group_scope);
  remove_calls(module, k_work_item_scope);
  remove_calls(module, k_private);
  for (const llvm::Function* item : items)
    const_cast<llvm::Function*>(item)->removeFnAttr(llvm::Attribute::NoInline);
}

} // namespace syclone::jit::detail
