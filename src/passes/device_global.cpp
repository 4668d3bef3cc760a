#include "device_global.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

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

// The variable the call's argument is the start of, or null.
llvm::GlobalVariable* object_of(llvm::CallBase& call, const llvm::DataLayout& layout) {
  llvm::Value* arg = call.getArgOperand(0);
  llvm::APInt offset(layout.getIndexTypeSizeInBits(arg->getType()), 0);
  llvm::Value* base = arg->stripAndAccumulateConstantOffsets(layout, offset, true);
  auto* variable = llvm::dyn_cast<llvm::GlobalVariable>(base->stripPointerCasts());
  return variable && offset.isZero() ? variable : nullptr;
}
} // namespace

std::string lower_device_globals(llvm::Module& module, llvm::StringRef builtin, bool indirect,
                                 unsigned address_space, std::vector<std::string>* names) {
  llvm::Function* marker = module.getFunction(builtin);
  if (!marker) return {};
  const llvm::DataLayout& layout = module.getDataLayout();
  // Inline the functions a call's object comes through (get(), operator T&, a helper taking
  // `device_global&`) into their callers, until each call names its variable.
  for (int round = 0; round < 16; ++round) {
    std::vector<llvm::Function*> holders;
    for (llvm::CallBase* call : calls_of(*marker)) {
      llvm::Function* f = call->getFunction();
      if (!object_of(*call, layout) && !f->use_empty() &&
          std::find(holders.begin(), holders.end(), f) == holders.end())
        holders.push_back(f);
    }
    if (holders.empty()) break;
    bool inlined = false;
    for (llvm::Function* f : holders)
      for (llvm::CallBase* site : calls_of(*f)) {
        llvm::InlineFunctionInfo info;
        inlined |= llvm::InlineFunction(*site, info).isSuccess();
      }
    if (!inlined) break;
  }
  llvm::LLVMContext& context = module.getContext();
  for (llvm::CallBase* site : calls_of(*marker)) {
    llvm::CallBase* call = site;
    if (auto* invoke = llvm::dyn_cast<llvm::InvokeInst>(site)) call = llvm::changeToCall(invoke);
    llvm::Function* holder = call->getFunction();
    llvm::GlobalVariable* object = object_of(*call, layout);
    if (!object) {
      // A function whose every call was inlined is dead; its call names nothing.
      if (holder->use_empty() && holder->hasLocalLinkage()) {
        call->replaceAllUsesWith(llvm::PoisonValue::get(call->getType()));
        call->eraseFromParent();
        continue;
      }
      return "a device_global in `" + holder->getName().str() +
             "` is reached through a pointer the compiler cannot follow to its variable "
             "(recursion or a call through a function pointer); access the device_global by "
             "name in the kernel";
    }
    llvm::IRBuilder<> at(call);
    llvm::Value* address = nullptr;
    if (indirect) {
      auto* bytes = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
      if (!bytes)
        return "the device_global `" + object->getName().str() + "` in `" +
               holder->getName().str() + "` has no constant size";
      const std::string name =
          device_global_pointer(object->getName().str(), bytes->getZExtValue());
      auto* pointer_type = llvm::PointerType::get(context, 0);
      llvm::GlobalVariable* pointer = module.getGlobalVariable(name, true);
      if (!pointer) {
        pointer = new llvm::GlobalVariable(
            module, pointer_type, false, llvm::GlobalValue::ExternalLinkage,
            llvm::ConstantPointerNull::get(pointer_type), name, nullptr,
            llvm::GlobalValue::NotThreadLocal, address_space, /*externally initialized*/ true);
        pointer->setAlignment(llvm::Align(8));
        llvm::appendToUsed(module, {pointer});
        if (names) names->push_back(name);
      }
      address = at.CreateAlignedLoad(pointer_type, pointer, llvm::Align(8), name);
    } else {
      address = call->getArgOperand(0);
    }
    if (address->getType() != call->getType())
      address = at.CreatePointerBitCastOrAddrSpaceCast(address, call->getType());
    call->replaceAllUsesWith(address);
    call->eraseFromParent();
  }
  if (marker->use_empty()) marker->eraseFromParent();
  return {};
}

} // namespace syclone::passes
