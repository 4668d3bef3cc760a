// The spirv64 image syclone++ writes for tests/prefetch/prefetch_kernels.cpp and
// pipeline_kernels.cpp, as `syclone-spirv extract` gets it from the linked program: what the
// pre-codegen pass and the post-pass put into the SPIR-V (issue 6 part 2), kernel by kernel.
#include "grammar.hpp"
#include "module.hpp"
#include "validate.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

using namespace syclone::spirv;

namespace {

constexpr std::uint32_t opencl_prefetch = 185;
constexpr std::uint32_t execution_mode_subgroup_size = 35;
constexpr std::uint32_t cached = 1, uncached = 0, invalidate_after_read = 3;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct image {
  module m;
  std::string manifest;
  std::map<std::string, std::uint32_t> entry; // kernel name -> function id
  std::map<std::uint32_t, std::vector<std::vector<std::uint32_t>>> decorations; // id -> operands
  std::map<std::uint32_t, const instruction*> definitions; // result id -> instruction

  // The instructions of the function `id`, OpFunction to OpFunctionEnd.
  std::vector<const instruction*> function(std::uint32_t id) const {
    std::vector<const instruction*> body;
    bool inside = false;
    for (const auto& x : m.instructions) {
      if (x.opcode == op::Function && x.operands.at(1) == id) inside = true;
      if (inside) body.push_back(&x);
      if (inside && x.opcode == op::FunctionEnd) break;
    }
    return body;
  }
  // The instructions of a kernel and of every function it calls.
  std::vector<const instruction*> kernel(const std::string& name) const {
    auto it = entry.find(name);
    EXPECT_NE(it, entry.end()) << "no entry point " << name;
    if (it == entry.end()) return {};
    std::vector<const instruction*> all;
    std::set<std::uint32_t> seen{it->second};
    std::vector<std::uint32_t> work{it->second};
    while (!work.empty()) {
      auto body = function(work.back());
      work.pop_back();
      for (const instruction* x : body)
        if (x->opcode == op::FunctionCall && seen.insert(x->operands.at(2)).second)
          work.push_back(x->operands.at(2));
      all.insert(all.end(), body.begin(), body.end());
    }
    return all;
  }
  // CacheControlLoadINTEL (level, control) pairs on `id`, by level.
  std::map<std::uint32_t, std::uint32_t> cache_controls(std::uint32_t id) const {
    std::map<std::uint32_t, std::uint32_t> result;
    if (auto it = decorations.find(id); it != decorations.end())
      for (const auto& d : it->second)
        if (d.at(0) == decoration::CacheControlLoadINTEL) result[d.at(1)] = d.at(2);
    return result;
  }
  std::uint64_t constant(std::uint32_t id) const {
    const instruction* x = definitions.at(id);
    if (x->opcode == op::ConstantNull) return 0;
    EXPECT_EQ(x->opcode, op::Constant);
    return x->operands.at(2);
  }
};

const image& the_image() {
  static const image result = [] {
    image img;
    std::string bytes = slurp(SYCLONE_SPIRV_PIPELINE_IMAGE);
    img.m = read(std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()));
    img.manifest = slurp(SYCLONE_SPIRV_PIPELINE_MANIFEST);
    for (const auto& x : img.m.instructions) {
      if (x.opcode == op::EntryPoint) img.entry[x.string_at(2)] = x.operands.at(1);
      if (x.opcode == op::Decorate)
        img.decorations[x.operands.at(0)].emplace_back(x.operands.begin() + 1, x.operands.end());
      const opcode_info* info = find_opcode(x.opcode);
      if (!info) continue;
      for (std::size_t i = 0; i < info->operands.size() && i < x.operands.size(); ++i)
        if (info->operands[i].kind == operand_kind::result_id) img.definitions[x.operands[i]] = &x;
    }
    return img;
  }();
  return result;
}

// The OpenCL.std prefetches of a kernel: their pointer operands.
std::vector<std::uint32_t> prefetch_pointers(const std::vector<const instruction*>& body) {
  std::vector<std::uint32_t> pointers;
  for (const instruction* x : body)
    if (x->opcode == op::ExtInst && x->operands.at(3) == opencl_prefetch)
      pointers.push_back(x->operands.at(4));
  return pointers;
}

} // namespace

// Seed 000 cache levels as SPV_INTEL_cache_controls: the levels closer than the hint stay
// uncached, the hint's level is cached (non-temporal: invalidated after the read).
TEST(SpirvPipeline, PrefetchHintsBecomeCacheControls) {
  const image& img = the_image();
  struct expectation {
    const char* kernel;
    std::uint32_t level;
    bool non_temporal;
  };
  for (auto [kernel, level, nt] :
       {expectation{"_ZTS4PfL1", 1, false}, expectation{"_ZTS4PfL2", 2, false},
        expectation{"_ZTS4PfL3", 3, false}, expectation{"_ZTS4PfL4", 4, false},
        expectation{"_ZTS6PfL1nt", 1, true}, expectation{"_ZTS6PfL3nt", 3, true}}) {
    SCOPED_TRACE(kernel);
    auto pointers = prefetch_pointers(img.kernel(kernel));
    ASSERT_EQ(pointers.size(), 1u);
    auto controls = img.cache_controls(pointers[0]);
    ASSERT_EQ(controls.size(), level);
    for (std::uint32_t l = 0; l + 1 < level; ++l) EXPECT_EQ(controls[l], uncached);
    EXPECT_EQ(controls[level - 1], nt ? invalidate_after_read : cached);
  }
}

TEST(SpirvPipeline, SubGroupJointPrefetchIsABlockPrefetch) {
  const image& img = the_image();
  auto body = img.kernel("_ZTS22PfJointSubGroupAligned");
  std::vector<std::uint64_t> sizes;
  for (const instruction* x : body) {
    if (x->opcode != op::SubgroupBlockPrefetchINTEL) continue;
    ASSERT_EQ(x->operands.size(), 2u);
    sizes.push_back(img.constant(x->operands[1]));
    auto controls = img.cache_controls(x->operands[0]);
    EXPECT_EQ(controls.size(), 2u);
    EXPECT_EQ(controls[1], cached);
  }
  ASSERT_FALSE(sizes.empty()) << "no OpSubgroupBlockPrefetchINTEL in the sub-group kernel";
  for (auto n : sizes) EXPECT_TRUE(n >= 1 && n <= 64 && (n & (n - 1)) == 0) << n;
  bool capability = false, extension = false;
  for (const auto& x : img.m.instructions) {
    capability |=
        x.opcode == op::Capability && x.operands.at(0) == capability::SubgroupBufferPrefetchINTEL;
    extension |=
        x.opcode == op::Extension && x.string_at(0) == "SPV_INTEL_subgroup_buffer_prefetch";
  }
  EXPECT_TRUE(capability);
  EXPECT_TRUE(extension);
}

TEST(SpirvPipeline, WorkGroupJointPrefetchStaysPerWorkItem) {
  const image& img = the_image();
  auto body = img.kernel("_ZTS14PfJointGroupL2");
  EXPECT_FALSE(prefetch_pointers(body).empty());
  for (const instruction* x : body) EXPECT_NE(x->opcode, op::SubgroupBlockPrefetchINTEL);
}

// Every specialization constant of the manifest is an OpSpecConstant with its SpecId, of the
// piece's size, with the specialization_id's default.
TEST(SpirvPipeline, SpecConstantsHaveSpecIds) {
  const image& img = the_image();
  std::map<std::uint32_t, std::uint32_t> by_spec_id; // SpecId -> constant id
  for (const auto& [id, list] : img.decorations)
    for (const auto& d : list)
      if (d.at(0) == decoration::SpecId) by_spec_id[d.at(1)] = id;
  std::istringstream lines(img.manifest);
  std::string word, name;
  std::map<std::string, std::vector<std::pair<std::uint32_t, const instruction*>>> pieces;
  std::set<std::uint32_t> ids;
  while (lines >> word) {
    if (word != "spec_constant") {
      std::getline(lines, word);
      continue;
    }
    std::uint32_t spec_id, offset, size;
    lines >> name >> spec_id >> offset >> size;
    EXPECT_TRUE(ids.insert(spec_id).second) << "SpecId " << spec_id << " twice";
    ASSERT_TRUE(by_spec_id.count(spec_id)) << name << " SpecId " << spec_id;
    const instruction* constant = img.definitions.at(by_spec_id[spec_id]);
    EXPECT_EQ(constant->opcode, op::SpecConstant);
    const instruction* type = img.definitions.at(constant->operands.at(0));
    EXPECT_EQ(type->operands.at(1), size * 8) << name; // OpTypeInt/OpTypeFloat width
    pieces[name].push_back({offset, constant});
  }
  auto find = [&](const char* id) {
    for (const auto& [n, list] : pieces)
      if (n.find(id) != std::string::npos) return list;
    ADD_FAILURE() << "no specialization constant " << id;
    return std::vector<std::pair<std::uint32_t, const instruction*>>{};
  };
  auto is_float = [&](const instruction* c) {
    return img.definitions.at(c->operands.at(0))->opcode == op::TypeFloat;
  };
  auto f = find("float_id");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_TRUE(is_float(f[0].second));
  EXPECT_EQ(f[0].second->operands.at(2), 0x40200000u); // 2.5f
  auto i = find("int_id");
  ASSERT_EQ(i.size(), 1u);
  EXPECT_EQ(i[0].second->operands.at(2), 7u);
  auto d = find("double_id");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(is_float(d[0].second));
  auto pair = find("pair_id");
  ASSERT_EQ(pair.size(), 2u);
  EXPECT_EQ(pair[0].first, 0u);
  EXPECT_EQ(pair[0].second->operands.at(2), 3u);
  EXPECT_EQ(pair[1].first, 4u);
  EXPECT_TRUE(is_float(pair[1].second));
  EXPECT_EQ(find("bool_id").size(), 1u);
}

TEST(SpirvPipeline, LocalMemoryIsAKernelParameter) {
  const image& img = the_image();
  EXPECT_NE(img.manifest.find("local_memory_argument _ZTS8LocalSum 1\n"), std::string::npos)
      << img.manifest;
  std::vector<const instruction*> parameters;
  for (const instruction* x : img.kernel("_ZTS8LocalSum"))
    if (x->opcode == op::FunctionParameter) parameters.push_back(x);
  ASSERT_EQ(parameters.size(), 2u);
  const instruction* type = img.definitions.at(parameters[1]->operands.at(0));
  ASSERT_EQ(type->opcode, op::TypePointer);
  EXPECT_EQ(type->operands.at(1), storage_class::Workgroup);
}

TEST(SpirvPipeline, RequiredSubGroupSizeIsAnExecutionMode) {
  const image& img = the_image();
  std::uint32_t kernel = img.entry.at("_ZTS4Sg16");
  bool found = false;
  for (const auto& x : img.m.instructions)
    if (x.opcode == op::ExecutionMode && x.operands.at(0) == kernel &&
        x.operands.at(1) == execution_mode_subgroup_size) {
      EXPECT_EQ(x.operands.at(2), 16u);
      found = true;
    }
  EXPECT_TRUE(found);
  EXPECT_NE(img.manifest.find("sub_group_size _ZTS4Sg16 16\n"), std::string::npos);
}

TEST(SpirvPipeline, NoMarkerOrLinkageLeft) {
  const image& img = the_image();
  for (const auto& x : img.m.instructions) {
    EXPECT_FALSE(x.opcode == op::Capability && x.operands.at(0) == capability::Linkage);
    if (x.opcode == op::Name) EXPECT_EQ(x.string_at(1).find("__syclone_"), std::string::npos);
  }
}

TEST(SpirvPipeline, PassesOurValidator) {
  auto diagnostics = validate(the_image().m);
  for (const auto& d : diagnostics) EXPECT_NE(d.level, severity::error) << d.message;
}
