// Build-time generator of the SPIR-V grammar tables (grammar.inc, included by grammar.cpp).
//
//   syclone-spirv-grammar-gen CORE.json OPENCL.json SUPPLEMENT.json OUT.inc
//
// Reads the machine-readable grammars that SPIR-V publishes (SPIR-V 1.6 "Machine-readable
// grammar": instructions with typed operands, operand kinds with their enumerants), merges
// syclone's supplement (same format: what Debian's spirv-headers predate) and writes sorted
// constexpr arrays that grammar.cpp searches by binary search. A host tool with its own small JSON
// reader, so the build needs no Python.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

// --- A minimal JSON reader (RFC 8259): enough for the grammar files, with line numbers in errors.

struct json {
  enum class type { null, boolean, number, string, array, object } kind = type::null;
  bool flag = false;
  double number = 0;
  std::string text;
  std::vector<json> items;
  std::vector<std::string> keys; // an object's members: keys[i] names items[i]

  const json* find(const std::string& key) const {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == key) return &items[i];
    return nullptr;
  }
  const std::string& str(const std::string& key) const {
    const json* v = find(key);
    if (!v || v->kind != type::string)
      throw std::runtime_error("missing string member '" + key + "'");
    return v->text;
  }
};

class json_parser {
public:
  json_parser(std::string text, std::string file)
      : m_text(std::move(text)), m_file(std::move(file)) {}

  json parse() {
    json v = value();
    skip_space();
    if (m_pos != m_text.size()) fail("trailing characters after the top-level value");
    return v;
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    std::size_t line = 1 + std::count(m_text.begin(), m_text.begin() + m_pos, '\n');
    throw std::runtime_error(m_file + ":" + std::to_string(line) + ": " + what);
  }
  void skip_space() {
    while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' ||
                                     m_text[m_pos] == '\r' || m_text[m_pos] == '\t'))
      ++m_pos;
  }
  char peek() {
    skip_space();
    if (m_pos >= m_text.size()) fail("unexpected end of file");
    return m_text[m_pos];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++m_pos;
  }
  bool literal(const char* word) {
    std::string w = word;
    if (m_text.compare(m_pos, w.size(), w) != 0) return false;
    m_pos += w.size();
    return true;
  }
  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | cp >> 6);
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | cp >> 12);
      out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | cp >> 18);
      out += static_cast<char>(0x80 | (cp >> 12 & 0x3f));
      out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }
  std::uint32_t hex4() {
    if (m_pos + 4 > m_text.size()) fail("truncated \\u escape");
    std::uint32_t v = std::stoul(m_text.substr(m_pos, 4), nullptr, 16);
    m_pos += 4;
    return v;
  }
  std::string string_body() {
    expect('"');
    std::string out;
    while (true) {
      if (m_pos >= m_text.size()) fail("unterminated string");
      char c = m_text[m_pos++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (m_pos >= m_text.size()) fail("unterminated escape");
      char e = m_text[m_pos++];
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        std::uint32_t cp = hex4();
        if (cp >= 0xd800 && cp < 0xdc00 && literal("\\u"))
          cp = 0x10000 + ((cp - 0xd800) << 10) + (hex4() - 0xdc00);
        append_utf8(out, cp);
        break;
      }
      default:
        fail(std::string("unknown escape \\") + e);
      }
    }
  }
  json value() {
    json v;
    char c = peek();
    if (c == '{') {
      v.kind = json::type::object;
      ++m_pos;
      if (peek() == '}') {
        ++m_pos;
        return v;
      }
      while (true) {
        std::string key = string_body();
        expect(':');
        v.keys.push_back(std::move(key));
        v.items.push_back(value());
        if (peek() == ',') {
          ++m_pos;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = json::type::array;
      ++m_pos;
      if (peek() == ']') {
        ++m_pos;
        return v;
      }
      while (true) {
        v.items.push_back(value());
        if (peek() == ',') {
          ++m_pos;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = json::type::string;
      v.text = string_body();
      return v;
    }
    if (literal("true") || literal("false")) {
      v.kind = json::type::boolean;
      v.flag = m_text[m_pos - 1] == 'e' && m_text[m_pos - 2] == 'u';
      return v;
    }
    if (literal("null")) return v;
    if (c == '-' || (c >= '0' && c <= '9')) {
      const char* begin = m_text.c_str() + m_pos;
      char* end = nullptr;
      v.kind = json::type::number;
      v.number = std::strtod(begin, &end);
      m_pos += static_cast<std::size_t>(end - begin);
      return v;
    }
    fail(std::string("unexpected character '") + c + "'");
  }

  std::string m_text;
  std::string m_file;
  std::size_t m_pos = 0;
};

json load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return json_parser(std::move(text), path).parse();
}

// --- The grammar model.

struct operand {
  std::string kind;    // the grammar's operand kind ("IdRef", "MemoryAccess", ...)
  char quantifier = 0; // 0, '?' or '*'
  std::string name;
};

struct enumerant {
  std::string name;
  std::uint32_t value = 0;
  std::vector<operand> parameters;
  std::vector<std::string> capabilities, extensions;
  std::size_t order = 0; // position in the grammar: the first of equal values is the one printed
};

struct operand_kind {
  std::string name, category;
  std::vector<enumerant> enumerants;
};

struct instruction {
  std::string name;
  std::uint32_t opcode = 0;
  std::vector<operand> operands;
  std::vector<std::string> capabilities, extensions;
  std::size_t order = 0;
};

std::uint32_t to_u32(const json& v, const std::string& what) {
  if (v.kind == json::type::number) return static_cast<std::uint32_t>(v.number);
  if (v.kind == json::type::string)
    return static_cast<std::uint32_t>(std::stoul(v.text, nullptr, 0));
  throw std::runtime_error(what + ": expected a number");
}

std::vector<std::string> strings(const json& object, const std::string& key) {
  std::vector<std::string> out;
  if (const json* v = object.find(key))
    for (const auto& s : v->items) out.push_back(s.text);
  return out;
}

std::vector<operand> operands(const json& object, const std::string& key) {
  std::vector<operand> out;
  if (const json* v = object.find(key))
    for (const auto& o : v->items) {
      operand op;
      op.kind = o.str("kind");
      if (const json* q = o.find("quantifier")) op.quantifier = q->text.empty() ? 0 : q->text[0];
      if (const json* n = o.find("name")) op.name = n->text;
      out.push_back(std::move(op));
    }
  return out;
}

std::size_t g_order = 0;

instruction read_instruction(const json& j) {
  instruction inst;
  inst.name = j.str("opname");
  inst.opcode = to_u32(*j.find("opcode"), inst.name);
  inst.operands = operands(j, "operands");
  inst.capabilities = strings(j, "capabilities");
  inst.extensions = strings(j, "extensions");
  inst.order = g_order++;
  return inst;
}

enumerant read_enumerant(const json& j) {
  enumerant e;
  e.name = j.str("enumerant");
  e.value = to_u32(*j.find("value"), e.name);
  e.parameters = operands(j, "parameters");
  e.capabilities = strings(j, "capabilities");
  e.extensions = strings(j, "extensions");
  e.order = g_order++;
  return e;
}

struct grammar {
  std::vector<instruction> instructions;
  std::vector<operand_kind> kinds;

  operand_kind* kind(const std::string& name) {
    for (auto& k : kinds)
      if (k.name == name) return &k;
    return nullptr;
  }

  // Adds what `j` has that this grammar lacks: the supplement only adds, it never redefines.
  void merge(const json& j) {
    if (const json* insts = j.find("instructions"))
      for (const auto& i : insts->items) {
        instruction inst = read_instruction(i);
        bool known = std::any_of(instructions.begin(), instructions.end(),
                                 [&](const instruction& o) { return o.name == inst.name; });
        if (!known) instructions.push_back(std::move(inst));
      }
    if (const json* ks = j.find("operand_kinds"))
      for (const auto& k : ks->items) {
        std::string name = k.str("kind");
        operand_kind* into = kind(name);
        if (!into) {
          kinds.push_back({name, k.str("category"), {}});
          into = &kinds.back();
        }
        if (const json* es = k.find("enumerants"))
          for (const auto& e : es->items) {
            enumerant en = read_enumerant(e);
            bool known = std::any_of(into->enumerants.begin(), into->enumerants.end(),
                                     [&](const enumerant& o) { return o.name == en.name; });
            if (!known) into->enumerants.push_back(std::move(en));
          }
      }
  }
};

// --- Emitting C++.

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

class emitter {
public:
  explicit emitter(grammar& g) : m_grammar(g) {}

  // Returns "first, count" into the operand pool.
  std::string operand_list(const std::vector<operand>& ops) {
    std::size_t first = m_operands.size();
    for (const auto& op : ops) m_operands.push_back(describe(op));
    return "{operand_pool + " + std::to_string(first) + ", " + std::to_string(ops.size()) + "}";
  }
  std::string string_list(const std::vector<std::string>& names) {
    std::size_t first = m_strings.size();
    for (const auto& n : names) m_strings.push_back(quote(n));
    return "{string_pool + " + std::to_string(first) + ", " + std::to_string(names.size()) + "}";
  }

  std::string describe(const operand& op) {
    std::string kind;
    std::string enum_name;
    const operand_kind* k = m_grammar.kind(op.kind);
    if (!k) throw std::runtime_error("operand kind '" + op.kind + "' is not in the grammar");
    if (op.kind == "IdResultType")
      kind = "result_type";
    else if (op.kind == "IdResult")
      kind = "result_id";
    else if (k->category == "Id")
      kind = "id";
    else if (op.kind == "LiteralString")
      kind = "string";
    else if (op.kind == "LiteralContextDependentNumber")
      kind = "literal_wide";
    else if (op.kind == "LiteralExtInstInteger")
      kind = "ext_inst";
    else if (k->category == "Literal")
      kind = "literal";
    else if (op.kind == "PairLiteralIntegerIdRef")
      kind = "pair_literal_id";
    else if (op.kind == "PairIdRefLiteralInteger")
      kind = "pair_id_literal";
    else if (op.kind == "PairIdRefIdRef")
      kind = "pair_id_id";
    else if (k->category == "ValueEnum")
      kind = "value_enum", enum_name = op.kind;
    else if (k->category == "BitEnum")
      kind = "bit_enum", enum_name = op.kind;
    else
      throw std::runtime_error("operand kind '" + op.kind + "' has unknown category " +
                               k->category);
    const char* count = op.quantifier == '?' ? "optional" : op.quantifier == '*' ? "any" : "one";
    return "{operand_kind::" + kind + ", quantifier::" + count + ", " + quote(enum_name) + ", " +
           quote(op.name) + ", " + quote(op.kind) + "}";
  }

  void write(std::ostream& out, const std::vector<instruction>& opencl) {
    std::ostringstream body;
    auto instructions = m_grammar.instructions;
    std::stable_sort(
        instructions.begin(), instructions.end(),
        [](const instruction& a, const instruction& b) { return a.opcode < b.opcode; });
    body << "inline constexpr opcode_info opcode_rows[] = {\n";
    for (const auto& i : instructions)
      body << "    {" << i.opcode << ", " << quote(i.name) << ", " << operand_list(i.operands)
           << ", " << string_list(i.capabilities) << ", " << string_list(i.extensions) << "},\n";
    body << "};\n";
    body << "// opcode_rows by name.\ninline constexpr std::uint16_t opcodes_by_name[] = {";
    write_index(body, instructions, [](const instruction& i) { return i.name; });

    // Enumerants: each kind's run sorted by value (the first of a value is printed), the kinds
    // sorted by name.
    std::vector<const operand_kind*> kinds;
    for (const auto& k : m_grammar.kinds)
      if (k.category == "ValueEnum" || k.category == "BitEnum") kinds.push_back(&k);
    std::sort(kinds.begin(), kinds.end(), [](auto* a, auto* b) { return a->name < b->name; });
    std::ostringstream rows, by_name, enums;
    std::size_t first = 0;
    rows << "inline constexpr enumerant_info enumerant_rows[] = {\n";
    by_name << "// Within each kind's run, enumerant_rows by name (offsets from the run's start).\n"
               "inline constexpr std::uint16_t enumerants_by_name[] = {";
    enums << "inline constexpr enum_row enum_rows[] = {\n";
    for (const auto* k : kinds) {
      auto es = k->enumerants;
      std::stable_sort(es.begin(), es.end(), [](const enumerant& a, const enumerant& b) {
        return a.value != b.value ? a.value < b.value : a.order < b.order;
      });
      for (const auto& e : es)
        rows << "    {" << quote(e.name) << ", " << e.value << "u, " << operand_list(e.parameters)
             << ", " << string_list(e.capabilities) << ", " << string_list(e.extensions) << "},\n";
      write_index(by_name, es, [](const enumerant& e) { return e.name; }, false);
      enums << "    {" << quote(k->name) << ", " << (k->category == "BitEnum" ? "true" : "false")
            << ", " << first << ", " << es.size() << "},\n";
      first += es.size();
    }
    rows << "};\n";
    by_name << "};\n";
    enums << "};\n";

    auto ext = opencl;
    std::stable_sort(ext.begin(), ext.end(), [](const instruction& a, const instruction& b) {
      return a.opcode < b.opcode;
    });
    std::ostringstream ext_rows;
    ext_rows << "inline constexpr ext_inst_info opencl_rows[] = {\n";
    for (const auto& i : ext)
      ext_rows << "    {" << i.opcode << ", " << quote(i.name) << ", " << operand_list(i.operands)
               << "},\n";
    ext_rows << "};\ninline constexpr std::uint16_t opencl_by_name[] = {";
    write_index(ext_rows, ext, [](const instruction& i) { return i.name; });

    out << "// Generated by src/spirv/generator/grammar_gen.cpp from the SPIR-V grammar JSON "
           "files\n"
           "// and src/spirv/grammar_supplement.json. Do not edit.\n\n";
    out << "inline constexpr operand_info operand_pool[] = {\n";
    for (const auto& o : m_operands) out << "    " << o << ",\n";
    if (m_operands.empty()) out << "    {},\n";
    out << "};\ninline constexpr std::string_view string_pool[] = {\n";
    for (const auto& s : m_strings) out << "    " << s << ",\n";
    if (m_strings.empty()) out << "    {},\n";
    out << "};\n\n"
        << body.str() << "\n"
        << rows.str() << by_name.str() << enums.str() << "\n"
        << ext_rows.str();
  }

private:
  template <class T, class Key>
  void write_index(std::ostream& out, const std::vector<T>& rows, Key key, bool close = true) {
    std::vector<std::size_t> index(rows.size());
    for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
    std::stable_sort(index.begin(), index.end(),
                     [&](std::size_t a, std::size_t b) { return key(rows[a]) < key(rows[b]); });
    for (std::size_t i = 0; i < index.size(); ++i)
      out << (i % 16 == 0 ? "\n    " : " ") << index[i] << ",";
    if (close) out << "\n};\n";
  }

  grammar& m_grammar;
  std::vector<std::string> m_operands;
  std::vector<std::string> m_strings;
};

} // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s CORE.json OPENCL.json SUPPLEMENT.json OUT.inc\n", argv[0]);
    return 2;
  }
  try {
    grammar g;
    json core = load(argv[1]);
    g.merge(core);
    json supplement = load(argv[3]);
    g.merge(supplement);
    std::vector<instruction> opencl;
    json ext = load(argv[2]);
    for (const auto& i : ext.find("instructions")->items) opencl.push_back(read_instruction(i));
    if (const json* more = supplement.find("opencl_instructions"))
      for (const auto& i : more->items) opencl.push_back(read_instruction(i));

    std::ostringstream text;
    emitter(g).write(text, opencl);
    // Rewrite only on change, so an unchanged grammar does not rebuild grammar.cpp.
    std::string path = argv[4];
    {
      std::ifstream old(path, std::ios::binary);
      std::string before((std::istreambuf_iterator<char>(old)), std::istreambuf_iterator<char>());
      if (old && before == text.str()) return 0;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text.str();
    if (!out) throw std::runtime_error("cannot write " + path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", argv[0], e.what());
    return 1;
  }
  return 0;
}
