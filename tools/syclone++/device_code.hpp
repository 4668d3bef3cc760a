// Device code inside host objects, and the objects a link reads it from.
//
// `syclone++ -c` puts the device bitcode of each target into the host object as a section
// .syclone.dev.<target> flagged SHF_EXCLUDE, so a final link drops it while ar and ld -r keep it.
// The section holds records (magic, version, size, bitcode, padding to 8 bytes) so that the
// concatenation a partial link makes still splits into its modules.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Object/Binary.h>
#include <llvm/Support/MemoryBuffer.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace syclone::driver {

struct device_code {
  std::string target; // canonical target name
  std::string bitcode;
};

// Adds one section per entry of `code` to the ELF object `object` (rewritten in place).
void embed_device_code(const std::string& object, const std::vector<device_code>& code);

struct device_record {
  std::string target;
  llvm::StringRef bitcode; // owned by the link_inputs it came from
};

// An object file, or a member of a static archive, of a link.
struct link_unit {
  std::string origin; // "a.o", "libb.a(b.o)": for messages
  bool in_archive = false;
  // Part of the host link: objects always; archive members when the linker would extract them
  // (they define a symbol something included leaves undefined) or under --whole-archive.
  bool included = false;
  std::vector<device_record> records;
  std::vector<std::string> defined;   // global symbols defined (host)
  std::vector<std::string> undefined; // global symbols referenced, not weakly (host)
};

class link_inputs {
public:
  // Reads `path` by its contents: relocatable objects and archives are kept; shared libraries,
  // linker scripts and LLVM bitcode (LTO) objects have no syclone device sections and are skipped.
  // `origin` names the file in messages (the source, for objects compiled in the same command).
  void add(const std::string& path, bool whole_archive, const std::string& origin = {});
  // Marks the archive members the linker extracts, following lld's rules.
  void resolve();

  const std::vector<link_unit>& units() const { return m_units; }
  bool has_device_code() const;
  // Targets found in the records, sorted.
  std::vector<std::string> targets() const;

private:
  void add_object(const llvm::object::Binary& binary, std::string origin, bool in_archive,
                  bool included);

  std::vector<std::unique_ptr<llvm::MemoryBuffer>> m_buffers;
  std::vector<std::unique_ptr<llvm::object::Binary>> m_binaries;
  std::vector<link_unit> m_units;
};

} // namespace syclone::driver
