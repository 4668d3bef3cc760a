// A SPIR-V module as the words of its instructions: what the reader, the writer, the post-pass,
// the specializer, the validator and the disassembler share. Every instruction keeps its words
// exactly as read, so reading then writing an untouched module gives back the same bytes
// (SPIR-V 1.6 section 2.3 "Physical Layout of a SPIR-V Module and Instruction").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace syclone::spirv {

inline constexpr std::uint32_t magic_number = 0x07230203;

// A malformed binary or a request the module cannot satisfy. `word` is the offset, in words from
// the start of the binary, of the offending word where there is one.
class error : public std::runtime_error {
public:
  explicit error(const std::string& message, std::size_t word = npos)
      : std::runtime_error(message), m_word(word) {}
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t word() const noexcept { return m_word; }

private:
  std::size_t m_word;
};

struct instruction {
  std::uint16_t opcode = 0;
  // The operand words, after the first word (word count | opcode). Result type and result id
  // are operands like any other; grammar.hpp says which operand is which.
  std::vector<std::uint32_t> operands;

  std::size_t word_count() const noexcept { return operands.size() + 1; }
  // Operand `i` read as a literal string (SPIR-V 2.2.1: UTF-8, nul-terminated, padded to words),
  // and the number of words it takes.
  std::string string_at(std::size_t i, std::size_t* words = nullptr) const;
};

struct module {
  std::uint32_t version = 0x00010400; // 0 | major | minor | 0
  std::uint32_t generator = 0;
  std::uint32_t bound = 1;
  std::uint32_t schema = 0;
  bool big_endian = false; // the byte order of the binary it was read from; written back alike
  std::vector<instruction> instructions;

  // A fresh id (bumps `bound`).
  std::uint32_t new_id() { return bound++; }
};

// Parses a binary: the header and the instruction stream, split by word counts. Checks only what
// splitting needs (magic, size a multiple of 4, no zero or overlong word counts); the validator
// checks the rest. Throws spirv::error naming the word.
module read(std::span<const std::byte> binary);
module read(std::span<const std::uint32_t> words);

// The binary of `m`, in its byte order.
std::vector<std::byte> write(const module& m);
std::vector<std::uint32_t> write_words(const module& m);

// Encodes `text` as a literal string operand (appends the words to `out`).
void append_string(std::vector<std::uint32_t>& out, std::string_view text);

} // namespace syclone::spirv
