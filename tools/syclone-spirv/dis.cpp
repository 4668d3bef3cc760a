// syclone-spirv dis: a module as text, in spirv-dis's syntax (disassemble.hpp).
#include "command.hpp"

#include "disassemble.hpp"

#include <cstdio>

namespace syclone::spirv_tool {
namespace {

int run(std::span<const std::string> args) {
  spirv::disassemble_options options;
  std::string input, output;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--raw-id") {
      options.friendly_names = false;
    } else if (args[i] == "-o" && i + 1 < args.size()) {
      output = args[++i];
    } else if (input.empty() && (args[i] == "-" || args[i].empty() || args[i][0] != '-')) {
      input = args[i];
    } else {
      std::fprintf(stderr, "syclone-spirv dis: unexpected argument '%s'\nusage: syclone-spirv %s\n",
                   args[i].c_str(), "dis [--raw-id] [-o OUT] FILE.spv");
      return 2;
    }
  }
  if (input.empty()) {
    std::fprintf(stderr, "syclone-spirv dis: no input file\nusage: syclone-spirv dis [--raw-id] "
                         "[-o OUT] FILE.spv\n");
    return 2;
  }
  auto bytes = read_file(input);
  std::string text = spirv::disassemble(spirv::read(bytes), options);
  if (output.empty() || output == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    write_file(output, std::as_bytes(std::span<const char>(text)));
  }
  return 0;
}

const bool registered = register_command(
    {"dis", "dis [--raw-id] [-o OUT] FILE.spv",
     "print a module as text (spirv-dis syntax; --raw-id: %N ids instead of OpName names)", run});

} // namespace
} // namespace syclone::spirv_tool
