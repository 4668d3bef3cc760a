#include "device_code.hpp"

#include "diagnostics.hpp"
#include "targets.hpp"
#include "toolchain.hpp"

#include <llvm/BinaryFormat/Magic.h>
#include <llvm/ObjCopy/CommonConfig.h>
#include <llvm/ObjCopy/ConfigManager.h>
#include <llvm/ObjCopy/ObjCopy.h>
#include <llvm/Object/Archive.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/Endian.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace syclone::driver {

namespace {

namespace endian = llvm::support::endian;

// Record layout, little-endian: magic[8], version u32, header size u32, payload size u64, payload,
// zero padding to a multiple of 8.
constexpr char record_magic[8] = {'S', 'Y', 'C', 'L', 'D', 'E', 'V', '\0'};
constexpr std::uint32_t record_version = 1;
constexpr std::size_t record_header_size = 24;

std::string make_record(std::string_view payload) {
  std::string record(record_header_size, '\0');
  std::copy(std::begin(record_magic), std::end(record_magic), record.begin());
  endian::write32le(record.data() + 8, record_version);
  endian::write32le(record.data() + 12, record_header_size);
  endian::write64le(record.data() + 16, payload.size());
  record += payload;
  record.resize((record.size() + 7) / 8 * 8, '\0');
  return record;
}

std::vector<llvm::StringRef> split_records(llvm::StringRef section, const std::string& origin,
                                           llvm::StringRef section_name) {
  std::vector<llvm::StringRef> payloads;
  auto corrupt = [&](const std::string& why) {
    return driver_error("section " + section_name.str() + " of " + origin + " is corrupt (" + why +
                        "); rebuild " + origin + " with this syclone++");
  };
  std::size_t at = 0;
  while (at < section.size()) {
    if (section[at] == '\0') { // padding a partial link put between concatenated sections
      ++at;
      continue;
    }
    if (section.size() - at < record_header_size ||
        !std::equal(std::begin(record_magic), std::end(record_magic), section.data() + at))
      throw corrupt("no record at offset " + std::to_string(at));
    const char* header = section.data() + at;
    std::uint32_t version = endian::read32le(header + 8);
    std::uint32_t header_size = endian::read32le(header + 12);
    std::uint64_t size = endian::read64le(header + 16);
    if (version != record_version)
      throw corrupt("record version " + std::to_string(version) + ", this syclone++ reads " +
                    std::to_string(record_version));
    if (header_size < record_header_size || size > section.size() - at - header_size)
      throw corrupt("record at offset " + std::to_string(at) + " runs past the end");
    payloads.push_back(section.substr(at + header_size, size));
    at += header_size + size;
  }
  return payloads;
}

[[noreturn]] void fail(const std::string& what, llvm::Error error) {
  throw driver_error(what + ": " + llvm::toString(std::move(error)));
}

} // namespace

void embed_device_code(const std::string& object, const std::vector<device_code>& code) {
  if (code.empty()) return;
  auto buffer = llvm::MemoryBuffer::getFile(object, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) throw driver_error("cannot read " + object + ": " + buffer.getError().message());
  auto binary = llvm::object::createBinary((*buffer)->getMemBufferRef());
  if (!binary) fail("cannot read the host object " + object, binary.takeError());
  if (!llvm::isa<llvm::object::ELFObjectFileBase>(**binary))
    throw driver_error("the host object " + object +
                       " is not an ELF object, so it cannot carry device code; syclone++ "
                       "targets Linux (ELF) hosts");

  llvm::objcopy::ConfigManager config;
  std::vector<std::string> names; // the config refers to them
  names.reserve(code.size());
  for (const auto& entry : code) {
    names.push_back(device_section_name(entry.target));
    llvm::StringRef name = names.back();
    config.Common.AddSection.emplace_back(
        name, llvm::MemoryBuffer::getMemBufferCopy(make_record(entry.bitcode), name));
    config.Common.SetSectionFlags.try_emplace(
        name,
        llvm::objcopy::SectionFlagsUpdate{name, static_cast<llvm::objcopy::SectionFlag>(
                                                    llvm::objcopy::SectionFlag::SecExclude |
                                                    llvm::objcopy::SectionFlag::SecReadonly)});
  }
  std::string result;
  llvm::raw_string_ostream out(result);
  if (auto error = llvm::objcopy::executeObjcopyOnBinary(config, **binary, out))
    fail("cannot add device code to " + object, std::move(error));
  out.flush();
  write_file(object, result);
}

void link_inputs::add(const std::string& path, bool whole_archive, const std::string& origin) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    // The linker reports missing inputs in its own words.
    return;
  }
  llvm::file_magic magic = llvm::identify_magic((*buffer)->getBuffer());
  if (magic != llvm::file_magic::archive && magic != llvm::file_magic::elf_relocatable) return;

  auto binary = llvm::object::createBinary((*buffer)->getMemBufferRef());
  if (!binary) fail("cannot read " + path, binary.takeError());
  m_buffers.push_back(std::move(*buffer));

  if (auto* archive = llvm::dyn_cast<llvm::object::Archive>(binary->get())) {
    llvm::Error error = llvm::Error::success();
    for (const auto& child : archive->children(error)) {
      auto name = child.getName();
      std::string member = name ? name->str() : "?";
      auto member_binary = child.getAsBinary();
      if (!member_binary) {
        llvm::consumeError(member_binary.takeError()); // not an object: the linker decides
        continue;
      }
      add_object(**member_binary, path + "(" + member + ")", true, whole_archive);
      m_binaries.push_back(std::move(*member_binary));
    }
    if (error) fail("cannot read the archive " + path, std::move(error));
  } else {
    add_object(**binary, origin.empty() ? path : origin, false, true);
  }
  m_binaries.push_back(std::move(*binary));
}

void link_inputs::add_object(const llvm::object::Binary& binary, std::string origin,
                             bool in_archive, bool included) {
  const auto* object = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(&binary);
  if (!object) return;
  link_unit unit;
  unit.origin = std::move(origin);
  unit.in_archive = in_archive;
  unit.included = included;

  for (const auto& section : object->sections()) {
    auto name = section.getName();
    if (!name) fail("cannot read the sections of " + unit.origin, name.takeError());
    if (!name->starts_with(device_section_prefix)) continue;
    auto contents = section.getContents();
    if (!contents) fail("cannot read " + name->str() + " of " + unit.origin, contents.takeError());
    std::string target = name->drop_front(device_section_prefix.size()).str();
    for (llvm::StringRef payload : split_records(*contents, unit.origin, *name))
      unit.records.push_back({target, payload});
  }

  for (const auto& symbol : object->symbols()) {
    auto flags = symbol.getFlags();
    if (!flags) fail("cannot read the symbols of " + unit.origin, flags.takeError());
    using sym = llvm::object::SymbolRef;
    if ((*flags & sym::SF_FormatSpecific) || !(*flags & sym::SF_Global)) continue;
    auto name = symbol.getName();
    if (!name) fail("cannot read the symbols of " + unit.origin, name.takeError());
    if (*flags & sym::SF_Undefined) {
      if (!(*flags & sym::SF_Weak)) unit.undefined.push_back(name->str());
    } else {
      unit.defined.push_back(name->str());
    }
  }
  m_units.push_back(std::move(unit));
}

void link_inputs::resolve() {
  // lld's rule: a member is extracted when it defines a symbol that is undefined at any point of
  // the link, whatever the order of objects and archives.
  std::unordered_set<std::string> defined;
  std::unordered_map<std::string, std::size_t> lazy; // symbol -> first member defining it
  std::deque<std::string> pending;
  auto include = [&](link_unit& unit) {
    unit.included = true;
    for (const auto& name : unit.defined) defined.insert(name);
    for (const auto& name : unit.undefined) pending.push_back(name);
  };
  for (auto& unit : m_units)
    if (unit.included) include(unit);
  for (std::size_t i = 0; i < m_units.size(); ++i)
    if (!m_units[i].included)
      for (const auto& name : m_units[i].defined) lazy.try_emplace(name, i);
  while (!pending.empty()) {
    std::string name = std::move(pending.front());
    pending.pop_front();
    if (defined.count(name)) continue;
    auto member = lazy.find(name);
    if (member == lazy.end() || m_units[member->second].included) continue;
    include(m_units[member->second]);
  }
}

bool link_inputs::has_device_code() const {
  return std::any_of(m_units.begin(), m_units.end(),
                     [](const link_unit& unit) { return !unit.records.empty(); });
}

std::vector<std::string> link_inputs::targets() const {
  std::set<std::string> found;
  for (const auto& unit : m_units)
    for (const auto& record : unit.records) found.insert(record.target);
  return {found.begin(), found.end()};
}

} // namespace syclone::driver
