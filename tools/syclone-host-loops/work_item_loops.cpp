// The work-item loop compiler (work_item_loops.hpp).
#include "work_item_loops.hpp"

#include "frame.hpp"
#include "uniformity.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallBitVector.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace syclone::host_loops {

using namespace llvm;

namespace {

// Why a body stays on fibers; the runtime reports it (SYCLONE_HOST_KERNELS=report).
struct unsupported {
  std::string reason;
};

// Where a use reads its value: at the instruction, or for a phi at the end of the incoming block.
Instruction* use_point(const Use& use) {
  auto* user = cast<Instruction>(use.getUser());
  if (auto* phi = dyn_cast<PHINode>(user)) return phi->getIncomingBlock(use)->getTerminator();
  return user;
}

bool is_call_to(const Instruction& i, StringRef name) {
  const auto* call = dyn_cast<CallBase>(&i);
  const Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName() == name;
}

// A barrier only the work-items of one sub-group wait at (a sub-group function, lower_sub_groups):
// tagged, so that its copies are known as such too.
constexpr StringLiteral sub_group_barrier_tag = "syclone.sub_group_barrier";

// A barrier made from a function of a non-uniform group (sycl_ext_oneapi_non_uniform_groups),
// which the report names as such.
constexpr StringLiteral non_uniform_group_tag = "syclone.non_uniform_group";

void mark_sub_group_barrier(CallInst* barrier, const CallInst* from) {
  barrier->setDebugLoc(from->getDebugLoc());
  barrier->setMetadata(sub_group_barrier_tag, MDNode::get(barrier->getContext(), {}));
  if (const Function* callee = from->getCalledFunction();
      callee && non_uniform_group_builtin(*callee))
    barrier->setMetadata(non_uniform_group_tag, MDNode::get(barrier->getContext(), {}));
}

bool calls_sub_group_function(const BasicBlock& b) {
  return any_of(b, [](const Instruction& i) {
    const auto* call = dyn_cast<CallInst>(&i);
    const Function* callee = call ? call->getCalledFunction() : nullptr;
    return callee && sub_group_builtin(*callee);
  });
}

// An id as the headers compute with it: without its truncation to 32 bits or widening again.
Value* without_id_cast(Value* v) {
  if (auto* cast = dyn_cast<CastInst>(v); cast && (isa<TruncInst>(cast) || isa<ZExtInst>(cast)) &&
                                          cast->getType()->getIntegerBitWidth() >= 32)
    return cast->getOperand(0);
  return v;
}

// Functions that call a group builtin (a barrier or a sub-group function) or ask for the calling
// work-item (work_item_builtin), directly or not.
DenseSet<const Function*> group_callers(Module& module) {
  DenseSet<const Function*> result;
  SmallVector<const Function*, 16> work;
  for (Function& f : module)
    if (f.isDeclaration() &&
        (f.getName() == barrier_function || sub_group_builtin(f) || work_item_builtin(f))) {
      result.insert(&f);
      work.push_back(&f);
    }
  while (!work.empty()) {
    const Function* f = work.pop_back_val();
    for (const User* user : f->users()) {
      const auto* call = dyn_cast<CallBase>(user);
      if (!call || call->getCalledOperand() != f) continue;
      if (result.insert(call->getFunction()).second) work.push_back(call->getFunction());
    }
  }
  return result;
}

// Inlines every call of `body` that may reach a group builtin, until none is left.
void inline_group_calls(Function& body, const DenseSet<const Function*>& callers) {
  for (int round = 0; round < 32; ++round) {
    SmallVector<CallBase*, 8> calls;
    for (BasicBlock& b : body)
      for (Instruction& i : b)
        if (auto* call = dyn_cast<CallBase>(&i))
          if (Function* callee = call->getCalledFunction();
              callee && !callee->isDeclaration() && callers.contains(callee))
            calls.push_back(call);
    if (calls.empty()) return;
    for (CallBase* call : calls) {
      std::string name = call->getCalledFunction()->getName().str();
      InlineFunctionInfo info;
      if (!InlineFunction(*call, info).isSuccess())
        throw unsupported{"the function `" + name +
                          "`, which reaches a barrier, cannot be inlined"};
    }
  }
  throw unsupported{"barriers are reached through recursive calls"};
}

// The source line of a barrier call: the first location, from the call outwards through the
// functions it was inlined into, that is not in the SYCL headers.
std::string describe_barrier(const Instruction& call, unsigned index, unsigned count) {
  for (const DILocation* loc = call.getDebugLoc().get(); loc; loc = loc->getInlinedAt()) {
    std::string path = (loc->getDirectory() + "/" + loc->getFilename()).str();
    if (path.find("/sycl/") != std::string::npos || loc->getLine() == 0) continue;
    return "the barrier at " + loc->getFilename().str() + ":" + std::to_string(loc->getLine());
  }
  return "barrier " + std::to_string(index) + " of " + std::to_string(count) +
         " (compile with -g to see its line)";
}

// What the loop compiler needs to know about one work-item body, then the function it builds.
class loop_builder {
public:
  // lanes: 0 for the general loops, else the sub-group size of loops whose lane loop is one
  // sub-group (the body is cut up for each, as __syclone_host_vector_lanes folds differently).
  loop_builder(Module& module, Function& body, const DenseSet<const Function*>& callers,
               FunctionAnalysisManager& functions, unsigned lanes = 0)
      : m_module(module), m_context(module.getContext()), m_body(body), m_callers(callers),
        m_functions(functions), m_lanes(lanes) {}
  ~loop_builder() { discard(); }

  // The function that runs a work-group, and every function made for it (the optimizer
  // simplifies each).
  // required_sub_group: the size the launch's properties require (0 or a named size: none).
  Function* build(std::uint32_t required_sub_group, SmallVectorImpl<Function*>& made);

private:
  Function* build_loops();
  Function* build_loops(bool split_loops);
  void discard();
  void prepare();
  void unroll_exchange_loops();
  void lower_sub_groups();
  void split_divergent_loops();
  bool split_divergent_loop(DenseSet<const BasicBlock*>& done);
  bool entered_by_many(Loop* loop, BasicBlock* start, const uniformity& uniform,
                       const DominatorTree& dominators,
                       const PostDominatorTree& post_dominators) const;
  void split_barriers();
  void find_regions();
  void demote_live_values();
  void place_private_memory();
  Function* emit(unsigned lanes);

  bool crosses_barrier(Instruction& def) const;
  bool rewritten_after_read(AllocaInst& slot) const;
  bool rematerializable(Value* v, unsigned& budget, bool ids = true) const;
  Value* copy_before(Value* v, BasicBlock* block, BasicBlock::iterator at,
                     DenseMap<Value*, Value*>& copies);
  bool persists_across_barrier(AllocaInst& alloca) const;
  bool read_entry_values(AllocaInst& slot);
  Value* narrowed_range(unsigned r, unsigned lanes, IRBuilder<>& b,
                        const DenseMap<const AllocaInst*, AllocaInst*>& shared_of,
                        const DenseMap<const AllocaInst*, AllocaInst*>& entry_of, Value* range,
                        Value* object, Value* group, AllocaInst* lowest, AllocaInst* highest,
                        Value*& start);
  void separate_guarded_tails();

  Module& m_module;
  LLVMContext& m_context;
  Function& m_body;
  const DenseSet<const Function*>& m_callers;
  FunctionAnalysisManager& m_functions;
  unsigned m_lanes;
  Function* m_work = nullptr; // the body's copy that is cut up (erased at the end)
  bool m_exchanges = false;   // sub-group functions move values between work-items

  // Divergent loops run an iteration of every work-item at a time (split_divergent_loops): the
  // barrier calls at the end of such a loop's iteration and where its work-items meet after it,
  // then as barrier ids; a work-item waits at the meeting point while others iterate.
  bool m_split_loops = true;
  unsigned m_strip = 1; // iterations per region of a split loop
  std::vector<std::pair<CallInst*, CallInst*>> m_loop_calls;
  std::vector<std::pair<unsigned, unsigned>> m_loop_barriers; // (next iteration, after the loop)

  std::vector<BasicBlock*> m_barriers; // barrier j + 1: a block holding only its call
  std::vector<std::string> m_barrier_names;
  DenseMap<const BasicBlock*, unsigned> m_barrier_id;
  DenseSet<unsigned> m_sub_group_barriers;       // ids of the barriers of sub-group functions
  DenseSet<unsigned> m_non_uniform_groups;       // ids of those of non-uniform groups' functions
  std::vector<SetVector<BasicBlock*>> m_regions; // 0: from the entry; j: after barrier j
  DenseMap<const BasicBlock*, SmallBitVector> m_membership;
  DenseMap<const AllocaInst*, bool> m_demoted_uniform; // slots made for live values
  std::vector<AllocaInst*> m_shared;                   // one slot for the group
  std::vector<AllocaInst*> m_per_item;                 // one slot per work-item
  // Per region: reads of a shared slot that see the value the region started with.
  std::vector<SmallVector<std::pair<const LoadInst*, AllocaInst*>, 4>> m_entry_reads;
};

void loop_builder::prepare() {
  if (m_body.hasFnAttribute(Attribute::OptimizeNone))
    throw unsupported{"it was compiled without optimization (-O0)"};
  ValueToValueMapTy map;
  m_work = CloneFunction(&m_body, map);
  m_work->setLinkage(GlobalValue::InternalLinkage);
  inline_group_calls(*m_work, m_callers);
  // Code that asks for the calling work-item (khr::this_nd_item) gets the body's arguments: the
  // kernel object, the group id and the local id (right-aligned: a, b, c).
  SmallVector<CallBase*, 4> asks;
  for (BasicBlock& b : *m_work)
    for (Instruction& i : b)
      if (auto* call = dyn_cast<CallBase>(&i))
        if (Function* callee = call->getCalledFunction(); callee && work_item_builtin(*callee))
          asks.push_back(call);
  for (CallBase* ask : asks) {
    CallInst* call =
        isa<InvokeInst>(ask) ? changeToCall(cast<InvokeInst>(ask)) : cast<CallInst>(ask);
    StringRef name = call->getCalledFunction()->getName();
    Value* value;
    if (name == work_item_local_function) {
      IRBuilder<> at(call);
      Value* which = call->getArgOperand(0);
      value = m_work->getArg(4);
      for (unsigned k : {1u, 0u})
        value = at.CreateSelect(at.CreateICmpEQ(which, ConstantInt::get(which->getType(), k)),
                                m_work->getArg(2 + k), value);
    } else {
      value = m_work->getArg(name == work_item_object_function ? 0 : 1);
    }
    call->replaceAllUsesWith(value);
    call->eraseFromParent();
  }
  // The headers choose code by __syclone_host_vector_lanes (a sub-group reduction as a tree over
  // a vector's slots): known for these loops, so only the chosen code is cut into regions, and
  // a region starts where that code does. So is the sub-group size where a sub-group is the lane
  // loop (loops over its lanes get constant trip counts).
  bool folded = false;
  for (BasicBlock& b : *m_work)
    for (Instruction& i : make_early_inc_range(b))
      if (is_call_to(i, vector_lanes_function) ||
          (m_lanes && is_call_to(i, sub_group_size_function))) {
        i.replaceAllUsesWith(ConstantInt::get(i.getType(), m_lanes));
        i.eraseFromParent();
        folded = true;
      }
  BasicBlock& entry = m_work->getEntryBlock();
  for (BasicBlock& b : *m_work) {
    if (isa<IndirectBrInst>(b.getTerminator()) || isa<CallBrInst>(b.getTerminator()))
      throw unsupported{"it uses computed gotos or asm goto"};
    for (Instruction& i : b) {
      if (auto* alloca = dyn_cast<AllocaInst>(&i);
          alloca && (&b != &entry || !alloca->isStaticAlloca()))
        throw unsupported{"it allocates private memory whose size is known only at run time"};
      auto* call = dyn_cast<CallBase>(&i);
      if (!call) continue;
      if (call->hasFnAttr(Attribute::ReturnsTwice)) throw unsupported{"it calls setjmp"};
    }
  }
  // Barriers and group state may be invokes (they can throw outside a kernel); inside the
  // loops they are lowered, so calls will do.
  SmallVector<InvokeInst*, 4> invokes;
  for (BasicBlock& b : *m_work)
    if (auto* invoke = dyn_cast<InvokeInst>(b.getTerminator()))
      if (Function* callee = invoke->getCalledFunction();
          callee && (callee->getName() == barrier_function || uniform_builtin(*callee) ||
                     sub_group_builtin(*callee)))
        invokes.push_back(invoke);
  for (InvokeInst* invoke : invokes) changeToCall(invoke);
  // Unreachable blocks would confuse the regions (and the unwind paths changeToCall cut off).
  removeUnreachableBlocks(*m_work);
  // What inlining the barriers' callers left (and what the optimizer left before: a work-item's
  // nd_item copied between allocas) into registers, so that ids are values the loops can
  // compute again rather than memory they must keep per work-item.
  // After the sub-group functions became copies through their slots: a value handed to an
  // exchange through a private variable is then stored to its slot directly.
  if (folded && m_lanes) unroll_exchange_loops();
  lower_sub_groups();
  FunctionPassManager cleanup;
  cleanup.addPass(SROAPass(SROAOptions::ModifyCFG));
  cleanup.addPass(EarlyCSEPass(true));
  cleanup.addPass(InstCombinePass());
  m_functions.invalidate(*m_work, cleanup.run(*m_work, m_functions));
  if (folded) {
    // The branches on the lanes, now constant (InstCombine folded their conditions).
    for (BasicBlock& b : *m_work) ConstantFoldTerminator(&b, true);
    removeUnreachableBlocks(*m_work);
    for (BasicBlock& b : make_early_inc_range(*m_work)) MergeBlockIntoPredecessor(&b);
    m_functions.invalidate(*m_work, PreservedAnalyses::none());
  }
}

// Where a sub-group is the lane loop its size is a constant, and so is the trip count of a loop
// over its lanes or their logarithm (a butterfly of shuffles, shifts by 1, 2, 4, ...): such loops
// around sub-group functions are unrolled, so that each exchange becomes a region of its own with
// constant offsets, which the loops run one after another for each sub-group (chains, emit) and
// the optimizer then keeps in registers (exchange_forwarding.hpp).
void loop_builder::unroll_exchange_loops() {
  FunctionPassManager fold;
  fold.addPass(InstCombinePass());
  m_functions.invalidate(*m_work, fold.run(*m_work, m_functions));
  for (BasicBlock& b : *m_work) ConstantFoldTerminator(&b, true);
  removeUnreachableBlocks(*m_work);
  m_functions.invalidate(*m_work, PreservedAnalyses::none());
  FunctionPassManager simplify;
  simplify.addPass(LoopSimplifyPass());
  m_functions.invalidate(*m_work, simplify.run(*m_work, m_functions));
  LoopInfo& loops = m_functions.getResult<LoopAnalysis>(*m_work);
  ScalarEvolution& evolution = m_functions.getResult<ScalarEvolutionAnalysis>(*m_work);
  MDNode* full = MDNode::get(m_context, {MDString::get(m_context, "llvm.loop.unroll.full")});
  bool marked = false;
  for (Loop* loop : loops.getLoopsInPreorder()) {
    unsigned trips = evolution.getSmallConstantTripCount(loop);
    if (trips == 0 || trips > 64 ||
        none_of(loop->blocks(), [](const BasicBlock* b) { return calls_sub_group_function(*b); }))
      continue;
    loop->setLoopID(makePostTransformationMetadata(m_context, loop->getLoopID(),
                                                   {"llvm.loop.unroll."}, {full}));
    marked = true;
  }
  if (!marked) return;
  FunctionPassManager unroll;
  unroll.addPass(createFunctionToLoopPassAdaptor(LoopFullUnrollPass(3)));
  m_functions.invalidate(*m_work, unroll.run(*m_work, m_functions));
}

// Sub-group functions become work-group regions: a sub-group barrier is a work-group barrier,
// and an exchange writes the caller's value to its slot, crosses a barrier and returns its
// sub-group's slots (as the fiber path does, host_group.hpp). Regions alternate between two
// sets of slots, so a region reads one exchange's values while it writes the next one's. This
// holds only where the whole work-group reaches the call: elsewhere the body stays on fibers.
void loop_builder::lower_sub_groups() {
  SmallVector<CallInst*, 8> calls;
  for (BasicBlock& b : *m_work)
    for (Instruction& i : b)
      if (auto* call = dyn_cast<CallInst>(&i))
        if (Function* callee = call->getCalledFunction(); callee && sub_group_builtin(*callee))
          calls.push_back(call);
  if (calls.empty()) return;
  m_exchanges = true;
  // Each call becomes a barrier, which demote_live_values refuses on a path only some
  // work-items take.
  Type* i32 = Type::getInt32Ty(m_context);
  Type* i64 = Type::getInt64Ty(m_context);
  Type* i8 = Type::getInt8Ty(m_context);
  PointerType* ptr = PointerType::getUnqual(m_context);
  FunctionCallee barrier =
      m_module.getOrInsertFunction(barrier_function, Type::getVoidTy(m_context));
  FunctionCallee sets = m_module.getOrInsertFunction(exchange_slots_function, ptr, i64);
  FunctionCallee size = m_module.getOrInsertFunction(sub_group_size_function, i32);
  for (CallInst* call : calls) {
    IRBuilder<> b(call);
    StringRef name = call->getCalledFunction()->getName();
    if (name == sub_group_exchange_function || name == masked_exchange_function) {
      // (A masked exchange has the mask before the value: every lane writes its slot and
      // reads those of its own group.)
      unsigned value_arg = name == masked_exchange_function ? 3 : 2;
      Value* bytes = b.CreateZExtOrTrunc(call->getArgOperand(value_arg + 1), i64);
      Value* slots = b.CreateCall(sets, {b.getInt64(0)});
      Value* first = b.CreateMul(b.CreateZExt(call->getArgOperand(0), i64),
                                 b.CreateZExt(b.CreateCall(size), i64));
      Value* base = b.CreateInBoundsGEP(i8, slots, b.CreateMul(first, bytes));
      Value* slot = b.CreateInBoundsGEP(
          i8, base, b.CreateMul(b.CreateZExt(call->getArgOperand(1), i64), bytes));
      b.CreateMemCpy(slot, MaybeAlign(1), call->getArgOperand(value_arg), MaybeAlign(1), bytes);
      mark_sub_group_barrier(b.CreateCall(barrier), call);
      // The sub-group's slots as the region after the barrier finds them: computed there again
      // (the set of the region before it), not kept per work-item, so that the reads are affine
      // in the work-item's id and the loops vectorize.
      b.SetInsertPoint(call->getNextNode());
      Value* read_slots = b.CreateCall(sets, {b.getInt64(1)});
      Value* read_first = b.CreateMul(b.CreateZExt(call->getArgOperand(0), i64),
                                      b.CreateZExt(b.CreateCall(size), i64));
      call->replaceAllUsesWith(b.CreateInBoundsGEP(i8, read_slots, b.CreateMul(read_first, bytes)));
    } else if (name == converged_function) {
      // The whole sub-group reaches the call: its lanes, of the sub-group's size.
      mark_sub_group_barrier(b.CreateCall(barrier), call);
      Value* size = call->getArgOperand(2);
      Value* lanes = b.CreateSub(b.CreateShl(b.getInt32(1), size), b.getInt32(1));
      call->replaceAllUsesWith(
          b.CreateSelect(b.CreateICmpUGE(size, b.getInt32(32)), b.getInt32(~0u), lanes));
    } else {
      mark_sub_group_barrier(b.CreateCall(barrier), call);
    }
    call->eraseFromParent();
  }
}

// Whether the work-items that run `start` enter `loop` by more than a handful: not where the loop
// lies behind a test that picks single work-items (`if (l == 0) for (...)`), where running the
// loop's iterations for the whole group, one at a time, would mostly visit work-items that
// wait. Branches before the loop whose paths meet again before it do not count, nor tests of a
// range (`if (i < n)`, what the optimizer puts before a rotated loop: its exit test on the initial
// values).
bool loop_builder::entered_by_many(Loop* loop, BasicBlock* start, const uniformity& uniform,
                                   const DominatorTree& dominators,
                                   const PostDominatorTree& post_dominators) const {
  // An equality test of a value that differs between work-items, in the condition.
  auto picks_one = [&](Value* condition) {
    SmallVector<Value*, 8> work{condition};
    for (unsigned budget = 16; !work.empty() && budget > 0; --budget) {
      Value* v = work.pop_back_val();
      if (auto* test = dyn_cast<ICmpInst>(v)) {
        if (test->isEquality() &&
            (!uniform.is_uniform(test->getOperand(0)) || !uniform.is_uniform(test->getOperand(1))))
          return true;
      } else if (auto* i = dyn_cast<Instruction>(v);
                 i && (i->getOpcode() == Instruction::And || i->getOpcode() == Instruction::Or ||
                       i->getOpcode() == Instruction::Xor || isa<SelectInst>(i))) {
        append_range(work, i->operands());
      }
    }
    return !work.empty();
  };
  BasicBlock* header = loop->getHeader();
  for (DomTreeNode* n = dominators.getNode(header)->getIDom(); n; n = n->getIDom()) {
    BasicBlock* block = n->getBlock();
    const auto* branch = dyn_cast<BranchInst>(block->getTerminator());
    if (branch && branch->isConditional() &&
        (block != start || !uniform.is_uniform(branch->getCondition()))) {
      const DomTreeNode* join = post_dominators.getNode(block)->getIDom();
      bool meet_before = join && join->getBlock() && dominators.dominates(join->getBlock(), header);
      if (!meet_before && picks_one(branch->getCondition())) return false;
    }
    if (block == start) return true;
  }
  return false;
}

// A loop whose work-items leave it after different numbers of iterations (a grid-stride loop
// `for (i = global id; i < n; i += global range)`, a tile's cooperative copy `for (j = local id;
// j < tile; j += local range)`) would run inside the work-item loop, all of one work-item's
// iterations before the next work-item's: the work-item loop around it does not vectorize, and
// a grid-stride loop streams the arrays through the cache once per work-item, each touching one
// element of every cache line it loads. Where the loop's accesses lie next to each other for
// neighbouring work-items, it is better run the way a GPU runs it: one iteration of every
// work-item at a time, as a vectorized work-item loop. So the loop gets a barrier at the end of
// its iteration (on its back edge) and one where all the work-items meet after it (the nearest
// common post-dominator of its exit and of the nearest block before it that every work-item
// runs). These are barriers for the regions, with one difference the loops know of: at the
// end of a region some work-items may stand at the first and the others at the second; then
// the loops run the next iteration for the first, while the others wait (a per-work-item place).
// Adding barriers where every work-item passes in the same order changes nothing SYCL
// promises; the work-items only run in an order SYCL allows anyway.
void loop_builder::split_divergent_loops() {
  if (!m_split_loops) return;
  DenseSet<const BasicBlock*> done; // the blocks from a split loop's start to its meeting barrier
  while (split_divergent_loop(done)) continue;
  if (!m_loop_calls.empty()) m_functions.invalidate(*m_work, PreservedAnalyses::none());
}

// Splits the first loop (in preorder) that qualifies, outside `done`; false where none does.
bool loop_builder::split_divergent_loop(DenseSet<const BasicBlock*>& done) {
  DominatorTree dominators(*m_work);
  LoopInfo loops(dominators);
  if (loops.empty()) return false;
  PostDominatorTree post_dominators(*m_work);
  std::vector<Value*> ids{m_work->getArg(2), m_work->getArg(3), m_work->getArg(4)};
  uniformity uniform(*m_work, ids);
  AssumptionCache assumptions(*m_work);
  TargetLibraryInfo& library = m_functions.getResult<TargetLibraryAnalysis>(*m_work);
  ScalarEvolution evolution(*m_work, library, assumptions, dominators, loops);
  const DataLayout& layout = m_module.getDataLayout();
  Argument* innermost = m_work->getArg(4);
  ValueToSCEVMapTy next_item{
      {innermost,
       evolution.getAddExpr(evolution.getSCEV(innermost), evolution.getOne(innermost->getType()))}};
  // An access that moves with the loop and whose address for the next work-item is the next
  // element: the work-items' iterations together read or write contiguous memory.
  auto contiguous = [&](Loop* loop, Value* pointer, Type* type) {
    const SCEV* address = evolution.getSCEV(pointer);
    if (!SCEVExprContains(address, [&](const SCEV* s) {
          auto* step = dyn_cast<SCEVAddRecExpr>(s);
          return step && step->getLoop() == loop;
        }))
      return false;
    const SCEV* next = SCEVParameterRewriter::rewrite(address, evolution, next_item);
    auto* distance = dyn_cast<SCEVConstant>(evolution.getMinusSCEV(next, address));
    return distance && !type->isScalableTy() &&
           distance->getAPInt() == layout.getTypeStoreSize(type).getFixedValue();
  };
  auto has_barrier = [](BasicBlock& b) {
    return any_of(b, [](Instruction& i) { return is_call_to(i, barrier_function); });
  };
  Loop* loop = nullptr;
  BasicBlock* start = nullptr;
  SetVector<BasicBlock*> reach; // from `start`, the blocks that may still lead into the loop
  for (Loop* candidate : loops.getLoopsInPreorder()) {
    loop = candidate;
    BasicBlock* header = loop->getHeader();
    BasicBlock* latch = loop->getLoopLatch();
    SmallVector<BasicBlock*, 4> exits;
    loop->getUniqueExitBlocks(exits);
    BasicBlock* exit = exits.empty() || any_of(exits, [](BasicBlock* b) { return b->isEHPad(); })
                           ? nullptr
                           : exits.front();
    if (done.contains(header) || !latch || !exit) continue;
    SmallVector<BasicBlock*, 4> exiting;
    loop->getExitingBlocks(exiting);
    bool divergent = false;
    for (BasicBlock* b : exiting) {
      auto* branch = dyn_cast<BranchInst>(b->getTerminator());
      if (!branch) {
        divergent = false;
        break;
      }
      divergent |= uniform.is_divergent(b) || !uniform.is_uniform(branch->getCondition());
    }
    if (!divergent) continue;
    // Where every work-item starts from and where they all meet again.
    start = nullptr;
    for (DomTreeNode* n = dominators.getNode(header)->getIDom(); n && !start; n = n->getIDom())
      if (!uniform.is_divergent(n->getBlock())) start = n->getBlock();
    BasicBlock* meeting = start;
    for (BasicBlock* b : exits)
      if (meeting) meeting = post_dominators.findNearestCommonDominator(meeting, b);
    if (!meeting || meeting == start || loop->contains(meeting)) continue;
    // Between them: no barrier, no other way out (nor an exception's), no way back to the start.
    SmallVector<BasicBlock*, 16> work(successors(start));
    DenseSet<const BasicBlock*> between;
    bool fits = true;
    while (fits && !work.empty()) {
      BasicBlock* b = work.pop_back_val();
      if (b == meeting || !between.insert(b).second) continue;
      fits =
          b != start && !has_barrier(*b) && !done.contains(b) && succ_size(b) > 0 && !b->isEHPad();
      append_range(work, successors(b));
    }
    if (!fits || !between.contains(header) ||
        !entered_by_many(loop, start, uniform, dominators, post_dominators))
      continue;
    bool worth = false;
    for (BasicBlock* b : loop->blocks())
      for (Instruction& i : *b) {
        if (auto* load = dyn_cast<LoadInst>(&i))
          worth = worth || contiguous(loop, load->getPointerOperand(), load->getType());
        else if (auto* store = dyn_cast<StoreInst>(&i))
          worth = worth ||
                  contiguous(loop, store->getPointerOperand(), store->getValueOperand()->getType());
      }
    if (!worth) continue;
    // The blocks between from which the loop can still be reached (the loop's among them).
    SmallVector<BasicBlock*, 16> back{header};
    while (!back.empty()) {
      BasicBlock* b = back.pop_back_val();
      if (!reach.insert(b)) continue;
      for (BasicBlock* p : predecessors(b))
        if (p == start || between.contains(p)) back.push_back(p);
    }
    break;
  }
  if (reach.empty()) return false;
  done.insert(reach.begin(), reach.end());
  // An induction variable (i = start; i += step, the step uniform) of such a loop is, in the
  // k-th iteration, start + k * step; and every work-item that runs an iteration in a region runs
  // its k-th: the first m_strip iterations run in the region of the loop's start, each further
  // m_strip in a region of their own, so k = m_strip * (regions run since the loop began) + the
  // iterations run in this region. Computed so, from the epoch (the regions run so far in the
  // group) less the epoch at the start, it is the start plus a value of the group (and of the
  // region) instead of a value kept per work-item: the work-items' accesses through it stay
  // affine in their ids and vectorize as contiguous loads and stores, not gathers.
  Type* i64 = Type::getInt64Ty(m_context);
  Type* i32 = Type::getInt32Ty(m_context);
  FunctionCallee epoch = m_module.getOrInsertFunction(epoch_function, i64);
  FunctionCallee barrier =
      m_module.getOrInsertFunction(barrier_function, Type::getVoidTy(m_context));
  BasicBlock* header = loop->getHeader();
  BasicBlock* latch = loop->getLoopLatch();
  BasicBlock* preheader = loop->getLoopPreheader();
  SmallVector<std::tuple<PHINode*, Instruction*, Value*>, 4> inductions;
  for (PHINode& phi : header->phis()) {
    if (!preheader || phi.getNumIncomingValues() != 2) continue;
    auto* next = dyn_cast<Instruction>(phi.getIncomingValueForBlock(latch));
    if (!next || !loop->contains(next)) continue;
    Value* step = nullptr;
    if (next->getOpcode() == Instruction::Add)
      step = next->getOperand(0) == &phi   ? next->getOperand(1)
             : next->getOperand(1) == &phi ? next->getOperand(0)
                                           : nullptr;
    else if (auto* gep = dyn_cast<GetElementPtrInst>(next);
             gep && gep->getPointerOperand() == &phi && gep->getNumIndices() == 1)
      step = gep->getOperand(1);
    // (A step the loop computes again from the kernel object, which the optimizer did not hoist
    // because a store of the loop might alias the object, is computed before the loop.)
    unsigned budget = 16;
    if (step && ((loop->isLoopInvariant(step) && uniform.is_uniform(step)) ||
                 rematerializable(step, budget, /*ids=*/false)))
      inductions.push_back({&phi, next, step});
  }

  // The iteration's end: to the barrier, or with m_strip > 1 on to the next iteration in the same
  // region until m_strip of them ran.
  BasicBlock* ending = SplitEdge(latch, header, static_cast<DominatorTree*>(nullptr));
  reach.insert(ending);
  BasicBlock* to_barrier = ending;
  PHINode* in_region = nullptr; // iterations run in this region before this one
  if (m_strip > 1) {
    to_barrier = BasicBlock::Create(m_context, "", m_work, header);
    reach.insert(to_barrier);
    BranchInst::Create(header, to_barrier);
    for (PHINode& phi : header->phis())
      phi.addIncoming(phi.getIncomingValueForBlock(ending), to_barrier);
    in_region = PHINode::Create(i64, 3, "", header->getFirstNonPHIIt());
    for (BasicBlock* from : predecessors(header))
      in_region->addIncoming(ConstantInt::get(i64, 0), from);
    ending->getTerminator()->eraseFromParent();
    IRBuilder<> b(ending);
    Value* ran = b.CreateAdd(in_region, b.getInt64(1));
    in_region->setIncomingValueForBlock(ending, ran);
    b.CreateCondBr(b.CreateICmpULT(ran, b.getInt64(m_strip)), header, to_barrier);
  }
  CallInst* iterate = CallInst::Create(barrier, "", to_barrier->getFirstInsertionPt());

  if (!inductions.empty()) {
    IRBuilder<> b(start->getTerminator());
    Value* began = b.CreateCall(epoch, {}, "loop_began");
    b.SetInsertPoint(header->getFirstNonPHIIt());
    Value* iteration = b.CreateMul(b.CreateSub(b.CreateCall(epoch), began), b.getInt64(m_strip));
    if (in_region) iteration = b.CreateAdd(iteration, in_region);
    auto* counted = cast<Instruction>(iteration);
    for (auto [phi, next, step] : inductions) {
      Value* initial = phi->getIncomingValueForBlock(preheader);
      if (!loop->isLoopInvariant(step)) {
        DenseMap<Value*, Value*> copies;
        step = copy_before(step, preheader, preheader->getTerminator()->getIterator(), copies);
      }
      b.SetInsertPoint(counted->getNextNode());
      Value* now;
      auto* gep = dyn_cast<GetElementPtrInst>(next);
      if (gep)
        now = b.CreateGEP(gep->getSourceElementType(), initial,
                          b.CreateMul(b.CreateSExtOrTrunc(iteration, step->getType()), step));
      else
        now = b.CreateAdd(initial,
                          b.CreateMul(b.CreateZExtOrTrunc(iteration, step->getType()), step));
      b.SetInsertPoint(next->getNextNode());
      Value* after_step =
          gep ? b.CreateGEP(gep->getSourceElementType(), now, step) : b.CreateAdd(now, step);
      next->replaceUsesWithIf(after_step, [&](Use& use) { return use.getUser() != phi; });
      phi->replaceAllUsesWith(now);
      phi->eraseFromParent();
      next->eraseFromParent();
    }
  }

  // Where the work-items meet: every way out of `reach` (the loop's exits, and the tests before
  // it that skip it) leads through one new block with the barrier, then on to where each
  // work-item was going. Values from inside that are used beyond go through memory (each
  // work-item's own: they cross a barrier).
  SmallVector<std::pair<BasicBlock*, unsigned>, 8> ways;
  SetVector<BasicBlock*> targets;
  for (BasicBlock* u : reach)
    for (unsigned k = 0; k < u->getTerminator()->getNumSuccessors(); ++k)
      if (BasicBlock* v = u->getTerminator()->getSuccessor(k); !reach.contains(v)) {
        ways.push_back({u, k});
        targets.insert(v);
      }
  for (BasicBlock* v : targets)
    for (PHINode& phi : make_early_inc_range(v->phis())) DemotePHIToStack(&phi);
  BasicBlock* meet = BasicBlock::Create(m_context, "", m_work);
  PHINode* way = targets.size() > 1 ? PHINode::Create(i32, ways.size(), "", meet) : nullptr;
  CallInst* after = CallInst::Create(barrier, "", meet);
  if (way) {
    SwitchInst* onward = SwitchInst::Create(way, targets.front(), targets.size(), meet);
    for (unsigned t = 1; t < targets.size(); ++t)
      onward->addCase(ConstantInt::get(m_context, APInt(32, t)), targets[t]);
  } else {
    BranchInst::Create(targets.front(), meet);
  }
  for (auto [u, k] : ways) {
    BasicBlock* v = u->getTerminator()->getSuccessor(k);
    BasicBlock* via = BasicBlock::Create(m_context, "", m_work, meet);
    BranchInst::Create(meet, via);
    u->getTerminator()->setSuccessor(k, via);
    if (way)
      way->addIncoming(ConstantInt::get(i32, unsigned(find(targets, v) - targets.begin())), via);
  }
  // (Values the start computes still dominate their uses; those of the loop and of the paths
  // around it no longer do.)
  DominatorTree now(*m_work);
  SmallVector<Instruction*, 16> escaping;
  for (BasicBlock* u : reach)
    for (Instruction& i : *u)
      if (!isa<AllocaInst>(i) &&
          any_of(i.uses(), [&](Use& use) { return !now.dominates(&i, use); }))
        escaping.push_back(&i);
  for (Instruction* i : escaping) DemoteRegToStack(*i);
  m_loop_calls.push_back({iterate, after});
  return true;
}

// A region that ends with blocks only the work-item of one local id runs (`if (l == 0) halo[0] =
// ...; if (l == wg - 1) halo[1] = ...;` right before a barrier, a stencil's halo) does not
// vectorize: the conditional stores are not worth it to the vectorizer. Each such block gets a
// barrier before its test, which makes it a region of its own that the loops run for that one
// work-item (narrowed_range), and leaves the rest of the region straight code. A barrier may be
// added where every work-item that reaches the next barrier passes exactly once (the test's
// block dominates the barrier, the barrier post-dominates it, no loop around it); the guarded
// block runs later only relative to other work-items, which SYCL leaves unordered before the
// barrier, and nothing of its work-item's follows it in the region.
void loop_builder::separate_guarded_tails() {
  if (m_lanes) return;
  Argument* innermost = m_work->getArg(4);
  auto is_id = [&](Value* v) { return without_id_cast(v) == innermost; };
  SmallVector<CallInst*, 8> barriers;
  for (BasicBlock& b : *m_work)
    for (Instruction& i : b)
      if (is_call_to(i, barrier_function)) barriers.push_back(cast<CallInst>(&i));
  if (barriers.empty()) return;
  DominatorTree dominators(*m_work);
  PostDominatorTree post_dominators(*m_work);
  LoopInfo loops(dominators);
  SmallVector<BranchInst*, 4> tests;
  for (CallInst* barrier : barriers) {
    BasicBlock* merge = barrier->getParent();
    if (&merge->front() != barrier) continue;
    while (pred_size(merge) == 2) {
      BasicBlock *test = nullptr, *guarded = nullptr;
      for (BasicBlock* p : predecessors(merge))
        (p->getSingleSuccessor() == merge && p->getSinglePredecessor() ? guarded : test) = p;
      if (!test || !guarded || guarded->getSinglePredecessor() != test) break;
      auto* branch = dyn_cast<BranchInst>(test->getTerminator());
      auto* compare =
          branch && branch->isConditional() ? dyn_cast<ICmpInst>(branch->getCondition()) : nullptr;
      if (!compare || compare->getParent() != test || !compare->hasOneUse() ||
          compare->getPredicate() != ICmpInst::ICMP_EQ || branch->getSuccessor(0) != guarded)
        break;
      Value* id = compare->getOperand(0);
      Value* value = compare->getOperand(1);
      if (!is_id(id)) std::swap(id, value);
      if (!is_id(id) || !isa<ConstantInt>(value)) break;
      bool alone = true;
      for (Instruction& i : *guarded) {
        if (auto* call = dyn_cast<CallBase>(&i); call && call->isConvergent()) alone = false;
        for (User* user : i.users())
          if (cast<Instruction>(user)->getParent() != guarded) alone = false;
      }
      if (!alone || !dominators.dominates(test, merge) || !post_dominators.dominates(merge, test) ||
          loops.getLoopFor(test))
        break;
      tests.push_back(branch);
      // Further up only through a block that holds nothing but this test.
      bool only_test = all_of(*test, [&](Instruction& i) {
        return &i == branch || &i == compare || (i.hasOneUse() && i.user_back() == compare);
      });
      if (!only_test) break;
      merge = test;
    }
  }
  // The same as a switch on the id (what the optimizer makes of several such tests in a row):
  // each case becomes a test of its own after a barrier, in the order of the cases.
  // Each switch with the blocks of each of its cases (reached from the case's target before the
  // barrier, entered only there).
  SmallVector<std::pair<SwitchInst*, SmallVector<DenseSet<BasicBlock*>, 2>>, 2> switches;
  for (BasicBlock& b : *m_work) {
    auto* choice = dyn_cast<SwitchInst>(b.getTerminator());
    if (!choice || !is_id(choice->getCondition())) continue;
    BasicBlock* merge = choice->getDefaultDest();
    if (!merge->phis().empty() || !is_call_to(merge->front(), barrier_function) ||
        !dominators.dominates(&b, merge) || !post_dominators.dominates(merge, &b) ||
        loops.getLoopFor(&b))
      continue;
    DenseSet<BasicBlock*> taken;
    SmallVector<DenseSet<BasicBlock*>, 2> case_blocks;
    bool separable = true;
    for (auto& c : choice->cases()) {
      BasicBlock* target = c.getCaseSuccessor();
      if (target == merge || !target->getSinglePredecessor() || !taken.insert(target).second) {
        separable = false;
        break;
      }
      SmallVector<BasicBlock*, 8> work{target};
      DenseSet<BasicBlock*> blocks{target};
      while (!work.empty() && separable) {
        BasicBlock* block = work.pop_back_val();
        for (BasicBlock* next : successors(block))
          if (next != merge && blocks.insert(next).second) {
            if (!taken.insert(next).second) separable = false;
            work.push_back(next);
          }
      }
      for (BasicBlock* block : blocks) {
        if (block != target)
          for (BasicBlock* p : predecessors(block))
            if (!blocks.contains(p)) separable = false;
        for (Instruction& i : *block) {
          if (auto* call = dyn_cast<CallBase>(&i); call && call->isConvergent()) separable = false;
          for (User* user : i.users())
            if (!blocks.contains(cast<Instruction>(user)->getParent())) separable = false;
        }
      }
      if (!separable) break;
      case_blocks.push_back(std::move(blocks));
    }
    if (separable && choice->getNumCases() > 0)
      switches.push_back({choice, std::move(case_blocks)});
  }
  FunctionCallee call = m_module.getOrInsertFunction(barrier_function, Type::getVoidTy(m_context));
  for (auto& [choice, case_blocks] : switches) {
    BasicBlock* merge = choice->getDefaultDest();
    Value* id = choice->getCondition();
    SmallVector<ConstantInt*, 4> values;
    for (auto& c : choice->cases()) values.push_back(c.getCaseValue());
    BasicBlock* home = choice->getParent();
    // Tests from the last case up: each goes to its case, then on to the next test.
    BasicBlock* next = merge;
    for (std::size_t k = values.size(); k-- > 0;) {
      BasicBlock* target = choice->getSuccessor(k + 1);
      BasicBlock* test = BasicBlock::Create(m_context, "only_one", m_work, next);
      IRBuilder<> b(test);
      b.CreateCall(call);
      b.CreateCondBr(b.CreateICmpEQ(id, values[k]), target, next);
      target->replacePhiUsesWith(home, test);
      for (BasicBlock* block : case_blocks[k])
        block->getTerminator()->replaceSuccessorWith(merge, next);
      next = test;
    }
    choice->eraseFromParent();
    BranchInst::Create(next, home);
  }
  for (BranchInst* branch : tests) {
    auto* compare = cast<ICmpInst>(branch->getCondition());
    CallInst::Create(call, "", branch->getIterator());
    // The test after the barrier: the new region starts with it.
    if (auto* cast = dyn_cast<Instruction>(compare->getOperand(0));
        cast && cast->getParent() == compare->getParent() && cast->hasOneUse())
      cast->moveBefore(branch->getIterator());
    if (auto* cast = dyn_cast<Instruction>(compare->getOperand(1));
        cast && cast->getParent() == compare->getParent() && cast->hasOneUse())
      cast->moveBefore(branch->getIterator());
    compare->moveBefore(branch->getIterator());
  }
}

void loop_builder::split_barriers() {
  SmallVector<CallInst*, 8> calls;
  for (BasicBlock& b : *m_work)
    for (Instruction& i : b)
      if (is_call_to(i, barrier_function)) calls.push_back(cast<CallInst>(&i));
  DenseMap<const CallInst*, bool> made; // by split_divergent_loops: true at an iteration's end
  for (auto [iterate, after] : m_loop_calls) {
    made[iterate] = true;
    made[after] = false;
  }
  unsigned index = 0;
  DenseMap<const CallInst*, unsigned> id_of;
  for (CallInst* call : calls) {
    if (auto it = made.find(call); it != made.end())
      m_barrier_names.push_back(it->second ? "the end of a loop's iteration"
                                           : "the end of a loop that work-items leave at "
                                             "different times");
    else
      m_barrier_names.push_back(
          describe_barrier(*call, ++index, unsigned(calls.size() - made.size())));
    BasicBlock* block = call->getParent();
    if (call != &block->front() || block->isEntryBlock())
      block = SplitBlock(block, call->getIterator(), static_cast<DominatorTree*>(nullptr));
    SplitBlock(block, std::next(call->getIterator()), static_cast<DominatorTree*>(nullptr));
    m_barrier_id[block] = unsigned(m_barriers.size()) + 1;
    id_of[call] = unsigned(m_barriers.size()) + 1;
    if (call->hasMetadata(sub_group_barrier_tag) && !made.contains(call))
      m_sub_group_barriers.insert(unsigned(m_barriers.size()) + 1);
    if (call->hasMetadata(non_uniform_group_tag))
      m_non_uniform_groups.insert(unsigned(m_barriers.size()) + 1);
    m_barriers.push_back(block);
  }
  for (auto [iterate, after] : m_loop_calls)
    m_loop_barriers.push_back({id_of.lookup(iterate), id_of.lookup(after)});
  // A barrier right after another (two calls in a row) would leave an empty region between
  // them: give it a block of its own that only goes on to the second barrier.
  for (BasicBlock* barrier : m_barriers)
    if (BasicBlock* next = barrier->getSingleSuccessor(); m_barrier_id.contains(next))
      SplitEdge(barrier, next, static_cast<DominatorTree*>(nullptr));
  // Debug records and locations would tie the loops to the body's subprogram; the loops are
  // new code (stepping through a kernel in a debugger works with SYCLONE_HOST_KERNELS=fibers).
  stripDebugInfo(*m_work);
}

void loop_builder::find_regions() {
  std::vector<BasicBlock*> starts{&m_work->getEntryBlock()};
  for (BasicBlock* barrier : m_barriers) starts.push_back(barrier->getSingleSuccessor());
  m_regions.resize(starts.size());
  for (unsigned r = 0; r < starts.size(); ++r) {
    SmallVector<BasicBlock*, 16> work{starts[r]};
    while (!work.empty()) {
      BasicBlock* b = work.pop_back_val();
      if (m_barrier_id.contains(b) || !m_regions[r].insert(b)) continue;
      for (BasicBlock* s : successors(b)) work.push_back(s);
    }
    for (BasicBlock* b : m_regions[r]) {
      SmallBitVector& bits = m_membership[b];
      bits.resize(starts.size());
      bits.set(r);
    }
  }
}

// Whether a path from `def` to one of its uses passes a barrier: then each work-item's value
// must outlive the loop of the region that computed it.
bool loop_builder::crosses_barrier(Instruction& def) const {
  BasicBlock* home = def.getParent();
  for (Use& use : def.uses()) {
    BasicBlock* at = use_point(use)->getParent();
    if (at == home) continue;
    SmallVector<BasicBlock*, 16> work{at};
    DenseSet<BasicBlock*> seen{at};
    while (!work.empty()) {
      BasicBlock* b = work.pop_back_val();
      if (m_barrier_id.contains(b)) return true;
      for (BasicBlock* p : predecessors(b))
        if (p != home && seen.insert(p).second) work.push_back(p);
    }
  }
  return false;
}

void loop_builder::demote_live_values() {
  std::vector<Value*> ids{m_work->getArg(2), m_work->getArg(3), m_work->getArg(4)};
  uniformity uniform(*m_work, ids);
  // A barrier only some work-items of a group may reach: undefined behaviour when the program
  // branches there, but also what the optimizer makes of a barrier after a branch on a
  // work-item's value when it copies the barrier into both paths (jump threading over a loop
  // that only some work-items enter). The copies are different barriers to the loops; fibers
  // meet at either, so the kernel stays on fibers.
  DenseSet<unsigned> iterations; // only some work-items iterate again, by design
  for (auto [iterate, after] : m_loop_barriers) iterations.insert(iterate);
  for (BasicBlock* barrier : m_barriers)
    if (uniform.is_divergent(barrier) && !iterations.contains(m_barrier_id.lookup(barrier)) &&
        m_non_uniform_groups.contains(m_barrier_id.lookup(barrier)))
      throw unsupported{"a function of a non-uniform group (sycl_ext_oneapi_non_uniform_groups: " +
                        m_barrier_names[m_barrier_id.lookup(barrier) - 1] +
                        ") lies on a path that only some work-items of a group may take; the "
                        "loops run a sub-group's work-items together, so groups used in divergent "
                        "control flow run on fibers, each group's members waiting for each other"};
  for (BasicBlock* barrier : m_barriers)
    if (uniform.is_divergent(barrier) && !iterations.contains(m_barrier_id.lookup(barrier)))
      throw unsupported{"a barrier or group function (" +
                        m_barrier_names[m_barrier_id.lookup(barrier) - 1] +
                        ") lies on a path that only some work-items of a group may take (a "
                        "branch on a work-item's value before it, or the "
                        "optimizer copied it into such paths)"};
  SmallVector<Instruction*, 32> live;
  for (BasicBlock& b : *m_work)
    for (Instruction& i : b)
      if (!isa<AllocaInst>(i) && !i.getType()->isVoidTy() && crosses_barrier(i)) {
        if (i.getType()->isTokenTy()) throw unsupported{"a token value is live across a barrier"};
        live.push_back(&i);
      }
  // Values computed from the ids, constants and the kernel object alone (indices, mostly) are
  // computed again where they are used instead of being kept in memory: the loops then see
  // affine indices and vectorize.
  SmallVector<Instruction*, 32> kept;
  for (Instruction* i : live) {
    unsigned budget = 32;
    if (!rematerializable(i, budget)) {
      kept.push_back(i);
      continue;
    }
    for (Use& use : make_early_inc_range(i->uses())) {
      Instruction* at = use_point(use);
      if (at->getParent() == i->getParent()) continue;
      DenseMap<Value*, Value*> copies;
      use.set(copy_before(i, at->getParent(), at->getIterator(), copies));
    }
  }
  for (Instruction* i : kept) {
    bool is_uniform = uniform.is_uniform(i);
    auto* phi = dyn_cast<PHINode>(i);
    BasicBlock* home = i->getParent();
    AllocaInst* slot = phi ? DemotePHIToStack(phi) : DemoteRegToStack(*i);
    if (!slot) continue;
    m_demoted_uniform[slot] = is_uniform;
    if (!phi) continue;
    // A phi becomes one load where it stood, whose uses may lie past barriers: each use in
    // another block reads the slot itself, as DemoteRegToStack arranges for other values.
    for (User* user : make_early_inc_range(slot->users())) {
      auto* load = dyn_cast<LoadInst>(user);
      if (!load || load->getParent() != home) continue;
      for (Use& use : make_early_inc_range(load->uses())) {
        Instruction* at = use_point(use);
        if (at->getParent() == home) continue;
        use.set(
            new LoadInst(load->getType(), slot, load->getName() + ".reload", at->getIterator()));
      }
    }
  }
}

// Whether `v` can be computed again wherever it is used: arguments, constants and arithmetic
// without side effects on them, including loads of the kernel object and the group id, which
// nothing writes while the kernel runs. At most `budget` instructions.
// ids = false: nor from the work-item's ids (the value is the same for the whole group).
bool loop_builder::rematerializable(Value* v, unsigned& budget, bool ids) const {
  if (auto* argument = dyn_cast<Argument>(v)) return ids || argument->getArgNo() < 2;
  if (isa<Constant>(v)) return true;
  auto* i = dyn_cast<Instruction>(v);
  if (!i || budget == 0) return false;
  --budget;
  // Group state that stays the same while the group runs (the sub-group size, local memory; not
  // the epoch) becomes a value of the frame in the loops, and a work-item's place in its
  // sub-group a value of the loops: such calls are computations, side effects or not.
  auto* call = dyn_cast<CallBase>(i);
  Function* callee = call ? call->getCalledFunction() : nullptr;
  bool group_state = callee && ((uniform_builtin(*callee) && callee->getName() != epoch_function &&
                                 callee->getName() != exchange_slots_function) ||
                                sub_group_place_builtin(*callee));
  if (isa<PHINode>(i) || isa<AllocaInst>(i) || i->isTerminator() ||
      (i->mayHaveSideEffects() && !group_state) || i->getType()->isTokenTy())
    return false;
  if (auto* load = dyn_cast<LoadInst>(i)) {
    const Value* base = getUnderlyingObject(load->getPointerOperand());
    if (!load->isSimple() || (base != m_work->getArg(0) && base != m_work->getArg(1))) return false;
  } else if (call) {
    if (!group_state &&
        (!isa<IntrinsicInst>(call) || !call->doesNotAccessMemory() || call->isConvergent()))
      return false;
  } else if (i->mayReadFromMemory()) {
    return false;
  }
  for (Value* operand : i->operands())
    if (!rematerializable(operand, budget, ids)) return false;
  return true;
}

// A copy of the expression `v` (rematerializable) computed right before `at`.
Value* loop_builder::copy_before(Value* v, BasicBlock* block, BasicBlock::iterator at,
                                 DenseMap<Value*, Value*>& copies) {
  if (Value* done = copies.lookup(v)) return done;
  auto* i = dyn_cast<Instruction>(v);
  if (!i) return v;
  Instruction* copy = i->clone();
  copy->insertInto(block, at);
  for (unsigned k = 0; k < copy->getNumOperands(); ++k)
    copy->setOperand(k, copy_before(i->getOperand(k), block, copy->getIterator(), copies));
  copies[v] = copy;
  return copy;
}

// Whether private memory may hold a work-item's data from one region to another: its uses
// lie in more than one region, or a use can reach another use through a barrier (a region
// that runs again after a barrier, in a loop).
bool loop_builder::persists_across_barrier(AllocaInst& alloca) const {
  SmallVector<Value*, 8> work{&alloca};
  DenseSet<Value*> seen{&alloca};
  DenseSet<BasicBlock*> use_blocks;
  bool escapes = false;
  while (!work.empty()) {
    Value* v = work.pop_back_val();
    for (User* user : v->users()) {
      auto* i = dyn_cast<Instruction>(user);
      if (!i) continue;
      use_blocks.insert(i->getParent());
      if (auto* store = dyn_cast<StoreInst>(i)) {
        if (store->getValueOperand() == v) escapes = true;
        continue;
      }
      if (isa<PtrToIntInst>(i)) escapes = true;
      if (i->getType()->isPointerTy() && seen.insert(i).second) work.push_back(i);
    }
  }
  if (escapes) return true;
  SmallBitVector regions(m_regions.size());
  for (BasicBlock* b : use_blocks) {
    auto it = m_membership.find(b);
    if (it != m_membership.end()) regions |= it->second;
  }
  if (regions.count() > 1) return true;
  // From any use, through at least one barrier, back to a use?
  SmallVector<std::pair<BasicBlock*, unsigned>, 16> paths;
  DenseSet<std::pair<BasicBlock*, unsigned>> visited; // (block, whether a barrier was crossed)
  for (BasicBlock* b : use_blocks) paths.push_back({b, 0u});
  while (!paths.empty()) {
    auto [b, crossed] = paths.pop_back_val();
    for (BasicBlock* s : successors(b)) {
      unsigned now = crossed || m_barrier_id.contains(s) ? 1u : 0u;
      if (now && use_blocks.contains(s)) return true;
      if (visited.insert({s, now}).second) paths.push_back({s, now});
    }
  }
  return false;
}

// Whether a region may store to a uniform value's slot after reading it (a loop counter: the
// latch reads the old value and writes the new one). One slot for the group would then let the
// next work-item of the region read the new value where it expects the old one.
bool loop_builder::rewritten_after_read(AllocaInst& slot) const {
  auto stores_to_slot = [&](const Instruction& i) {
    const auto* store = dyn_cast<StoreInst>(&i);
    return store && store->getPointerOperand() == &slot;
  };
  for (User* user : slot.users()) {
    auto* load = dyn_cast<LoadInst>(user);
    if (!load) continue;
    for (const Instruction* i = load->getNextNode(); i; i = i->getNextNode())
      if (stores_to_slot(*i)) return true;
    SmallVector<BasicBlock*, 16> work(successors(load->getParent()));
    DenseSet<BasicBlock*> seen;
    while (!work.empty()) {
      BasicBlock* b = work.pop_back_val();
      if (m_barrier_id.contains(b) || !seen.insert(b).second) continue;
      if (any_of(*b, stores_to_slot)) return true;
      for (BasicBlock* s : successors(b)) work.push_back(s);
    }
  }
  return false;
}

// A uniform value that a region reads and then rewrites (a loop counter around a barrier) can
// still have one slot for the group when each of the region's reads comes either before every
// write of the region or after one, on all paths: the reads before see the value the region
// started with, from a copy made before the region's loop (m_entry_reads), the others the slot.
// False where a read may come before or after a write depending on the path.
bool loop_builder::read_entry_values(AllocaInst& slot) {
  enum : unsigned { clean = 1, dirty = 2 };
  auto writes = [&](const Instruction& i) {
    const auto* store = dyn_cast<StoreInst>(&i);
    return store && store->getPointerOperand() == &slot;
  };
  std::vector<SmallVector<const LoadInst*, 4>> entry_reads(m_regions.size());
  for (unsigned r = 0; r < m_regions.size(); ++r) {
    const SetVector<BasicBlock*>& blocks = m_regions[r];
    DenseMap<const BasicBlock*, unsigned> state{{blocks.front(), clean}};
    SmallVector<BasicBlock*, 16> work{blocks.front()};
    while (!work.empty()) {
      BasicBlock* b = work.pop_back_val();
      unsigned out = any_of(*b, writes) ? unsigned(dirty) : state[b];
      for (BasicBlock* s : successors(b)) {
        if (!blocks.contains(s)) continue;
        unsigned& in = state[s];
        if ((in | out) != in) {
          in |= out;
          work.push_back(s);
        }
      }
    }
    for (BasicBlock* b : blocks) {
      unsigned now = state.lookup(b);
      for (const Instruction& i : *b) {
        if (writes(i)) now = dirty;
        const auto* load = dyn_cast<LoadInst>(&i);
        if (!load || load->getPointerOperand() != &slot) continue;
        if (now == (clean | dirty)) return false;
        if (now == clean) entry_reads[r].push_back(load);
      }
    }
  }
  for (unsigned r = 0; r < m_regions.size(); ++r)
    for (const LoadInst* load : entry_reads[r]) m_entry_reads[r].push_back({load, &slot});
  return true;
}

void loop_builder::place_private_memory() {
  m_entry_reads.resize(m_regions.size());
  for (Instruction& i : m_work->getEntryBlock()) {
    auto* alloca = dyn_cast<AllocaInst>(&i);
    if (!alloca) continue;
    auto demoted = m_demoted_uniform.find(alloca);
    bool per_item;
    if (demoted != m_demoted_uniform.end()) {
      per_item = !demoted->second || (rewritten_after_read(*alloca) && !read_entry_values(*alloca));
    } else {
      per_item = persists_across_barrier(*alloca);
    }
    if (per_item && alloca->getAlign().value() > 64)
      throw unsupported{"a private variable aligned to more than 64 bytes lives across a barrier"};
    (per_item ? m_per_item : m_shared).push_back(alloca);
  }
}

// A region that starts with `if (local id < bound)` (the innermost id, a uniform bound: a tree
// reduction's step; or, in loops whose lane loop is a sub-group, `if (lane < bound)`, as in
// `if (sg.leader())`), and whose other work-items go straight to the region's exit, need not
// visit those: the innermost loop stops at the bound. Answers that bound (with the exit the others
// take recorded in lowest/highest, once) or null. Emitted at b, before the region's loops.
Value* loop_builder::narrowed_range(unsigned r, unsigned lanes, IRBuilder<>& b,
                                    const DenseMap<const AllocaInst*, AllocaInst*>& shared_of,
                                    const DenseMap<const AllocaInst*, AllocaInst*>& entry_of,
                                    Value* range, Value* object, Value* group, AllocaInst* lowest,
                                    AllocaInst* highest, Value*& start) {
  start = b.getInt64(0);
  BasicBlock* entry = m_regions[r].front();
  auto* branch = dyn_cast<BranchInst>(entry->getTerminator());
  auto* compare =
      branch && branch->isConditional() ? dyn_cast<ICmpInst>(branch->getCondition()) : nullptr;
  if (!compare) return nullptr;
  // Run once per work-item: nothing in the region leads back to its start, and the start
  // itself only computes.
  for (BasicBlock* p : predecessors(entry))
    if (m_regions[r].contains(p)) return nullptr;
  // (Group state and a work-item's place, the exchange's slots after its barrier, are reads.)
  auto reads_state = [](Instruction& i) {
    auto* call = dyn_cast<CallInst>(&i);
    Function* callee = call ? call->getCalledFunction() : nullptr;
    return callee && (uniform_builtin(*callee) || sub_group_place_builtin(*callee));
  };
  for (Instruction& i : *entry)
    if (&i != branch && ((i.mayHaveSideEffects() && !reads_state(i)) || isa<PHINode>(i)))
      return nullptr;
  // id < bound, in either operand order and either branch sense; id == 0 (a sub-group's or a
  // group's leader) is id < 1. The id is the innermost local id, or where a sub-group is the lane
  // loop (lanes > 0) the lane.
  Value* id = compare->getOperand(0);
  Value* bound = compare->getOperand(1);
  CmpPredicate predicate = compare->getPredicate();
  Argument* innermost = m_work->getArg(4);
  auto is_id = [&](Value* v) {
    v = without_id_cast(v);
    if (lanes == 0) return v == innermost;
    auto* call = dyn_cast<Instruction>(v);
    return call && is_call_to(*call, sub_group_lane_function);
  };
  if (!is_id(id)) {
    std::swap(id, bound);
    predicate = ICmpInst::getSwappedPredicate(predicate);
  }
  if (!is_id(id)) return nullptr;
  BasicBlock* inside = branch->getSuccessor(0);
  BasicBlock* outside = branch->getSuccessor(1);
  // id == c for a constant c: the one work-item [c, c + 1) (a halo's, a group's leader's).
  ConstantInt* only = nullptr;
  if (auto* constant = dyn_cast<ConstantInt>(bound); constant && ICmpInst::isEquality(predicate)) {
    if (predicate == ICmpInst::ICMP_NE) std::swap(inside, outside);
    predicate = ICmpInst::ICMP_ULT;
    if (!constant->isZero()) only = constant;
    bound = ConstantInt::get(bound->getType(), constant->getValue() + 1);
  }
  if (predicate == ICmpInst::ICMP_UGE || predicate == ICmpInst::ICMP_SGE) {
    std::swap(inside, outside);
    predicate = ICmpInst::getInversePredicate(predicate);
  }
  if (predicate != ICmpInst::ICMP_ULT && predicate != ICmpInst::ICMP_SLT) return nullptr;
  // The others leave at once: to a barrier, or through a block that only goes there or ends.
  unsigned exit_id;
  if (auto it = m_barrier_id.find(outside); it != m_barrier_id.end()) {
    exit_id = it->second;
  } else if (outside->size() == 1 && isa<ReturnInst>(outside->getTerminator())) {
    exit_id = unsigned(m_barriers.size()) + 1;
  } else if (outside->size() == 1 && outside->getSingleSuccessor() &&
             m_barrier_id.contains(outside->getSingleSuccessor())) {
    exit_id = m_barrier_id.lookup(outside->getSingleSuccessor());
  } else {
    return nullptr;
  }
  // The bound before the loops: a constant, or a uniform slot the region does not write.
  Value* at_start = nullptr;
  Value* leaf = bound;
  SmallVector<CastInst*, 2> casts;
  while (auto* cast = dyn_cast<CastInst>(leaf)) {
    casts.push_back(cast);
    leaf = cast->getOperand(0);
  }
  if (auto* constant = dyn_cast<Constant>(leaf)) {
    at_start = constant;
  } else if (auto* load = dyn_cast<LoadInst>(leaf); load && load->isSimple()) {
    auto* slot = dyn_cast<AllocaInst>(load->getPointerOperand());
    AllocaInst* here = slot ? shared_of.lookup(slot) : nullptr;
    if (!here) return nullptr;
    for (BasicBlock* block : m_regions[r])
      for (Instruction& i : *block)
        if (auto* store = dyn_cast<StoreInst>(&i); store && store->getPointerOperand() == slot)
          return nullptr;
    if (any_of(m_entry_reads[r], [&](auto& read) { return read.first == load; }))
      here = entry_of.lookup(slot);
    at_start = b.CreateLoad(load->getType(), here);
  } else if (unsigned budget = 16; rematerializable(leaf, budget, /*ids=*/false)) {
    // From the kernel object (a kernel argument) and the group id.
    DenseMap<Value*, Value*> copies{{m_work->getArg(0), object}, {m_work->getArg(1), group}};
    at_start = copy_before(leaf, b.GetInsertBlock(), b.GetInsertPoint(), copies);
  } else {
    return nullptr;
  }
  for (CastInst* cast : reverse(casts))
    at_start = b.CreateCast(cast->getOpcode(), at_start, cast->getDestTy());
  Type* i64 = b.getInt64Ty();
  Value* limit;
  if (predicate == ICmpInst::ICMP_SLT) {
    Value* positive = b.CreateBinaryIntrinsic(Intrinsic::smax, at_start,
                                              ConstantInt::get(at_start->getType(), 0));
    limit = b.CreateZExtOrTrunc(positive, i64);
  } else {
    limit = b.CreateZExtOrTrunc(at_start, i64);
  }
  limit = b.CreateBinaryIntrinsic(Intrinsic::umin, limit, range, nullptr, "narrowed");
  Value* skipped = b.CreateICmpULT(limit, range);
  if (only) {
    // The loop starts at c (at the range's end where c lies beyond it: no work-item); c + 1
    // wrapping to 0 leaves the loop empty too.
    start = b.CreateBinaryIntrinsic(Intrinsic::umin, b.CreateZExtOrTrunc(only, i64), range, nullptr,
                                    "narrowed_start");
    limit = b.CreateBinaryIntrinsic(Intrinsic::umax, limit, start);
    skipped = b.CreateICmpULT(b.CreateSub(limit, start), range);
  }
  Value* exit = b.getInt32(exit_id);
  Value* low = b.CreateLoad(b.getInt32Ty(), lowest);
  Value* high = b.CreateLoad(b.getInt32Ty(), highest);
  b.CreateStore(b.CreateSelect(skipped, b.CreateBinaryIntrinsic(Intrinsic::umin, low, exit), low),
                lowest);
  b.CreateStore(b.CreateSelect(skipped, b.CreateBinaryIntrinsic(Intrinsic::umax, high, exit), high),
                highest);
  return limit;
}

// The loops for one work-group. lanes = 0: a loop nest over the local range. lanes = L (the
// sub-group size, when the innermost range is a multiple of it): a loop over the sub-groups and
// inside it one over the L lanes of a sub-group, whose trip count is a constant, so that the
// lane loop becomes vector code with the sub-group's slots at affine offsets.
Function* loop_builder::emit(unsigned lanes) {
  const DataLayout& layout = m_module.getDataLayout();
  Type* i8 = Type::getInt8Ty(m_context);
  Type* i32 = Type::getInt32Ty(m_context);
  Type* i64 = Type::getInt64Ty(m_context);
  PointerType* ptr = PointerType::getUnqual(m_context);
  auto* type = FunctionType::get(ptr, {ptr}, false);
  Function* loops = Function::Create(
      type, GlobalValue::InternalLinkage,
      m_body.getName() + ".work_group_loops" + (lanes ? ".sg" + Twine(lanes) : Twine()), m_module);
  AttrBuilder attributes(m_context, m_body.getAttributes().getFnAttrs());
  attributes.removeAttribute(Attribute::NoInline);
  attributes.removeAttribute(Attribute::AlwaysInline);
  loops->addFnAttrs(attributes);
  if (m_work->hasPersonalityFn()) loops->setPersonalityFn(m_work->getPersonalityFn());
  Argument* frame = loops->getArg(0);
  frame->setName("frame");

  IRBuilder<> b(BasicBlock::Create(m_context, "entry", loops));
  auto field = [&](std::uint64_t offset) {
    return b.CreateConstInBoundsGEP1_64(i8, frame, offset);
  };
  // The frame and the kernel object may be read anywhere in the loops (the optimizer may then
  // hoist their invariant loads out of the work-item loops from a conditional block too): the
  // frame is a group_frame, and the object at least as large as the fields the body reads.
  loops->addParamAttr(0, Attribute::getWithDereferenceableBytes(m_context, frame_offset::size));
  loops->addParamAttr(0, Attribute::NonNull);
  loops->addParamAttr(0, Attribute::getWithAlignment(m_context, Align(8)));
  auto* object = b.CreateLoad(ptr, field(frame_offset::object), "object");
  std::uint64_t object_bytes = 0, object_align = 1;
  for (BasicBlock& block : *m_work)
    for (Instruction& i : block) {
      auto* load = dyn_cast<LoadInst>(&i);
      if (!load) continue;
      APInt offset(64, 0);
      const Value* base =
          load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true);
      if (base != m_work->getArg(0) || offset.isNegative()) continue;
      std::uint64_t at = offset.getZExtValue();
      object_bytes = std::max(object_bytes, at + layout.getTypeStoreSize(load->getType()));
      // A load at offset k aligned to a: the object is aligned to a where a divides k.
      std::uint64_t aligned = load->getAlign().value();
      if (at) aligned = std::min(aligned, at & (~at + 1));
      object_align = std::max(object_align, aligned);
    }
  MDBuilder metadata(m_context);
  object->setMetadata(LLVMContext::MD_nonnull, MDNode::get(m_context, {}));
  if (object_bytes)
    object->setMetadata(
        LLVMContext::MD_dereferenceable,
        MDNode::get(m_context, {metadata.createConstant(ConstantInt::get(i64, object_bytes))}));
  object->setMetadata(
      LLVMContext::MD_align,
      MDNode::get(m_context, {metadata.createConstant(ConstantInt::get(i64, object_align))}));
  Value* group = field(frame_offset::group);
  Value* range[3];
  // A local range is at least 1 and far below 2^31 (work-group sizes are limited by the device):
  // with that known, ids truncated to 32 bits and widened again (the headers' linear ids) stay
  // affine in the loop variables, so accesses indexed by them vectorize.
  MDNode* local_size =
      MDBuilder(m_context).createRange(APInt(64, 1), APInt(64, std::uint64_t(1) << 31));
  for (int d = 0; d < 3; ++d) {
    auto* load = b.CreateLoad(i64, field(frame_offset::loop_range + 8 * d), "range" + Twine(d));
    load->setMetadata(LLVMContext::MD_range, local_size);
    range[d] = load;
  }
  Value* local_memory = b.CreateLoad(ptr, field(frame_offset::local_memory), "local_memory");
  Value* scratch = b.CreateLoad(ptr, field(frame_offset::scratch), "scratch");
  Value* sub_group_size =
      lanes ? static_cast<Value*>(b.getInt32(lanes))
            : b.CreateTrunc(b.CreateLoad(i64, field(frame_offset::sub_group)), i32, "sub_group");
  Value* items = b.CreateMul(b.CreateMul(range[0], range[1]), range[2], "items");
  Value* exchange = b.CreateLoad(ptr, field(frame_offset::exchange), "exchange");
  Value* exchange_set = b.CreateLoad(i64, field(frame_offset::exchange_set), "exchange_set");

  // Per-work-item storage: one array per slot, 64-byte aligned, each work-item's element at
  // its linear id (consecutive work-items, consecutive elements: the loops vectorize).
  std::vector<Value*> bases;
  std::vector<std::uint64_t> strides;
  Value* offset = b.getInt64(0);
  for (AllocaInst* alloca : m_per_item) {
    std::uint64_t size = alloca->getAllocationSize(layout)->getFixedValue();
    std::uint64_t stride = alignTo(size, alloca->getAlign());
    Value* base = b.CreateAnd(b.CreateAdd(offset, b.getInt64(63)), b.getInt64(~std::uint64_t(63)));
    bases.push_back(base);
    strides.push_back(stride);
    offset = b.CreateAdd(base, b.CreateMul(items, b.getInt64(stride)));
  }
  // Where each work-item stands after a region that a divergent loop ends: at the loop's next
  // iteration or after it (split_divergent_loops).
  Value* places = nullptr;
  if (!m_loop_barriers.empty()) {
    places = b.CreateAnd(b.CreateAdd(offset, b.getInt64(63)), b.getInt64(~std::uint64_t(63)));
    offset = b.CreateAdd(places, b.CreateMul(items, b.getInt64(4)));
  }
  Value* storage = ConstantPointerNull::get(ptr);
  if (!m_per_item.empty() || places) {
    FunctionCallee get = m_module.getOrInsertFunction(storage_function, ptr, ptr, i64);
    storage = b.CreateCall(get, {frame, offset}, "storage");
  }
  std::vector<AllocaInst*> shared;
  DenseMap<const AllocaInst*, AllocaInst*> shared_of, entry_of; // m_work's slot -> here
  for (AllocaInst* alloca : m_shared) {
    auto* copy = b.CreateAlloca(alloca->getAllocatedType(), alloca->getArraySize());
    copy->setAlignment(alloca->getAlign());
    copy->setName(alloca->getName());
    shared.push_back(copy);
    shared_of[alloca] = copy;
  }
  for (const auto& reads : m_entry_reads)
    for (auto [load, slot] : reads) {
      AllocaInst*& entry = entry_of[slot];
      if (entry) continue;
      entry = b.CreateAlloca(slot->getAllocatedType(), nullptr, slot->getName() + ".entry");
      entry->setAlignment(slot->getAlign());
    }
  AllocaInst* next = b.CreateAlloca(i32, nullptr, "next_region");
  AllocaInst* epoch = b.CreateAlloca(i64, nullptr, "epoch"); // regions run so far
  b.CreateStore(b.getInt64(0), epoch);
  AllocaInst* iv[3];
  for (int d = 0; d < 3; ++d) iv[d] = b.CreateAlloca(i64, nullptr, "id" + Twine(d));
  AllocaInst* lowest = b.CreateAlloca(i32, nullptr, "lowest_exit");
  AllocaInst* highest = b.CreateAlloca(i32, nullptr, "highest_exit");
  b.CreateStore(b.getInt32(0), next);
  // Where a region inside a chain records the exit of the work-items it skips (nowhere: the
  // chain goes on to its next region).
  AllocaInst* ignored_lowest = b.CreateAlloca(i32, nullptr, "ignored_lowest");
  AllocaInst* ignored_highest = b.CreateAlloca(i32, nullptr, "ignored_highest");

  // Where work-items leave a region: barrier j, or the kernel's end (after the last barrier).
  const unsigned end_id = unsigned(m_barriers.size()) + 1;
  std::vector<Constant*> names{b.CreateGlobalString("the kernel's start", "", 0, &m_module)};
  for (const std::string& name : m_barrier_names)
    names.push_back(b.CreateGlobalString(name, "", 0, &m_module));
  names.push_back(b.CreateGlobalString("the kernel's end", "", 0, &m_module));
  auto* names_type = ArrayType::get(ptr, names.size());
  auto* name_table = new GlobalVariable(m_module, names_type, true, GlobalValue::PrivateLinkage,
                                        ConstantArray::get(names_type, names), "barrier_names");

  // Chains (lanes > 0): regions that follow each other across sub-group barriers alone, each
  // entered only from the one before, none part of a divergent loop. They run one sub-group at a
  // time: for each sub-group, each region's lane loop in turn (below). Its values then pass from
  // one exchange to the next in registers (exchange_forwarding.hpp), where region after region
  // over the whole group they pass through memory; and sub-groups may take different paths.
  std::vector<SmallVector<unsigned, 4>> chains(m_regions.size()); // at a chain's first region
  DenseSet<unsigned> nested;                                      // regions run only in a chain
  // Per chain: the uniform slots its regions write (here) and a copy of each at the chain's start,
  // from which each sub-group starts again.
  DenseMap<unsigned, SmallVector<std::pair<AllocaInst*, AllocaInst*>, 2>> chain_saved;
  if (lanes && !m_sub_group_barriers.empty()) {
    std::vector<SmallVector<unsigned, 2>> exits(m_regions.size());
    std::vector<unsigned> entering(end_id + 1, 0); // how many regions leave for barrier j
    DenseSet<unsigned> loop_ids;
    for (auto [iterate, after] : m_loop_barriers) {
      loop_ids.insert(iterate);
      loop_ids.insert(after);
    }
    for (unsigned r = 0; r < m_regions.size(); ++r) {
      auto add = [&](unsigned j) {
        if (!is_contained(exits[r], j)) exits[r].push_back(j);
      };
      for (BasicBlock* block : m_regions[r]) {
        if (isa<ReturnInst>(block->getTerminator())) add(end_id);
        for (BasicBlock* s : successors(block))
          if (unsigned j = m_barrier_id.lookup(s)) add(j);
      }
      for (unsigned j : exits[r]) ++entering[j];
    }
    auto plain = [&](unsigned r) {
      return !loop_ids.contains(r) &&
             none_of(exits[r], [&](unsigned j) { return loop_ids.contains(j); });
    };
    auto link = [&](unsigned r) -> unsigned {
      if (!plain(r) || exits[r].size() != 1) return 0;
      unsigned j = exits[r].front();
      bool follows =
          j != end_id && m_sub_group_barriers.contains(j) && entering[j] == 1 && plain(j);
      return follows ? j : 0;
    };
    DenseSet<unsigned> targets;
    for (unsigned r = 0; r < m_regions.size(); ++r)
      if (unsigned j = link(r)) targets.insert(j);
    for (unsigned r = 0; r < m_regions.size(); ++r) {
      if (targets.contains(r)) continue;
      SmallVector<unsigned, 4> members{r};
      for (unsigned j = link(r); j && !is_contained(members, j); j = link(j)) members.push_back(j);
      if (members.size() < 2) continue;
      for (std::size_t k = 1; k < members.size(); ++k) nested.insert(members[k]);
      auto in_chain = [&](const Instruction* i) {
        auto it = m_membership.find(i->getParent());
        return it != m_membership.end() &&
               any_of(members, [&](unsigned m) { return it->second.test(m); });
      };
      for (AllocaInst* slot : m_shared) {
        bool written = false;
        SmallVector<const Value*, 8> work{slot};
        DenseSet<const Value*> seen{slot};
        while (!work.empty() && !written) {
          const Value* v = work.pop_back_val();
          for (const User* user : v->users()) {
            const auto* i = dyn_cast<Instruction>(user);
            if (!i || isa<LoadInst>(i) || isa<LifetimeIntrinsic>(i)) continue;
            if (isa<GetElementPtrInst>(i) || isa<CastInst>(i) || isa<SelectInst>(i) ||
                isa<PHINode>(i)) {
              if (seen.insert(i).second) work.push_back(i);
              continue;
            }
            written = written || in_chain(i);
          }
        }
        if (!written) continue;
        AllocaInst* here = shared_of.lookup(slot);
        auto* save = b.CreateAlloca(here->getAllocatedType(), here->getArraySize(),
                                    here->getName() + ".chain");
        save->setAlignment(here->getAlign());
        chain_saved[r].push_back({here, save});
      }
      chains[r] = std::move(members);
    }
  }

  BasicBlock* dispatch = BasicBlock::Create(m_context, "dispatch", loops);
  BasicBlock* finished = BasicBlock::Create(m_context, "finished", loops);
  b.CreateBr(dispatch);
  b.SetInsertPoint(finished);
  b.CreateRet(ConstantPointerNull::get(ptr));
  b.SetInsertPoint(dispatch);
  SwitchInst* which = b.CreateSwitch(b.CreateLoad(i32, next), finished, unsigned(m_regions.size()));

  // Where a sub-group is the lane loop: a loop over the rows of the local range (all ids but the
  // innermost), inside it one over the sub-groups of a row (a row holds whole sub-groups), so that
  // no id is divided out of a linear index per sub-group. head/latch[0] are the rows', [1] the
  // sub-groups'; a finished row goes to `done`. Answers, at b inside both loops, the sub-group's
  // place.
  struct sub_group_rows {
    Value *row, *column_index, *sub_group, *first, *column, *id0, *id1;
  };
  auto sub_group_loops = [&](ArrayRef<BasicBlock*> head, ArrayRef<BasicBlock*> latch,
                             BasicBlock* done, AllocaInst* const* iv) {
    sub_group_rows at;
    Value* per_row = b.CreateLShr(range[2], b.getInt64(Log2_32(lanes)), "sub_groups_per_row");
    Value* rows = b.CreateMul(range[0], range[1], "rows", true, true);
    b.CreateStore(b.getInt64(0), iv[0]);
    b.CreateBr(head[0]);
    b.SetInsertPoint(head[0]);
    at.row = b.CreateLoad(i64, iv[0], "row");
    BasicBlock* row = BasicBlock::Create(m_context, "row", head[0]->getParent());
    b.CreateCondBr(b.CreateICmpULT(at.row, rows), row, done);
    b.SetInsertPoint(row);
    at.id0 = b.CreateUDiv(at.row, range[1]);
    at.id1 = b.CreateURem(at.row, range[1]);
    Value* row_first = b.CreateMul(at.row, range[2], "row_first", true, true);
    Value* row_sub_group = b.CreateMul(at.row, per_row, "row_sub_group", true, true);
    b.CreateStore(b.getInt64(0), iv[1]);
    b.CreateBr(head[1]);
    b.SetInsertPoint(head[1]);
    at.column_index = b.CreateLoad(i64, iv[1], "sub_group_in_row");
    BasicBlock* enter = BasicBlock::Create(m_context, "sub_group", head[0]->getParent());
    b.CreateCondBr(b.CreateICmpULT(at.column_index, per_row), enter, latch[0]);
    b.SetInsertPoint(enter);
    at.sub_group = b.CreateAdd(row_sub_group, at.column_index, "sub_group", true, true);
    // (A group's sub-groups fit the builtin's 32 bits: the index widened again is the same
    // value, so the slots' addresses are too.)
    b.CreateAssumption(b.CreateICmpULT(at.sub_group, b.getInt64(std::uint64_t(1) << 31)));
    at.column = b.CreateShl(at.column_index, b.getInt64(Log2_32(lanes)), "column", true, true);
    at.first = b.CreateAdd(row_first, at.column, "first", true, true);
    return at;
  };

  // At a region's innermost latch: the exit a work-item took joins the region's lowest and
  // highest (all work-items left at one barrier when they are equal).
  auto record_exit = [&](PHINode* exit) {
    b.CreateStore(b.CreateBinaryIntrinsic(Intrinsic::umin, b.CreateLoad(i32, lowest), exit),
                  lowest);
    b.CreateStore(b.CreateBinaryIntrinsic(Intrinsic::umax, b.CreateLoad(i32, highest), exit),
                  highest);
  };
  // The innermost work-item loop's properties, on its back edge: no dependence through memory
  // (its accesses join `access_group`, mark_parallel); a lane loop stays a loop for the
  // vectorizer (a constant trip count would get it unrolled first); `width`, where not 0, the
  // vector width asked for (without vectorize.enable, which would make a loop the vectorizer
  // cannot do a warning for the user).
  auto mark_work_item_loop = [&](BranchInst* back, MDNode* access_group, bool lane_loop,
                                 unsigned width) {
    SmallVector<Metadata*, 5> properties{
        nullptr, MDNode::get(m_context, {MDString::get(m_context, "llvm.loop.parallel_accesses"),
                                         access_group})};
    if (lane_loop)
      properties.push_back(
          MDNode::get(m_context, {MDString::get(m_context, "llvm.loop.unroll.disable")}));
    auto property = [&](StringRef name, unsigned value) {
      properties.push_back(MDNode::get(
          m_context, {MDString::get(m_context, name), ConstantAsMetadata::get(b.getInt32(value))}));
    };
    if (width) {
      property("llvm.loop.vectorize.width", width);
      property("llvm.loop.interleave.count", 1);
    }
    MDNode* loop = MDNode::getDistinct(m_context, properties);
    loop->replaceOperandWith(0, loop);
    back->setMetadata(LLVMContext::MD_loop, loop);
  };

  DenseMap<const Value*, unsigned> slot_of; // a work-item's element of per-work-item slot k
  // Region r's blocks copied into the loops for the work-item of the given ids (lane and
  // sub_group: the lane loop's variables where a sub-group is the lane loop); the addresses of
  // its per-work-item memory computed at b. A work-item that leaves the region goes to `leave`,
  // with the barrier's number added to `exit` where there is one. epoch: the count of regions
  // run when the loops know it (in a chain), else null (read from the variable). Answers the
  // region's first block.
  auto copy_region = [&](unsigned r, Value* const* id, Value* linear, Value* lane, Value* sub_group,
                         BasicBlock* leave, PHINode* exit, Value* epoch_value,
                         Value* const* chain_sets = nullptr, unsigned position = 0) -> BasicBlock* {
    ValueToValueMapTy map;
    map[m_work->getArg(0)] = object;
    map[m_work->getArg(1)] = group;
    for (int d = 0; d < 3; ++d) map[m_work->getArg(2 + d)] = id[d];
    DenseMap<Value*, Value*> memory;
    for (std::size_t k = 0; k < m_per_item.size(); ++k) {
      Value* slot = b.CreateInBoundsGEP(
          i8, storage, b.CreateAdd(bases[k], b.CreateMul(linear, b.getInt64(strides[k]))));
      memory[m_per_item[k]] = slot;
      slot_of[slot] = unsigned(k);
    }
    for (std::size_t k = 0; k < m_shared.size(); ++k) memory[m_shared[k]] = shared[k];

    SmallVector<BasicBlock*, 16> copies;
    for (BasicBlock* original : m_regions[r]) {
      BasicBlock* copy = CloneBasicBlock(original, map, ".r" + Twine(r), loops);
      map[original] = copy;
      copies.push_back(copy);
    }
    auto* first = cast<BasicBlock>(map[m_regions[r].front()]);
    // Private memory: the copies of the entry block's allocas give way to the slots.
    for (auto [original, slot] : memory) {
      auto it = map.find(original);
      Value* copy = it != map.end() ? static_cast<Value*>(it->second) : nullptr;
      map[original] = slot;
      if (copy && copy != slot) cast<Instruction>(copy)->eraseFromParent();
    }
    for (auto [load, slot] : m_entry_reads[r])
      cast<LoadInst>(map[load])->setOperand(0, entry_of.lookup(slot));

    DenseMap<BasicBlock*, BasicBlock*> to_barrier;
    for (BasicBlock* copy : copies) {
      for (Instruction& i : *copy) RemapInstruction(&i, map, RF_IgnoreMissingLocals);
      for (PHINode& phi : copy->phis())
        for (unsigned k = phi.getNumIncomingValues(); k-- > 0;)
          if (phi.getIncomingBlock(k)->getParent() != loops) phi.removeIncomingValue(k, false);
      Instruction* terminator = copy->getTerminator();
      if (isa<ReturnInst>(terminator)) {
        terminator->eraseFromParent();
        BranchInst::Create(leave, copy);
        if (exit) exit->addIncoming(ConstantInt::get(i32, end_id), copy);
        continue;
      }
      for (unsigned k = 0; k < terminator->getNumSuccessors(); ++k) {
        BasicBlock* target = terminator->getSuccessor(k);
        if (target->getParent() == loops) continue;
        BasicBlock*& to = to_barrier[target];
        if (!to) {
          to = BasicBlock::Create(m_context, "to_barrier", loops);
          BranchInst::Create(leave, to);
          if (exit) exit->addIncoming(ConstantInt::get(i32, m_barrier_id.lookup(target)), to);
        }
        terminator->setSuccessor(k, to);
      }
    }
    // Lifetime markers only apply to allocas; a per-work-item slot has none.
    for (BasicBlock* copy : copies)
      for (Instruction& i : make_early_inc_range(*copy))
        if (auto* marker = dyn_cast<LifetimeIntrinsic>(&i);
            marker && !isa<AllocaInst>(marker->getArgOperand(marker->arg_size() - 1)))
          marker->eraseFromParent();

    // The sub-group's place: from the loops' own variables when a sub-group is the lane loop,
    // else from the local linear id the header passes.
    for (BasicBlock* copy : copies)
      for (Instruction& i : make_early_inc_range(*copy)) {
        auto* call = dyn_cast<CallInst>(&i);
        Function* callee = call ? call->getCalledFunction() : nullptr;
        if (!callee) continue;
        Value* value = nullptr;
        IRBuilder<> at(call);
        if (sub_group_place_builtin(*callee)) {
          bool is_lane = callee->getName() == sub_group_lane_function;
          if (lanes) {
            value = at.CreateTrunc(is_lane ? lane : sub_group, i32);
          } else {
            Value* id = call->getArgOperand(0);
            value = is_lane ? at.CreateAnd(id, at.CreateSub(sub_group_size, at.getInt32(1)))
                            : at.CreateLShr(id, at.CreateBinaryIntrinsic(
                                                    Intrinsic::cttz, sub_group_size, at.getTrue()));
          }
        } else if (epoch_value && callee->getName() == epoch_function) {
          value = epoch_value;
        } else if (chain_sets && callee->getName() == exchange_slots_function) {
          // In a chain, the same two pointers for all its regions: the optimizer then sees the
          // store to a set and the next region's loads from it at one base.
          auto offset = cast<ConstantInt>(call->getArgOperand(0))->getZExtValue();
          value = chain_sets[(position + offset) & 1];
        }
        if (!value) continue;
        call->replaceAllUsesWith(value);
        call->eraseFromParent();
      }
    return first;
  };

  for (unsigned r = 0; r < m_regions.size(); ++r) {
    if (nested.contains(r)) continue; // (its chain runs it)
    auto block = [&](const Twine& name) {
      return BasicBlock::Create(m_context, name + Twine(".r") + Twine(r), loops);
    };
    BasicBlock* start = block("region");
    which->addCase(b.getInt32(r), start);
    // A divergent loop's iteration (the region after its iteration barrier: run only by the
    // work-items that stand there, the others keep waiting after the loop), or a region that
    // some work-items may leave for the next iteration: the work-items' places count.
    unsigned iterate_after = 0;
    SmallVector<std::pair<unsigned, unsigned>, 1> loop_exits;
    for (auto [iterate, after] : m_loop_barriers) {
      if (iterate == r) iterate_after = after;
      if (any_of(m_regions[r], [&, iterate = iterate](BasicBlock* block) {
            return any_of(successors(block),
                          [&](BasicBlock* s) { return m_barrier_id.lookup(s) == iterate; });
          }))
        loop_exits.push_back({iterate, after});
    }
    bool loop_region = iterate_after || !loop_exits.empty();
    BasicBlock* done = block("done");
    if (chains[r].size() > 1) {
      // A chain: for each sub-group, each of its regions' lane loop in turn.
      const SmallVector<unsigned, 4>& members = chains[r];
      const DataLayout& data = m_module.getDataLayout();
      auto copy_slot = [&](AllocaInst* to, AllocaInst* from) {
        b.CreateMemCpy(to, to->getAlign(), from, from->getAlign(),
                       b.getInt64(to->getAllocationSize(data)->getFixedValue()));
      };
      b.SetInsertPoint(start);
      b.CreateStore(b.getInt32(~0u), lowest);
      b.CreateStore(b.getInt32(0), highest);
      // The regions' epochs are known from the chain's first; the regions after the chain
      // count on from its last.
      Value* epoch_start = b.CreateLoad(i64, epoch, "chain_epoch");
      b.CreateStore(b.CreateAdd(epoch_start, b.getInt64(members.size() - 1)), epoch);
      // The exchange sets of the chain's first region (0) and of the one after it (1).
      Value* chain_sets[2];
      for (unsigned j = 0; j < 2; ++j)
        chain_sets[j] = b.CreateInBoundsGEP(
            i8, exchange,
            b.CreateMul(b.CreateAnd(b.CreateAdd(epoch_start, b.getInt64(j)), b.getInt64(1)),
                        exchange_set),
            "chain_set" + Twine(j));
      for (auto [slot, save] : chain_saved[r]) copy_slot(save, slot);
      SmallVector<BasicBlock*, 2> chain_head{block("row_head"), block("chain_head")};
      SmallVector<BasicBlock*, 2> chain_latch{block("row_latch"), block("chain_latch")};
      sub_group_rows rows = sub_group_loops(chain_head, chain_latch, done, iv);
      Value* sub_group = rows.sub_group;
      Value* first = rows.first;
      Value* column = rows.column;
      Value* id0 = rows.id0;
      Value* id1 = rows.id1;
      for (auto [slot, save] : chain_saved[r]) copy_slot(slot, save);
      for (std::size_t k = 0; k < members.size(); ++k) {
        unsigned m = members[k];
        bool last = k + 1 == members.size();
        auto member_block = [&](const Twine& name) {
          return BasicBlock::Create(m_context, name + Twine(".r") + Twine(m), loops);
        };
        DenseSet<const AllocaInst*> copied;
        for (auto [load, slot] : m_entry_reads[m])
          if (copied.insert(slot).second)
            b.CreateStore(b.CreateLoad(slot->getAllocatedType(), shared_of.lookup(slot)),
                          entry_of.lookup(slot));
        Value* member_epoch = k ? b.CreateAdd(epoch_start, b.getInt64(k)) : epoch_start;
        Value* active = b.getInt64(lanes);
        Value* lane_start = nullptr;
        Value* bound = narrowed_range(m, lanes, b, shared_of, entry_of, active, object, group,
                                      last ? lowest : ignored_lowest,
                                      last ? highest : ignored_highest, lane_start);
        if (bound) active = bound;
        BasicBlock* lane_head = member_block("lane_head");
        BasicBlock* body = member_block("work_item");
        BasicBlock* lane_latch = member_block("lane_latch");
        BasicBlock* after = member_block("after");
        b.CreateStore(lane_start, iv[2]);
        b.CreateBr(lane_head);
        b.SetInsertPoint(lane_head);
        Value* lane = b.CreateLoad(i64, iv[2], "lane");
        b.CreateCondBr(b.CreateICmpULT(lane, active), body, after);
        b.SetInsertPoint(body);
        Value* id[3] = {id0, id1, b.CreateAdd(column, lane, "id2", true, true)};
        Value* linear = b.CreateAdd(first, lane, "linear_id", true, true);
        PHINode* exit = last ? PHINode::Create(i32, 4, "exit", lane_latch) : nullptr;
        b.CreateBr(copy_region(m, id, linear, lane, sub_group, lane_latch, exit, member_epoch,
                               chain_sets, unsigned(k)));
        b.SetInsertPoint(lane_latch);
        if (exit && exit->getNumIncomingValues() == 0) {
          exit->eraseFromParent();
          exit = nullptr;
        }
        if (exit) record_exit(exit);
        b.CreateStore(b.CreateAdd(lane, b.getInt64(1)), iv[2]);
        // A whole sub-group as one vector iteration (where no test narrows the lanes): the
        // regions of a sub-group are then straight code, whose values the optimizer forwards.
        mark_work_item_loop(b.CreateBr(lane_head), MDNode::getDistinct(m_context, {}), true,
                            bound ? 0 : lanes);
        b.SetInsertPoint(after);
      }
      b.CreateBr(chain_latch[1]);
      b.SetInsertPoint(chain_latch[1]);
      b.CreateStore(b.CreateAdd(rows.column_index, b.getInt64(1)), iv[1]);
      b.CreateBr(chain_head[1]);
      b.SetInsertPoint(chain_latch[0]);
      b.CreateStore(b.CreateAdd(rows.row, b.getInt64(1)), iv[0]);
      b.CreateBr(chain_head[0]);
    } else {
      BasicBlock* body = block("work_item");
      // The loops' heads and latches, outermost first; latch.back() is where work-items leave.
      SmallVector<BasicBlock*, 3> head, latch;
      Value* id[3];
      Value* linear;
      Value* lane = nullptr;            // lanes > 0: the lane loop's variable
      Value* sub_group = nullptr;       // lanes > 0: the sub-group's index in the group
      Value* row_variable = nullptr;    // lanes > 0: the loop over rows of the local range
      Value* column_variable = nullptr; // lanes > 0: the loop over a row's sub-groups
      b.SetInsertPoint(start);
      DenseSet<const AllocaInst*> entry_copied;
      for (auto [load, slot] : m_entry_reads[r])
        if (entry_copied.insert(slot).second)
          b.CreateStore(b.CreateLoad(slot->getAllocatedType(), shared_of.lookup(slot)),
                        entry_of.lookup(slot));
      b.CreateStore(b.getInt32(~0u), lowest);
      b.CreateStore(b.getInt32(0), highest);
      if (lanes == 0) {
        Value* innermost = range[2];
        Value* start = b.getInt64(0);
        if (Value* bound = loop_region ? nullptr
                                       : narrowed_range(r, 0, b, shared_of, entry_of, range[2],
                                                        object, group, lowest, highest, start))
          innermost = bound;
        for (int d = 0; d < 3; ++d) {
          head.push_back(block("head" + Twine(d)));
          latch.push_back(block("latch" + Twine(d)));
        }
        b.CreateStore(b.getInt64(0), iv[0]);
        b.CreateBr(head[0]);
        for (int d = 0; d < 3; ++d) {
          b.SetInsertPoint(head[d]);
          id[d] = b.CreateLoad(i64, iv[d], "id" + Twine(d));
          BasicBlock* inner = d < 2 ? BasicBlock::Create(m_context, "enter", loops) : body;
          b.CreateCondBr(b.CreateICmpULT(id[d], d == 2 ? innermost : range[d]), inner,
                         d == 0 ? done : latch[d - 1]);
          if (d < 2) {
            b.SetInsertPoint(inner);
            b.CreateStore(d == 1 ? start : b.getInt64(0), iv[d + 1]);
            b.CreateBr(head[d + 1]);
          }
        }
        b.SetInsertPoint(body);
        linear =
            b.CreateAdd(b.CreateMul(b.CreateAdd(b.CreateMul(id[0], range[1]), id[1]), range[2]),
                        id[2], "linear_id");
      } else {
        head = {block("row_head"), block("sub_group_head"), block("lane_head")};
        latch = {block("row_latch"), block("sub_group_latch"), block("lane_latch")};
        Value* active = b.getInt64(lanes);
        Value* start = b.getInt64(0);
        if (Value* bound = loop_region ? nullptr
                                       : narrowed_range(r, lanes, b, shared_of, entry_of, active,
                                                        object, group, lowest, highest, start))
          active = bound;
        sub_group_rows rows = sub_group_loops(head, latch, done, iv);
        b.CreateStore(start, iv[2]);
        b.CreateBr(head[2]);
        b.SetInsertPoint(head[2]);
        lane = b.CreateLoad(i64, iv[2], "lane");
        b.CreateCondBr(b.CreateICmpULT(lane, active), body, latch[1]);
        b.SetInsertPoint(body);
        sub_group = rows.sub_group;
        row_variable = rows.row;
        column_variable = rows.column_index;
        id[0] = rows.id0;
        id[1] = rows.id1;
        id[2] = b.CreateAdd(rows.column, lane, "id2", true, true);
        linear = b.CreateAdd(rows.first, lane, "linear_id", true, true);
      }
      Value* place = loop_region ? b.CreateInBoundsGEP(i8, storage,
                                                       b.CreateAdd(places, b.CreateShl(linear, 2)))
                                 : nullptr;
      // Leaving the region: to the latch with the exit's number.
      PHINode* exit = PHINode::Create(i32, 4, "exit", latch.back());
      BasicBlock* first = copy_region(r, id, linear, lane, sub_group, latch.back(), exit, nullptr);
      if (iterate_after) {
        BasicBlock* waiting = block("waiting");
        b.CreateCondBr(b.CreateICmpEQ(b.CreateLoad(i32, place), b.getInt32(r)), first, waiting);
        BranchInst::Create(latch.back(), waiting);
        exit->addIncoming(b.getInt32(iterate_after), waiting);
      } else {
        b.CreateBr(first);
      }
      b.SetInsertPoint(latch.back());

      // The innermost work-item loop carries no dependence through memory (mark_parallel).
      MDNode* access_group = MDNode::getDistinct(m_context, {});

      std::vector<Value*> variables = lanes
                                          ? std::vector<Value*>{row_variable, column_variable, lane}
                                          : std::vector<Value*>{id[0], id[1], id[2]};
      if (exit->getNumIncomingValues() == 0) {
        // No work-item leaves the region normally (every path ends in unreachable or resume).
        exit->eraseFromParent();
        b.SetInsertPoint(latch.back());
        b.CreateUnreachable();
      } else {
        record_exit(exit);
        if (place) b.CreateStore(exit, place);
        b.CreateStore(b.CreateAdd(variables.back(), b.getInt64(1)), iv[variables.size() - 1]);
        mark_work_item_loop(b.CreateBr(head.back()), access_group, lanes != 0, 0);
      }
      for (std::size_t d = 0; d + 1 < variables.size(); ++d) {
        b.SetInsertPoint(latch[d]);
        b.CreateStore(b.CreateAdd(variables[d], b.getInt64(1)), iv[d]);
        b.CreateBr(head[d]);
      }
    }
    // All work-items left the region: at the same place, or the group stops.
    b.SetInsertPoint(done);
    Value* low = b.CreateLoad(i32, lowest);
    Value* high = b.CreateLoad(i32, highest);
    BasicBlock* same = block("same_exit");
    BasicBlock* differ = block("divergent");
    b.CreateCondBr(b.CreateICmpEQ(low, high), same, differ);
    b.SetInsertPoint(differ);
    // Some work-items at a divergent loop's next iteration, the others after it: the next
    // iteration.
    for (auto [iterate, after] : loop_exits) {
      BasicBlock* again = block("iterate");
      BasicBlock* other = block("divergent");
      b.CreateCondBr(b.CreateAnd(b.CreateICmpEQ(low, b.getInt32(std::min(iterate, after))),
                                 b.CreateICmpEQ(high, b.getInt32(std::max(iterate, after)))),
                     again, other);
      b.SetInsertPoint(again);
      b.CreateStore(b.getInt32(iterate), next);
      b.CreateStore(b.CreateAdd(b.CreateLoad(i64, epoch), b.getInt64(1)), epoch);
      b.CreateBr(dispatch);
      b.SetInsertPoint(other);
    }
    auto name_of = [&](Value* index) {
      return b.CreateLoad(ptr, b.CreateInBoundsGEP(names_type, name_table,
                                                   {b.getInt64(0), b.CreateZExt(index, i64)}));
    };
    FunctionCallee report = m_module.getOrInsertFunction(divergence_function,
                                                         Type::getVoidTy(m_context), ptr, ptr, ptr);
    b.CreateCall(report, {frame, name_of(low), name_of(high)});
    b.CreateRet(ConstantPointerNull::get(ptr));
    b.SetInsertPoint(same);
    b.CreateStore(low, next);
    b.CreateStore(b.CreateAdd(b.CreateLoad(i64, epoch), b.getInt64(1)), epoch);
    b.CreateBr(dispatch);
  }

  // The kernel object, the group id and the frame do not change while the group runs: loads
  // from them may move out of the work-item loops.
  MDNode* invariant = MDNode::get(m_context, {});
  for (BasicBlock& block : *loops)
    for (Instruction& i : block)
      if (auto* load = dyn_cast<LoadInst>(&i)) {
        const Value* base = getUnderlyingObject(load->getPointerOperand());
        if (load->isSimple() && (base == object || base == frame))
          load->setMetadata(LLVMContext::MD_invariant_load, invariant);
      }

  // Group state from the frame instead of the runtime's thread-local lookup.
  for (BasicBlock& block : *loops)
    for (Instruction& i : make_early_inc_range(block)) {
      auto* call = dyn_cast<CallInst>(&i);
      Function* callee = call ? call->getCalledFunction() : nullptr;
      if (!callee) continue;
      StringRef name = callee->getName();
      if (name == exchange_slots_function) {
        // The set of the region `offset` regions on: the count's parity picks it.
        IRBuilder<> at(call);
        Value* count = at.CreateAdd(at.CreateLoad(i64, epoch, "epoch"), call->getArgOperand(0));
        call->replaceAllUsesWith(at.CreateInBoundsGEP(
            i8, exchange, at.CreateMul(at.CreateAnd(count, at.getInt64(1)), exchange_set)));
        call->eraseFromParent();
        continue;
      }
      Value* value = name == local_memory_function     ? local_memory
                     : name == scratch_function        ? scratch
                     : name == sub_group_size_function ? sub_group_size
                     : name == vector_lanes_function   ? b.getInt32(lanes)
                     : name == exchange_area_function  ? exchange
                     : name == exchange_set_function   ? exchange_set
                     : name == epoch_function
                         ? new LoadInst(i64, epoch, "epoch", call->getIterator())
                         : nullptr;
      if (!value) continue;
      call->replaceAllUsesWith(value);
      call->eraseFromParent();
    }
  // Each per-work-item slot and the exchange area are memory of their own (and no pointer the
  // kernel computes reaches into another of them), which lets the optimizer keep values in
  // registers across the loops' stores to the others (exchange_forwarding.hpp).
  const unsigned exchange_scope = unsigned(m_per_item.size());
  auto scope_of = [&](const Value* pointer) -> std::optional<unsigned> {
    for (unsigned steps = 0; steps < 32; ++steps) {
      if (auto it = slot_of.find(pointer); it != slot_of.end()) return it->second;
      if (pointer == exchange) return exchange_scope;
      const auto* gep = dyn_cast<GEPOperator>(pointer);
      if (!gep) return std::nullopt;
      pointer = gep->getPointerOperand();
    }
    return std::nullopt;
  };
  MDBuilder scopes(m_context);
  MDNode* domain = scopes.createAnonymousAliasScopeDomain(own_memory_domain);
  SmallVector<Metadata*, 8> scope;
  for (unsigned k = 0; k <= exchange_scope; ++k)
    scope.push_back(scopes.createAnonymousAliasScope(
        domain, k == exchange_scope ? "exchange" : "per-work-item slot " + std::to_string(k)));
  // The frame, the kernel object and the memory their pointers reach (buffers, USM, local
  // memory) are none of them (but the exchange area, whose pointer the frame holds).
  auto from_object = [&](const Value* pointer) {
    const Value* base = getUnderlyingObject(pointer, 0);
    if (base == exchange) return false;
    if (const auto* load = dyn_cast<LoadInst>(base))
      base = getUnderlyingObject(load->getPointerOperand(), 0);
    return base == object || base == frame;
  };
  MDNode* internal = MDNode::get(m_context, scope);
  for (BasicBlock& block : *loops)
    for (Instruction& i : block) {
      if (!isa<LoadInst>(i) && !isa<StoreInst>(i)) continue;
      std::optional<unsigned> own = scope_of(getLoadStorePointerOperand(&i));
      if (!own) {
        if (from_object(getLoadStorePointerOperand(&i)))
          i.setMetadata(LLVMContext::MD_noalias, internal);
        continue;
      }
      SmallVector<Metadata*, 8> others;
      for (unsigned k = 0; k <= exchange_scope; ++k)
        if (k != *own) others.push_back(scope[k]);
      i.setMetadata(LLVMContext::MD_alias_scope, MDNode::get(m_context, {scope[*own]}));
      if (!others.empty()) i.setMetadata(LLVMContext::MD_noalias, MDNode::get(m_context, others));
    }
  return loops;
}

// The work-items of a region run in any order as far as SYCL is concerned: what one writes and
// another reads in the same region without atomics is a data race. So an innermost work-item
// loop carries no dependence through memory, and once the optimizer has put private variables
// into registers, its memory accesses join the loop's access group (llvm.loop.parallel_accesses,
// set by emit). Not those of private memory still in the loops' own allocas, which all the
// work-items of a region share: they keep the loop from counting as parallel.
void mark_parallel(Function& loops, FunctionAnalysisManager& functions) {
  LoopInfo& info = functions.getResult<LoopAnalysis>(loops);
  auto outside_allocas = [](Value* pointer) {
    SmallVector<const Value*, 4> objects;
    getUnderlyingObjects(pointer, objects, nullptr, 0);
    return none_of(objects, [](const Value* o) { return isa<AllocaInst>(o); });
  };
  for (Loop* loop : info.getLoopsInPreorder()) {
    MDNode* id = loop->getLoopID();
    MDNode* group = nullptr;
    for (unsigned k = 1; id && k < id->getNumOperands(); ++k)
      if (auto* property = dyn_cast<MDNode>(id->getOperand(k));
          property && property->getNumOperands() == 2)
        if (auto* name = dyn_cast<MDString>(property->getOperand(0));
            name && name->getString() == "llvm.loop.parallel_accesses")
          group = dyn_cast<MDNode>(property->getOperand(1));
    if (!group) continue;
    for (BasicBlock* block : loop->blocks())
      for (Instruction& i : *block) {
        bool parallel = false;
        if (auto* load = dyn_cast<LoadInst>(&i))
          parallel = load->isSimple() && outside_allocas(load->getPointerOperand());
        else if (auto* store = dyn_cast<StoreInst>(&i))
          parallel = store->isSimple() && outside_allocas(store->getPointerOperand());
        else if (auto* transfer = dyn_cast<MemTransferInst>(&i))
          parallel = !transfer->isVolatile() && outside_allocas(transfer->getDest()) &&
                     outside_allocas(transfer->getSource());
        else if (auto* set = dyn_cast<MemSetInst>(&i))
          parallel = !set->isVolatile() && outside_allocas(set->getDest());
        if (parallel) i.setMetadata(LLVMContext::MD_access_group, group);
      }
  }
}

// The loops checked, or the reason there are none.
Function* checked(Function* loops) {
  std::string problems;
  raw_string_ostream out(problems);
  if (!verifyFunction(*loops, &out)) return loops;
  // SYCLONE_HOST_LOOPS_DUMP=1: the failing function, for a bug report.
  if (const char* dump = std::getenv("SYCLONE_HOST_LOOPS_DUMP"); dump && *dump == '1')
    errs() << problems << *loops;
  loops->eraseFromParent();
  std::string first = problems.substr(0, problems.find('\n'));
  throw unsupported{"the loop compiler made invalid code (" + first +
                    "); please report this kernel"};
}

// Work-groups of fewer work-items than small_group run split_loop_strip iterations of a split
// loop per region (split_divergent_loops), larger ones one.
constexpr unsigned small_group = 64;
constexpr unsigned split_loop_strip = 64;

// The sub-group sizes to build loops of sub-group-sized lane loops for: the size the kernel
// requires where the host device supports it (1 too: its loops know the size, and a loop over a
// sub-group's lanes then has a trip count), else the primary sizes of AVX-512 and AVX CPUs.
static SmallVector<unsigned, 2> vector_sizes(std::uint32_t required) {
  if (required == 1 || required == 4 || required == 8 || required == 16 || required == 32)
    return {required};
  if (required == 0 || required >= 0xfffffffeu) return {16u, 8u}; // none, primary, automatic
  return {};
}

void loop_builder::discard() {
  if (!m_work) return;
  m_functions.clear(*m_work, m_work->getName());
  m_work->eraseFromParent();
  m_work = nullptr;
  m_exchanges = false;
  m_loop_calls.clear();
  m_loop_barriers.clear();
  m_barriers.clear();
  m_barrier_names.clear();
  m_barrier_id.clear();
  m_sub_group_barriers.clear();
  m_non_uniform_groups.clear();
  m_regions.clear();
  m_membership.clear();
  m_demoted_uniform.clear();
  m_shared.clear();
  m_per_item.clear();
  m_entry_reads.clear();
}

// With divergent loops split into iterations where that may pay; where that keeps the body from
// running in loops at all (a barrier that only then lies on a divergent path), without.
Function* loop_builder::build_loops() {
  // SYCLONE_HOST_LOOPS_SPLIT=0 (at compile time): no loop is split (to compare).
  if (const char* split = std::getenv("SYCLONE_HOST_LOOPS_SPLIT"); split && *split == '0')
    return build_loops(false);
  try {
    return build_loops(true);
  } catch (const unsupported& why) {
    if (m_loop_calls.empty()) throw;
    if (const char* dump = std::getenv("SYCLONE_HOST_LOOPS_DUMP"); dump && *dump == '3')
      errs() << "without split loops: " << why.reason << "\n";
  }
  discard();
  return build_loops(false);
}

Function* loop_builder::build_loops(bool split_loops) {
  m_split_loops = split_loops;
  prepare();
  // SYCLONE_HOST_LOOPS_DUMP=2: each work-item body as the loop compiler gets it.
  if (const char* dump = std::getenv("SYCLONE_HOST_LOOPS_DUMP"); dump && *dump == '2')
    errs() << *m_work;
  separate_guarded_tails();
  split_divergent_loops();
  if (const char* dump = std::getenv("SYCLONE_HOST_LOOPS_DUMP"); dump && *dump == '4')
    errs() << *m_work;
  split_barriers();
  demote_live_values(); // may split edges: regions after
  find_regions();
  place_private_memory();
  return checked(emit(m_lanes));
}

Function* loop_builder::build(std::uint32_t required_sub_group, SmallVectorImpl<Function*>& made) {
  SmallVector<unsigned, 2> sizes = vector_sizes(required_sub_group);
  Function* loops = nullptr;
  std::string general_failure;
  try {
    loops = build_loops();
    made.push_back(loops);
    if (!m_exchanges) sizes.clear();
  } catch (const unsupported& why) {
    // What only the sub-groups' sizes make impossible (a loop over a sub-group's lanes around
    // exchanges: in the general loops the last sub-group of a group may be partial, and its
    // work-items would leave the loop early) the loops for full sub-groups of one size may still
    // run; launches of other sizes run on fibers, for this reason.
    if (sizes.empty()) throw;
    general_failure = why.reason;
    discard();
  }
  // Sub-groups as vectors: loops whose lane loop has the sub-group's size as its trip count,
  // chosen at run time when the launch has that sub-group size and the innermost local range is
  // a multiple of it.
  SmallVector<std::pair<unsigned, Function*>, 2> vectors;
  for (unsigned lanes : sizes) {
    loop_builder version(m_module, m_body, m_callers, m_functions, lanes);
    try {
      Function* vector = version.build_loops();
      made.push_back(vector);
      vectors.push_back({lanes, vector});
    } catch (const unsupported&) {
      if (loops) throw;
    }
  }
  if (!loops && vectors.empty()) throw unsupported{general_failure};
  bool split = loops && !m_loop_calls.empty();
  if (loops && !split && vectors.empty()) return loops;
  Function* any = loops ? loops : vectors.front().second;
  Function* entry = Function::Create(any->getFunctionType(), GlobalValue::InternalLinkage,
                                     m_body.getName() + ".work_group", m_module);
  entry->copyAttributesFrom(any);
  Argument* frame = entry->getArg(0);
  IRBuilder<> b(BasicBlock::Create(m_context, "entry", entry));
  Type* i64 = Type::getInt64Ty(m_context);
  Value* size = b.CreateLoad(
      i64, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), frame, frame_offset::sub_group));
  Value* innermost = b.CreateLoad(
      i64, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), frame, frame_offset::loop_range + 16));
  Function* strips = nullptr;
  if (split) {
    // Small work-groups (a CPU-sized nd_range: BabelStream's Dot has 4 work-items) run several
    // iterations of a split loop per region, so that the regions' cost is spread over more work.
    loop_builder few(m_module, m_body, m_callers, m_functions);
    few.m_strip = split_loop_strip;
    try {
      strips = few.build_loops();
    } catch (const unsupported&) {
      split = false; // (the loops above serve small groups too)
    }
  }
  if (split) {
    made.push_back(strips);
    Value* items = innermost;
    for (int d = 0; d < 2; ++d)
      items = b.CreateMul(
          items, b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), frame,
                                                                frame_offset::loop_range + 8 * d)));
    BasicBlock* take = BasicBlock::Create(m_context, "small", entry);
    BasicBlock* next = BasicBlock::Create(m_context, "next", entry);
    b.CreateCondBr(b.CreateICmpULT(items, b.getInt64(small_group)), take, next);
    b.SetInsertPoint(take);
    b.CreateRet(b.CreateCall(strips, {frame}));
    b.SetInsertPoint(next);
  }
  for (auto [lanes, vector] : vectors) {
    BasicBlock* take = BasicBlock::Create(m_context, "sg" + Twine(lanes), entry);
    BasicBlock* next = BasicBlock::Create(m_context, "next", entry);
    Value* fits = b.CreateICmpEQ(b.CreateAnd(innermost, b.getInt64(lanes - 1)), b.getInt64(0));
    b.CreateCondBr(b.CreateAnd(b.CreateICmpEQ(size, b.getInt64(lanes)), fits), take, next);
    b.SetInsertPoint(take);
    b.CreateRet(b.CreateCall(vector, {frame}));
    b.SetInsertPoint(next);
  }
  if (loops)
    b.CreateRet(b.CreateCall(loops, {frame}));
  else
    b.CreateRet(b.CreateGlobalString(general_failure, "loops_reason", 0, &m_module));
  made.push_back(entry);
  return entry;
}

} // namespace

PreservedAnalyses work_item_loops_pass::run(Module& module, ModuleAnalysisManager& analyses) {
  Function* marker = module.getFunction(work_group_marker);
  if (!marker || marker->use_empty()) return PreservedAnalyses::all();
  DenseSet<const Function*> callers = group_callers(module);
  FunctionAnalysisManager& functions =
      analyses.getResult<FunctionAnalysisManagerModuleProxy>(module).getManager();
  // (body, required sub-group size) -> its loops, or the reason it has none
  DenseMap<std::pair<Function*, std::uint64_t>, Value*> done;
  SmallVector<CallInst*, 8> calls;
  for (User* user : marker->users())
    if (auto* call = dyn_cast<CallInst>(user); call && call->getCalledFunction() == marker)
      calls.push_back(call);
  for (CallInst* call : calls) {
    auto* body = dyn_cast<Function>(call->getArgOperand(0)->stripPointerCasts());
    auto* required = call->arg_size() > 2 ? dyn_cast<ConstantInt>(call->getArgOperand(2)) : nullptr;
    std::uint32_t sub_group = required ? std::uint32_t(required->getZExtValue()) : 0;
    IRBuilder<> b(call);
    Value*& result = done[{body, sub_group}];
    if (!result) {
      try {
        if (!body || body->isDeclaration() || body->arg_size() != 5)
          throw unsupported{"its work-item body is not visible to the loop compiler"};
        loop_builder builder(module, *body, callers, functions);
        SmallVector<Function*, 4> made;
        Function* loops = builder.build(sub_group, made);
        // At -O2 as at -O3: the O3 simplification unswitches the loops on the uniform branches
        // of the body (a loop's exit test, mostly), which the vectorizer needs.
        OptimizationLevel level = m_level.getSpeedupLevel() >= 2 ? OptimizationLevel::O3 : m_level;
        FunctionPassManager simplify =
            m_builder->buildFunctionSimplificationPipeline(level, ThinOrFullLTOPhase::None);
        for (Function* f : made) {
          functions.invalidate(*f, simplify.run(*f, functions));
          mark_parallel(*f, functions);
        }
        result = loops;
      } catch (const unsupported& why) {
        result = b.CreateGlobalString(why.reason, "loops_reason", 0, &module);
      }
    }
    Value* replacement =
        isa<Function>(result)
            ? static_cast<Value*>(b.CreateCall(cast<Function>(result), {call->getArgOperand(1)}))
            : result;
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

} // namespace syclone::host_loops
