// syclone-spirv's subcommands register themselves (one file each: dis.cpp, validate.cpp,
// specialize.cpp, extract.cpp), so main.cpp only dispatches.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace syclone::spirv_tool {

struct command {
  std::string_view name;    // "dis"
  std::string_view usage;   // "dis [--raw-id] FILE.spv"
  std::string_view summary; // one line for --help
  // Exit status: 0 success, 1 the input is bad (invalid module, ...), 2 usage error.
  int (*run)(std::span<const std::string> args);
};

// Adds `c` to the table main.cpp dispatches on; call from a namespace-scope initializer.
bool register_command(const command& c);
const std::vector<command>& commands();

// Helpers every command shares.
std::vector<std::byte> read_file(const std::string& path); // throws std::runtime_error naming it
void write_file(const std::string& path, std::span<const std::byte> data);

} // namespace syclone::spirv_tool
