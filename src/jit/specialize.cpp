// Specialization constants (SYCL 2020 4.9.5): kernel_handler::get_specialization_constant
// starts from the default in a local variable and calls
//   __syclone_spec_constant(name, &local, sizeof(T))
// (include/sycl/kernel_handler.hpp). Each call becomes a store of the launch's value into the
// local, or disappears when the launch keeps the default; O3 then folds the value into the
// kernel like a literal.
#include "steps.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <map>
#include <optional>

namespace syclone::jit::detail {
namespace {

constexpr const char* k_marker = "__syclone_spec_constant";

// The name string a call passes, through casts, address space casts and constant offsets; also
// through a call of a function that just returns it, as a device image compiled with -O0 calls
// detail::spec_constant_name<S>() without inlining it.
std::optional<std::string> constant_name(const llvm::Value* value, int depth = 0) {
  llvm::StringRef text;
  if (llvm::getConstantStringInfo(value, text)) return text.str();
  if (depth > 4) return std::nullopt;
  auto* call = llvm::dyn_cast<llvm::CallBase>(value->stripPointerCasts());
  if (!call || call->arg_size() != 0) return std::nullopt;
  const llvm::Function* callee = call->getCalledFunction();
  if (!callee || callee->isDeclaration() || callee->size() != 1) return std::nullopt;
  auto* ret = llvm::dyn_cast<llvm::ReturnInst>(&callee->getEntryBlock().front());
  if (!ret || !ret->getReturnValue()) return std::nullopt;
  return constant_name(ret->getReturnValue(), depth + 1);
}

std::string function_of(const llvm::Instruction& instruction) {
  return instruction.getFunction()->getName().str();
}

// Stores `bytes` at `destination` as the device would lay them out (NVPTX is little-endian):
// one integer store for the sizes of scalars, else a copy from a constant holding the bytes.
void store_bytes(llvm::IRBuilder<>& builder, llvm::Value* destination,
                 const std::vector<std::byte>& bytes, llvm::GlobalVariable*& copy_source) {
  llvm::LLVMContext& context = builder.getContext();
  std::size_t size = bytes.size();
  if (size == 1 || size == 2 || size == 4 || size == 8) {
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < size; ++i)
      bits |= std::uint64_t(std::to_integer<std::uint8_t>(bytes[i])) << (8 * i);
    auto* type = llvm::IntegerType::get(context, unsigned(8 * size));
    builder.CreateAlignedStore(llvm::ConstantInt::get(type, bits), destination, llvm::Align(1));
    return;
  }
  if (!copy_source) {
    llvm::Module& module = *builder.GetInsertBlock()->getModule();
    llvm::ArrayRef<std::uint8_t> data(reinterpret_cast<const std::uint8_t*>(bytes.data()), size);
    auto* init = llvm::ConstantDataArray::get(context, data);
    constexpr unsigned nvptx_const_space = 4;
    copy_source = new llvm::GlobalVariable(
        module, init->getType(), /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage, init,
        "__syclone_spec_value", nullptr, llvm::GlobalValue::NotThreadLocal, nvptx_const_space);
    copy_source->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    copy_source->setAlignment(llvm::Align(8));
  }
  builder.CreateMemCpy(destination, llvm::Align(1), copy_source, llvm::Align(8), size);
}

} // namespace

void specialize_constants(llvm::Module& module, std::span<const spec_constant> values,
                          const job& what) {
  struct given {
    const spec_constant* value;
    llvm::GlobalVariable* copy_source = nullptr;
  };
  std::map<std::string, given, std::less<>> by_name;
  for (const spec_constant& value : values)
    if (!by_name.emplace(value.name, given{&value}).second)
      fail("specialization constant `" + value.name + "` is given twice for " + what.describe());

  llvm::Function* marker = module.getFunction(k_marker);
  if (!marker) return;
  marker->removeDeadConstantUsers();

  std::vector<llvm::CallBase*> calls;
  for (llvm::User* user : marker->users()) {
    auto* call = llvm::dyn_cast<llvm::CallBase>(user);
    if (!call || call->getCalledOperand() != marker || call->arg_size() != 3)
      fail(std::string(k_marker) + " is used other than called with (name, value, size) in " +
           what.describe() + "; only kernel_handler::get_specialization_constant may use it");
    calls.push_back(call);
  }

  for (llvm::CallBase* call : calls) {
    std::optional<std::string> name = constant_name(call->getArgOperand(0));
    if (!name)
      fail("a specialization constant read in `" + function_of(*call) + "` (" + what.describe() +
           ") names it by a value that is not a constant string; read specialization constants "
           "only through kernel_handler::get_specialization_constant");
    auto* size = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(2));
    if (!size)
      fail("specialization constant `" + *name +
           "` is read with a size that is not a constant in `" + function_of(*call) + "` (" +
           what.describe() + ")");

    if (auto it = by_name.find(*name); it != by_name.end()) {
      const auto& bytes = it->second.value->value;
      if (size->getZExtValue() != bytes.size())
        fail("specialization constant `" + *name + "` has " + std::to_string(size->getZExtValue()) +
             " bytes in the device code of " + what.describe() + " but " +
             std::to_string(bytes.size()) +
             " bytes were given; set it with a value of the "
             "specialization_id's type");
      llvm::IRBuilder<> builder(call);
      store_bytes(builder, call->getArgOperand(1), bytes, it->second.copy_source);
    }
    call->eraseFromParent();
  }
  marker->eraseFromParent();
}

} // namespace syclone::jit::detail
