// Lookups over the generated grammar tables (grammar.inc, written by generator/grammar_gen.cpp):
// every table is sorted, so each lookup is a binary search.
#include "grammar.hpp"

#include <algorithm>

namespace syclone::spirv {

namespace {

struct enum_row {
  std::string_view name;
  bool bits;
  std::uint32_t first, count;
};

#include "grammar.inc"

// Binary search of `index` (positions into `rows`, sorted by rows[i].name) for `name`.
template <class Row, class Index>
const Row* by_name(std::span<const Row> rows, std::span<const Index> index, std::string_view name) {
  auto it = std::lower_bound(index.begin(), index.end(), name,
                             [&](Index i, std::string_view n) { return rows[i].name < n; });
  if (it == index.end() || rows[*it].name != name) return nullptr;
  return &rows[*it];
}

template <class Row, class Key, class Value>
const Row* by_value(std::span<const Row> rows, Key key, Value value) {
  auto it = std::lower_bound(rows.begin(), rows.end(), value,
                             [&](const Row& r, Value v) { return key(r) < v; });
  if (it == rows.end() || key(*it) != value) return nullptr;
  return &*it;
}

const enum_row* find_enum(std::string_view enum_name) {
  return by_value(
      std::span<const enum_row>(enum_rows), [](const enum_row& r) { return r.name; }, enum_name);
}

} // namespace

std::span<const opcode_info> opcodes() {
  return opcode_rows;
}

const opcode_info* find_opcode(std::uint16_t opcode) {
  return by_value(
      std::span<const opcode_info>(opcode_rows), [](const opcode_info& r) { return r.opcode; },
      opcode);
}

const opcode_info* find_opcode(std::string_view name) {
  return by_name(std::span<const opcode_info>(opcode_rows),
                 std::span<const std::uint16_t>(opcodes_by_name), name);
}

std::span<const enumerant_info> enumerants(std::string_view enum_name) {
  const enum_row* e = find_enum(enum_name);
  if (!e) return {};
  return std::span<const enumerant_info>(enumerant_rows).subspan(e->first, e->count);
}

bool is_bit_enum(std::string_view enum_name) {
  const enum_row* e = find_enum(enum_name);
  return e && e->bits;
}

const enumerant_info* find_enumerant(std::string_view enum_name, std::uint32_t value) {
  return by_value(enumerants(enum_name), [](const enumerant_info& r) { return r.value; }, value);
}

const enumerant_info* find_enumerant(std::string_view enum_name, std::string_view name) {
  const enum_row* e = find_enum(enum_name);
  if (!e) return nullptr;
  return by_name(std::span<const enumerant_info>(enumerant_rows).subspan(e->first, e->count),
                 std::span<const std::uint16_t>(enumerants_by_name).subspan(e->first, e->count),
                 name);
}

const ext_inst_info* find_opencl_ext_inst(std::uint32_t number) {
  return by_value(
      std::span<const ext_inst_info>(opencl_rows), [](const ext_inst_info& r) { return r.number; },
      number);
}

const ext_inst_info* find_opencl_ext_inst(std::string_view name) {
  return by_name(std::span<const ext_inst_info>(opencl_rows),
                 std::span<const std::uint16_t>(opencl_by_name), name);
}

} // namespace syclone::spirv
