// Specialization ahead of time (SPIR-V 1.6 section 2.12 "Specialization"): every
// OpSpecConstant* becomes the ordinary constant it would be on a device that was given `values`,
// OpSpecConstantOp is folded, and the SpecId decorations go.
//
// The module is rebuilt in a copy and swapped in at the end, so a throw leaves it untouched.
#include "specialize.hpp"

#include "grammar.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>

namespace syclone::spirv {

namespace {

// SPIR-V 1.6 section 3.49 opcodes the evaluator knows (OpSpecConstantOp's list, section 3.49.7).
namespace opc {
inline constexpr std::uint16_t VectorShuffle = 79, CompositeExtract = 81, CompositeInsert = 82,
                               ConvertFToU = 109, ConvertFToS = 110, ConvertSToF = 111,
                               ConvertUToF = 112, UConvert = 113, SConvert = 114, FConvert = 115,
                               Bitcast = 124, SNegate = 126, FNegate = 127, IAdd = 128, FAdd = 129,
                               ISub = 130, FSub = 131, IMul = 132, FMul = 133, UDiv = 134,
                               SDiv = 135, FDiv = 136, UMod = 137, SRem = 138, SMod = 139,
                               FRem = 140, FMod = 141, LogicalEqual = 164, LogicalNotEqual = 165,
                               LogicalOr = 166, LogicalAnd = 167, LogicalNot = 168, Select = 169,
                               IEqual = 170, INotEqual = 171, UGreaterThan = 172,
                               SGreaterThan = 173, UGreaterThanEqual = 174, SGreaterThanEqual = 175,
                               ULessThan = 176, SLessThan = 177, ULessThanEqual = 178,
                               SLessThanEqual = 179, ShiftRightLogical = 194,
                               ShiftRightArithmetic = 195, ShiftLeftLogical = 196, BitwiseOr = 197,
                               BitwiseXor = 198, BitwiseAnd = 199, Not = 200;
}

// The most scalars one folded or null composite may hold: a bound so a hostile module's
// `OpConstantNull` of a huge array cannot exhaust memory.
constexpr std::size_t max_elements = 1 << 16;

std::string opcode_name(std::uint32_t opcode) {
  if (opcode <= 0xffff)
    if (const opcode_info* info = find_opcode(static_cast<std::uint16_t>(opcode)))
      return std::string(info->name);
  return "opcode " + std::to_string(opcode);
}

struct type_info {
  std::uint16_t opcode = 0; // OpTypeInt, OpTypeFloat, OpTypeBool, OpTypeVector, ...
  std::uint32_t width = 0;  // int/float bits
  bool is_signed = false;
  std::vector<std::uint32_t> members; // vector/array: count copies of the element; struct: members
};

// A constant's value: a scalar's bits (masked to its width; bools 0/1) or a composite's
// elements.
struct value {
  std::uint32_t type = 0;
  bool composite = false;
  std::uint64_t bits = 0;
  std::vector<value> elements;
};

std::uint64_t mask_of(std::uint32_t width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}
std::int64_t sign_extend(std::uint64_t bits, std::uint32_t width) {
  if (width >= 64) return static_cast<std::int64_t>(bits);
  if (width == 0) return 0;
  std::uint64_t sign = std::uint64_t{1} << (width - 1);
  return static_cast<std::int64_t>((bits ^ sign) - sign);
}

class specializer {
public:
  specializer(module& m, const spec_values& values) : m_module(m), m_values(values) {}
  void run();

private:
  module& m_module;
  const spec_values& m_values;
  std::uint32_t m_bound = 0;
  std::unordered_map<std::uint32_t, type_info> m_types;
  std::unordered_map<std::uint32_t, value> m_constants;
  std::vector<instruction> m_out;

  const type_info& type(std::uint32_t id, std::string_view what) const {
    auto it = m_types.find(id);
    if (it == m_types.end())
      throw error(std::string(what) + ": %" + std::to_string(id) +
                  " is not a type defined before it");
    return it->second;
  }
  void record_type(const instruction& inst);
  value null_value(std::uint32_t type_id, std::size_t& budget) const;
  value scalar_from_words(std::uint32_t type_id, std::span<const std::uint32_t> words,
                          std::string_view what) const;
  const value& operand(std::uint32_t id, std::string_view what) const;
  value evaluate(const instruction& inst) const;
  value apply(std::uint32_t opcode, std::uint32_t result_type,
              const std::vector<const value*>& args) const;
  value scalar_op(std::uint32_t opcode, std::uint32_t result_type,
                  const std::vector<const value*>& args) const;
  void emit(std::uint32_t result_id, const value& v);
  std::vector<std::uint32_t> scalar_words(const value& v) const;
};

void specializer::record_type(const instruction& inst) {
  const auto& w = inst.operands;
  // A redefined id keeps its first type, and members must be recorded already, so the type
  // graph has no cycles for null_value to chase.
  if (w.empty() || m_types.contains(w[0])) return;
  auto known = [&](std::uint32_t id) { return m_types.contains(id); };
  type_info t;
  t.opcode = inst.opcode;
  switch (inst.opcode) {
  case op::TypeInt:
    // Widths outside 1..64 are not types a constant can be folded in (SPIR-V 1.6 section
    // 2.16.1 allows 8..64); leaving them unknown makes their constants an error, not a fold.
    if (w.size() < 3 || w[1] == 0 || w[1] > 64) return;
    t.width = w[1];
    t.is_signed = w[2] != 0;
    break;
  case op::TypeFloat:
    if (w.size() < 2 || w[1] == 0 || w[1] > 64) return;
    t.width = w[1];
    break;
  case op::TypeVector:
    if (w.size() < 3 || w[2] > max_elements || !known(w[1])) return;
    t.members.assign(w[2], w[1]);
    break;
  case op::TypeArray: {
    if (w.size() < 3 || !known(w[1])) return;
    auto len = m_constants.find(w[2]);
    if (len == m_constants.end() || len->second.composite || len->second.bits > max_elements)
      return;
    t.members.assign(len->second.bits, w[1]);
    break;
  }
  case op::TypeStruct:
    if (w.size() - 1 > max_elements || !std::all_of(w.begin() + 1, w.end(), known)) return;
    t.members.assign(w.begin() + 1, w.end());
    break;
  default:
    break;
  }
  m_types[w[0]] = std::move(t);
}

value specializer::null_value(std::uint32_t type_id, std::size_t& budget) const {
  const type_info& t = type(type_id, "OpConstantNull");
  value v;
  v.type = type_id;
  if (t.opcode == op::TypeVector || t.opcode == op::TypeArray || t.opcode == op::TypeStruct) {
    v.composite = true;
    for (std::uint32_t member : t.members) {
      if (budget == 0) throw error("a null composite has more than 65536 elements");
      --budget;
      v.elements.push_back(null_value(member, budget));
    }
  }
  return v;
}

value specializer::scalar_from_words(std::uint32_t type_id, std::span<const std::uint32_t> words,
                                     std::string_view what) const {
  const type_info& t = type(type_id, what);
  if (t.opcode != op::TypeInt && t.opcode != op::TypeFloat)
    throw error(std::string(what) + ": its type %" + std::to_string(type_id) +
                " is not an integer or floating-point scalar");
  if (t.width == 0 || t.width > 64)
    throw error(std::string(what) + ": " + std::to_string(t.width) +
                "-bit numbers are not supported (1 to 64 bits)");
  std::size_t need = t.width > 32 ? 2 : 1;
  if (words.size() != need)
    throw error(std::string(what) + ": a " + std::to_string(t.width) + "-bit value takes " +
                std::to_string(need) + " literal word(s), not " + std::to_string(words.size()));
  value v;
  v.type = type_id;
  v.bits = words[0];
  if (need == 2) v.bits |= std::uint64_t{words[1]} << 32;
  v.bits &= mask_of(t.width);
  return v;
}

const value& specializer::operand(std::uint32_t id, std::string_view what) const {
  auto it = m_constants.find(id);
  if (it == m_constants.end())
    throw error(std::string(what) + ": operand %" + std::to_string(id) +
                " is not a constant defined before it (OpUndef and pointers cannot be folded)");
  return it->second;
}

std::vector<std::uint32_t> specializer::scalar_words(const value& v) const {
  const type_info& t = type(v.type, "constant");
  std::uint64_t bits = v.bits & mask_of(t.width);
  // SPIR-V 1.6 section 2.2.1 (Literal): narrower than 32 bits, the high-order bits are 0, or the
  // sign for a signed integer type.
  if (t.opcode == op::TypeInt && t.is_signed && t.width < 32)
    bits = static_cast<std::uint64_t>(sign_extend(bits, t.width)) & 0xffffffff;
  if (t.width > 32)
    return {static_cast<std::uint32_t>(bits), static_cast<std::uint32_t>(bits >> 32)};
  return {static_cast<std::uint32_t>(bits)};
}

void specializer::emit(std::uint32_t result_id, const value& v) {
  const type_info& t = type(v.type, "constant");
  if (t.opcode == op::TypeBool) {
    m_out.push_back({v.bits ? op::ConstantTrue : op::ConstantFalse, {v.type, result_id}});
  } else if (!v.composite) {
    if (t.opcode != op::TypeInt && t.opcode != op::TypeFloat)
      throw error("the folded constant %" + std::to_string(result_id) +
                  " has a type that is neither a number, a bool nor a composite");
    instruction inst{op::Constant, {v.type, result_id}};
    for (auto w : scalar_words(v)) inst.operands.push_back(w);
    m_out.push_back(std::move(inst));
  } else {
    instruction inst{op::ConstantComposite, {v.type, result_id}};
    for (const value& e : v.elements) {
      std::uint32_t id = m_bound++;
      if (m_bound == 0) throw error("the module's ids run out (bound 0xffffffff)");
      emit(id, e);
      inst.operands.push_back(id);
    }
    m_out.push_back(std::move(inst));
  }
  m_constants[result_id] = v;
}

value specializer::scalar_op(std::uint32_t opcode, std::uint32_t result_type,
                             const std::vector<const value*>& args) const {
  const std::string what = "OpSpecConstantOp " + opcode_name(opcode);
  const type_info& rt = type(result_type, what);
  const value& a = *args[0];
  const type_info& at = type(a.type, what);
  std::uint32_t w = rt.width;
  value r;
  r.type = result_type;
  auto as_bool = [](bool b) { return std::uint64_t{b}; };
  auto ia = [&] { return sign_extend(a.bits, at.width); };
  auto ib = [&] { return sign_extend(args[1]->bits, type(args[1]->type, what).width); };
  auto b = [&] { return args[1]->bits; };
  auto fl = [&](const value& v) -> double {
    const type_info& t = type(v.type, what);
    if (t.opcode != op::TypeFloat || (t.width != 32 && t.width != 64))
      throw error(what + ": only 32- and 64-bit floating-point operands are folded");
    if (t.width == 32) return std::bit_cast<float>(static_cast<std::uint32_t>(v.bits));
    return std::bit_cast<double>(v.bits);
  };
  auto to_float = [&](double d) -> std::uint64_t {
    if (rt.opcode != op::TypeFloat || (rt.width != 32 && rt.width != 64))
      throw error(what + ": only 32- and 64-bit floating-point results are folded");
    if (rt.width == 32) return std::bit_cast<std::uint32_t>(static_cast<float>(d));
    return std::bit_cast<std::uint64_t>(d);
  };
  auto need_int = [&](const type_info& t) {
    if (t.opcode != op::TypeInt) throw error(what + ": expects integer operands");
  };
  auto zero_check = [&] {
    if ((b() & mask_of(type(args[1]->type, what).width)) == 0)
      throw error(what + ": division by zero (SPIR-V 1.6 section 3.49.13: the result is "
                         "undefined); give the divisor a non-zero value");
  };
  auto shift_check = [&] {
    if (b() >= w)
      throw error(what + ": shift by " + std::to_string(b()) + " is not less than the " +
                  std::to_string(w) + "-bit width (the result is undefined)");
  };
  switch (opcode) {
  case opc::SNegate:
    need_int(at);
    r.bits = (0 - a.bits);
    break;
  case opc::Not:
    need_int(at);
    r.bits = ~a.bits;
    break;
  case opc::IAdd:
    need_int(at);
    r.bits = a.bits + b();
    break;
  case opc::ISub:
    need_int(at);
    r.bits = a.bits - b();
    break;
  case opc::IMul:
    need_int(at);
    r.bits = a.bits * b();
    break;
  case opc::UDiv:
    need_int(at);
    zero_check();
    r.bits = a.bits / b();
    break;
  case opc::UMod:
    need_int(at);
    zero_check();
    r.bits = a.bits % b();
    break;
  case opc::SDiv:
  case opc::SRem:
  case opc::SMod: {
    need_int(at);
    zero_check();
    std::int64_t x = ia(), y = ib();
    if (y == -1) {
      // x / -1 overflows only for the most negative value; the remainder is always 0.
      if (opcode == opc::SDiv && w > 0 && x == sign_extend(std::uint64_t{1} << (w - 1), w))
        throw error(what + ": the most negative " + std::to_string(w) +
                    "-bit value divided by -1 overflows (the result is undefined)");
      r.bits =
          opcode == opc::SDiv ? static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(x) : 0;
      break;
    }
    std::int64_t q = x / y, rem = x % y;
    if (opcode == opc::SDiv)
      r.bits = static_cast<std::uint64_t>(q);
    else if (opcode == opc::SRem)
      r.bits = static_cast<std::uint64_t>(rem); // sign of x
    else
      r.bits = static_cast<std::uint64_t>(rem != 0 && ((rem < 0) != (y < 0)) ? rem + y : rem);
    break;
  }
  case opc::ShiftLeftLogical:
    need_int(at);
    shift_check();
    r.bits = a.bits << b();
    break;
  case opc::ShiftRightLogical:
    need_int(at);
    shift_check();
    r.bits = a.bits >> b();
    break;
  case opc::ShiftRightArithmetic:
    need_int(at);
    shift_check();
    r.bits = static_cast<std::uint64_t>(ia() >> b());
    break;
  case opc::BitwiseOr:
    need_int(at);
    r.bits = a.bits | b();
    break;
  case opc::BitwiseXor:
    need_int(at);
    r.bits = a.bits ^ b();
    break;
  case opc::BitwiseAnd:
    need_int(at);
    r.bits = a.bits & b();
    break;
  case opc::LogicalOr:
    r.bits = as_bool(a.bits || b());
    break;
  case opc::LogicalAnd:
    r.bits = as_bool(a.bits && b());
    break;
  case opc::LogicalNot:
    r.bits = as_bool(!a.bits);
    break;
  case opc::LogicalEqual:
    r.bits = as_bool((a.bits != 0) == (b() != 0));
    break;
  case opc::LogicalNotEqual:
    r.bits = as_bool((a.bits != 0) != (b() != 0));
    break;
  case opc::IEqual:
    r.bits = as_bool(a.bits == b());
    break;
  case opc::INotEqual:
    r.bits = as_bool(a.bits != b());
    break;
  case opc::UGreaterThan:
    r.bits = as_bool(a.bits > b());
    break;
  case opc::UGreaterThanEqual:
    r.bits = as_bool(a.bits >= b());
    break;
  case opc::ULessThan:
    r.bits = as_bool(a.bits < b());
    break;
  case opc::ULessThanEqual:
    r.bits = as_bool(a.bits <= b());
    break;
  case opc::SGreaterThan:
    r.bits = as_bool(ia() > ib());
    break;
  case opc::SGreaterThanEqual:
    r.bits = as_bool(ia() >= ib());
    break;
  case opc::SLessThan:
    r.bits = as_bool(ia() < ib());
    break;
  case opc::SLessThanEqual:
    r.bits = as_bool(ia() <= ib());
    break;
  case opc::UConvert:
    need_int(at);
    r.bits = a.bits;
    break;
  case opc::SConvert:
    need_int(at);
    r.bits = static_cast<std::uint64_t>(ia());
    break;
  case opc::Bitcast: {
    if (at.width != rt.width || at.width == 0)
      throw error(what + ": folds only scalars of the same width (" + std::to_string(at.width) +
                  " to " + std::to_string(rt.width) + " bits)");
    r.bits = a.bits;
    break;
  }
  case opc::FConvert:
    r.bits = to_float(fl(a));
    break;
  case opc::FNegate:
    r.bits = to_float(-fl(a));
    break;
  case opc::FAdd:
    r.bits = to_float(fl(a) + fl(*args[1]));
    break;
  case opc::FSub:
    r.bits = to_float(fl(a) - fl(*args[1]));
    break;
  case opc::FMul:
    r.bits = to_float(fl(a) * fl(*args[1]));
    break;
  case opc::FDiv:
    r.bits = to_float(fl(a) / fl(*args[1]));
    break;
  case opc::FRem:
    r.bits = to_float(std::fmod(fl(a), fl(*args[1])));
    break;          // sign of a
  case opc::FMod: { // sign of b
    double x = fl(a), y = fl(*args[1]), m = std::fmod(x, y);
    if (m != 0 && ((m < 0) != (y < 0))) m += y;
    r.bits = to_float(m);
    break;
  }
  case opc::ConvertSToF:
  case opc::ConvertUToF:
    need_int(at);
    r.bits = to_float(opcode == opc::ConvertSToF ? static_cast<double>(ia())
                                                 : static_cast<double>(a.bits));
    break;
  case opc::ConvertFToS:
  case opc::ConvertFToU: {
    double d = std::trunc(fl(a));
    if (rt.opcode != op::TypeInt) throw error(what + ": the result type is not an integer");
    // Out of range is undefined (SPIR-V 1.6 section 3.49.11); refuse rather than guess.
    double lo = opcode == opc::ConvertFToS ? -std::ldexp(1.0, static_cast<int>(w) - 1) : 0.0;
    double hi = opcode == opc::ConvertFToS ? std::ldexp(1.0, static_cast<int>(w) - 1)
                                           : std::ldexp(1.0, static_cast<int>(w));
    if (!(d >= lo && d < hi))
      throw error(what + ": " + std::to_string(fl(a)) + " does not fit the " + std::to_string(w) +
                  "-bit result (the result is undefined)");
    r.bits = opcode == opc::ConvertFToS
                 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(d))
                 : (d >= 9223372036854775808.0
                        ? static_cast<std::uint64_t>(d - 9223372036854775808.0) |
                              (std::uint64_t{1} << 63)
                        : static_cast<std::uint64_t>(static_cast<std::int64_t>(d)));
    break;
  }
  default:
    throw error("OpSpecConstantOp " + opcode_name(opcode) +
                " cannot be folded ahead of time (syclone folds integer, boolean and "
                "32/64-bit floating-point scalar and vector operations, composites and "
                "conversions); specialize on the device instead");
  }
  if (rt.opcode == op::TypeBool)
    r.bits = r.bits != 0;
  else if (rt.opcode == op::TypeInt)
    r.bits &= mask_of(w);
  else if (rt.opcode != op::TypeFloat)
    throw error(what + ": the result type is not a scalar number or bool");
  return r;
}

value specializer::apply(std::uint32_t opcode, std::uint32_t result_type,
                         const std::vector<const value*>& args) const {
  // Component-wise over vectors (SPIR-V 1.6 section 2.2.2: the operations apply per component).
  const type_info& rt = type(result_type, "OpSpecConstantOp " + opcode_name(opcode));
  bool any_composite = false;
  for (const value* a : args) any_composite |= a->composite;
  if (!any_composite) return scalar_op(opcode, result_type, args);
  if (rt.opcode != op::TypeVector)
    throw error("OpSpecConstantOp " + opcode_name(opcode) +
                ": composite operands need a vector result type");
  value r;
  r.type = result_type;
  r.composite = true;
  for (std::size_t i = 0; i < rt.members.size(); ++i) {
    std::vector<const value*> parts;
    for (const value* a : args) {
      if (!a->composite) {
        parts.push_back(a); // OpSelect's scalar condition applies to every component
        continue;
      }
      if (i >= a->elements.size())
        throw error("OpSpecConstantOp " + opcode_name(opcode) +
                    ": operand vectors differ in size from the result");
      parts.push_back(&a->elements[i]);
    }
    r.elements.push_back(scalar_op(opcode, rt.members[i], parts));
  }
  return r;
}

value specializer::evaluate(const instruction& inst) const {
  const auto& w = inst.operands;
  if (w.size() < 3) throw error("OpSpecConstantOp has fewer than 3 operands");
  std::uint32_t result_type = w[0], opcode = w[2];
  const std::string what =
      "OpSpecConstantOp " + opcode_name(opcode) + " (%" + std::to_string(w[1]) + ")";
  auto ids = [&](std::size_t n) {
    if (w.size() < 3 + n) throw error(what + ": missing operands");
    std::vector<const value*> args;
    for (std::size_t k = 0; k < n; ++k) args.push_back(&operand(w[3 + k], what));
    return args;
  };
  auto walk = [&](value& composite, std::size_t first) -> value& {
    value* at = &composite;
    for (std::size_t k = first; k < w.size(); ++k) {
      if (!at->composite || w[k] >= at->elements.size())
        throw error(what + ": index " + std::to_string(w[k]) + " is outside the composite");
      at = &at->elements[w[k]];
    }
    return *at;
  };
  switch (opcode) {
  case opc::CompositeExtract: {
    if (w.size() < 4) throw error(what + ": missing operands");
    value c = operand(w[3], what);
    value r = walk(c, 4);
    if (r.type != result_type) throw error(what + ": the element's type is not the result type");
    return r;
  }
  case opc::CompositeInsert: {
    if (w.size() < 5) throw error(what + ": missing operands");
    value c = operand(w[4], what);
    value& slot = walk(c, 5);
    const value& object = operand(w[3], what);
    if (slot.type != object.type) throw error(what + ": the object's type is not the element's");
    slot = object;
    c.type = result_type;
    return c;
  }
  case opc::VectorShuffle: {
    if (w.size() < 5) throw error(what + ": missing operands");
    const value& v1 = operand(w[3], what);
    const value& v2 = operand(w[4], what);
    if (!v1.composite || !v2.composite) throw error(what + ": operands are not vectors");
    value r;
    r.type = result_type;
    r.composite = true;
    for (std::size_t k = 5; k < w.size(); ++k) {
      std::uint32_t c = w[k];
      if (c == 0xffffffff)
        throw error(what + ": component 0xffffffff (undefined) cannot be folded to a constant");
      if (c < v1.elements.size())
        r.elements.push_back(v1.elements[c]);
      else if (c - v1.elements.size() < v2.elements.size())
        r.elements.push_back(v2.elements[c - v1.elements.size()]);
      else
        throw error(what + ": component " + std::to_string(c) + " is out of range");
    }
    return r;
  }
  case opc::SNegate:
  case opc::Not:
  case opc::LogicalNot:
  case opc::UConvert:
  case opc::SConvert:
  case opc::FConvert:
  case opc::Bitcast:
  case opc::FNegate:
  case opc::ConvertFToS:
  case opc::ConvertFToU:
  case opc::ConvertSToF:
  case opc::ConvertUToF:
    return apply(opcode, result_type, ids(1));
  default:
    if ((opcode >= opc::IAdd && opcode <= opc::FMod) ||
        (opcode >= opc::LogicalEqual && opcode <= opc::LogicalAnd) ||
        (opcode >= opc::IEqual && opcode <= opc::SLessThanEqual) ||
        (opcode >= opc::ShiftRightLogical && opcode <= opc::BitwiseAnd))
      return apply(opcode, result_type, ids(2));
    throw error("OpSpecConstantOp " + opcode_name(opcode) + " (%" + std::to_string(w[1]) +
                ") cannot be folded ahead of time (syclone folds integer, boolean and 32/64-bit "
                "floating-point arithmetic, comparisons, conversions, OpSelect and composite "
                "operations); specialize on the device instead");
  }
}

// OpSelect's operands are (condition, object1, object2): scalar_op sees them as a, b, c.
value select_scalar(const std::vector<const value*>& args, std::uint32_t result_type) {
  value r = args[0]->bits ? *args[1] : *args[2];
  r.type = result_type;
  return r;
}

void specializer::run() {
  m_bound = m_module.bound;
  // SpecId decorations: target -> SpecId (SPIR-V 1.6 section 3.20).
  std::unordered_map<std::uint32_t, std::uint32_t> spec_ids;
  for (const auto& inst : m_module.instructions)
    if (inst.opcode == op::Decorate && inst.operands.size() >= 3 &&
        inst.operands[1] == decoration::SpecId)
      spec_ids[inst.operands[0]] = inst.operands[2];

  std::unordered_map<std::uint32_t, bool> used; // SpecId -> a spec constant has it
  for (const auto& inst : m_module.instructions)
    if (inst.opcode >= op::SpecConstantTrue && inst.opcode <= op::SpecConstant &&
        inst.operands.size() >= 2)
      if (auto it = spec_ids.find(inst.operands[1]); it != spec_ids.end()) used[it->second] = true;
  for (const auto& [id, bytes] : m_values)
    if (!used.contains(id))
      throw error("no specialization constant has SpecId " + std::to_string(id) +
                  "; check the SpecId against the module's OpDecorate ... SpecId (syclone-spirv "
                  "dis lists them)");

  auto given = [&](std::uint32_t result) -> const std::vector<std::byte>* {
    auto s = spec_ids.find(result);
    if (s == spec_ids.end()) return nullptr;
    auto v = m_values.find(s->second);
    return v == m_values.end() ? nullptr : &v->second;
  };

  m_out.reserve(m_module.instructions.size());
  for (const auto& inst : m_module.instructions) {
    const auto& w = inst.operands;
    if (inst.opcode == op::Decorate && w.size() >= 2 && w[1] == decoration::SpecId) continue;
    if (std::string_view(opcode_name(inst.opcode)).starts_with("OpType")) record_type(inst);
    switch (inst.opcode) {
    case op::ConstantTrue:
    case op::ConstantFalse:
      if (w.size() >= 2) m_constants[w[1]] = {w[0], false, inst.opcode == op::ConstantTrue, {}};
      break;
    case op::Constant:
      if (w.size() >= 3 && m_types.contains(w[0])) {
        try {
          m_constants[w[1]] = scalar_from_words(w[0], std::span(w).subspan(2),
                                                "OpConstant %" + std::to_string(w[1]));
        } catch (const error&) {
          // A constant this file cannot read (a 128-bit integer, ...) only matters if folded.
        }
      }
      break;
    case op::ConstantNull:
      if (w.size() >= 2 && m_types.contains(w[0])) {
        std::size_t budget = max_elements;
        try {
          m_constants[w[1]] = null_value(w[0], budget);
        } catch (const error&) {
        }
      }
      break;
    case op::ConstantComposite:
      if (w.size() >= 2) {
        value v{w[0], true, 0, {}};
        bool known = w.size() - 2 <= max_elements;
        for (std::size_t k = 2; known && k < w.size(); ++k) {
          auto it = m_constants.find(w[k]);
          if (it == m_constants.end())
            known = false;
          else
            v.elements.push_back(it->second);
        }
        if (known) m_constants[w[1]] = std::move(v);
      }
      break;
    default:
      break;
    }
    if (inst.opcode < op::SpecConstantTrue || inst.opcode > op::SpecConstantOp) {
      m_out.push_back(inst);
      continue;
    }
    if (w.size() < 2) throw error(opcode_name(inst.opcode) + " has no result id");
    std::uint32_t result_type = w[0], result = w[1];
    const std::string what = opcode_name(inst.opcode) + " %" + std::to_string(result);
    const std::vector<std::byte>* bytes = given(result);
    std::string spec_id = bytes ? " (SpecId " + std::to_string(spec_ids[result]) + ")" : "";
    switch (inst.opcode) {
    case op::SpecConstantTrue:
    case op::SpecConstantFalse: {
      bool b = inst.opcode == op::SpecConstantTrue;
      if (bytes) {
        if (bytes->empty() || bytes->size() > 8)
          throw error(what + spec_id + " is a bool, but its value has " +
                      std::to_string(bytes->size()) + " bytes; give 1");
        b = false;
        for (std::byte x : *bytes) b |= x != std::byte{0};
      }
      emit(result, value{result_type, false, b, {}});
      break;
    }
    case op::SpecConstant: {
      value v = scalar_from_words(result_type, std::span(w).subspan(2), what);
      if (bytes) {
        const type_info& t = type(result_type, what);
        if (t.width % 8 != 0 || bytes->size() != t.width / 8)
          throw error(what + spec_id + " has a " + std::to_string(t.width) +
                      "-bit type, but its value has " + std::to_string(bytes->size()) +
                      " bytes; give " + std::to_string(t.width / 8));
        v.bits = 0;
        for (std::size_t k = 0; k < bytes->size(); ++k)
          v.bits |= std::uint64_t(std::to_integer<unsigned>((*bytes)[k])) << (8 * k);
      }
      emit(result, v);
      break;
    }
    case op::SpecConstantComposite: {
      // The constituents were specialized before it (SPIR-V 1.6 section 2.4: defined before
      // use), so they are plain constants now.
      instruction c{op::ConstantComposite, w};
      value v{result_type, true, 0, {}};
      for (std::size_t k = 2; k < w.size(); ++k) {
        if (v.elements.size() >= max_elements) throw error(what + " has too many constituents");
        v.elements.push_back(operand(w[k], what));
      }
      m_out.push_back(std::move(c));
      m_constants[result] = std::move(v);
      break;
    }
    case op::SpecConstantOp: {
      value v;
      if (w.size() >= 3 && w[2] == opc::Select) {
        if (w.size() < 6) throw error(what + ": OpSelect needs 3 operands");
        const value& cond = operand(w[3], what);
        const value& x = operand(w[4], what);
        const value& y = operand(w[5], what);
        if (!cond.composite) {
          v = select_scalar({&cond, &x, &y}, result_type);
        } else {
          if (!x.composite || !y.composite || x.elements.size() != cond.elements.size() ||
              y.elements.size() != cond.elements.size())
            throw error(what + ": OpSelect's vector operands differ in size");
          v = {result_type, true, 0, {}};
          for (std::size_t k = 0; k < cond.elements.size(); ++k)
            v.elements.push_back(cond.elements[k].bits ? x.elements[k] : y.elements[k]);
        }
      } else {
        v = evaluate(inst);
      }
      v.type = result_type;
      emit(result, v);
      break;
    }
    default:
      throw error(what + ": unexpected opcode");
    }
  }
  m_module.instructions = std::move(m_out);
  m_module.bound = m_bound;
}

} // namespace

void specialize(module& m, const spec_values& values) {
  // SPIR-V 1.6 section 2.12: a spec constant without a value keeps its default.
  specializer(m, values).run();
}

} // namespace syclone::spirv
