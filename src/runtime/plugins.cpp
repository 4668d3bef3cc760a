// Backend plugins (STYLE.md 2: the core never links a vendor SDK). Each GPU backend is a shared
// library next to libsyclone.so, loaded with dlopen; one that cannot serve this machine (no
// driver, no device) says why and is left out.
#include "plugins.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace syclone::runtime {

namespace {
std::string library_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&library_dir), &info) && info.dli_fname) {
    std::string path = info.dli_fname;
    auto slash = path.rfind('/');
    if (slash != std::string::npos) return path.substr(0, slash + 1);
  }
  return {};
}

std::vector<plugin_status>& statuses() {
  static std::vector<plugin_status> s;
  return s;
}

// The plugins' platforms live as long as the process (the runtime keeps pointers to them, and
// commands may still run while static objects die), so they are never destroyed. Their owner is
// this list, which static destruction leaves alone: once all_platforms() is gone, it still
// reaches them, and LeakSanitizer rightly sees no leak.
std::vector<platform*>& immortal_platforms() {
  static auto* list = new std::vector<platform*>();
  return *list;
}
} // namespace

std::vector<platform*> load_plugins() {
  std::vector<platform*> result;
  static const char* const names[] = {"cuda"};
  for (const char* name : names) {
    plugin_status st{name, false, {}};
    std::string file = "libsyclone-" + std::string(name) + ".so";
    void* lib = dlopen((library_dir() + file).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* err = dlerror();
      st.reason = "plugin " + file + " not loadable: " + (err ? err : "unknown error");
      statuses().push_back(st);
      continue;
    }
    auto create = reinterpret_cast<backend_create_fn>(dlsym(lib, "syclone_backend_create"));
    if (!create) {
      st.reason = "plugin " + file + " has no syclone_backend_create";
      statuses().push_back(st);
      continue;
    }
    std::string error;
    platform* p = nullptr;
    try {
      p = create(backend_abi_version, &error);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (p) {
      st.loaded = true;
      immortal_platforms().push_back(p);
      result.push_back(p);
    } else {
      st.reason = error.empty() ? "no device" : error;
    }
    statuses().push_back(st);
    // The library stays loaded for the life of the process (platforms point into it).
  }
  return result;
}

const std::vector<plugin_status>& plugin_statuses() {
  return statuses();
}

} // namespace syclone::runtime
