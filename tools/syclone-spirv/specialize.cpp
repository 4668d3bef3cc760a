// syclone-spirv specialize FILE -o OUT [--set ID=VALUE]... [--map MAP --set-name NAME=VALUE]...:
// bakes specialization-constant values into a module (src/spirv/specialize.hpp). A value is
// read as the type of the constant it sets: integers in decimal (negative too) or 0x hex,
// floating point in any strtod form (or 0x raw bits), bools as true/false/1/0.
//
// MAP is what the driver stores with each image: one `NAME SPECID OFFSET SIZE` per line, a
// composite specialization constant being several lines of one NAME (SYCL 2020 4.9.5); its
// --set-name value is then the comma-separated members in OFFSET order.
#include "command.hpp"

#include "grammar.hpp"
#include "module.hpp"
#include "specialize.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include <cxxabi.h>

namespace syclone::spirv_tool {
namespace {

struct spec_type {
  enum { boolean, integer, floating } kind = integer;
  std::uint32_t width = 0;
};

// SpecId -> the type of the OpSpecConstant* it decorates.
std::unordered_map<std::uint32_t, spec_type> spec_types(const spirv::module& m) {
  using namespace spirv;
  std::unordered_map<std::uint32_t, spec_type> types, by_result;
  for (const auto& inst : m.instructions) {
    const auto& w = inst.operands;
    if (inst.opcode == op::TypeBool && !w.empty())
      types[w[0]] = {spec_type::boolean, 8};
    else if (inst.opcode == op::TypeInt && w.size() >= 2)
      types[w[0]] = {spec_type::integer, w[1]};
    else if (inst.opcode == op::TypeFloat && w.size() >= 2)
      types[w[0]] = {spec_type::floating, w[1]};
    else if (inst.opcode >= op::SpecConstantTrue && inst.opcode <= op::SpecConstant &&
             w.size() >= 2)
      if (auto t = types.find(w[0]); t != types.end()) by_result[w[1]] = t->second;
  }
  std::unordered_map<std::uint32_t, spec_type> out;
  for (const auto& inst : m.instructions)
    if (inst.opcode == op::Decorate && inst.operands.size() >= 3 &&
        inst.operands[1] == decoration::SpecId)
      if (auto t = by_result.find(inst.operands[0]); t != by_result.end())
        out[inst.operands[2]] = t->second;
  return out;
}

template <class T>
bool parse_number(std::string_view text, T& out, int base) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && end == text.data() + text.size();
}

std::vector<std::byte> encode(std::uint32_t spec_id, const spec_type& t, const std::string& text) {
  auto fail = [&](const std::string& why) -> std::runtime_error {
    return std::runtime_error("--set " + std::to_string(spec_id) + "=" + text + ": " + why);
  };
  std::uint64_t bits = 0;
  std::size_t bytes = t.width / 8;
  std::string_view v = text;
  bool hex = v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
  switch (t.kind) {
  case spec_type::boolean:
    if (v == "true" || v == "1")
      bits = 1;
    else if (v == "false" || v == "0")
      bits = 0;
    else
      throw fail("the constant is a bool: give true or false");
    bytes = 1;
    break;
  case spec_type::integer: {
    if (t.width == 0 || t.width > 64 || t.width % 8 != 0)
      throw fail("the constant is a " + std::to_string(t.width) + "-bit integer, not settable");
    std::uint64_t mask = t.width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << t.width) - 1;
    if (!v.empty() && v[0] == '-') {
      std::int64_t s = 0;
      if (!parse_number(v, s, 10)) throw fail("not a decimal integer");
      std::int64_t min = t.width == 64 ? INT64_MIN : -(std::int64_t{1} << (t.width - 1));
      if (s < min) throw fail("below the " + std::to_string(t.width) + "-bit range");
      bits = static_cast<std::uint64_t>(s) & mask;
    } else {
      if (!(hex ? parse_number(v.substr(2), bits, 16) : parse_number(v, bits, 10)))
        throw fail("not an integer (decimal, or hex with 0x)");
      if (bits > mask) throw fail("above the " + std::to_string(t.width) + "-bit range");
    }
    break;
  }
  case spec_type::floating: {
    bool raw = hex && v.find_first_of(".pP") == std::string_view::npos;
    if (raw) {
      if (!parse_number(v.substr(2), bits, 16) || (t.width < 64 && bits >> t.width))
        throw fail("not " + std::to_string(t.width) + " bits of hex");
    } else if (t.width == 32 || t.width == 64) {
      char* end = nullptr;
      double d = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size()) throw fail("not a number");
      if (t.width == 32) {
        float f = static_cast<float>(d);
        std::uint32_t u;
        std::memcpy(&u, &f, 4);
        bits = u;
      } else {
        std::memcpy(&bits, &d, 8);
      }
    } else {
      throw fail("the constant is a " + std::to_string(t.width) +
                 "-bit float: give its bits in hex (0x...)");
    }
    break;
  }
  }
  std::vector<std::byte> out(bytes);
  for (std::size_t k = 0; k < bytes; ++k) out[k] = std::byte((bits >> (8 * k)) & 0xff);
  return out;
}

// The C++ name of the specialization_id a map name stands for: syclone++ names a constant by
// __builtin_sycl_unique_stable_name(spec_constant_tag<id>), a typeinfo-name mangling that the C++
// runtime's demangler reads ("typeinfo name for sycl::_V1::detail::spec_constant_tag<ns::id>").
std::string spec_id_name(const std::string& stable_name) {
  int status = 0;
  char* text = abi::__cxa_demangle(stable_name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !text) return {};
  std::string demangled(text);
  std::free(text);
  constexpr std::string_view tag = "spec_constant_tag<";
  auto open = demangled.find(tag);
  if (open == std::string::npos || demangled.back() != '>') return {};
  std::string name = demangled.substr(open + tag.size(), demangled.size() - open - tag.size() - 1);
  if (!name.empty() && name[0] == '&') name.erase(0, 1);
  return name;
}

// The map names `wanted` designates: the unique stable name itself, the specialization_id's
// qualified C++ name (ns::id), or its unqualified name where that is unambiguous.
std::vector<std::string> matching_names(const std::string& wanted,
                                        const std::vector<std::string>& names) {
  for (const auto& name : names)
    if (name == wanted) return {name};
  std::vector<std::string> exact, suffix;
  for (const auto& name : names) {
    std::string cxx = spec_id_name(name);
    if (cxx == wanted)
      exact.push_back(name);
    else if (cxx.size() > wanted.size() && cxx.ends_with("::" + wanted))
      suffix.push_back(name);
  }
  return exact.empty() ? suffix : exact;
}

struct map_entry {
  std::uint32_t spec_id, offset, size;
};

std::unordered_map<std::string, std::vector<map_entry>> read_map(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open map " + path);
  std::unordered_map<std::string, std::vector<map_entry>> map;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name;
    map_entry e{};
    if (!(fields >> name >> e.spec_id >> e.offset >> e.size))
      throw std::runtime_error(path + ":" + std::to_string(number) +
                               ": expected `NAME SPECID OFFSET SIZE`");
    map[name].push_back(e);
  }
  for (auto& [name, entries] : map)
    std::sort(entries.begin(), entries.end(),
              [](const map_entry& a, const map_entry& b) { return a.offset < b.offset; });
  return map;
}

int run_specialize(std::span<const std::string> args) {
  std::string input, output, map_path;
  std::vector<std::pair<std::string, std::string>> sets, named;
  auto usage = [] {
    std::fprintf(stderr, "usage: syclone-spirv specialize FILE.spv -o OUT.spv [--set ID=VALUE]... "
                         "[--map MAP --set-name NAME=VALUE]...\n");
    return 2;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string* { return i + 1 < args.size() ? &args[++i] : nullptr; };
    auto split = [](const std::string& s) -> std::optional<std::pair<std::string, std::string>> {
      auto eq = s.find('=');
      if (eq == std::string::npos || eq == 0) return std::nullopt;
      return std::pair{s.substr(0, eq), s.substr(eq + 1)};
    };
    if (a == "-o" || a == "--map" || a == "--set" || a == "--set-name") {
      const std::string* v = value();
      if (!v) return usage();
      if (a == "-o")
        output = *v;
      else if (a == "--map")
        map_path = *v;
      else {
        auto kv = split(*v);
        if (!kv) {
          std::fprintf(stderr, "syclone-spirv specialize: %s %s: expected KEY=VALUE\n", a.c_str(),
                       v->c_str());
          return 2;
        }
        (a == "--set" ? sets : named).push_back(*kv);
      }
    } else if (a.starts_with("-")) {
      std::fprintf(stderr, "syclone-spirv specialize: unknown option '%s'\n", a.c_str());
      return usage();
    } else if (input.empty()) {
      input = a;
    } else {
      return usage();
    }
  }
  if (input.empty() || output.empty()) return usage();
  if (!named.empty() && map_path.empty()) {
    std::fprintf(stderr, "syclone-spirv specialize: --set-name needs --map FILE\n");
    return 2;
  }

  auto data = read_file(input);
  spirv::module m = spirv::read(std::span<const std::byte>(data));
  auto types = spec_types(m);
  spirv::spec_values values;
  auto set = [&](std::uint32_t id, const std::string& text, std::optional<std::uint32_t> size) {
    auto t = types.find(id);
    if (t == types.end())
      throw std::runtime_error("no specialization constant of " + input + " has SpecId " +
                               std::to_string(id));
    auto bytes = encode(id, t->second, text);
    if (size && *size != bytes.size())
      throw std::runtime_error("the map gives SpecId " + std::to_string(id) + " " +
                               std::to_string(*size) + " bytes, but its constant in " + input +
                               " takes " + std::to_string(bytes.size()) +
                               ": the map belongs to another image");
    values[id] = std::move(bytes);
  };
  for (const auto& [key, text] : sets) {
    std::uint32_t id = 0;
    if (!parse_number(std::string_view(key), id, 10))
      throw std::runtime_error("--set " + key + "=" + text + ": the SpecId is not a number");
    set(id, text, std::nullopt);
  }
  if (!map_path.empty()) {
    auto map = read_map(map_path);
    std::vector<std::string> names;
    for (const auto& [name, entries] : map) names.push_back(name);
    for (const auto& [name, text] : named) {
      auto found = matching_names(name, names);
      if (found.empty())
        throw std::runtime_error("--set-name " + name + ": " + map_path +
                                 " has no such specialization constant (give its name as in "
                                 "the map, or the specialization_id's C++ name)");
      if (found.size() > 1) {
        std::string all;
        for (const auto& f : found) all += " " + spec_id_name(f);
        throw std::runtime_error("--set-name " + name + " is ambiguous in " + map_path + ":" + all +
                                 "; qualify it");
      }
      auto it = map.find(found.front());
      std::vector<std::string> parts;
      std::stringstream list(text);
      for (std::string part; std::getline(list, part, ',');) parts.push_back(part);
      if (parts.size() != it->second.size())
        throw std::runtime_error("--set-name " + name + ": it has " +
                                 std::to_string(it->second.size()) + " member(s) in " + map_path +
                                 ", give as many comma-separated values, not " +
                                 std::to_string(parts.size()));
      for (std::size_t k = 0; k < parts.size(); ++k)
        set(it->second[k].spec_id, parts[k], it->second[k].size);
    }
  }
  spirv::specialize(m, values);
  auto bytes = spirv::write(m);
  write_file(output, bytes);
  return 0;
}

const bool registered = register_command(
    {"specialize", "specialize FILE -o OUT [--set ID=V]... [--map M --set-name N=V]...",
     "bake specialization-constant values into a module", run_specialize});

} // namespace
} // namespace syclone::spirv_tool
