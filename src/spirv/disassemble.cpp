// The disassembler: one line per instruction in the layout SPIRV-Tools' spirv-dis prints (result
// ids right-aligned before " = ", operands in grammar order), driven by grammar.hpp. Operands
// follow SPIR-V 1.6 section 2.2.1 (literals, strings) and section 3 (what each instruction's
// operands are); numbers wider than one word are low-order word first (section 2.2.1).
#include "disassemble.hpp"

#include "grammar.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

namespace syclone::spirv {

namespace {

// SPIR-V 1.6 section 2.3: the generator word's high 16 bits are a tool id registered in the
// SPIR-V XML registry (spir-v.xml, "SPIR-V Tool IDs"); spirv-dis prints "vendor tool".
constexpr std::array<std::string_view, 37> generator_names = {
    "Khronos",
    "LunarG",
    "Valve",
    "Codeplay",
    "NVIDIA",
    "ARM",
    "Khronos LLVM/SPIR-V Translator",
    "Khronos SPIR-V Tools Assembler",
    "Khronos Glslang Reference Front End",
    "Qualcomm",
    "AMD",
    "Intel",
    "Imagination",
    "Google Shaderc over Glslang",
    "Google spiregg",
    "Google rspirv",
    "X-LEGEND Mesa-IR/SPIR-V Translator",
    "Khronos SPIR-V Tools Linker",
    "Wine VKD3D Shader Compiler",
    "Tellusim Clay Shader Compiler",
    "W3C WebGPU Group WHLSL Shader Translator",
    "Google Clspv",
    "Google MLIR SPIR-V Serializer",
    "Google Tint Compiler",
    "Google ANGLE Shader Compiler",
    "Netease Games Messiah Shader Compiler",
    "Xenia Xenia Emulator Microcode Translator",
    "Embark Studios Rust GPU Compiler Backend",
    "gfx-rs community Naga",
    "Mikkosoft Productions MSP Shader Compiler",
    "SpvGenTwo community SpvGenTwo SPIR-V IR Tools",
    "Google Skia SkSL",
    "TornadoVM SPIRV Beehive Toolkit",
    "DragonJoker ShaderWriter",
    "Rayan Hatout SPIRVSmith",
    "Saarland University Shady",
    "Taichi Graphics Taichi",
};

struct scalar_type {
  bool is_float = false;
  bool is_signed = false;
  std::uint32_t width = 0;
};

// A float in spirv-dis's notation: zero and normal numbers in decimal with enough digits to read
// back exactly, everything else (subnormals, infinities, NaNs) as a hex float whose exponent is
// that of the encoding (so 0x1p+128 is infinity and 0x1.8p+128 a quiet NaN for 32 bits).
std::string hex_float(std::uint64_t bits, int fraction_bits, int exponent_bits) {
  const int nibbles = (fraction_bits + 3) / 4;
  const int pad = nibbles * 4 - fraction_bits;
  const int bias = (1 << (exponent_bits - 1)) - 1;
  bool negative = bits >> (fraction_bits + exponent_bits) & 1;
  std::uint64_t exponent = bits >> fraction_bits & ((std::uint64_t{1} << exponent_bits) - 1);
  std::uint64_t fraction = (bits & ((std::uint64_t{1} << fraction_bits) - 1)) << pad;
  const std::uint64_t top = std::uint64_t{1} << (nibbles * 4 - 1);
  const std::uint64_t mask =
      nibbles * 4 == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << nibbles * 4) - 1;
  bool zero = exponent == 0 && fraction == 0;
  long e = zero ? 0 : static_cast<long>(exponent) - bias;
  if (exponent == 0 && !zero) {
    // Subnormal: normalize so the leading 1 becomes the implicit one.
    while ((fraction & top) == 0) {
      fraction <<= 1;
      --e;
    }
    fraction = (fraction << 1) & mask;
  }
  int digits = nibbles;
  while (digits > 0 && (fraction & 0xf) == 0) {
    fraction >>= 4;
    --digits;
  }
  std::string out = negative ? "-0x" : "0x";
  out += zero ? '0' : '1';
  if (digits > 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ".%0*llx", digits, static_cast<unsigned long long>(fraction));
    out += buf;
  }
  out += 'p';
  if (e >= 0) out += '+';
  out += std::to_string(e);
  return out;
}

std::string float_text(std::uint64_t bits, std::uint32_t width) {
  char buf[64];
  if (width == 32) {
    float f;
    std::uint32_t b = static_cast<std::uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    int c = std::fpclassify(f);
    if (c != FP_ZERO && c != FP_NORMAL) return hex_float(bits, 23, 8);
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
    return buf;
  }
  if (width == 64) {
    double d;
    std::memcpy(&d, &bits, 8);
    int c = std::fpclassify(d);
    if (c != FP_ZERO && c != FP_NORMAL) return hex_float(bits, 52, 11);
    std::snprintf(buf, sizeof buf, "%.17g", d);
    return buf;
  }
  // Half floats always print as hex floats.
  return hex_float(bits, 10, 5);
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string raw_word(std::uint32_t w) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "!0x%08x", w);
  return buf;
}

// Why an operand could not be decoded; printing falls back to raw words.
struct malformed {
  std::string why;
  bool truncated = false; // the instruction ends before its required operands do
};

class printer {
public:
  printer(const module& m, const disassemble_options& options) : m_module(m), m_options(options) {
    scan();
  }

  std::string run() {
    std::string out;
    if (m_options.header) header(out);
    for (const auto& inst : m_module.instructions) line(out, inst);
    return out;
  }

private:
  // What later operands need to know about earlier instructions: numeric types (for literal
  // widths), each value's type, extended instruction sets, and the names for friendly ids.
  void scan() {
    for (const auto& inst : m_module.instructions) {
      const auto& w = inst.operands;
      if (inst.opcode == op::TypeInt && w.size() >= 3)
        m_types[w[0]] = {false, w[2] != 0, w[1]};
      else if (inst.opcode == op::TypeFloat && w.size() >= 2)
        m_types[w[0]] = {true, false, w[1]};
      else if (inst.opcode == op::ExtInstImport && w.size() >= 2) {
        try {
          m_ext_sets[w[0]] = inst.string_at(1);
        } catch (const error&) {
        }
      }
      if (const opcode_info* info = find_opcode(inst.opcode))
        if (info->operands.size() >= 2 && info->operands[0].kind == operand_kind::result_type &&
            info->operands[1].kind == operand_kind::result_id && w.size() >= 2)
          m_value_types[w[1]] = w[0];
    }
    if (m_options.friendly_names) name_ids();
  }

  // Friendly names: the first OpName of an id, with characters other than [A-Za-z0-9_] made '_'
  // (so the name is one assembler token), a leading '_' on all-digit names (which would read back
  // as numeric ids) and "_N" suffixes on repeats.
  void name_ids() {
    std::unordered_set<std::string> used;
    for (const auto& inst : m_module.instructions) {
      if (inst.opcode != op::Name || inst.operands.size() < 2) continue;
      std::uint32_t id = inst.operands[0];
      if (m_names.count(id)) continue;
      std::string text;
      try {
        text = inst.string_at(1);
      } catch (const error&) {
        continue;
      }
      std::string name;
      bool digits = true;
      for (char c : text) {
        bool ok =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        name += ok ? c : '_';
        digits = digits && c >= '0' && c <= '9';
      }
      if (name.empty()) continue;
      if (digits) name.insert(name.begin(), '_');
      std::string unique = name;
      for (int n = 1; used.count(unique); ++n) unique = name + "_" + std::to_string(n);
      used.insert(unique);
      m_names[id] = unique;
    }
  }

  std::string id(std::uint32_t value) const {
    if (m_options.friendly_names)
      if (auto it = m_names.find(value); it != m_names.end()) return "%" + it->second;
    return "%" + std::to_string(value);
  }

  void header(std::string& out) const {
    std::uint32_t tool = m_module.generator >> 16;
    std::string generator = tool < generator_names.size() ? std::string(generator_names[tool])
                                                          : "Unknown(" + std::to_string(tool) + ")";
    out += "; SPIR-V\n; Version: " + std::to_string(m_module.version >> 16 & 0xff) + "." +
           std::to_string(m_module.version >> 8 & 0xff) + "\n; Generator: " + generator + "; " +
           std::to_string(m_module.generator & 0xffff) +
           "\n; Bound: " + std::to_string(m_module.bound) +
           "\n; Schema: " + std::to_string(m_module.schema) + "\n";
  }

  // The operand cursor of one instruction.
  struct cursor {
    const instruction& inst;
    std::size_t pos = 0;
    std::string text;
    bool left() const { return pos < inst.operands.size(); }
    std::uint32_t next() {
      if (!left()) throw malformed{"missing operand words", true};
      return inst.operands[pos++];
    }
  };

  static void raw_line(std::string& out, const instruction& inst, const std::string& why) {
    out += std::string(15, ' ');
    out += raw_word(static_cast<std::uint32_t>(inst.word_count()) << 16 | inst.opcode);
    for (auto w : inst.operands) out += " " + raw_word(w);
    out += " ; malformed: " + why + "\n";
  }

  void line(std::string& out, const instruction& inst) {
    const std::size_t line_start = out.size();
    const opcode_info* info = find_opcode(inst.opcode);
    if (!info) return raw_line(out, inst, "unknown opcode " + std::to_string(inst.opcode));
    std::size_t result = info->operands.size();
    for (std::size_t i = 0; i < info->operands.size(); ++i)
      if (info->operands[i].kind == operand_kind::result_id) result = i;
    if (result < info->operands.size() && inst.operands.size() > result) {
      std::string name = id(inst.operands[result]);
      int width = std::max(0, 12 - static_cast<int>(name.size()));
      out += std::string(static_cast<std::size_t>(width), ' ') + name + " = ";
    } else {
      out += std::string(15, ' ');
      result = info->operands.size();
    }
    out += info->name;

    cursor c{inst, 0, {}};
    std::size_t good = 0; // where the decoded prefix ends (in words)
    std::string good_text;
    try {
      operands(c, info->operands, result, &good, &good_text);
      if (c.left()) throw malformed{"more operand words than the grammar has operands"};
    } catch (const malformed& m) {
      if (m.truncated) {
        // Too few words for the grammar: the text could not say where operands are missing, so
        // the whole instruction prints raw, its first word included.
        out.resize(line_start);
        return raw_line(out, inst, m.why);
      }
      out += good_text;
      for (std::size_t i = good; i < inst.operands.size(); ++i)
        out += " " + raw_word(inst.operands[i]);
      out += " ; malformed: " + m.why + "\n";
      return;
    }
    out += c.text + "\n";
  }

  // Decodes `list` from the cursor, skipping the result id at operand `skip`; after each whole
  // operand records the words and text decoded so far (what a malformed line keeps).
  void operands(cursor& c, std::span<const operand_info> list, std::size_t skip, std::size_t* good,
                std::string* good_text) {
    auto commit = [&] {
      if (good) *good = c.pos, *good_text = c.text;
    };
    for (std::size_t i = 0; i < list.size(); ++i) {
      const operand_info& o = list[i];
      if (o.count == quantifier::one) {
        if (i == skip) {
          c.next();
        } else {
          one(c, o);
        }
        commit();
      } else if (o.count == quantifier::optional) {
        if (c.left()) one(c, o);
        commit();
      } else {
        while (c.left()) {
          one(c, o);
          commit();
        }
      }
    }
  }

  void literal_number(cursor& c, std::uint32_t type_id) {
    auto it = m_types.find(type_id);
    if (it == m_types.end())
      throw malformed{"the type " + std::to_string(type_id) +
                      " of a literal number is not a scalar"};
    const scalar_type& t = it->second;
    if (t.width == 0 || t.width > 64 ||
        (t.is_float && t.width != 16 && t.width != 32 && t.width != 64))
      throw malformed{"a literal number of unsupported width " + std::to_string(t.width)};
    std::uint64_t bits = c.next();
    if (t.width > 32) bits |= std::uint64_t{c.next()} << 32;
    c.text += ' ';
    if (t.is_float) {
      c.text += float_text(bits, t.width);
    } else if (t.is_signed) {
      // A signed value narrower than 32 bits is sign extended to its word (SPIR-V 1.6 2.2.1);
      // like spirv-dis, print the word as it is, so a word that breaks the rule shows.
      c.text += t.width > 32 ? std::to_string(static_cast<std::int64_t>(bits))
                             : std::to_string(static_cast<std::int32_t>(bits));
    } else {
      c.text += std::to_string(bits);
    }
  }

  void enumerant_operand(cursor& c, const operand_info& o) {
    std::uint32_t value = c.next();
    if (!is_bit_enum(o.enum_name)) {
      const enumerant_info* e = find_enumerant(o.enum_name, value);
      if (!e) throw malformed{std::to_string(value) + " is not a " + std::string(o.enum_name)};
      c.text += ' ';
      c.text += e->name;
      for (const auto& p : e->parameters) one(c, p);
      return;
    }
    if (value == 0) {
      const enumerant_info* e = find_enumerant(o.enum_name, std::uint32_t{0});
      if (!e) throw malformed{"0 is not a " + std::string(o.enum_name)};
      c.text += ' ';
      c.text += e->name;
      return;
    }
    std::vector<const enumerant_info*> set;
    for (int bit = 0; bit < 32; ++bit) {
      std::uint32_t flag = std::uint32_t{1} << bit;
      if (!(value & flag)) continue;
      const enumerant_info* e = find_enumerant(o.enum_name, flag);
      if (!e)
        throw malformed{"bit " + std::to_string(bit) + " is not a " + std::string(o.enum_name)};
      set.push_back(e);
    }
    c.text += ' ';
    for (std::size_t i = 0; i < set.size(); ++i)
      c.text += (i ? "|" : "") + std::string(set[i]->name);
    for (const auto* e : set)
      for (const auto& p : e->parameters) one(c, p);
  }

  void one(cursor& c, const operand_info& o) {
    const instruction& inst = c.inst;
    switch (o.kind) {
    case operand_kind::result_type:
    case operand_kind::result_id:
    case operand_kind::id:
      c.text += " " + id(c.next());
      return;
    case operand_kind::literal:
      if (o.grammar_kind == "LiteralSpecConstantOpInteger") return spec_constant_op(c);
      c.text += " " + std::to_string(c.next());
      return;
    case operand_kind::literal_wide:
      // OpConstant / OpSpecConstant: the width of the result type (operand 0).
      return literal_number(c, inst.operands.empty() ? 0 : inst.operands[0]);
    case operand_kind::string: {
      std::size_t words = 0;
      std::string s;
      try {
        s = inst.string_at(c.pos, &words);
      } catch (const error&) {
        throw malformed{"a literal string is not nul-terminated"};
      }
      c.pos += words;
      c.text += " " + quoted(s);
      return;
    }
    case operand_kind::value_enum:
    case operand_kind::bit_enum:
      return enumerant_operand(c, o);
    case operand_kind::ext_inst:
      return ext_inst(c);
    case operand_kind::pair_literal_id: {
      // OpSwitch: the literal has the selector's width (operand 0's type).
      std::uint32_t selector = inst.operands.empty() ? 0 : inst.operands[0];
      auto it = m_value_types.find(selector);
      literal_number(c, it == m_value_types.end() ? 0 : it->second);
      c.text += " " + id(c.next());
      return;
    }
    case operand_kind::pair_id_literal:
      c.text += " " + id(c.next());
      c.text += " " + std::to_string(c.next());
      return;
    case operand_kind::pair_id_id:
      c.text += " " + id(c.next());
      c.text += " " + id(c.next());
      return;
    }
  }

  // OpSpecConstantOp (SPIR-V 1.6 3.52.7): the opcode prints without "Op", then that opcode's
  // operands other than its result type and id.
  void spec_constant_op(cursor& c) {
    std::uint32_t code = c.next();
    const opcode_info* info =
        code <= 0xffff ? find_opcode(static_cast<std::uint16_t>(code)) : nullptr;
    if (!info) throw malformed{std::to_string(code) + " is not an opcode"};
    c.text += ' ';
    c.text += info->name.substr(2);
    std::size_t first = 0;
    while (first < info->operands.size() &&
           (info->operands[first].kind == operand_kind::result_type ||
            info->operands[first].kind == operand_kind::result_id))
      ++first;
    operands(c, info->operands.subspan(first), info->operands.size(), nullptr, nullptr);
  }

  // OpExtInst: the set's instruction by name where the set is OpenCL.std (the only one syclone
  // emits), else its number followed by the operands as ids.
  void ext_inst(cursor& c) {
    std::uint32_t set = c.inst.operands.size() > 2 ? c.inst.operands[2] : 0;
    std::uint32_t number = c.next();
    auto it = m_ext_sets.find(set);
    if (it != m_ext_sets.end() && it->second == "OpenCL.std") {
      const ext_inst_info* info = find_opencl_ext_inst(number);
      if (!info) throw malformed{std::to_string(number) + " is not an OpenCL.std instruction"};
      c.text += ' ';
      c.text += info->name;
      operands(c, info->operands, info->operands.size(), nullptr, nullptr);
      return;
    }
    c.text += " " + std::to_string(number);
    while (c.left()) c.text += " " + id(c.next());
  }

  const module& m_module;
  const disassemble_options& m_options;
  std::unordered_map<std::uint32_t, scalar_type> m_types;
  std::unordered_map<std::uint32_t, std::uint32_t> m_value_types;
  std::unordered_map<std::uint32_t, std::string> m_ext_sets;
  std::unordered_map<std::uint32_t, std::string> m_names;
};

} // namespace

std::string_view generator_tool_name(std::uint32_t tool) {
  return tool < generator_names.size() ? generator_names[tool] : std::string_view();
}

std::string disassemble(const module& m, const disassemble_options& options) {
  return printer(m, options).run();
}

} // namespace syclone::spirv
