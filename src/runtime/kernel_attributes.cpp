// SYCL 2020 5.8.1 kernel attributes and the optional-kernel-feature errors of 5.7 (see
// kernel_attributes.hpp).
#include "kernel_attributes.hpp"

#include "device_impl.hpp"
#include "queue_impl.hpp"
#include "sub_group.hpp"

#include <sycl/detail/kernel_info.hpp>
#include <sycl/detail/kernel_launch.hpp>
#include <sycl/exception.hpp>
#include <sycl/hierarchical.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cxxabi.h>
#include <functional>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace syclone::runtime {

namespace {

struct name_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>()(s);
  }
};

struct recorded_attributes {
  std::shared_mutex mutex;
  std::unordered_map<std::string, kernel_attributes, name_hash, std::equal_to<>> kernels;
  // Most programs use none of these attributes: then a submission neither locks nor hashes.
  std::atomic<bool> any{false};
  // Counts registrations: what was found for a kernel holds while it is unchanged.
  std::atomic<std::uint64_t> generation{1};
};

recorded_attributes& records() {
  static auto* r = new recorded_attributes(); // never destroyed: registrations may come late
  return *r;
}

} // namespace

std::string kernel_text(std::string_view name) {
  std::string mangled(name);
  int status = 0;
  char* text = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  std::string result = status == 0 && text ? text : mangled;
  std::free(text);
  constexpr std::string_view prefix = "typeinfo name for ";
  if (result.starts_with(prefix)) result.erase(0, prefix.size());
  return "kernel `" + result + "`";
}

namespace {

const char* aspect_name(sycl::aspect a) {
  switch (a) {
  case sycl::aspect::cpu:
    return "cpu";
  case sycl::aspect::gpu:
    return "gpu";
  case sycl::aspect::accelerator:
    return "accelerator";
  case sycl::aspect::custom:
    return "custom";
  case sycl::aspect::emulated:
    return "emulated";
  case sycl::aspect::host_debuggable:
    return "host_debuggable";
  case sycl::aspect::fp16:
    return "fp16";
  case sycl::aspect::fp64:
    return "fp64";
  case sycl::aspect::atomic64:
    return "atomic64";
  case sycl::aspect::image:
    return "image";
  case sycl::aspect::online_compiler:
    return "online_compiler";
  case sycl::aspect::online_linker:
    return "online_linker";
  case sycl::aspect::queue_profiling:
    return "queue_profiling";
  case sycl::aspect::usm_device_allocations:
    return "usm_device_allocations";
  case sycl::aspect::usm_host_allocations:
    return "usm_host_allocations";
  case sycl::aspect::usm_atomic_host_allocations:
    return "usm_atomic_host_allocations";
  case sycl::aspect::usm_shared_allocations:
    return "usm_shared_allocations";
  case sycl::aspect::usm_atomic_shared_allocations:
    return "usm_atomic_shared_allocations";
  case sycl::aspect::usm_system_allocations:
    return "usm_system_allocations";
  case sycl::aspect::ext_oneapi_is_composite:
    return "ext_oneapi_is_composite";
  case sycl::aspect::ext_oneapi_is_component:
    return "ext_oneapi_is_component";
  case sycl::aspect::ext_oneapi_bfloat16_math_functions:
    return "ext_oneapi_bfloat16_math_functions";
  case sycl::aspect::ext_intel_pci_address:
    return "ext_intel_pci_address";
  case sycl::aspect::ext_intel_gpu_eu_count:
    return "ext_intel_gpu_eu_count";
  case sycl::aspect::ext_intel_gpu_eu_simd_width:
    return "ext_intel_gpu_eu_simd_width";
  case sycl::aspect::ext_intel_gpu_slices:
    return "ext_intel_gpu_slices";
  case sycl::aspect::ext_intel_gpu_subslices_per_slice:
    return "ext_intel_gpu_subslices_per_slice";
  case sycl::aspect::ext_intel_gpu_eu_count_per_subslice:
    return "ext_intel_gpu_eu_count_per_subslice";
  case sycl::aspect::ext_intel_max_mem_bandwidth:
    return "ext_intel_max_mem_bandwidth";
  case sycl::aspect::ext_intel_device_info_uuid:
    return "ext_intel_device_info_uuid";
  case sycl::aspect::ext_intel_gpu_hw_threads_per_eu:
    return "ext_intel_gpu_hw_threads_per_eu";
  case sycl::aspect::ext_intel_free_memory:
    return "ext_intel_free_memory";
  case sycl::aspect::ext_intel_device_id:
    return "ext_intel_device_id";
  case sycl::aspect::ext_intel_memory_clock_rate:
    return "ext_intel_memory_clock_rate";
  case sycl::aspect::ext_intel_memory_bus_width:
    return "ext_intel_memory_bus_width";
  case sycl::aspect::ext_intel_current_clock_throttle_reasons:
    return "ext_intel_current_clock_throttle_reasons";
  case sycl::aspect::ext_intel_fan_speed:
    return "ext_intel_fan_speed";
  case sycl::aspect::ext_intel_power_limits:
    return "ext_intel_power_limits";
  case sycl::aspect::ext_oneapi_ballot_group:
    return "ext_oneapi_ballot_group";
  case sycl::aspect::ext_oneapi_fixed_size_group:
    return "ext_oneapi_fixed_size_group";
  case sycl::aspect::ext_oneapi_opportunistic_group:
    return "ext_oneapi_opportunistic_group";
  case sycl::aspect::ext_oneapi_tangle_group:
    return "ext_oneapi_tangle_group";
  }
  return "unknown";
}

} // namespace

std::string sizes_text(const std::size_t* sizes, int dims) {
  std::string text;
  for (int d = 0; d < dims; ++d) text += (d ? ", " : "") + std::to_string(sizes[d]);
  return text;
}

const kernel_attributes* find_kernel_attributes(std::string_view kernel) {
  auto& r = records();
  if (!r.any.load(std::memory_order_acquire)) return nullptr;
  std::shared_lock lock(r.mutex);
  auto it = r.kernels.find(kernel);
  // Entries are never erased; a re-registration replaces the value in place (same storage).
  return it == r.kernels.end() ? nullptr : &it->second;
}

std::optional<std::string> attribute_conflict(std::string_view kernel,
                                              const sycl::detail::device_impl& device) {
  const kernel_attributes* a = find_kernel_attributes(kernel);
  if (!a) return std::nullopt;
  const auto& props = device.props();
  if (a->device_has)
    for (sycl::aspect aspect : *a->device_has)
      if (!device.has(aspect))
        return kernel_text(kernel) + " needs aspect::" + aspect_name(aspect) +
               " ([[sycl::device_has]] on it or on a function it calls) but device `" + props.name +
               "` lacks it (SYCL 2020 5.7); submit it to a device that has it (device::has)";
  if (a->reqd_dims) {
    std::size_t total = 1;
    bool overflow = false;
    for (int d = 0; d < a->reqd_dims; ++d) {
      if (a->reqd[d] > props.max_work_item_sizes[3 - a->reqd_dims + d]) overflow = true;
      if (a->reqd[d] && total > props.max_work_group_size / a->reqd[d])
        overflow = true;
      else
        total *= a->reqd[d];
    }
    if (overflow || total > props.max_work_group_size)
      return kernel_text(kernel) + " requires work-groups of (" +
             sizes_text(a->reqd, a->reqd_dims) +
             ") work-items ([[sycl::reqd_work_group_size]]) "
             "but device `" +
             props.name + "` allows at most " + std::to_string(props.max_work_group_size) +
             " per work-group (info::device::max_work_group_size, max_work_item_sizes; SYCL "
             "2020 5.8.1)";
  }
  return std::nullopt;
}

std::optional<std::string> sub_group_conflict(std::string_view kernel,
                                              const sycl::detail::device_impl& device) {
  std::uint32_t required = required_sub_group_size(kernel, 0);
  if (required == 0 || required == sycl::detail::sub_group_size_primary ||
      required == sycl::detail::sub_group_size_automatic)
    return std::nullopt;
  const auto& sizes = device.props().sub_group_sizes;
  if (std::find(sizes.begin(), sizes.end(), std::size_t(required)) != sizes.end())
    return std::nullopt;
  std::string supported;
  for (std::size_t size : sizes)
    supported += (supported.empty() ? "" : ", ") + std::to_string(size);
  return kernel_text(kernel) + " requires sub-group size " + std::to_string(required) +
         " but device `" + device.props().name + "` supports " + supported +
         " (info::device::sub_group_sizes; SYCL 2020 5.8.1)";
}

std::uint64_t kernel_attributes_generation() noexcept {
  return records().generation.load(std::memory_order_acquire);
}

void check_kernel_attributes(const sycl::detail::kernel_launch& launch,
                             const sycl::detail::device_impl& device) {
  if (!launch.name || !records().any.load(std::memory_order_acquire)) return;
  const kernel_attributes* a = find_kernel_attributes(launch.name);
  if (!a) return;
  if (auto conflict = attribute_conflict(launch.name, device))
    sycl::detail::throw_error(sycl::errc::kernel_not_supported, *conflict);
  // User nd_range kernels (run_item); the nd_range shapes the runtime itself chooses for range
  // reductions and hierarchical kernels (run_range) are checked where they are chosen.
  if (a->reqd_dims && launch.kind == sycl::detail::kernel_kind::nd_range && launch.run_item) {
    bool match = a->reqd_dims == launch.dimensions;
    for (int d = 0; match && d < launch.dimensions; ++d) match = a->reqd[d] == launch.local[d];
    if (!match)
      sycl::detail::throw_error(
          sycl::errc::nd_range,
          kernel_text(launch.name) + " requires work-groups of (" +
              sizes_text(a->reqd, a->reqd_dims) +
              ") ([[sycl::reqd_work_group_size]]) but is "
              "launched with a local range of (" +
              sizes_text(launch.local, launch.dimensions) +
              ") (SYCL 2020 5.8.1); launch it with an nd_range of that local range");
  }
}

void compile_work_group_size(std::string_view kernel, std::size_t out[3]) {
  out[0] = out[1] = out[2] = 0;
  const kernel_attributes* a = find_kernel_attributes(kernel);
  if (!a || !a->reqd_dims) return;
  out[0] = out[1] = out[2] = 1;
  for (int d = 0; d < a->reqd_dims; ++d) out[3 - a->reqd_dims + d] = a->reqd[d];
}

std::string attributes_text(std::string_view kernel) {
  const kernel_attributes* a = find_kernel_attributes(kernel);
  if (!a) return {};
  std::string text;
  auto add = [&](const std::string& item) { text += (text.empty() ? "" : " ") + item; };
  if (a->reqd_dims) add("reqd_work_group_size(" + sizes_text(a->reqd, a->reqd_dims) + ")");
  if (a->hint_dims) add("work_group_size_hint(" + sizes_text(a->hint, a->hint_dims) + ")");
  if (a->device_has) {
    std::string list;
    for (sycl::aspect aspect : *a->device_has)
      list += (list.empty() ? "aspect::" : ", aspect::") + std::string(aspect_name(aspect));
    add("device_has(" + list + ")");
  }
  return text;
}

} // namespace syclone::runtime

SYCLONE_BEGIN_NAMESPACE
namespace detail {
bool check_hierarchical_attributes(handler& cgh, const char* kernel, int dims,
                                   const std::size_t* local, std::size_t* required) {
  if (!kernel) return false;
  const device_impl& device = *cgh.impl()->m_queue->device();
  const syclone::runtime::kernel_attributes* a = syclone::runtime::find_kernel_attributes(kernel);
  if (!a) {
    syclone::runtime::choose_sub_group_size(device.props(), kernel); // as below
    return false;
  }
  if (auto conflict = syclone::runtime::attribute_conflict(kernel, device))
    throw_error(errc::kernel_not_supported, *conflict);
  // A required sub-group size the device lacks throws as at submission (kernel_not_supported for
  // [[sycl::reqd_sub_group_size]], seed 004's feature_not_supported otherwise), before sizes.
  syclone::runtime::choose_sub_group_size(device.props(), kernel);
  if (!a->reqd_dims) return false;
  if (local) {
    bool match = a->reqd_dims == dims;
    for (int d = 0; match && d < dims; ++d) match = a->reqd[d] == local[d];
    if (!match)
      throw_error(errc::nd_range,
                  syclone::runtime::kernel_text(kernel) + " requires work-groups of (" +
                      syclone::runtime::sizes_text(a->reqd, a->reqd_dims) +
                      ") ([[sycl::reqd_work_group_size]]) but parallel_for_work_group gives (" +
                      syclone::runtime::sizes_text(local, dims) + ") (SYCL 2020 5.8.1)");
  } else if (a->reqd_dims != dims) {
    throw_error(errc::nd_range, syclone::runtime::kernel_text(kernel) + " requires " +
                                    std::to_string(a->reqd_dims) +
                                    "-dimensional work-groups ([[sycl::reqd_work_group_size]]) "
                                    "but is launched over " +
                                    std::to_string(dims) + " dimensions (SYCL 2020 5.8.1)");
  }
  for (int d = 0; d < a->reqd_dims; ++d) required[d] = a->reqd[d];
  return true;
}

void choose_auto_local_range(handler& cgh, const char* kernel, int dims, const std::size_t* global,
                             std::size_t* local) {
  const auto& props = cgh.impl()->m_queue->device()->props();
  // A required size is the only one the kernel runs with; should it not divide the global range,
  // submission says so (errc::nd_range).
  if (const auto* a = kernel ? syclone::runtime::find_kernel_attributes(kernel) : nullptr;
      a && a->reqd_dims == dims) {
    for (int d = 0; d < dims; ++d) local[d] = a->reqd[d];
    return;
  }
  // At most 256 work-items: a whole number of sub-groups of every size the devices have where
  // the global range allows, enough work-groups to fill a GPU or the host's threads, and within
  // every device's limits. The last dimension (the one whose work-items are adjacent) first.
  std::size_t budget = std::min<std::size_t>(256, props.max_work_group_size);
  for (int d = dims - 1; d >= 0; --d) {
    std::size_t limit = std::min(budget, props.max_work_item_sizes[3 - dims + d]);
    std::size_t best = 1;
    for (std::size_t s = std::min(limit, global[d]); s > 1; --s)
      if (global[d] % s == 0) {
        best = s;
        break;
      }
    local[d] = best;
    budget /= best;
  }
}
} // namespace detail
SYCLONE_END_NAMESPACE

extern "C" SYCLONE_EXPORT void
__syclone_register_kernel_attributes(const syclone_kernel_attributes* in, uint64_t count) {
  auto& r = syclone::runtime::records();
  std::unique_lock lock(r.mutex);
  for (uint64_t i = 0; i < count; ++i) {
    syclone::runtime::kernel_attributes a;
    a.reqd_dims = static_cast<int>(in[i].reqd_work_group_dims > 3 ? 3 : in[i].reqd_work_group_dims);
    a.hint_dims =
        static_cast<int>(in[i].work_group_size_hint_dims > 3 ? 3 : in[i].work_group_size_hint_dims);
    for (int d = 0; d < 3; ++d) {
      a.reqd[d] = static_cast<std::size_t>(in[i].reqd_work_group_size[d]);
      a.hint[d] = static_cast<std::size_t>(in[i].work_group_size_hint[d]);
    }
    if (in[i].aspect_count >= 0) {
      a.device_has.emplace();
      for (int32_t k = 0; k < in[i].aspect_count; ++k)
        a.device_has->push_back(static_cast<sycl::aspect>(in[i].aspects[k]));
    }
    r.kernels[in[i].kernel] = std::move(a);
  }
  if (count) r.any.store(true, std::memory_order_release);
  r.generation.fetch_add(1, std::memory_order_acq_rel);
}
