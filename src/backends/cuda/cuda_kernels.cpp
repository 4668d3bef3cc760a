#include "cuda_kernels.hpp"

#include "../../jit/jit.hpp"
#include "../../passes/device_global_names.hpp"
#include "../../runtime/device_global.hpp"
#include "../../runtime/kernel_registry.hpp"
#include "../../runtime/queue_impl.hpp"

#include <sycl/exception.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cxxabi.h>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

namespace syclone::cuda {

namespace {

constexpr const char* image_target = "nvptx64";

bool is_file(const std::string& path) {
  std::error_code ec;
  return !path.empty() && std::filesystem::is_regular_file(path, ec);
}

// The driver's PTX compiler writes its diagnostics into these buffers.
constexpr std::size_t log_size = 16 * 1024;

// The PTX version the JIT writes for `arch`: its default, but at least PTX 8.1 where the driver
// takes it (CUDA 12.1) and the GPU is sm_70 or newer, since only from 8.1 on may a kernel's
// parameter (the kernel object, with everything it captures by value) exceed 4352 bytes
// (up to 32764, as nvcc allows there).
std::string ptx_version(const std::string& arch, int driver_version) {
  std::string feature = jit::default_ptx_feature(arch);
  int sm = 0, version = 0;
  std::sscanf(arch.c_str(), "sm_%d", &sm);
  std::sscanf(feature.c_str(), "+ptx%d", &version);
  if (driver_version >= 12010 && sm >= 70 && version < 81) feature = "+ptx81";
  return feature;
}

// Driver answers to a module load that the PTX decides, so that loading it again would fail too.
// Whether the PTX declares CUDA's vprintf, which clang's NVPTX printf calls: a line
// ".extern .func  (.param .b32 func_retval0) vprintf".
bool calls_vprintf(const std::string& ptx) {
  std::string_view text = ptx;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    if (line.starts_with(".extern .func") && line.ends_with(" vprintf")) return true;
    at = end + 1;
  }
  return false;
}

bool ptx_rejected(CUresult r) {
  return r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION ||
         r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_NO_BINARY_FOR_GPU ||
         r == CUDA_ERROR_INVALID_SOURCE || r == CUDA_ERROR_JIT_COMPILER_NOT_FOUND;
}

std::string trim(const char* s) {
  std::string t = s;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ' || t.back() == '\0')) t.pop_back();
  return t;
}

// "Triad<double>" for _ZTS5TriadIdE, for messages.
std::string readable_kernel(const std::string& name) {
  int status = 0;
  char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !text) return name;
  std::string result = text;
  std::free(text);
  constexpr std::string_view prefix = "typeinfo name for ";
  if (result.starts_with(prefix)) result.erase(0, prefix.size());
  return result;
}

std::string cache_key(std::uint64_t image, const std::string& kernel,
                      const std::vector<jit::spec_constant>& values) {
  std::string key = std::to_string(image);
  key += '\0';
  key += kernel;
  for (const auto& v : values) {
    key += '\0';
    key += v.name;
    key += '\0';
    key += std::to_string(v.value.size());
    key += ':';
    key.append(reinterpret_cast<const char*>(v.value.data()), v.value.size());
  }
  return key;
}

} // namespace

std::string find_libdevice() {
  static const std::string path = [] {
    const char* env = std::getenv("SYCLONE_LIBDEVICE");
    if (env && *env) return std::string(env); // as given: the JIT reports a missing file
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
      if (const char* root = std::getenv(var); root && *root) {
        std::string p = std::string(root) + "/nvvm/libdevice/libdevice.10.bc";
        if (is_file(p)) return p;
      }
    std::string p = "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";
    return is_file(p) ? p : std::string();
  }();
  return path;
}

std::string not_compiled_message(const std::string& kernel,
                                 const std::vector<std::string>& targets) {
  std::string msg = "kernel `" + kernel + "` was not compiled for " + image_target;
  if (!targets.empty()) {
    msg += " (only for ";
    for (std::size_t i = 0; i < targets.size(); ++i) msg += (i ? ", " : "") + targets[i];
    msg += ")";
  }
  msg += "; rebuild with -fsycl-targets=";
  msg += image_target;
  for (const auto& t : targets)
    if (t != image_target) msg += "," + t;
  return msg;
}

kernel_function& kernel_cache::get(const sycl::detail::kernel_launch& launch) {
  std::string_view name = launch.name ? launch.name : "";
  const sycl::detail::spec_constant_values* values = launch.spec_constants;
  // With values, the function depends on them (SYCL 2020 4.9.5): the full lookup below.
  if (values && !values->empty()) return get(std::string(name), values);
  // Without, it depends on the kernel's name and on which image holds it, which only changes
  // with the registry's generation; a cached function is one already loaded, and loaded
  // functions stay in the cache as long as the device lives.
  struct entry {
    const kernel_cache* cache = nullptr;
    std::uint64_t generation = 0; // the registry's generations start at 1
    std::string name;
    const char* name_ptr = nullptr; // the launch's own pointer: equal pointers, equal names
    kernel_function* function = nullptr;
  };
  constexpr std::size_t slots = 8;
  thread_local entry seen[slots];
  thread_local std::size_t next = 0;
  const std::uint64_t generation = runtime::kernel_registry::get().generation();
  for (const auto& e : seen)
    if (e.cache == this && e.generation == generation &&
        ((launch.name && e.name_ptr == launch.name) || e.name == name))
      return *e.function;
  // Read before the search: if the registry changes meanwhile, the entry is stale at once.
  kernel_function& fn = get(std::string(name), nullptr);
  entry& e = seen[next++ % slots];
  e.cache = this;
  e.generation = generation;
  e.name.assign(name);
  e.name_ptr = launch.name;
  e.function = &fn;
  return fn;
}

kernel_function& kernel_cache::get(const std::string& name,
                                   const sycl::detail::spec_constant_values* spec_values) {
  auto& registry = runtime::kernel_registry::get();
  auto image = registry.find(name, image_target);
  if (!image)
    sycl::detail::throw_error(sycl::errc::kernel_not_supported,
                              not_compiled_message(name, registry.targets_of(name)));
  if (image->format != "llvm-bc")
    sycl::detail::throw_error(sycl::errc::kernel_not_supported,
                              "kernel `" + name + "`: its nvptx64 image has format `" +
                                  std::string(image->format) +
                                  "`, which this CUDA backend cannot load; rebuild the program "
                                  "with the syclone++ of this runtime");

  // SYCL 2020 4.9.5: the values set for this command group (or bundle), sorted by name so that
  // the key does not depend on where the specialization_id objects live; where the image records
  // what the kernel reads, only those.
  std::vector<jit::spec_constant> values;
  const std::vector<std::string_view>* reads = image->spec_constants_of(name);
  if (spec_values)
    for (const auto& [id, v] : spec_values->values())
      if (!reads || std::binary_search(reads->begin(), reads->end(), std::string_view(v.name)))
        values.push_back({v.name, v.bytes});
  std::sort(values.begin(), values.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });

  slot* s;
  {
    std::lock_guard lock(m_mutex);
    auto& entry = m_slots[cache_key(image->id, name, values)];
    if (!entry) entry = std::make_unique<slot>();
    s = entry.get();
  }
  // Compiles outside the cache's lock: other kernels compile in parallel, launches of this one
  // wait for its first compilation. A compilation that failed is not tried again: its error is
  // the answer for the same key until the program ends (the image cannot change).
  std::lock_guard lock(s->mutex);
  if (s->function) return *s->function;
  if (s->error) std::rethrow_exception(s->error);
  try {
    s->function = compile(*image, name, std::move(values));
  } catch (const sycl::exception& e) {
    if (e.code() == sycl::errc::build) s->error = std::current_exception();
    throw;
  }
  return *s->function;
}

std::unique_ptr<kernel_function> kernel_cache::compile(const runtime::kernel_image& image,
                                                       const std::string& name,
                                                       std::vector<jit::spec_constant> values) {
  jit::request request;
  request.bitcode = std::as_bytes(std::span(image.data));
  request.kernel = name;
  request.arch = m_info.arch;
  request.ptx_version_feature = ptx_version(m_info.arch, m_info.driver_version);
  request.spec_constants = std::move(values);
  request.libdevice_path = find_libdevice();
  jit::result compiled;
  try {
    compiled = jit::compile(request);
  } catch (const jit::error& e) {
    if (trace_calls)
      std::fprintf(stderr, "syclone cuda: JIT of `%s` for %s failed\n", name.c_str(),
                   m_info.arch.c_str());
    sycl::detail::throw_error(sycl::errc::build,
                              "kernel `" + readable_kernel(name) + "` cannot run on " +
                                  m_info.device_name + " (" + m_info.arch +
                                  "): JIT compilation of its device code failed: " + e.what() +
                                  "\nfix the kernel's device code (or report a syclone bug if "
                                  "it is valid SYCL); the kernel was not launched");
  }
  if (trace_calls)
    std::fprintf(stderr, "syclone cuda: JIT of `%s` for %s: %.1f ms%s\n", name.c_str(),
                 m_info.arch.c_str(), compiled.milliseconds,
                 compiled.from_cache ? " (cached)" : "");
  return load(name, compiled.ptx);
}

// sycl_ext_oneapi_device_global: the JIT made each device_global the kernel uses a pointer
// variable (src/passes/device_global.hpp); pointing it at the device's instance makes every module
// of the device share one.
void kernel_cache::bind_device_globals(const std::string& kernel, CUmodule module,
                                       const std::string& ptx) {
  const driver_api& d = driver();
  const std::string_view prefix = passes::device_global_pointer_prefix;
  for (std::size_t at = ptx.find(prefix); at != std::string::npos; at = ptx.find(prefix, at + 1)) {
    std::size_t end = at;
    while (end < ptx.size() && (std::isalnum(static_cast<unsigned char>(ptx[end])) ||
                                ptx[end] == '_' || ptx[end] == '$'))
      ++end;
    // Only the declarations (`.global .align 8 .u64 <name>;`, maybe with `= 0`), not the loads.
    std::size_t after = end;
    while (after < ptx.size() && ptx[after] == ' ') ++after;
    if (after >= ptx.size() || (ptx[after] != ';' && ptx[after] != '=') || at == 0 ||
        ptx[at - 1] != ' ')
      continue;
    const std::string pointer = ptx.substr(at, end - at);
    const passes::device_global_of global = passes::device_global_of_pointer(pointer);
    if (global.symbol.empty()) continue;
    void* instance = runtime::device_global_instance(*m_info.device, global.symbol, global.bytes);
    CUdeviceptr address = 0;
    std::size_t bytes = 0;
    CUresult r = invoke(d.module_get_global, &address, &bytes, module, pointer.c_str());
    if (r == CUDA_SUCCESS && bytes == sizeof(instance))
      r = invoke(d.memcpy_htod, address, static_cast<const void*>(&instance), sizeof(instance));
    if (r != CUDA_SUCCESS)
      sycl::detail::throw_error(sycl::errc::runtime,
                                "kernel `" + readable_kernel(kernel) + "` on " +
                                    m_info.device_name + ": setting its device_global `" +
                                    global.symbol + "` failed: " + error_text(r));
  }
}

std::unique_ptr<kernel_function> kernel_cache::load(const std::string& kernel,
                                                    const std::string& ptx) {
  const driver_api& d = driver();
  make_current(m_info.context);
  auto fn = std::make_unique<kernel_function>();
  fn->name = kernel;
  fn->description = "kernel `" + kernel + "` on " + m_info.device_name;
  fn->prints = calls_vprintf(ptx);

  std::string error_log(log_size, '\0'), info_log(log_size, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log.data(), reinterpret_cast<void*>(std::uintptr_t(log_size)),
                    info_log.data(), reinterpret_cast<void*>(std::uintptr_t(log_size))};
  CUresult r = invoke(d.module_load_data_ex, &fn->module, ptx.c_str(), 4u, options, values);
  if (r != CUDA_SUCCESS) {
    std::string msg =
        "kernel `" + readable_kernel(kernel) + "` cannot run on " + m_info.device_name + " (" +
        m_info.arch +
        "): the CUDA driver cannot load the JIT's PTX: " + std::string(d.module_load_data_ex.name) +
        " failed: " + error_text(r);
    std::string log = trim(error_log.c_str());
    if (!log.empty()) msg += "\n" + log;
    if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
      msg += "\nthe NVIDIA driver (CUDA " + std::to_string(m_info.driver_version / 1000) + "." +
             std::to_string(m_info.driver_version % 1000 / 10) +
             ") is older than the PTX version; update the driver";
    // Only what the PTX itself decides is a build error (remembered for the kernel); anything
    // else the driver says (out of memory, a transient failure) is tried again next time.
    if (!ptx_rejected(r)) sycl::detail::throw_error(sycl::errc::runtime, msg);
    sycl::detail::throw_error(sycl::errc::build, msg);
  }
  r = invoke(d.module_get_function, &fn->function, fn->module, kernel.c_str());
  if (r != CUDA_SUCCESS) {
    invoke(d.module_unload, fn->module);
    sycl::detail::throw_error(r == CUDA_ERROR_NOT_FOUND ? sycl::errc::build : sycl::errc::runtime,
                              "kernel `" + readable_kernel(kernel) + "` on " + m_info.device_name +
                                  ": " + d.module_get_function.name +
                                  " found no entry of that name in the JIT's PTX for " +
                                  m_info.arch + ": " + error_text(r));
  }
  int max_threads = 0, static_shared = 0, dynamic_shared = 0, block = 0, min_grid = 0;
  try {
    bind_device_globals(kernel, fn->module, ptx);
    call(d.func_get_attribute, &max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn->function);
    call(d.func_get_attribute, &static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn->function);
    call(d.func_get_attribute, &dynamic_shared, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
         fn->function);
    call(d.occupancy_max_potential_block_size, &min_grid, &block, fn->function, nullptr,
         std::size_t{0}, 0);
  } catch (...) {
    invoke(d.module_unload, fn->module); // loaded again at the next launch
    throw;
  }
  fn->limits.max_threads_per_block = static_cast<unsigned>(std::max(1, max_threads));
  fn->limits.occupancy_block_size = static_cast<unsigned>(std::max(0, block));
  fn->static_shared_bytes = static_cast<std::size_t>(std::max(0, static_shared));
  int local_bytes = 0;
  if (invoke(d.func_get_attribute, &local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
             fn->function) == CUDA_SUCCESS)
    fn->local_bytes_per_thread = static_cast<std::size_t>(std::max(0, local_bytes));
  fn->dynamic_shared_limit = static_cast<std::size_t>(std::max(0, dynamic_shared));
  return fn;
}

namespace {
void no_op_callback(CUstream, CUresult, void*) {}
} // namespace

void print_after_kernel(CUstream stream) noexcept {
  const driver_api& d = driver();
  // A failure only delays the output to the next synchronization point: nothing to report.
  if (d.stream_add_callback.fn)
    (void)invoke(d.stream_add_callback, stream, &no_op_callback, nullptr, 0u);
}

} // namespace syclone::cuda
