#include "group_local_memory.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
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
// Inlines the always-inline functions that hold a call of `builtin` (the headers' wrappers)
// into their callers, until each call sits in the code that asked for memory.
void inline_holders(llvm::Function& builtin) {
  for (int round = 0; round < 8; ++round) {
    std::vector<llvm::Function*> holders;
    for (llvm::CallBase* call : calls_of(builtin)) {
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
}

// The object a pointer names: a global variable or an alloca, seen through casts, constant
// offsets of zero, and (unoptimized code) a pointer stored once into an alloca and loaded back.
llvm::Value* object_of(llvm::Value* pointer, int depth = 0) {
  if (depth > 16 || !pointer) return nullptr;
  llvm::Value* v = pointer->stripPointerCasts();
  if (llvm::isa<llvm::GlobalVariable>(v)) return v;
  if (auto* alias = llvm::dyn_cast<llvm::GlobalAlias>(v))
    return object_of(alias->getAliasee(), depth + 1);
  if (auto* load = llvm::dyn_cast<llvm::LoadInst>(v)) {
    auto* slot = llvm::dyn_cast<llvm::AllocaInst>(load->getPointerOperand()->stripPointerCasts());
    if (!slot) return nullptr;
    llvm::StoreInst* only = nullptr;
    for (llvm::User* user : slot->users()) {
      if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (store->getPointerOperand()->stripPointerCasts() != slot || only) return nullptr;
        only = store;
      } else if (!llvm::isa<llvm::LoadInst>(user) && !llvm::isa<llvm::IntrinsicInst>(user)) {
        return nullptr; // the slot escapes: another store may reach it
      }
    }
    return only ? object_of(only->getValueOperand(), depth + 1) : nullptr;
  }
  if (llvm::isa<llvm::AllocaInst>(v)) return v; // a work_group_static declared without static
  return nullptr;
}
} // namespace

std::string lower_work_group_static(llvm::Module& module, llvm::StringRef builtin,
                                    unsigned address_space, bool per_thread) {
  llvm::Function* allocate = module.getFunction(builtin);
  if (!allocate) return {};
  inline_holders(*allocate);
  llvm::LLVMContext& context = module.getContext();
  std::vector<std::pair<llvm::Value*, llvm::GlobalVariable*>> storage;
  for (llvm::CallBase* site : calls_of(*allocate)) {
    llvm::CallBase* call = site;
    if (auto* invoke = llvm::dyn_cast<llvm::InvokeInst>(site)) call = llvm::changeToCall(invoke);
    llvm::Function* holder = call->getFunction();
    if (holder->hasFnAttribute(llvm::Attribute::AlwaysInline) && holder->use_empty() &&
        holder->hasLocalLinkage()) {
      call->replaceAllUsesWith(llvm::PoisonValue::get(call->getType()));
      call->eraseFromParent();
      continue;
    }
    auto* bytes = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
    auto* alignment = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(2));
    llvm::Value* object = object_of(call->getArgOperand(0));
    if (!bytes || !alignment)
      return "work_group_static in `" + holder->getName().str() +
             "`: the size or alignment of the object is not a constant";
    if (!object)
      return "work_group_static in `" + holder->getName().str() +
             "`: the variable cannot be told at compile time (a work_group_static reached "
             "through a pointer or reference that is not a variable's own); name the "
             "variable itself (sycl_ext_oneapi_work_group_static)";
    llvm::GlobalVariable* variable = nullptr;
    for (auto& [key, made] : storage)
      if (key == object) variable = made;
    if (!variable) {
      auto* type = llvm::ArrayType::get(llvm::Type::getInt8Ty(context),
                                        std::max<std::uint64_t>(bytes->getZExtValue(), 1));
      // A variable other units may name too (namespace scope, a static member, an inline
      // variable) gets storage of one name in every unit, merged at the link; others their own.
      auto* global = llvm::dyn_cast<llvm::GlobalVariable>(object);
      bool shared_name = global && !global->hasLocalLinkage();
      variable = new llvm::GlobalVariable(
          module, type, false,
          shared_name ? llvm::GlobalValue::LinkOnceODRLinkage : llvm::GlobalValue::InternalLinkage,
          per_thread ? llvm::Constant::getNullValue(type) : llvm::UndefValue::get(type),
          shared_name ? "syclone.work_group_static." + global->getName().str()
                      : std::string("syclone.work_group_static"),
          nullptr,
          per_thread ? llvm::GlobalValue::GeneralDynamicTLSModel
                     : llvm::GlobalValue::NotThreadLocal,
          address_space);
      variable->setAlignment(llvm::Align(std::max<std::uint64_t>(alignment->getZExtValue(), 1)));
      storage.emplace_back(object, variable);
    }
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

std::string lower_group_local_memory(llvm::Module& module, llvm::StringRef builtin,
                                     unsigned address_space, bool per_thread) {
  llvm::Function* allocate = module.getFunction(builtin);
  if (!allocate) return {};
  // group_local_memory<T> and what it calls in the headers, into the code that asked.
  inline_holders(*allocate);
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
