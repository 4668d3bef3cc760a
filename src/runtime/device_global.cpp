#include "device_global.hpp"

#include "backend.hpp"
#include "context_impl.hpp"
#include "device_impl.hpp"
#include "queue_impl.hpp"

#include <sycl/exception.hpp>
#include <sycl/ext/oneapi/experimental/device_global.hpp>
#include <sycl/queue.hpp>

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace syclone::runtime {
namespace {

thread_local const void* t_host_device = nullptr;

// The data objects of every loaded ELF module (the program and its shared libraries), from the
// static symbol table where the file has one (local symbols: `static` variables and anonymous
// namespaces), else the dynamic one.
struct data_symbol {
  std::uintptr_t address;
  std::size_t size;
};
class program_symbols {
public:
  // The symbol of the object at `address`, or empty.
  std::string name_of(const void* address) {
    std::lock_guard lock(m_mutex);
    load_if_new();
    auto it = m_names.find(reinterpret_cast<std::uintptr_t>(address));
    return it == m_names.end() ? std::string() : it->second;
  }
  // The object named `name`: false when there is none or several (two translation units' local
  // symbols of one name).
  bool find(const std::string& name, data_symbol& out, bool& ambiguous) {
    std::lock_guard lock(m_mutex);
    load_if_new();
    auto range = m_symbols.equal_range(name);
    ambiguous = false;
    if (range.first == range.second) return false;
    out = range.first->second;
    for (auto it = std::next(range.first); it != range.second; ++it)
      if (it->second.address != out.address) ambiguous = true;
    return !ambiguous;
  }

private:
  void load_if_new() {
    unsigned long long adds = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
          *static_cast<unsigned long long*>(data) = info->dlpi_adds;
          return 1;
        },
        &adds);
    if (adds == m_loaded_adds) return;
    m_loaded_adds = adds;
    m_symbols.clear();
    m_names.clear();
    struct state {
      program_symbols* self;
      bool first = true;
    } s{this};
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
          auto& st = *static_cast<state*>(data);
          std::string path = info->dlpi_name ? info->dlpi_name : "";
          if (st.first && path.empty()) path = "/proc/self/exe";
          st.first = false;
          if (!path.empty()) st.self->read(path, info->dlpi_addr);
          return 0;
        },
        &s);
  }

  void read(const std::string& path, std::uintptr_t base) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st{};
    if (::fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(Elf64_Ehdr))) {
      ::close(fd);
      return;
    }
    const std::size_t length = static_cast<std::size_t>(st.st_size);
    void* map = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED) return;
    const auto* bytes = static_cast<const unsigned char*>(map);
    const auto* header = reinterpret_cast<const Elf64_Ehdr*>(bytes);
    const bool elf64 =
        std::memcmp(header->e_ident, ELFMAG, SELFMAG) == 0 &&
        header->e_ident[EI_CLASS] == ELFCLASS64 && header->e_shoff != 0 &&
        header->e_shoff + std::size_t(header->e_shnum) * sizeof(Elf64_Shdr) <= length;
    if (elf64) {
      const auto* sections = reinterpret_cast<const Elf64_Shdr*>(bytes + header->e_shoff);
      const Elf64_Shdr* table = nullptr;
      for (int pass = 0; pass < 2 && !table; ++pass)
        for (unsigned i = 0; i < header->e_shnum; ++i)
          if (sections[i].sh_type == (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM)) table = &sections[i];
      if (table && table->sh_link < header->e_shnum &&
          table->sh_offset + table->sh_size <= length) {
        const Elf64_Shdr& strings = sections[table->sh_link];
        const auto* symbols = reinterpret_cast<const Elf64_Sym*>(bytes + table->sh_offset);
        const std::size_t count = table->sh_size / sizeof(Elf64_Sym);
        const char* names = reinterpret_cast<const char*>(bytes + strings.sh_offset);
        for (std::size_t i = 0; i < count; ++i) {
          const Elf64_Sym& sym = symbols[i];
          if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx == SHN_UNDEF ||
              sym.st_name >= strings.sh_size)
            continue;
          // Executables not built as PIE have absolute addresses; base is 0 for them.
          data_symbol d{base + sym.st_value, sym.st_size};
          std::string name(names + sym.st_name);
          m_names.emplace(d.address, name);
          m_symbols.emplace(std::move(name), d);
        }
      }
    }
    ::munmap(map, length);
  }

  std::mutex m_mutex;
  unsigned long long m_loaded_adds = 0;
  std::unordered_multimap<std::string, data_symbol> m_symbols;
  std::unordered_map<std::uintptr_t, std::string> m_names;
};

program_symbols& symbols() {
  static program_symbols s;
  return s;
}

// Every device's instances.
class instances {
public:
  // The host device `device`'s instance of the object at `object` (`bytes` long).
  void* host(const void* device, const void* object, std::size_t bytes) {
    std::lock_guard lock(m_mutex);
    auto& slot = m_host[{device, object}];
    if (!slot) {
      const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + 63) / 64 * 64;
      slot.reset(static_cast<std::byte*>(std::aligned_alloc(64, rounded)));
      if (!slot) throw std::bad_alloc();
      std::memcpy(slot.get(), object, bytes);
    }
    return slot.get();
  }
  // A GPU's instance of the variable `name` (the host object at `object`, `bytes` long).
  void* gpu(sycl::detail::device_impl& device, const std::string& name, const void* object,
            std::size_t bytes) {
    std::lock_guard lock(m_mutex);
    void*& slot = m_gpu[{&device.backend_device(), name}];
    if (!slot) {
      // USM shared memory of the device's default context: the host writes the first value
      // directly, and queue::memcpy and copy find it as the context's allocation.
      slot = device.default_context()->allocate(64, std::max<std::size_t>(bytes, 1), &device,
                                                sycl::usm::alloc::shared);
      if (!slot)
        sycl::detail::throw_error(sycl::errc::memory_allocation,
                                  "device_global `" + name + "`: no memory for its instance on " +
                                      device.backend_device().properties().name);
      std::memcpy(slot, object, bytes);
    }
    return slot;
  }

private:
  struct free_deleter {
    void operator()(std::byte* p) const noexcept { std::free(p); }
  };
  std::mutex m_mutex;
  std::map<std::pair<const void*, const void*>, std::unique_ptr<std::byte, free_deleter>> m_host;
  std::map<std::pair<const device*, std::string>, void*> m_gpu;
};

instances& all_instances() {
  // Never destroyed: kernels of static destructors may still reach their instances.
  static instances* i = new instances;
  return *i;
}

sycl::detail::device_impl* device_impl_of(device& d) {
  for (const auto& p : sycl::detail::all_platforms())
    for (const auto& dev : p->devices())
      if (&dev->backend_device() == &d) return dev.get();
  return nullptr;
}

[[noreturn]] void not_in_symbols(const std::string& what) {
  sycl::detail::throw_error(
      sycl::errc::feature_not_supported,
      what + ": syclone finds device_global variables for GPU devices in the program's symbol "
             "table, which does not have it (a stripped program or library?); link without "
             "-s and do not strip it");
}
} // namespace

host_device_scope::host_device_scope(const void* device) noexcept
    : saved(std::exchange(t_host_device, device)) {}
host_device_scope::~host_device_scope() {
  t_host_device = saved;
}

void* device_global_instance(device& d, const std::string& name, std::size_t bytes) {
  data_symbol symbol{};
  bool ambiguous = false;
  if (!symbols().find(name, symbol, ambiguous)) {
    if (ambiguous)
      sycl::detail::throw_error(
          sycl::errc::feature_not_supported,
          "device_global `" + name +
              "`: several translation units define a device_global of "
              "this name with internal linkage (static or in an anonymous namespace); give them "
              "different names");
    not_in_symbols("device_global `" + name + "`");
  }
  sycl::detail::device_impl* impl = device_impl_of(d);
  if (!impl)
    sycl::detail::throw_error(sycl::errc::invalid,
                              "device_global `" + name + "`: the device is not one of syclone's");
  // The symbol's size may be larger (AddressSanitizer counts its redzones), never smaller.
  if (symbol.size < bytes)
    sycl::detail::throw_error(sycl::errc::invalid,
                              "device_global `" + name + "`: the device code's " +
                                  std::to_string(bytes) + " bytes are more than the program's " +
                                  std::to_string(symbol.size) +
                                  " (the device code and the program do not match; rebuild both)");
  return all_instances().gpu(*impl, name, reinterpret_cast<const void*>(symbol.address), bytes);
}

} // namespace syclone::runtime

// Host kernels: the calling kernel's device's instance.
void* __syclone_device_global(const void* object, std::size_t bytes) noexcept {
  thread_local const void* last_device = nullptr;
  thread_local const void* last_object = nullptr;
  thread_local void* last_instance = nullptr;
  const void* device = syclone::runtime::t_host_device;
  if (object == last_object && device == last_device && last_instance) return last_instance;
  void* instance = syclone::runtime::all_instances().host(device, object, bytes);
  last_device = device;
  last_object = object;
  last_instance = instance;
  return instance;
}

SYCLONE_BEGIN_NAMESPACE
namespace detail {
namespace {
void* instance_on(device_impl& dev, const void* object, std::size_t bytes) {
  syclone::runtime::device& backend_device = dev.backend_device();
  if (backend_device.backend() == backend::syclone_host)
    return syclone::runtime::all_instances().host(&backend_device, object, bytes);
  std::string name = syclone::runtime::symbols().name_of(object);
  if (name.empty())
    syclone::runtime::not_in_symbols("a device_global (its host object is not a named variable)");
  return syclone::runtime::all_instances().gpu(dev, name, object, bytes);
}
} // namespace

void* device_global_instance(const queue& q, const void* object, std::size_t bytes) {
  return instance_on(*impl_access::get(q.get_device()), object, bytes);
}
void* device_global_instance(const handler& h, const void* object, std::size_t bytes) {
  return instance_on(*h.impl()->m_queue->device(), object, bytes);
}

void check_device_global_range(const char* what, std::size_t size, std::size_t offset,
                               std::size_t bytes) {
  if (offset > size || bytes > size - offset)
    throw_error(errc::invalid, std::string(what) + ": " + std::to_string(bytes) +
                                   " bytes at offset " + std::to_string(offset) +
                                   " go beyond the device_global's " + std::to_string(size) +
                                   " bytes");
}
} // namespace detail
SYCLONE_END_NAMESPACE
