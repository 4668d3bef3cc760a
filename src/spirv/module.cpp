#include "module.hpp"

#include <bit>
#include <cstdio>
#include <cstring>

namespace syclone::spirv {

namespace {
// std::byteswap is C++23.
constexpr std::uint32_t swap_bytes(std::uint32_t w) { return __builtin_bswap32(w); }
} // namespace

std::string instruction::string_at(std::size_t i, std::size_t* words) const {
  std::string text;
  std::size_t w = i;
  for (; w < operands.size(); ++w) {
    std::uint32_t word = operands[w];
    for (int b = 0; b < 4; ++b) {
      char c = static_cast<char>((word >> (8 * b)) & 0xff);
      if (c == '\0') {
        if (words) *words = w - i + 1;
        return text;
      }
      text += c;
    }
  }
  throw error("a literal string operand of instruction with opcode " + std::to_string(opcode) +
              " is not nul-terminated within the instruction");
}

void append_string(std::vector<std::uint32_t>& out, std::string_view text) {
  for (std::size_t i = 0; i <= text.size(); i += 4) {
    std::uint32_t word = 0;
    for (std::size_t b = 0; b < 4 && i + b < text.size(); ++b)
      word |= static_cast<std::uint32_t>(static_cast<unsigned char>(text[i + b])) << (8 * b);
    out.push_back(word);
  }
}

module read(std::span<const std::uint32_t> words) {
  if (words.size() < 5)
    throw error("not a SPIR-V module: " + std::to_string(words.size() * 4) +
                    " bytes, fewer than the 20 of the header",
                0);
  module m;
  bool swap = false;
  if (words[0] == magic_number) {
    swap = false;
  } else if (words[0] == swap_bytes(magic_number)) {
    swap = true;
  } else {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", words[0]);
    throw error(std::string("not a SPIR-V module: the first word is ") + hex +
                    ", not the magic number 0x07230203",
                0);
  }
  m.big_endian = (std::endian::native == std::endian::little) == swap;
  auto at = [&](std::size_t i) { return swap ? swap_bytes(words[i]) : words[i]; };
  m.version = at(1);
  m.generator = at(2);
  m.bound = at(3);
  m.schema = at(4);
  for (std::size_t i = 5; i < words.size();) {
    std::uint32_t first = at(i);
    std::uint32_t count = first >> 16;
    if (count == 0)
      throw error("instruction at word " + std::to_string(i) + " has a word count of 0", i);
    if (i + count > words.size())
      throw error("instruction at word " + std::to_string(i) + " (opcode " +
                      std::to_string(first & 0xffff) + ") has " + std::to_string(count) +
                      " words but the module ends after " + std::to_string(words.size() - i),
                  i);
    instruction inst;
    inst.opcode = static_cast<std::uint16_t>(first & 0xffff);
    inst.operands.reserve(count - 1);
    for (std::uint32_t k = 1; k < count; ++k) inst.operands.push_back(at(i + k));
    m.instructions.push_back(std::move(inst));
    i += count;
  }
  return m;
}

module read(std::span<const std::byte> binary) {
  if (binary.size() % 4 != 0)
    throw error("not a SPIR-V module: its size, " + std::to_string(binary.size()) +
                " bytes, is not a multiple of 4");
  std::vector<std::uint32_t> words(binary.size() / 4);
  if (!binary.empty()) std::memcpy(words.data(), binary.data(), binary.size());
  return read(std::span<const std::uint32_t>(words));
}

std::vector<std::uint32_t> write_words(const module& m) {
  std::size_t total = 5;
  for (const auto& inst : m.instructions) total += inst.word_count();
  std::vector<std::uint32_t> out;
  out.reserve(total);
  out.insert(out.end(), {magic_number, m.version, m.generator, m.bound, m.schema});
  for (const auto& inst : m.instructions) {
    if (inst.word_count() > 0xffff)
      throw error("instruction with opcode " + std::to_string(inst.opcode) + " has " +
                  std::to_string(inst.word_count()) + " words, more than the 65535 allowed");
    out.push_back(static_cast<std::uint32_t>(inst.word_count()) << 16 | inst.opcode);
    out.insert(out.end(), inst.operands.begin(), inst.operands.end());
  }
  bool swap = m.big_endian == (std::endian::native == std::endian::little);
  if (swap)
    for (auto& w : out) w = swap_bytes(w);
  return out;
}

std::vector<std::byte> write(const module& m) {
  auto words = write_words(m);
  std::vector<std::byte> bytes(words.size() * 4);
  if (!words.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

} // namespace syclone::spirv
