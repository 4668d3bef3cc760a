// syclone-spirv validate FILE...: the validator's diagnostics for each module (src/spirv/
// validate.hpp). Exit 1 when any module has an error (or cannot be read), 0 with warnings only.
#include "command.hpp"

#include "module.hpp"
#include "validate.hpp"

#include <cstdio>

namespace syclone::spirv_tool {
namespace {

int run_validate(std::span<const std::string> args) {
  std::vector<std::string> files;
  bool quiet = false;
  for (const auto& a : args) {
    if (a == "-q" || a == "--quiet")
      quiet = true;
    else if (a.starts_with("-") && a != "-") {
      std::fprintf(stderr, "syclone-spirv validate: unknown option '%s'\n", a.c_str());
      return 2;
    } else
      files.push_back(a);
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: syclone-spirv validate [-q] FILE.spv...\n");
    return 2;
  }
  bool failed = false;
  for (const auto& file : files) {
    std::vector<spirv::diagnostic> diagnostics;
    try {
      auto data = read_file(file);
      spirv::module m = spirv::read(std::span<const std::byte>(data));
      diagnostics = spirv::validate(m);
    } catch (const std::exception& e) {
      std::printf("%s: error: %s [binary.read]\n", file.c_str(), e.what());
      failed = true;
      continue;
    }
    std::size_t errors = 0, warnings = 0;
    for (const auto& d : diagnostics) {
      bool error = d.level == spirv::severity::error;
      (error ? errors : warnings)++;
      std::printf("%s: %s: %s\n", file.c_str(), error ? "error" : "warning", d.message.c_str());
    }
    if (!quiet) std::printf("%s: %zu error(s), %zu warning(s)\n", file.c_str(), errors, warnings);
    failed |= errors > 0;
  }
  return failed ? 1 : 0;
}

const bool registered = register_command(
    {"validate", "validate [-q] FILE.spv...",
     "check structure and SPV_INTEL_subgroup_buffer_prefetch/cache-control rules", run_validate});

} // namespace
} // namespace syclone::spirv_tool
