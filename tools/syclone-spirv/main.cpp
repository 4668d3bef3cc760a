// syclone-spirv: look at and transform the SPIR-V images syclone++ writes
// (-fsycl-targets=spirv64): dis, validate, specialize, extract.
#include "command.hpp"

#include "module.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>

namespace syclone::spirv_tool {

namespace {
std::vector<command>& table() {
  static std::vector<command> commands;
  return commands;
}
} // namespace

bool register_command(const command& c) {
  table().push_back(c);
  std::sort(table().begin(), table().end(),
            [](const command& a, const command& b) { return a.name < b.name; });
  return true;
}

const std::vector<command>& commands() { return table(); }

std::vector<std::byte> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> data(bytes.size());
  std::transform(bytes.begin(), bytes.end(), data.begin(), [](char c) { return std::byte(c); });
  return data;
}

void write_file(const std::string& path, std::span<const std::byte> data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

} // namespace syclone::spirv_tool

namespace {
void usage(std::FILE* to) {
  std::fprintf(to, "usage: syclone-spirv COMMAND ARGS...\n\ncommands:\n");
  for (const auto& c : syclone::spirv_tool::commands())
    std::fprintf(to, "  %-40.*s %.*s\n", static_cast<int>(c.usage.size()), c.usage.data(),
                 static_cast<int>(c.summary.size()), c.summary.data());
}
} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  std::string_view name = argv[1];
  if (name == "-h" || name == "--help" || name == "help") {
    usage(stdout);
    return 0;
  }
  for (const auto& c : syclone::spirv_tool::commands()) {
    if (c.name != name) continue;
    std::vector<std::string> args(argv + 2, argv + argc);
    try {
      return c.run(args);
    } catch (const syclone::spirv::error& e) {
      std::fprintf(stderr, "syclone-spirv %s: error: %s\n", argv[1], e.what());
      return 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "syclone-spirv %s: error: %s\n", argv[1], e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "syclone-spirv: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
