// syclone++: the SYCL compiler driver (DESIGN.md "The pipeline"). Usage is clang's:
//   syclone++ [-fsycl-targets=nvptx64,host] [clang flags] sources objects archives -o app
#include "diagnostics.hpp"
#include "driver.hpp"

#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/StringSaver.h>
#include <llvm/Support/raw_ostream.h>

int main(int argc, char** argv) {
  // @file arguments (CMake and Ninja use them for long link lines).
  llvm::SmallVector<const char*, 64> expanded(argv, argv + argc);
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  if (!llvm::cl::ExpandResponseFiles(saver, llvm::cl::TokenizeGNUCommandLine, expanded)) {
    llvm::errs() << "syclone++: error: cannot read a response file (@file) argument\n";
    return 1;
  }
  std::vector<std::string> args(expanded.begin() + 1, expanded.end());
  try {
    return syclone::driver::run_driver(argv[0], args);
  } catch (const syclone::driver::driver_error& e) {
    llvm::errs() << "syclone++: error: " << e.what() << "\n";
    return 1;
  } catch (const syclone::driver::tool_failed& failure) {
    return failure.exit_code;
  }
}
