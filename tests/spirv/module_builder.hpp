// Modules written instruction by instruction for the validator and specializer tests: ids by
// name ("%gid"), literal words, and literal strings, so a test reads close to spirv-dis text
// while each invalid module differs from a valid one by exactly the words under test.
#pragma once

#include "grammar.hpp"
#include "module.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace syclone::spirv::test {

// One operand: "%name" is an id (allocated on first mention), "\"text\"" a literal string,
// a number a literal word.
struct word {
  word(std::uint32_t v) : literal(v) {}
  word(int v) : literal(static_cast<std::uint32_t>(v)) {}
  word(const char* t) : text(t) {}
  std::uint32_t literal = 0;
  std::string text;
};

class builder {
public:
  module m;

  std::uint32_t id(const std::string& name) {
    auto [it, fresh] = m_ids.try_emplace(name, 0);
    if (fresh) it->second = m.bound++;
    return it->second;
  }

  // Appends an instruction; returns its index.
  std::size_t add(std::uint16_t opcode, std::initializer_list<word> operands) {
    instruction inst{opcode, {}};
    for (const auto& w : operands) {
      if (w.text.empty())
        inst.operands.push_back(w.literal);
      else if (w.text[0] == '%')
        inst.operands.push_back(id(w.text));
      else if (w.text[0] == '"')
        append_string(inst.operands, w.text.substr(1, w.text.size() - 2));
      else
        // A test typo: ids start with %, strings with ". GoogleTest reports the exception.
        throw std::logic_error("module_builder: operand '" + w.text +
                               "' is neither an %id nor a \"string\"");
    }
    m.instructions.push_back(std::move(inst));
    return m.instructions.size() - 1;
  }

  std::size_t add(std::string_view opname, std::initializer_list<word> operands) {
    const opcode_info* info = find_opcode(opname);
    if (!info) throw std::logic_error("module_builder: no opcode " + std::string(opname));
    return add(info->opcode, operands);
  }

private:
  std::map<std::string, std::uint32_t> m_ids;
};

// Runs Debian's spirv-val on `m` (universal SPIR-V 1.6 rules unless told; its OpenCL
// environments stop at SPIR-V 1.2); true when it accepts.
inline bool spirv_val_accepts(const module& m, const char* env = "spv1.6") {
  char path[] = "/tmp/syclone_spirv_test_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("spirv_val_accepts: cannot create a temporary file");
  auto bytes = write(m);
  if (::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
    ::close(fd);
    throw std::runtime_error("spirv_val_accepts: cannot write " + std::string(path));
  }
  ::close(fd);
  std::string command =
      std::string("spirv-val --target-env ") + env + " " + path + " > /dev/null 2>&1";
  int status = std::system(command.c_str());
  std::remove(path);
  return status == 0;
}

inline module read_data(const std::string& name) {
  std::ifstream in(std::string(SYCLONE_SPIRV_TEST_DATA) + "/" + name, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (chars.empty()) throw error("test data " + name + " is missing or empty");
  std::vector<std::byte> bytes(chars.size());
  for (std::size_t k = 0; k < chars.size(); ++k) bytes[k] = std::byte(chars[k]);
  return read(std::span<const std::byte>(bytes));
}

} // namespace syclone::spirv::test
