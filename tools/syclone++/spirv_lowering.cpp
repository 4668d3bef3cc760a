#include "spirv_lowering.hpp"
#include "passes/device_global.hpp"
#include "passes/group_local_memory.hpp"

#include "device_link.hpp"
#include "diagnostics.hpp"

#include "module.hpp"
#include "postpass.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/ReplaceConstant.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/GVN.h>
#include <llvm/Transforms/Scalar/SROA.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <set>

extern "C" void LLVMInitializeSPIRVTargetInfo();
extern "C" void LLVMInitializeSPIRVTarget();
extern "C" void LLVMInitializeSPIRVTargetMC();
extern "C" void LLVMInitializeSPIRVAsmPrinter();

namespace syclone::driver {

// Runs the passes `add` puts into a module pass manager over `module`.
void run_passes(llvm::Module& module, const std::function<void(llvm::ModulePassManager&)>& add) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  add(mpm);
  mpm.run(module, mam);
}

namespace {

constexpr const char* spirv_triple = "spirv64-unknown-unknown";
// The Intel extensions LLVM 22's SPIR-V backend may use for syclone's device code (it emits an
// extension only where an instruction needs it): sub-group shuffles and block operations, cache
// controls, and work-group collectives with uniform operands. SPV_EXT_relaxed_printf_string_
// address_space only keeps the backend from failing on printf (the post-pass drops it again:
// src/spirv/postpass.cpp).
constexpr const char* spirv_extensions =
    "+SPV_INTEL_subgroups,+SPV_INTEL_cache_controls,+SPV_KHR_uniform_group_instructions,"
    "+SPV_EXT_relaxed_printf_string_address_space";

bool is_kernel(const llvm::Function& f) {
  return !f.isDeclaration() && f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL;
}

// The image is a whole program: only kernels are entry points, so everything else may be
// inlined and dropped (and the SPIR-V needs no Linkage capability for exported functions).
void internalize(llvm::Module& module) {
  for (llvm::Function& f : module)
    if (!f.isDeclaration() && !is_kernel(f)) f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable& v : module.globals())
    if (!v.isDeclaration()) v.setLinkage(llvm::GlobalValue::InternalLinkage);
  run_passes(module, [](llvm::ModulePassManager& mpm) { mpm.addPass(llvm::GlobalDCEPass()); });
}

// --- specialization constants -------------------------------------------------------------
//
// Device code reads a specialization constant as
//   T result = <default>; __syclone_spec_constant(name, &result, sizeof(T)); use result
// (include/sycl/kernel_handler.hpp). Each read becomes, per scalar piece of T,
//   store (__spirv_SpecConstant(SpecId, <default piece>)) into result
// which the backend writes as OpSpecConstant + SpecId. The pieces follow the loads device code
// makes of `result` (a float reads as one float); where those do not tile T (a struct read as a
// whole), T is cut into 32-bit integers (64-bit for 8-byte T; 8/16-bit for a tail).

struct piece {
  std::uint32_t offset;
  llvm::Type* type;
};

bool is_spec_scalar(const llvm::Type* t) {
  if (t->isHalfTy() || t->isFloatTy() || t->isDoubleTy()) return true;
  if (const auto* i = llvm::dyn_cast<llvm::IntegerType>(t)) {
    unsigned w = i->getBitWidth();
    return w == 8 || w == 16 || w == 32 || w == 64;
  }
  return false;
}

// The loads device code makes of the value at `base`, by offset; nothing unless they tile it.
std::optional<std::vector<piece>> loaded_pieces(const llvm::DataLayout& layout, llvm::Value* base,
                                                std::uint32_t size) {
  std::map<std::uint32_t, llvm::Type*> loads;
  std::vector<std::pair<llvm::Value*, std::int64_t>> work{{base->stripPointerCasts(), 0}};
  std::set<llvm::Value*> seen;
  while (!work.empty()) {
    auto [value, offset] = work.back();
    work.pop_back();
    if (!seen.insert(value).second) continue;
    for (llvm::User* user : value->users()) {
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(user)) {
        llvm::Type* t = load->getType();
        if (!is_spec_scalar(t)) return std::nullopt;
        auto [it, fresh] = loads.try_emplace(static_cast<std::uint32_t>(offset), t);
        if (!fresh && it->second != t) return std::nullopt;
      } else if (auto* gep = llvm::dyn_cast<llvm::GEPOperator>(user)) {
        llvm::APInt delta(layout.getIndexTypeSizeInBits(gep->getType()), 0);
        if (gep->getPointerOperand() != value || !gep->accumulateConstantOffset(layout, delta))
          return std::nullopt;
        work.push_back({gep, offset + delta.getSExtValue()});
      } else if (llvm::isa<llvm::AddrSpaceCastInst, llvm::BitCastInst>(user) ||
                 (llvm::isa<llvm::ConstantExpr>(user) &&
                  llvm::cast<llvm::ConstantExpr>(user)->isCast())) {
        work.push_back({user, offset});
      }
    }
  }
  std::vector<piece> pieces;
  std::uint32_t next = 0;
  for (const auto& [offset, type] : loads) {
    if (offset != next) return std::nullopt;
    pieces.push_back({offset, type});
    next += static_cast<std::uint32_t>(layout.getTypeStoreSize(type));
  }
  if (next != size || pieces.empty()) return std::nullopt;
  return pieces;
}

std::vector<piece> integer_pieces(llvm::LLVMContext& context, std::uint32_t size) {
  std::vector<piece> pieces;
  if (size == 8) return {{0, llvm::Type::getInt64Ty(context)}};
  std::uint32_t offset = 0;
  for (unsigned bytes : {4u, 2u, 1u})
    for (; size - offset >= bytes; offset += bytes)
      pieces.push_back({offset, llvm::Type::getIntNTy(context, bytes * 8)});
  return pieces;
}

// Itanium mangling of __spirv_SpecConstant(int, T): the backend matches the demangled name.
std::string spec_constant_builtin(const llvm::Type* t) {
  std::string code;
  if (t->isHalfTy())
    code = "DF16_";
  else if (t->isFloatTy())
    code = "f";
  else if (t->isDoubleTy())
    code = "d";
  else {
    switch (t->getIntegerBitWidth()) {
    case 8:
      code = "a";
      break;
    case 16:
      code = "s";
      break;
    case 32:
      code = "i";
      break;
    default:
      code = "l";
      break;
    }
  }
  return "_Z20__spirv_SpecConstanti" + code;
}

void lower_spec_constants(llvm::Module& module, std::string& manifest) {
  llvm::Function* marker = module.getFunction("__syclone_spec_constant");
  if (!marker) return;
  const llvm::DataLayout& layout = module.getDataLayout();
  llvm::LLVMContext& context = module.getContext();

  struct read {
    llvm::CallBase* call;
    std::string name;
    std::uint32_t size;
    std::optional<std::vector<piece>> loads;
  };
  std::vector<read> reads;
  for (llvm::User* user : marker->users()) {
    auto* call = llvm::dyn_cast<llvm::CallBase>(user);
    if (!call || call->getCalledOperand() != marker || call->arg_size() != 3)
      throw driver_error("__syclone_spec_constant is used other than by the calls of "
                         "kernel_handler::get_specialization_constant (a bug in syclone)");
    auto name = spec_constant_name(call->getArgOperand(0));
    auto* size = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(2));
    if (!name || !size)
      throw driver_error("a specialization constant read in " +
                         call->getFunction()->getName().str() +
                         " has no constant name or size (a bug in syclone)");
    auto bytes = static_cast<std::uint32_t>(size->getZExtValue());
    reads.push_back({call, *name, bytes, loaded_pieces(layout, call->getArgOperand(1), bytes)});
  }

  // One layout per name, SpecIds in name order: the same program gives the same ids.
  std::map<std::string, std::vector<piece>> pieces;
  for (const auto& r : reads) {
    auto [it, fresh] = pieces.try_emplace(r.name);
    auto chosen = r.loads ? *r.loads : integer_pieces(context, r.size);
    if (fresh) {
      it->second = chosen;
    } else if (it->second.size() != chosen.size() ||
               !std::equal(it->second.begin(), it->second.end(), chosen.begin(),
                           [](const piece& a, const piece& b) {
                             return a.offset == b.offset && a.type == b.type;
                           })) {
      it->second = integer_pieces(context, r.size);
    }
  }
  std::map<std::string, std::uint32_t> first_id;
  std::uint32_t next_id = 0;
  for (const auto& [name, list] : pieces) {
    first_id[name] = next_id;
    for (const auto& p : list)
      manifest += "spec_constant " + name + " " + std::to_string(next_id++) + " " +
                  std::to_string(p.offset) + " " + std::to_string(layout.getTypeStoreSize(p.type)) +
                  "\n";
  }

  for (const auto& r : reads) {
    llvm::IRBuilder<> b(r.call);
    llvm::Value* base = r.call->getArgOperand(1);
    std::uint32_t id = first_id[r.name];
    for (const auto& p : pieces[r.name]) {
      llvm::Value* at = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), base, p.offset);
      llvm::Value* initial = b.CreateLoad(p.type, at);
      llvm::FunctionCallee builtin = module.getOrInsertFunction(
          spec_constant_builtin(p.type),
          llvm::FunctionType::get(p.type, {b.getInt32Ty(), p.type}, false));
      b.CreateStore(b.CreateCall(builtin, {b.getInt32(id++), initial}), at);
    }
    r.call->eraseFromParent();
  }
  marker->eraseFromParent();

  // The default values are constants stored just before each read: forwarding them to the
  // loads above leaves every __spirv_SpecConstant with a literal default.
  // The names' strings are dead afterwards; SPIR-V 1.4 would list them in every entry point.
  run_passes(module, [](llvm::ModulePassManager& mpm) {
    llvm::FunctionPassManager fpm;
    fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
    fpm.addPass(llvm::EarlyCSEPass(true));
    fpm.addPass(llvm::InstCombinePass());
    fpm.addPass(llvm::GVNPass());
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
    mpm.addPass(llvm::GlobalDCEPass());
  });
  for (llvm::Function& f : module) {
    if (!f.getName().starts_with("_Z20__spirv_SpecConstant")) continue;
    for (llvm::User* user : f.users()) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(user);
      if (call && !llvm::isa<llvm::Constant>(call->getArgOperand(1))) {
        auto id = llvm::cast<llvm::ConstantInt>(call->getArgOperand(0))->getZExtValue();
        std::string name;
        for (const auto& [n, first] : first_id)
          if (first <= id) name = n;
        throw driver_error("the default value of specialization constant " + name + " (SpecId " +
                           std::to_string(id) + ") in " + call->getFunction()->getName().str() +
                           " is not a compile-time constant; a specialization_id's value must "
                           "be a constant expression (SYCL 2020 4.9.5.1)");
      }
    }
  }
}

// --- pointer comparisons ---------------------------------------------------------------------
//
// LLVM's SPIR-V backend gives each opaque pointer the pointee type it infers from its uses, and
// emits OpPtrEqual / OpPtrNotEqual for comparisons of two pointers whose inferred types differ
// (an int* from a multi_ptr against one the kernel computed as bytes), which spirv-val rejects.
// Compared as addresses (OpConvertPtrToU, Addresses capability) they mean the same.
void compare_pointers_as_addresses(llvm::Module& module) {
  const llvm::DataLayout& layout = module.getDataLayout();
  for (llvm::Function& f : module)
    for (llvm::BasicBlock& b : f)
      for (llvm::Instruction& i : llvm::make_early_inc_range(b)) {
        auto* compare = llvm::dyn_cast<llvm::ICmpInst>(&i);
        if (!compare || !compare->getOperand(0)->getType()->isPointerTy()) continue;
        llvm::IRBuilder<> at(compare);
        llvm::Type* word = layout.getIntPtrType(compare->getOperand(0)->getType());
        llvm::Value* lhs = at.CreatePtrToInt(compare->getOperand(0), word);
        llvm::Value* rhs = at.CreatePtrToInt(compare->getOperand(1), word);
        compare->replaceAllUsesWith(at.CreateICmp(compare->getPredicate(), lhs, rhs));
        compare->eraseFromParent();
      }
}

// --- printf ------------------------------------------------------------------------------------
//
// OpenCL C's printf (OpenCL.std printf) takes its format string in the constant address space,
// and LLVM's SPIR-V backend refuses any other (short of SPV_EXT_relaxed_printf_string_address_
// space, which OpenCL consumers need not have). clang places string literals and DPC++'s
// __SYCL_CONSTANT_AS strings in global memory and passes the format as a generic pointer: each
// printf call gets its format from a copy of the string in the constant address space instead.
// The format is found behind casts and, at -O0, behind the one store to a local variable holding
// it; one known only at run time is an error (OpenCL requires a compile-time string).

// The constant string `value` holds, or null.
llvm::GlobalVariable* constant_string(llvm::Value* value, int depth = 0) {
  value = value->stripPointerCasts();
  if (auto* global = llvm::dyn_cast<llvm::GlobalVariable>(value))
    return global->isConstant() && global->hasDefinitiveInitializer() ? global : nullptr;
  auto* load = llvm::dyn_cast<llvm::LoadInst>(value);
  if (!load || depth > 16) return nullptr;
  auto* slot = llvm::dyn_cast<llvm::AllocaInst>(load->getPointerOperand()->stripPointerCasts());
  if (!slot) return nullptr;
  llvm::Value* stored = nullptr;
  for (llvm::BasicBlock& block : *load->getFunction())
    for (llvm::Instruction& i : block)
      if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&i);
          store && store->getPointerOperand()->stripPointerCasts() == slot) {
        if (stored) return nullptr; // written more than once: not followed
        stored = store->getValueOperand();
      }
  return stored ? constant_string(stored, depth + 1) : nullptr;
}

void constant_printf_formats(llvm::Module& module) {
  llvm::Function* generic = module.getFunction("printf");
  if (!generic || generic->use_empty() || !generic->isVarArg() || generic->arg_size() != 1) return;
  llvm::LLVMContext& context = module.getContext();
  generic->setName("printf.generic");
  auto* type =
      llvm::FunctionType::get(generic->getReturnType(), {llvm::PointerType::get(context, 2)}, true);
  // OpenCL C's printf(constant char*, ...) by its Itanium-mangled name, from which the backend
  // learns that the format points to chars (a pointer to the string's array fails spirv-val).
  llvm::Function* printf = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                                  "_Z6printfPU3AS2Kcz", module);
  printf->setCallingConv(generic->getCallingConv());
  std::map<llvm::GlobalVariable*, llvm::GlobalVariable*> copies;
  for (llvm::User* user : llvm::make_early_inc_range(generic->users())) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call || call->getCalledOperand() != generic)
      throw driver_error(
          "device code takes the address of printf (in " +
          (llvm::isa<llvm::Instruction>(user)
               ? llvm::demangle(llvm::cast<llvm::Instruction>(user)->getFunction()->getName())
               : std::string("a constant")) +
          "); OpenCL's printf can only be called");
    llvm::GlobalVariable* string = constant_string(call->getArgOperand(0));
    if (!string) {
      std::string where = llvm::demangle(call->getFunction()->getName().str());
      if (where.starts_with("typeinfo name for ")) where = "kernel " + where.substr(18);
      throw driver_error("printf in " + where +
                         " has a format string that is not a constant known at compile time, "
                         "which OpenCL's printf requires for SPIR-V; pass a string literal or a "
                         "static const __SYCL_CONSTANT_AS char array");
    }
    llvm::GlobalVariable*& copy = copies[string];
    if (!copy) {
      copy = new llvm::GlobalVariable(module, string->getValueType(), true,
                                      llvm::GlobalValue::InternalLinkage, string->getInitializer(),
                                      string->getName() + ".constant", nullptr,
                                      llvm::GlobalValue::NotThreadLocal, 2);
      copy->setAlignment(string->getAlign());
      copy->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    }
    llvm::SmallVector<llvm::Value*, 8> arguments(call->args());
    arguments[0] = copy;
    llvm::IRBuilder<> at(call);
    llvm::CallInst* replacement = at.CreateCall(printf, arguments);
    replacement->setCallingConv(call->getCallingConv());
    replacement->setTailCallKind(call->getTailCallKind());
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  generic->eraseFromParent();
  // The strings in global memory that only printf used go (the image carries each once).
  for (auto& [string, copy] : copies) {
    string->removeDeadConstantUsers();
    if (string->use_empty()) string->eraseFromParent();
  }
}

// --- dynamic local memory -------------------------------------------------------------------
//
// local_accessor and group algorithms use __syclone_local_memory, a Workgroup array whose size
// is chosen at launch (nvptx: dynamic shared memory). SPIR-V has no such variable: an OpenCL
// kernel receives local memory of launch-time size as a Workgroup pointer parameter. Kernels
// that use it get one more parameter, after the functor; the manifest records its index.
void lower_local_memory(llvm::Module& module, std::string& manifest) {
  llvm::GlobalVariable* local = module.getNamedGlobal("__syclone_local_memory");
  if (!local) return;
  local->removeDeadConstantUsers();
  if (local->use_empty()) return;
  llvm::convertUsersOfConstantsToInstructions({local});

  // Device functions that use it go into their kernels (SYCL device code has no recursion).
  for (int round = 0;; ++round) {
    local->removeDeadConstantUsers();
    llvm::convertUsersOfConstantsToInstructions({local});
    std::set<llvm::Function*> users;
    for (llvm::User* user : local->users())
      if (auto* inst = llvm::dyn_cast<llvm::Instruction>(user))
        if (!is_kernel(*inst->getFunction())) users.insert(inst->getFunction());
    if (users.empty()) break;
    if (round == 8)
      throw driver_error("device function " + (*users.begin())->getName().str() +
                         " uses local memory but cannot be inlined into the kernels that call "
                         "it (recursion is not allowed in device code, SYCL 2020 5.4)");
    for (llvm::Function* f : users) {
      f->removeFnAttr(llvm::Attribute::NoInline);
      f->removeFnAttr(llvm::Attribute::OptimizeNone);
      f->addFnAttr(llvm::Attribute::AlwaysInline);
    }
    run_passes(module, [](llvm::ModulePassManager& mpm) {
      mpm.addPass(llvm::AlwaysInlinerPass());
      mpm.addPass(llvm::GlobalDCEPass());
    });
  }

  // Inlining folds casts of the global back into constant expressions.
  local->removeDeadConstantUsers();
  llvm::convertUsersOfConstantsToInstructions({local});
  std::set<llvm::Function*> kernels;
  for (llvm::User* user : local->users())
    if (auto* inst = llvm::dyn_cast<llvm::Instruction>(user)) kernels.insert(inst->getFunction());
  for (llvm::Function* old : kernels) {
    llvm::FunctionType* type = old->getFunctionType();
    llvm::SmallVector<llvm::Type*, 4> params(type->params().begin(), type->params().end());
    params.push_back(local->getType());
    auto* fresh =
        llvm::Function::Create(llvm::FunctionType::get(type->getReturnType(), params, false),
                               old->getLinkage(), old->getAddressSpace(), "", &module);
    fresh->copyAttributesFrom(old);
    fresh->copyMetadata(old, 0);
    fresh->splice(fresh->begin(), old);
    for (auto [from, to] : llvm::zip(old->args(), fresh->args())) {
      from.replaceAllUsesWith(&to);
      to.takeName(&from);
    }
    unsigned index = static_cast<unsigned>(params.size() - 1);
    llvm::Argument* memory = fresh->getArg(index);
    memory->setName("syclone_local_memory");
    fresh->addParamAttr(index, llvm::Attribute::NoAlias);
    fresh->addParamAttr(index,
                        llvm::Attribute::getWithAlignment(module.getContext(), llvm::Align(16)));
    local->replaceUsesWithIf(memory, [&](llvm::Use& use) {
      auto* inst = llvm::dyn_cast<llvm::Instruction>(use.getUser());
      return inst && inst->getFunction() == fresh;
    });
    fresh->takeName(old);
    old->eraseFromParent();
    manifest +=
        "local_memory_argument " + fresh->getName().str() + " " + std::to_string(index) + "\n";
  }
  // Constant expressions the rewrite left without users still count as uses.
  local->removeDeadConstantUsers();
  if (local->use_empty()) local->eraseFromParent();
}

// Seed 004: a required sub-group size is the kernel's SubgroupSize execution mode.
void annotate_sub_group_sizes(llvm::Module& module, const std::map<std::string, std::string>& sizes,
                              std::string& manifest) {
  llvm::LLVMContext& context = module.getContext();
  for (llvm::Function& f : module) {
    if (!is_kernel(f)) continue;
    auto it = sizes.find(f.getName().str());
    if (it == sizes.end() || it->second.empty() ||
        !std::all_of(it->second.begin(), it->second.end(), ::isdigit))
      continue;
    auto size = static_cast<std::uint32_t>(std::stoul(it->second));
    f.setMetadata("intel_reqd_sub_group_size",
                  llvm::MDNode::get(context, {llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                                 llvm::Type::getInt32Ty(context), size))}));
    manifest += "sub_group_size " + f.getName().str() + " " + it->second + "\n";
  }
}

// LLVM's SPIR-V backend reads its extension list from a command-line option only.
void initialize_backend() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeSPIRVTargetInfo();
    LLVMInitializeSPIRVTarget();
    LLVMInitializeSPIRVTargetMC();
    LLVMInitializeSPIRVAsmPrinter();
    auto& options = llvm::cl::getRegisteredOptions();
    auto it = options.find("spirv-ext");
    if (it == options.end())
      throw driver_error("LLVM's SPIR-V backend has no spirv-ext option; syclone++ needs LLVM 22");
    if (it->second->addOccurrence(1, "spirv-ext", spirv_extensions))
      throw driver_error("LLVM's SPIR-V backend rejected the extensions " +
                         std::string(spirv_extensions));
  });
}

std::string codegen(llvm::Module& module) {
  initialize_backend();
  llvm::Triple triple(spirv_triple);
  std::string problem;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, problem);
  if (!target) throw driver_error("LLVM has no SPIR-V backend: " + problem);
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, "", "", llvm::TargetOptions(), std::nullopt, std::nullopt,
                                  llvm::CodeGenOptLevel::Default));
  module.setTargetTriple(triple);
  module.setDataLayout(machine->createDataLayout());
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream out(buffer);
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, out, nullptr, llvm::CodeGenFileType::ObjectFile))
    throw driver_error("LLVM's SPIR-V backend cannot emit object files");
  // The backend reports what it cannot lower as a fatal error: name it, then exit (LLVM's state
  // cannot be unwound).
  llvm::install_fatal_error_handler(
      [](void*, const char* reason, bool) {
        llvm::errs() << "syclone++: error: LLVM's SPIR-V backend failed on the spirv64 device "
                        "code: "
                     << reason
                     << " (a bug in syclone's SPIR-V device code or in LLVM 22; build without "
                        "-fsycl-targets=spirv64 meanwhile)\n";
        std::exit(1);
      },
      nullptr);
  passes.run(module);
  llvm::remove_fatal_error_handler();
  return std::string(buffer.begin(), buffer.end());
}

} // namespace

spirv_image lower_to_spirv(llvm::Module& module,
                           const std::map<std::string, std::string>& sub_group_sizes) {
  spirv_image image;
  internalize(module);
  if (std::string why =
          passes::lower_group_local_memory(module, "__syclone_group_local_memory", 3, false);
      !why.empty())
    throw driver_error(why);
  if (std::string why =
          passes::lower_work_group_static(module, "__syclone_work_group_static", 3, false);
      !why.empty())
    throw driver_error(why);
  // sycl_ext_oneapi_device_global: the image's own variable is the device's instance.
  if (std::string why =
          passes::lower_device_globals(module, "__syclone_device_global", false, 1, nullptr);
      !why.empty())
    throw driver_error(why);
  lower_spec_constants(module, image.manifest);
  lower_local_memory(module, image.manifest);
  compare_pointers_as_addresses(module);
  constant_printf_formats(module);
  annotate_sub_group_sizes(module, sub_group_sizes, image.manifest);
  std::string broken;
  llvm::raw_string_ostream verifier(broken);
  if (llvm::verifyModule(module, &verifier))
    throw driver_error("syclone++'s SPIR-V pre-codegen pass left invalid IR (a bug): " + broken);

  std::string binary = codegen(module);
  try {
    spirv::module m =
        spirv::read(std::span(reinterpret_cast<const std::byte*>(binary.data()), binary.size()));
    spirv::lower_syclone_markers(m);
    auto bytes = spirv::write(m);
    image.binary.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  } catch (const spirv::error& e) {
    throw driver_error(std::string("syclone's SPIR-V post-pass failed: ") + e.what());
  }
  return image;
}

} // namespace syclone::driver
