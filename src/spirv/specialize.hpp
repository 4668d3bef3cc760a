// Specialization (SPIR-V 1.6 section 2.12): OpSpecConstant* with a SpecId given a value become
// ordinary constants; the others become constants with their default; OpSpecConstantOp is
// evaluated. What a driver does before compiling an image, done ahead of time.
#pragma once

#include "module.hpp"

#include <cstdint>
#include <map>
#include <vector>

namespace syclone::spirv {

// SpecId -> value as the little-endian bytes of the constant's type (1, 2, 4 or 8 bytes; a bool
// is any non-zero byte).
using spec_values = std::map<std::uint32_t, std::vector<std::byte>>;

// Throws spirv::error naming the SpecId where a value's size does not match its constant's type,
// a SpecId that no constant has, or an OpSpecConstantOp operation it cannot evaluate.
void specialize(module& m, const spec_values& values);

} // namespace syclone::spirv
