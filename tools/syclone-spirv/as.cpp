// syclone-spirv as: a module from text in spirv-dis's syntax (assemble.hpp).
#include "command.hpp"

#include "assemble.hpp"

#include <cstdio>

namespace syclone::spirv_tool {
namespace {

constexpr const char* usage = "as [-o OUT.spv] FILE.spvasm";

int run(std::span<const std::string> args) {
  std::string input, output;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-o" && i + 1 < args.size()) {
      output = args[++i];
    } else if (input.empty() && !args[i].empty() && args[i][0] != '-') {
      input = args[i];
    } else {
      std::fprintf(stderr, "syclone-spirv as: unexpected argument '%s'\nusage: syclone-spirv %s\n",
                   args[i].c_str(), usage);
      return 2;
    }
  }
  if (input.empty()) {
    std::fprintf(stderr, "syclone-spirv as: no input file\nusage: syclone-spirv %s\n", usage);
    return 2;
  }
  if (output.empty()) {
    // Like spirv-as: FILE.spvasm -> FILE.spv next to it.
    auto dot = input.rfind('.');
    auto slash = input.rfind('/');
    output = (dot != std::string::npos && (slash == std::string::npos || dot > slash)
                  ? input.substr(0, dot)
                  : input) +
             ".spv";
  }
  auto bytes = read_file(input);
  std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  spirv::module m;
  try {
    m = spirv::assemble(text);
  } catch (const spirv::error& e) {
    // Compiler-style "FILE:LINE:COLUMN: ..." so editors can jump to it.
    std::fprintf(stderr, "%s:%s\n", input.c_str(), e.what());
    return 1;
  }
  write_file(output, spirv::write(m));
  return 0;
}

const bool registered =
    register_command({"as", usage, "assemble text (spirv-dis syntax) into a module", run});

} // namespace
} // namespace syclone::spirv_tool
