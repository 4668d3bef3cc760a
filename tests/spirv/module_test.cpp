// The reader and writer: byte-exact round trips in both byte orders, and malformed binaries
// rejected with the word that breaks them.
#include "module.hpp"

#include <gtest/gtest.h>

using namespace syclone::spirv;

namespace {
std::vector<std::uint32_t> tiny() {
  // OpCapability Kernel; OpMemoryModel Physical64 OpenCL
  return {magic_number, 0x00010400, 0x002b0016, 3, 0, 2u << 16 | 17, 6, 3u << 16 | 14, 2, 2};
}
} // namespace

TEST(Module, RoundTripIsExact) {
  auto words = tiny();
  module m = read(std::span<const std::uint32_t>(words));
  EXPECT_FALSE(m.big_endian);
  ASSERT_EQ(m.instructions.size(), 2u);
  EXPECT_EQ(m.instructions[1].opcode, 14);
  EXPECT_EQ(write_words(m), words);
}

TEST(Module, BigEndianRoundTrip) {
  auto words = tiny();
  for (auto& w : words) w = __builtin_bswap32(w);
  module m = read(std::span<const std::uint32_t>(words));
  EXPECT_TRUE(m.big_endian);
  EXPECT_EQ(m.version, 0x00010400u);
  EXPECT_EQ(m.instructions[0].operands[0], 6u);
  EXPECT_EQ(write_words(m), words);
}

TEST(Module, RejectsBadMagicAndTruncation) {
  auto words = tiny();
  words[0] = 0x12345678;
  EXPECT_THROW(read(std::span<const std::uint32_t>(words)), error);
  words = tiny();
  words[7] = 9u << 16 | 14; // claims 9 words, 3 remain
  try {
    read(std::span<const std::uint32_t>(words));
    FAIL() << "accepted a truncated instruction";
  } catch (const error& e) {
    EXPECT_EQ(e.word(), 7u);
  }
  words = tiny();
  words[5] = 0u << 16 | 17;
  EXPECT_THROW(read(std::span<const std::uint32_t>(words)), error);
  std::vector<std::byte> odd(22);
  EXPECT_THROW(read(std::span<const std::byte>(odd)), error);
}

TEST(Module, Strings) {
  std::vector<std::uint32_t> words;
  append_string(words, "OpenCL.std");
  EXPECT_EQ(words.size(), 3u); // 10 chars + nul = 11 bytes -> 3 words
  instruction inst{11, {}};
  inst.operands.push_back(1);
  inst.operands.insert(inst.operands.end(), words.begin(), words.end());
  std::size_t used = 0;
  EXPECT_EQ(inst.string_at(1, &used), "OpenCL.std");
  EXPECT_EQ(used, 3u);
  words.clear();
  append_string(words, "abcd");
  EXPECT_EQ(words.size(), 2u); // the nul takes a word of its own
}
