// libFuzzer target over everything that takes a module from outside: read -> validate ->
// disassemble -> assemble the text back -> specialize with the defaults -> write. Any input must
// leave each stage returning or throwing spirv::error: no crash, hang, leak or undefined
// behaviour (built with -fsanitize=fuzzer,address,undefined; ctest spirv.fuzz runs it bounded,
// seeded from tests/spirv/corpus).
#include "assemble.hpp"
#include "disassemble.hpp"
#include "module.hpp"
#include "specialize.hpp"
#include "validate.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace syclone::spirv;
  module m;
  try {
    m = read(std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size));
  } catch (const error&) {
    return 0; // not a module: reading said why
  }
  // Both never throw for a module read() accepted (validate.hpp, disassemble.hpp); an exception
  // escaping them aborts the run, which is the point.
  auto diagnostics = validate(m);
  (void)format(diagnostics);
  std::string text = disassemble(m);
  try {
    (void)assemble(text);
  } catch (const error&) {
    // Malformed instructions print as raw words, so this should hold; not every module's text
    // need assemble (e.g. a string operand with bytes the syntax cannot quote).
  }
  try {
    specialize(m, {});
  } catch (const error&) {
    return 0; // an operation it cannot fold, a division by zero, ...
  }
  (void)write(m);
  return 0;
}
