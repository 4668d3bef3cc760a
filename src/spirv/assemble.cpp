// The assembler: tokens, then one instruction per line encoded operand by operand as grammar.hpp
// says (SPIR-V 1.6 section 2.2.1 for literals and strings, section 3 for each instruction).
#include "assemble.hpp"

#include "disassemble.hpp"
#include "grammar.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace syclone::spirv {

namespace {

struct token {
  enum class type { id, word, number, string, raw, equals, end_of_line } kind;
  std::string text; // id: the name after '%'; string: the unescaped contents
  std::size_t line = 0, column = 0;
};

std::string where(const token& t) {
  return std::to_string(t.line) + ":" + std::to_string(t.column);
}

std::string describe(const token& t) {
  switch (t.kind) {
  case token::type::end_of_line:
    return "end of line";
  case token::type::id:
    return "'%" + t.text + "'";
  case token::type::string:
    return "string \"" + t.text + "\"";
  case token::type::equals:
    return "'='";
  default:
    return "'" + t.text + "'";
  }
}

[[noreturn]] void fail(const token& t, const std::string& expected) {
  throw error(where(t) + ": expected " + expected + ", found " + describe(t));
}

std::vector<token> tokenize(std::string_view text) {
  std::vector<token> out;
  std::size_t line = 1, column = 1;
  std::size_t i = 0;
  auto advance = [&](std::size_t n) {
    for (std::size_t k = 0; k < n; ++k, ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == '\n') {
      out.push_back({token::type::end_of_line, "", line, column});
      advance(1);
    } else if (c == ' ' || c == '\t' || c == '\r') {
      advance(1);
    } else if (c == ';') {
      while (i < text.size() && text[i] != '\n') advance(1);
    } else if (c == '=') {
      out.push_back({token::type::equals, "=", line, column});
      advance(1);
    } else if (c == '"') {
      token t{token::type::string, "", line, column};
      advance(1);
      while (true) {
        if (i >= text.size() || text[i] == '\n')
          throw error(where(t) +
                      ": expected a closing '\"' for this string before the end of the line");
        if (text[i] == '"') break;
        if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] != '\n') advance(1);
        t.text += text[i];
        advance(1);
      }
      advance(1);
      out.push_back(std::move(t));
    } else {
      token t{token::type::word, "", line, column};
      std::size_t start = i;
      while (i < text.size() && !std::strchr(" \t\r\n;=\"", text[i])) advance(1);
      std::string_view s = text.substr(start, i - start);
      if (s[0] == '%') {
        t.kind = token::type::id;
        t.text = s.substr(1);
        if (t.text.empty()) throw error(where(t) + ": expected an id name after '%'");
      } else if (s[0] == '!') {
        t.kind = token::type::raw;
        t.text = s.substr(1);
      } else {
        t.kind = (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-' || s[0] == '+' ||
                  s[0] == '.')
                     ? token::type::number
                     : token::type::word;
        t.text = s;
      }
      out.push_back(std::move(t));
    }
  }
  out.push_back({token::type::end_of_line, "", line, column});
  return out;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// An integer token: decimal or 0x hex, optionally negative (two's complement).
bool parse_integer(const std::string& s, std::uint64_t& value, bool& negative) {
  const char* p = s.c_str();
  negative = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  if (!*p || !std::isdigit(static_cast<unsigned char>(*p))) return false;
  char* end = nullptr;
  errno = 0;
  value = std::strtoull(p, &end, 0);
  return errno == 0 && *end == '\0';
}

// spirv-dis's hex floats (sign, 0x, 0 or 1, optional .hex fraction, p, exponent), encoded exactly
// for a float with `fraction_bits` and `exponent_bits`, including the infinities and NaNs that
// this notation writes with the exponent one past the largest finite one.
bool parse_hex_float(const std::string& s, int fraction_bits, int exponent_bits,
                     std::uint64_t& bits) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  if (s.compare(i, 2, "0x") != 0 && s.compare(i, 2, "0X") != 0) return false;
  i += 2;
  if (i >= s.size() || (s[i] != '0' && s[i] != '1')) return false;
  bool lead = s[i++] == '1';
  std::string digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isxdigit(static_cast<unsigned char>(s[i]))) digits += s[i++];
  }
  if (i >= s.size() || (s[i] != 'p' && s[i] != 'P')) return false;
  ++i;
  char* end = nullptr;
  long exponent = std::strtol(s.c_str() + i, &end, 10);
  if (end == s.c_str() + i || *end != '\0') return false;
  const int nibbles = (fraction_bits + 3) / 4;
  const int pad = nibbles * 4 - fraction_bits;
  if (static_cast<int>(digits.size()) > nibbles) return false;
  std::uint64_t fraction = digits.empty() ? 0 : std::stoull(digits, nullptr, 16);
  fraction <<= 4 * (nibbles - static_cast<int>(digits.size()));
  if (fraction & ((std::uint64_t{1} << pad) - 1)) return false;
  fraction >>= pad;
  const std::uint64_t sign = std::uint64_t{negative} << (fraction_bits + exponent_bits);
  const long bias = (1L << (exponent_bits - 1)) - 1;
  if (!lead) {
    if (fraction != 0 || exponent != 0) return false;
    bits = sign;
    return true;
  }
  long biased = exponent + bias;
  if (biased >= 1 && biased <= 2 * bias + 1) {
    bits = sign | static_cast<std::uint64_t>(biased) << fraction_bits | fraction;
    return true;
  }
  if (biased < 1 && 1 - biased <= fraction_bits) {
    // Subnormal: the leading one moves into the fraction.
    std::uint64_t mantissa = std::uint64_t{1} << fraction_bits | fraction;
    int shift = static_cast<int>(1 - biased);
    if (mantissa & ((std::uint64_t{1} << shift) - 1)) return false;
    bits = sign | mantissa >> shift;
    return true;
  }
  return false;
}

// IEEE binary16 nearest to `f` (round to nearest even), for decimal half-float literals.
std::uint16_t to_half(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  std::uint32_t sign = x >> 16 & 0x8000;
  int exponent = static_cast<int>(x >> 23 & 0xff) - 127 + 15;
  std::uint32_t mantissa = x & 0x7fffff;
  if ((x & 0x7fffffff) > 0x7f800000) return static_cast<std::uint16_t>(sign | 0x7e00);
  if (exponent >= 31) return static_cast<std::uint16_t>(sign | 0x7c00);
  if (exponent <= 0) {
    if (exponent < -10) return static_cast<std::uint16_t>(sign);
    mantissa |= 0x800000;
    int shift = 14 - exponent;
    std::uint32_t half = mantissa >> shift;
    std::uint32_t rest = mantissa & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1))) ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  std::uint32_t half = static_cast<std::uint32_t>(exponent) << 10 | mantissa >> 13;
  std::uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;
  return static_cast<std::uint16_t>(sign | half);
}

struct scalar_type {
  bool is_float = false;
  bool is_signed = false;
  std::uint32_t width = 0;
};

class assembler {
public:
  explicit assembler(std::string_view text) : m_text(text), m_tokens(tokenize(text)) {}

  module run() {
    header();
    // Numbers of %N ids are taken; %name ids get the others, in order of first appearance.
    for (const auto& t : m_tokens)
      if (t.kind == token::type::id && all_digits(t.text)) {
        std::uint64_t n = std::strtoull(t.text.c_str(), nullptr, 10);
        if (n == 0 || n > 0xffffffffu)
          throw error(where(t) + ": expected an id from 1 to 4294967295, found '%" + t.text + "'");
        m_taken.insert(static_cast<std::uint32_t>(n));
      }
    while (m_pos < m_tokens.size()) {
      if (peek().kind == token::type::end_of_line) {
        ++m_pos;
        continue;
      }
      instruction_line();
    }
    std::uint32_t bound = m_max_id + 1;
    if (m_bound && *m_bound > bound) bound = *m_bound;
    m_module.bound = bound;
    return std::move(m_module);
  }

private:
  // The comment block disassemble() starts with: only leading comment lines count.
  void header() {
    std::size_t start = 0;
    while (start < m_text.size()) {
      std::size_t end = m_text.find('\n', start);
      if (end == std::string_view::npos) end = m_text.size();
      std::string_view line = m_text.substr(start, end - start);
      start = end + 1;
      std::size_t first = line.find_first_not_of(" \t\r");
      if (first == std::string_view::npos) continue;
      if (line[first] != ';') break;
      line.remove_prefix(first + 1);
      while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
      auto value = [&](std::string_view key) -> std::optional<std::string> {
        if (line.substr(0, key.size()) != key) return std::nullopt;
        return std::string(line.substr(key.size()));
      };
      if (auto v = value("Version: ")) {
        unsigned major = 0, minor = 0;
        if (std::sscanf(v->c_str(), "%u.%u", &major, &minor) == 2)
          m_module.version = (major & 0xff) << 16 | (minor & 0xff) << 8;
      } else if (auto v = value("Bound: ")) {
        m_bound = static_cast<std::uint32_t>(std::strtoul(v->c_str(), nullptr, 10));
      } else if (auto v = value("Schema: ")) {
        m_module.schema = static_cast<std::uint32_t>(std::strtoul(v->c_str(), nullptr, 10));
      } else if (auto v = value("Generator: ")) {
        std::size_t semi = v->rfind("; ");
        if (semi == std::string::npos) continue;
        std::string name = v->substr(0, semi);
        std::uint32_t version =
            static_cast<std::uint32_t>(std::strtoul(v->c_str() + semi + 2, nullptr, 10));
        std::optional<std::uint32_t> tool;
        unsigned unknown = 0;
        if (std::sscanf(name.c_str(), "Unknown(%u)", &unknown) == 1) tool = unknown;
        for (std::uint32_t t = 0; !tool && !generator_tool_name(t).empty(); ++t)
          if (generator_tool_name(t) == name) tool = t;
        if (tool) m_module.generator = (*tool & 0xffff) << 16 | (version & 0xffff);
      }
    }
  }

  const token& peek() const { return m_tokens[m_pos]; }
  const token& take() { return m_tokens[m_pos++]; }
  bool at_end() const { return peek().kind == token::type::end_of_line; }

  std::uint32_t id_number(const token& t) {
    std::uint32_t n;
    if (all_digits(t.text)) {
      n = static_cast<std::uint32_t>(std::strtoull(t.text.c_str(), nullptr, 10));
    } else if (auto it = m_named.find(t.text); it != m_named.end()) {
      n = it->second;
    } else {
      while (m_taken.count(m_next_fresh)) ++m_next_fresh;
      n = m_next_fresh++;
      m_named.emplace(t.text, n);
    }
    m_max_id = std::max(m_max_id, n);
    return n;
  }

  std::uint32_t expect_id() {
    const token& t = peek();
    if (t.kind != token::type::id) fail(t, "an id (%name or %N)");
    ++m_pos;
    return id_number(t);
  }

  std::uint32_t expect_u32(const char* what) {
    const token& t = peek();
    std::uint64_t v;
    bool negative;
    if (t.kind != token::type::number || !parse_integer(t.text, v, negative)) fail(t, what);
    if (negative ? v > 0x80000000u : v > 0xffffffffu)
      fail(t, std::string(what) + " that fits in 32 bits");
    ++m_pos;
    return static_cast<std::uint32_t>(negative ? 0 - v : v);
  }

  void instruction_line() {
    const token& first = peek();
    if (first.kind == token::type::raw) return raw_instruction();
    std::optional<token> result;
    if (first.kind == token::type::id && m_tokens[m_pos + 1].kind == token::type::equals) {
      result = take();
      ++m_pos;
    }
    const token& name = peek();
    if (name.kind != token::type::word)
      fail(name, result ? "an instruction name (OpX)" : "an instruction (OpX or %result = OpX)");
    const opcode_info* info = find_opcode(std::string_view(name.text));
    if (!info) fail(name, "an instruction the SPIR-V grammar knows");
    ++m_pos;
    m_inst = instruction{info->opcode, {}};
    std::size_t result_index = info->operands.size();
    for (std::size_t i = 0; i < info->operands.size(); ++i)
      if (info->operands[i].kind == operand_kind::result_id) result_index = i;
    if (result && result_index == info->operands.size())
      throw error(where(*result) + ": " + std::string(info->name) + " has no result id; remove '%" +
                  result->text + " ='");
    if (!result && result_index < info->operands.size())
      throw error(where(name) + ": " + std::string(info->name) +
                  " defines a result id; write '%name = " + std::string(info->name) + " ...'");

    m_raw = false;
    operands(info->operands, result ? &*result : nullptr);
    raw_next(); // raw words may also follow the grammar's last operand
    while (m_raw && !at_end()) raw_operand();
    if (!at_end())
      fail(peek(), "end of line (" + std::string(info->name) + " has no more operands)");
    ++m_pos;
    remember(*info);
    m_module.instructions.push_back(std::move(m_inst));
  }

  // A line of raw words: the instruction's first word (word count and opcode), then its operands.
  void raw_instruction() {
    const token& first = peek();
    std::vector<std::uint32_t> words;
    while (!at_end()) {
      const token& t = take();
      if (t.kind != token::type::raw) fail(t, "only !N raw words on a line that starts with one");
      words.push_back(raw_value(t));
    }
    ++m_pos;
    if (words[0] >> 16 != words.size())
      throw error(where(first) + ": the first raw word says " + std::to_string(words[0] >> 16) +
                  " words, the line has " + std::to_string(words.size()));
    m_module.instructions.push_back({static_cast<std::uint16_t>(words[0] & 0xffff),
                                     std::vector<std::uint32_t>(words.begin() + 1, words.end())});
  }

  std::uint32_t raw_value(const token& t) {
    std::uint64_t v;
    bool negative;
    if (!parse_integer(t.text, v, negative) || negative || v > 0xffffffffu)
      fail(t, "a raw word !N with N from 0 to 0xffffffff");
    return static_cast<std::uint32_t>(v);
  }

  // After a raw word: tokens encoded without the grammar.
  void raw_operand() {
    const token& t = peek();
    switch (t.kind) {
    case token::type::raw:
      m_inst.operands.push_back(raw_value(take()));
      return;
    case token::type::id:
      m_inst.operands.push_back(expect_id());
      return;
    case token::type::number:
      m_inst.operands.push_back(expect_u32("a 32-bit integer"));
      return;
    case token::type::string:
      append_string(m_inst.operands, take().text);
      return;
    default:
      fail(t, "a raw word, an id, an integer or a string after a raw word");
    }
  }

  bool raw_next() {
    if (peek().kind == token::type::raw) m_raw = true;
    return m_raw;
  }

  void operands(std::span<const operand_info> list, const token* result) {
    for (const auto& o : list) {
      if (o.kind == operand_kind::result_id && result) {
        m_inst.operands.push_back(id_number(*result));
        continue;
      }
      if (raw_next()) return;
      if (o.count == quantifier::one) {
        one(o);
      } else if (o.count == quantifier::optional) {
        if (!at_end()) one(o);
      } else {
        while (!at_end() && !raw_next()) one(o);
      }
    }
  }

  void one(const operand_info& o) {
    if (raw_next()) return;
    switch (o.kind) {
    case operand_kind::result_type:
    case operand_kind::result_id:
    case operand_kind::id:
      m_inst.operands.push_back(expect_id());
      return;
    case operand_kind::literal:
      if (o.grammar_kind == "LiteralSpecConstantOpInteger") return spec_constant_op();
      m_inst.operands.push_back(expect_u32("an integer literal"));
      return;
    case operand_kind::literal_wide:
      return number(m_inst.operands.empty() ? 0 : m_inst.operands[0], "OpConstant's result type");
    case operand_kind::string: {
      const token& t = peek();
      if (t.kind != token::type::string) fail(t, "a \"string\"");
      append_string(m_inst.operands, take().text);
      return;
    }
    case operand_kind::value_enum:
      return value_enum(o.enum_name);
    case operand_kind::bit_enum:
      return bit_enum(o.enum_name);
    case operand_kind::ext_inst:
      return ext_inst();
    case operand_kind::pair_literal_id: {
      std::uint32_t selector = m_inst.operands.empty() ? 0 : m_inst.operands[0];
      auto it = m_value_types.find(selector);
      number(it == m_value_types.end() ? 0 : it->second, "the selector's type");
      if (raw_next()) return;
      m_inst.operands.push_back(expect_id());
      return;
    }
    case operand_kind::pair_id_literal:
      m_inst.operands.push_back(expect_id());
      if (raw_next()) return;
      m_inst.operands.push_back(expect_u32("an integer literal"));
      return;
    case operand_kind::pair_id_id:
      m_inst.operands.push_back(expect_id());
      if (raw_next()) return;
      m_inst.operands.push_back(expect_id());
      return;
    }
  }

  // A literal number with the width and kind of the scalar type `type_id` (SPIR-V 1.6 2.2.1:
  // one word up to 32 bits, else low-order word first).
  void number(std::uint32_t type_id, const char* whose) {
    const token& t = peek();
    auto it = m_types.find(type_id);
    if (it == m_types.end())
      fail(t, std::string("a number, after ") + whose + " %" + std::to_string(type_id) +
                  " declared as OpTypeInt or OpTypeFloat earlier (else write !N raw words)");
    const scalar_type& type = it->second;
    if (t.kind != token::type::number) fail(t, "a number");
    std::uint64_t bits = 0;
    if (type.is_float) {
      int fraction = type.width == 16 ? 10 : type.width == 32 ? 23 : 52;
      int exponent = type.width == 16 ? 5 : type.width == 32 ? 8 : 11;
      if (type.width != 16 && type.width != 32 && type.width != 64)
        fail(t, "a type of 16, 32 or 64 bits for a float literal");
      if (!parse_hex_float(t.text, fraction, exponent, bits)) {
        char* end = nullptr;
        double d = std::strtod(t.text.c_str(), &end);
        if (end == t.text.c_str() || *end != '\0') fail(t, "a floating-point number");
        if (type.width == 64) {
          std::memcpy(&bits, &d, 8);
        } else {
          float f = type.width == 32 ? std::strtof(t.text.c_str(), nullptr) : static_cast<float>(d);
          std::uint32_t b;
          std::memcpy(&b, &f, 4);
          bits = type.width == 32 ? b : to_half(f);
        }
      }
    } else {
      bool negative;
      std::uint64_t v;
      if (!parse_integer(t.text, v, negative)) fail(t, "an integer");
      // SPIR-V 1.6 2.2.1: a value narrower than 32 bits fills the low bits of its word, sign
      // extended for a signed type. Any other 32-bit word is accepted too, so that modules which
      // break the rule read back as they were written (disassemble() prints such a word whole).
      const std::uint32_t width = type.width < 32 ? 32 : type.width;
      const std::uint64_t limit = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
      // A 0-bit integer type (invalid, but encodable) takes one word like any narrow one.
      const std::uint32_t sign_width = type.width == 0 ? 32 : type.width;
      const std::uint64_t most_negative =
          sign_width >= 64 ? std::uint64_t{1} << 63 : std::uint64_t{1} << (sign_width - 1);
      if (negative && v > most_negative)
        fail(t, "an integer that fits in " + std::to_string(type.width) + " bits");
      if (!negative && v > limit)
        fail(t, "an integer that fits in " + std::to_string(width) + " bits");
      bits = negative ? (0 - v) & limit : v;
    }
    ++m_pos;
    m_inst.operands.push_back(static_cast<std::uint32_t>(bits));
    if (type.width > 32) m_inst.operands.push_back(static_cast<std::uint32_t>(bits >> 32));
  }

  void value_enum(std::string_view enum_name) {
    const token& t = peek();
    const enumerant_info* e = nullptr;
    if (t.kind == token::type::word) {
      e = find_enumerant(enum_name, std::string_view(t.text));
      if (!e) fail(t, "a " + std::string(enum_name) + " name");
      m_inst.operands.push_back(e->value);
      ++m_pos;
    } else if (t.kind == token::type::number) {
      std::uint32_t v = expect_u32("a number");
      e = find_enumerant(enum_name, v);
      m_inst.operands.push_back(v);
    } else {
      fail(t, "a " + std::string(enum_name));
    }
    if (e)
      for (const auto& p : e->parameters) one(p);
  }

  void bit_enum(std::string_view enum_name) {
    const token& t = peek();
    std::uint32_t value = 0;
    if (t.kind == token::type::number) {
      value = expect_u32("a number");
    } else if (t.kind == token::type::word) {
      std::string_view rest = t.text;
      while (true) {
        std::size_t bar = rest.find('|');
        std::string_view part = rest.substr(0, bar);
        const enumerant_info* e = find_enumerant(enum_name, part);
        if (!e)
          fail(t, "'|'-separated " + std::string(enum_name) + " names ('" + std::string(part) +
                      "' is not one)");
        value |= e->value;
        if (bar == std::string_view::npos) break;
        rest.remove_prefix(bar + 1);
      }
      ++m_pos;
    } else {
      fail(t, "a " + std::string(enum_name) + " mask");
    }
    m_inst.operands.push_back(value);
    // Parameters follow in the order of their bits, lowest first (SPIR-V 1.6 section 2.2.1).
    for (int bit = 0; bit < 32; ++bit)
      if (value >> bit & 1)
        if (const enumerant_info* e = find_enumerant(enum_name, std::uint32_t{1} << bit))
          for (const auto& p : e->parameters) one(p);
  }

  void spec_constant_op() {
    const token& t = peek();
    const opcode_info* info = nullptr;
    if (t.kind == token::type::word) {
      info = find_opcode(std::string_view("Op" + t.text));
      if (!info) fail(t, "an opcode name without 'Op' (IAdd, ...)");
      ++m_pos;
    } else {
      std::uint32_t code = expect_u32("an opcode");
      if (code <= 0xffff) info = find_opcode(static_cast<std::uint16_t>(code));
      if (!info)
        throw error(where(t) + ": " + std::to_string(code) + " is not an opcode the grammar knows");
    }
    m_inst.operands.push_back(info->opcode);
    std::size_t first = 0;
    while (first < info->operands.size() &&
           (info->operands[first].kind == operand_kind::result_type ||
            info->operands[first].kind == operand_kind::result_id))
      ++first;
    operands(info->operands.subspan(first), nullptr);
  }

  void ext_inst() {
    const token& t = peek();
    std::uint32_t set = m_inst.operands.size() > 2 ? m_inst.operands[2] : 0;
    auto it = m_ext_sets.find(set);
    bool opencl = it != m_ext_sets.end() && it->second == "OpenCL.std";
    if (opencl && t.kind == token::type::word) {
      const ext_inst_info* info = find_opencl_ext_inst(std::string_view(t.text));
      if (!info) fail(t, "an OpenCL.std instruction name");
      ++m_pos;
      m_inst.operands.push_back(info->number);
      operands(info->operands, nullptr);
      return;
    }
    std::uint32_t number =
        expect_u32(opencl ? "an OpenCL.std instruction" : "an extended instruction number");
    m_inst.operands.push_back(number);
    const ext_inst_info* info = opencl ? find_opencl_ext_inst(number) : nullptr;
    if (info) {
      operands(info->operands, nullptr);
    } else {
      while (!at_end() && !raw_next()) m_inst.operands.push_back(expect_id());
    }
  }

  // What later lines need: scalar types, each value's type, extended instruction sets.
  void remember(const opcode_info& info) {
    const auto& w = m_inst.operands;
    if (m_inst.opcode == op::TypeInt && w.size() >= 3) m_types[w[0]] = {false, w[2] != 0, w[1]};
    if (m_inst.opcode == op::TypeFloat && w.size() >= 2) m_types[w[0]] = {true, false, w[1]};
    if (m_inst.opcode == op::ExtInstImport && w.size() >= 2) {
      try {
        m_ext_sets[w[0]] = m_inst.string_at(1);
      } catch (const error&) {
      }
    }
    if (info.operands.size() >= 2 && info.operands[0].kind == operand_kind::result_type &&
        info.operands[1].kind == operand_kind::result_id && w.size() >= 2)
      m_value_types[w[1]] = w[0];
  }

  std::string_view m_text;
  std::vector<token> m_tokens;
  std::size_t m_pos = 0;
  module m_module;
  instruction m_inst;
  bool m_raw = false;
  std::optional<std::uint32_t> m_bound;
  std::unordered_set<std::uint32_t> m_taken;
  std::unordered_map<std::string, std::uint32_t> m_named;
  std::uint32_t m_next_fresh = 1;
  std::uint32_t m_max_id = 0;
  std::unordered_map<std::uint32_t, scalar_type> m_types;
  std::unordered_map<std::uint32_t, std::uint32_t> m_value_types;
  std::unordered_map<std::uint32_t, std::string> m_ext_sets;
};

} // namespace

module assemble(std::string_view text) {
  return assembler(text).run();
}

} // namespace syclone::spirv
