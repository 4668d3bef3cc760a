// syclone-spirv extract: the device images of a program or shared library built by syclone++,
// written to files. The images sit in the records of the section "syclone_images"
// (include/sycl/detail/image.hpp), found through the ELF section headers (System V ABI,
// "Sections") without loading the binary.
#include "command.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

namespace syclone::spirv_tool {

namespace {

struct image_record {
  std::string target, format, manifest;
  std::span<const std::byte> data;
};

template <typename T>
T read_at(std::span<const std::byte> file, std::uint64_t offset, const std::string& what) {
  if (offset > file.size() || file.size() - offset < sizeof(T))
    throw std::runtime_error("truncated ELF file: " + what + " lies beyond its end");
  T value;
  std::memcpy(&value, file.data() + offset, sizeof(T));
  return value;
}

// The contents of the section called `wanted` of a 64-bit little-endian ELF file.
std::optional<std::span<const std::byte>>
elf_section(std::span<const std::byte> file, std::string_view wanted, const std::string& path) {
  if (file.size() < 64 || std::memcmp(file.data(),
                                      "\x7f"
                                      "ELF",
                                      4) != 0)
    throw std::runtime_error(path + " is not an ELF file (syclone++ builds ELF programs and "
                                    "libraries)");
  if (static_cast<unsigned char>(file[4]) != 2 || static_cast<unsigned char>(file[5]) != 1)
    throw std::runtime_error(path + " is not a 64-bit little-endian ELF file");
  auto shoff = read_at<std::uint64_t>(file, 0x28, "the section header table");
  auto shentsize = read_at<std::uint16_t>(file, 0x3a, "the section header size");
  auto shnum = read_at<std::uint16_t>(file, 0x3c, "the section count");
  auto shstrndx = read_at<std::uint16_t>(file, 0x3e, "the section name table index");
  if (shentsize < 64 || shstrndx >= shnum)
    throw std::runtime_error(path + " has a malformed section header table");
  auto header = [&](std::uint32_t i) { return shoff + std::uint64_t(i) * shentsize; };
  auto names_offset = read_at<std::uint64_t>(file, header(shstrndx) + 0x18, "section names");
  auto names_size = read_at<std::uint64_t>(file, header(shstrndx) + 0x20, "section names");
  for (std::uint32_t i = 0; i < shnum; ++i) {
    auto name = read_at<std::uint32_t>(file, header(i), "a section name");
    if (name >= names_size || names_offset + names_size > file.size()) continue;
    const char* text = reinterpret_cast<const char*>(file.data() + names_offset + name);
    std::size_t length = strnlen(text, names_size - name);
    if (std::string_view(text, length) != wanted) continue;
    auto type = read_at<std::uint32_t>(file, header(i) + 0x04, "a section type");
    auto offset = read_at<std::uint64_t>(file, header(i) + 0x18, "a section offset");
    auto size = read_at<std::uint64_t>(file, header(i) + 0x20, "a section size");
    if (type == 8 /* SHT_NOBITS */) return std::span<const std::byte>();
    if (offset > file.size() || file.size() - offset < size)
      throw std::runtime_error(path + ": section " + std::string(wanted) +
                               " lies beyond the end of the file");
    return file.subspan(offset, size);
  }
  return std::nullopt;
}

std::vector<image_record> records(std::span<const std::byte> section, const std::string& path) {
  std::vector<image_record> result;
  std::uint64_t at = 0;
  auto bad = [&](const std::string& why) {
    return std::runtime_error(path + ": malformed image record at offset " + std::to_string(at) +
                              " of syclone_images: " + why);
  };
  while (at + 24 <= section.size()) {
    if (std::memcmp(section.data() + at, "SYCLIMG1", 8) != 0) {
      // Records are 16-byte aligned; a linker may pad between objects' sections.
      at += 16;
      continue;
    }
    auto data_offset = read_at<std::uint32_t>(section, at + 8, "a record");
    auto size = read_at<std::uint64_t>(section, at + 16, "a record");
    if (data_offset < 24 || at + data_offset > section.size() ||
        section.size() - at - data_offset < size)
      throw bad("its image does not fit in the section");
    std::string strings[3];
    std::uint64_t cursor = at + 24;
    for (auto& s : strings) {
      const char* text = reinterpret_cast<const char*>(section.data() + cursor);
      std::size_t length = strnlen(text, at + data_offset - cursor);
      if (cursor + length >= at + data_offset) throw bad("its strings are not terminated");
      s.assign(text, length);
      cursor += length + 1;
    }
    result.push_back({strings[0], strings[1], strings[2], section.subspan(at + data_offset, size)});
    at = (at + data_offset + size + 15) / 16 * 16;
  }
  return result;
}

std::string extension_of(const std::string& format) {
  if (format == "spirv") return ".spv";
  if (format == "llvm-bc") return ".bc";
  return ".bin";
}

int run(std::span<const std::string> args) {
  std::string input, prefix, only_target;
  bool list = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-o" && i + 1 < args.size())
      prefix = args[++i];
    else if (args[i] == "--target" && i + 1 < args.size())
      only_target = args[++i];
    else if (args[i] == "--list")
      list = true;
    else if (input.empty() && !args[i].starts_with("-"))
      input = args[i];
    else {
      std::fprintf(stderr, "syclone-spirv extract: unexpected argument '%s'\n", args[i].c_str());
      return 2;
    }
  }
  if (input.empty()) {
    std::fprintf(stderr, "usage: syclone-spirv extract [--list] [--target T] [-o PREFIX] BINARY\n");
    return 2;
  }
  if (prefix.empty()) prefix = input;
  auto file = read_file(input);
  auto section = elf_section(file, "syclone_images", input);
  if (!section) {
    std::fprintf(stderr,
                 "syclone-spirv extract: %s holds no device images (no syclone_images section); "
                 "link it with syclone++ and -fsycl-targets=spirv64\n",
                 input.c_str());
    return 1;
  }
  std::size_t written = 0, index = 0;
  for (const auto& record : records(*section, input)) {
    std::size_t n = index++;
    if (!only_target.empty() && record.target != only_target) continue;
    std::string base = prefix + "." + std::to_string(n) + "." + record.target;
    std::size_t kernels = 0;
    for (std::size_t at = 0; (at = record.manifest.find("kernel ", at)) != std::string::npos; ++at)
      if (at == 0 || record.manifest[at - 1] == '\n') ++kernels;
    if (list) {
      std::printf("%zu %s %s %zu bytes, %zu kernel(s)\n", n, record.target.c_str(),
                  record.format.c_str(), record.data.size(), kernels);
      continue;
    }
    write_file(base + extension_of(record.format), record.data);
    // The manifest, and the SpecId map in the form `syclone-spirv specialize --map` reads.
    std::string map;
    for (std::size_t at = 0; at < record.manifest.size();) {
      std::size_t end = record.manifest.find('\n', at);
      if (end == std::string::npos) end = record.manifest.size();
      std::string_view line(record.manifest.data() + at, end - at);
      if (line.starts_with("spec_constant ")) map += std::string(line.substr(14)) + "\n";
      at = end + 1;
    }
    write_file(base + ".manifest", std::as_bytes(std::span(record.manifest)));
    if (record.format == "spirv") write_file(base + ".map", std::as_bytes(std::span(map)));
    std::printf("%s%s\n", base.c_str(), extension_of(record.format).c_str());
    ++written;
  }
  if (!list && written == 0) {
    std::fprintf(stderr, "syclone-spirv extract: %s has no %s image\n", input.c_str(),
                 only_target.empty() ? "device" : only_target.c_str());
    return 1;
  }
  return 0;
}

const bool registered = register_command(
    {"extract", "extract [--list] [--target T] [-o PREFIX] BINARY",
     "write the device images of a syclone++ program or library to PREFIX.N.TARGET.{spv,bc} "
     "(+ .manifest, .map)",
     run});

} // namespace

} // namespace syclone::spirv_tool
