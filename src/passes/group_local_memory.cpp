#include "group_local_memory.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>

#include <vector>

namespace syclone::passes {

namespace {
std::vector<llvm::CallBase*> calls_of(llvm::Function& f) {
  std::vector<llvm::CallBase*> calls;
  for (llvm::User* user : f.users())
    if (auto* call = llvm::dyn_cast<llvm::CallBase>(user); call && call->getCalledOperand() == &f)
      calls.push_back(call);
  return calls;
}
} // namespace

std::string lower_group_local_memory(llvm::Module& module, llvm::StringRef builtin,
                                     unsigned address_space, bool per_thread) {
  llvm::Function* allocate = module.getFunction(builtin);
  if (!allocate) return {};
  // Inline the always-inline functions that hold a call (group_local_memory<T> and what it calls
  // in the headers) into their callers, until each call sits in the code that asked for memory.
  for (int round = 0; round < 8; ++round) {
    std::vector<llvm::Function*> holders;
    for (llvm::CallBase* call : calls_of(*allocate)) {
      llvm::Function* f = call->getFunction();
      if (f->hasFnAttribute(llvm::Attribute::AlwaysInline) && !f->use_empty() &&
          std::find(holders.begin(), holders.end(), f) == holders.end())
        holders.push_back(f);
    }
    if (holders.empty()) break;
    for (llvm::Function* f : holders)
      for (llvm::CallBase* site : calls_of(*f)) {
        llvm::InlineFunctionInfo info;
        (void)llvm::InlineFunction(*site, info);
      }
  }
  llvm::LLVMContext& context = module.getContext();
  for (llvm::CallBase* site : calls_of(*allocate)) {
    // (The builtins are noexcept; an invoke of one unwinds nowhere.)
    llvm::CallBase* call = site;
    if (auto* invoke = llvm::dyn_cast<llvm::InvokeInst>(site)) call = llvm::changeToCall(invoke);
    llvm::Function* holder = call->getFunction();
    // An always-inline function nobody calls any more is dead: its call needs no variable.
    if (holder->hasFnAttribute(llvm::Attribute::AlwaysInline) && holder->use_empty() &&
        holder->hasLocalLinkage()) {
      call->replaceAllUsesWith(llvm::PoisonValue::get(call->getType()));
      call->eraseFromParent();
      continue;
    }
    auto* bytes = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    auto* alignment = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
    if (!bytes || !alignment)
      return "group_local_memory in `" + holder->getName().str() +
             "`: the size or alignment of the object is not a constant";
    auto* type = llvm::ArrayType::get(llvm::Type::getInt8Ty(context),
                                      std::max<std::uint64_t>(bytes->getZExtValue(), 1));
    auto* variable = new llvm::GlobalVariable(
        module, type, false, llvm::GlobalValue::InternalLinkage,
        per_thread ? llvm::Constant::getNullValue(type) : llvm::UndefValue::get(type),
        "syclone.group_local_memory", nullptr,
        per_thread ? llvm::GlobalValue::GeneralDynamicTLSModel : llvm::GlobalValue::NotThreadLocal,
        address_space);
    variable->setAlignment(llvm::Align(std::max<std::uint64_t>(alignment->getZExtValue(), 1)));
    llvm::IRBuilder<> at(call);
    llvm::Value* address =
        per_thread ? static_cast<llvm::Value*>(at.CreateThreadLocalAddress(variable)) : variable;
    if (address->getType() != call->getType())
      address = at.CreateAddrSpaceCast(address, call->getType());
    call->replaceAllUsesWith(address);
    call->eraseFromParent();
  }
  if (allocate->use_empty()) allocate->eraseFromParent();
  return {};
}

} // namespace syclone::passes
