// Seed 004 (SYCL_INTEL_sub_group): required sub-group sizes and the kernel queries built on them.
#include "sub_group.hpp"

#include "kernel_registry.hpp"

#include <sycl/detail/kernel_info.hpp>
#include <sycl/exception.hpp>

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

namespace syclone::runtime {

namespace {

using sycl::detail::sub_group_size_automatic;
using sycl::detail::sub_group_size_primary;

// Looked up by the string_view a launch holds, without building a std::string per submission.
struct name_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>()(s);
  }
};

struct recorded_sizes {
  std::shared_mutex mutex;
  std::unordered_map<std::string, std::uint32_t, name_hash, std::equal_to<>> sizes;
  // Whether any record exists: most programs state no sub-group size, and then a submission
  // neither locks nor hashes (seed 004 only constrains kernels that require a size).
  std::atomic<bool> any{false};
  // Counts registrations: what a thread remembers of the sizes holds while it is unchanged.
  std::atomic<std::uint64_t> generation{1};
};

recorded_sizes& records() {
  static auto* r = new recorded_sizes(); // never destroyed: registrations may come late
  return *r;
}

std::string describe(std::uint32_t size) {
  if (size == sub_group_size_primary) return "primary";
  if (size == sub_group_size_automatic) return "automatic";
  return std::to_string(size);
}

std::string list(const std::vector<std::size_t>& sizes) {
  std::string text;
  for (std::size_t s : sizes) text += (text.empty() ? "" : ", ") + std::to_string(s);
  return text;
}

} // namespace

std::uint32_t recorded_sub_group_size(std::string_view kernel) {
  auto& r = records();
  if (!r.any.load(std::memory_order_acquire)) return 0;
  std::shared_lock lock(r.mutex);
  auto it = r.sizes.find(kernel);
  return it == r.sizes.end() ? 0 : it->second;
}

std::uint32_t required_sub_group_size(std::string_view kernel, std::uint32_t stated) {
  if (stated) return stated;
  std::uint32_t recorded = recorded_sub_group_size(kernel);
  return recorded & SYCLONE_SUB_GROUP_SIZE_CORE && recorded != sub_group_size_primary &&
                 recorded != sub_group_size_automatic
             ? recorded & ~SYCLONE_SUB_GROUP_SIZE_CORE
             : recorded;
}

namespace {
// Whether the kernel's size came from SYCL 2020's [[sycl::reqd_sub_group_size]] (5.8.1: an
// unsupported size is errc::kernel_not_supported) rather than seed 004's spellings or property.
bool core_spelling(std::string_view kernel, std::uint32_t stated) {
  if (stated) return false;
  std::uint32_t recorded = recorded_sub_group_size(kernel);
  return recorded != sub_group_size_primary && recorded != sub_group_size_automatic &&
         (recorded & SYCLONE_SUB_GROUP_SIZE_CORE);
}
} // namespace

std::uint32_t choose_sub_group_size(const device_properties& device, std::string_view kernel,
                                    std::uint32_t stated) {
  std::uint32_t required = required_sub_group_size(kernel, stated);
  // Automatic leaves the choice to us: the primary size supports everything.
  if (required == 0 || required == sub_group_size_primary || required == sub_group_size_automatic)
    return static_cast<std::uint32_t>(device.primary_sub_group_size);
  const auto& sizes = device.sub_group_sizes;
  if (std::find(sizes.begin(), sizes.end(), std::size_t(required)) == sizes.end())
    sycl::detail::throw_error(
        core_spelling(kernel, stated) ? sycl::errc::kernel_not_supported
                                      : sycl::errc::feature_not_supported,
        "kernel `" + std::string(kernel) + "` requires sub-group size " + describe(required) +
            " ([[sycl::reqd_sub_group_size]], [[intel::sub_group_size]] or a sub_group_size "
            "property), which " +
            device.name + " does not support; it supports " + list(sizes) +
            " (info::device::sub_group_sizes). Submit it to a device that supports the size, or "
            "require one of those");
  return required;
}

std::uint64_t sub_group_records_generation() noexcept {
  return records().generation.load(std::memory_order_acquire);
}

namespace {
// recorded_sub_group_size for a launch's name, remembered per thread by the name's address
// (issue 16: a kernel submitted again finds its record without hashing its long name).
std::uint32_t recorded_for_launch(const char* name) {
  auto& r = records();
  if (!r.any.load(std::memory_order_acquire)) return 0;
  // The kernel registry's generation too: a library unloaded and another loaded at its address
  // changes it, so an address never stands for another name.
  struct entry {
    const char* name = nullptr;
    std::uint64_t generation = 0, images = 0; // generations start at 1
    std::uint32_t size = 0;
  };
  constexpr std::size_t slots = 8;
  thread_local entry seen[slots];
  thread_local std::size_t next = 0;
  const std::uint64_t generation = r.generation.load(std::memory_order_acquire);
  const std::uint64_t images = kernel_registry::get().generation();
  for (const auto& e : seen)
    if (e.name == name && e.generation == generation && e.images == images) return e.size;
  // Read before the lookup: a registration meanwhile makes the entry stale at once.
  const std::uint32_t size = recorded_sub_group_size(name);
  seen[next++ % slots] = {name, generation, images, size};
  return size;
}
} // namespace

void resolve_sub_group_size(sycl::detail::kernel_launch& launch, const device_properties& device) {
  // Most kernels state no size and have none recorded: the device's primary size, no lookup.
  if (launch.required_sub_group_size == 0 && launch.name && recorded_for_launch(launch.name) == 0) {
    launch.sub_group_size = static_cast<std::uint32_t>(device.primary_sub_group_size);
    return;
  }
  launch.sub_group_size =
      choose_sub_group_size(device, launch.name ? launch.name : "", launch.required_sub_group_size);
}

std::uint32_t kernel_max_sub_group_size(const device_properties& device, std::string_view kernel,
                                        std::size_t work_group_size) {
  std::uint32_t size = choose_sub_group_size(device, kernel);
  if (work_group_size == 0) return size;
  return static_cast<std::uint32_t>(std::min<std::size_t>(size, work_group_size));
}

std::uint32_t kernel_compile_sub_group_size(const device_properties& device,
                                            std::string_view kernel) {
  std::uint32_t required = required_sub_group_size(kernel, 0);
  // SYCL 2020 (kernel_device_specific::compile_sub_group_size): 0 when the kernel requires no
  // size; seed 004: 0 for automatic, the device's primary size when the kernel asked for primary.
  if (required == 0 || required == sub_group_size_automatic) return 0;
  if (required == sub_group_size_primary)
    return static_cast<std::uint32_t>(device.primary_sub_group_size);
  return required;
}

std::uint32_t kernel_max_num_sub_groups(const device_properties& device, std::string_view kernel,
                                        std::size_t max_work_group_size) {
  std::uint32_t size = choose_sub_group_size(device, kernel);
  return static_cast<std::uint32_t>((max_work_group_size + size - 1) / size);
}

std::uint32_t kernel_compile_num_sub_groups(std::string_view) {
  return 0;
}

} // namespace syclone::runtime

extern "C" SYCLONE_EXPORT void
__syclone_register_sub_group_sizes(const syclone_kernel_sub_group_size* records_in,
                                   uint64_t count) {
  auto& r = syclone::runtime::records();
  std::unique_lock lock(r.mutex);
  for (uint64_t i = 0; i < count; ++i) r.sizes[records_in[i].kernel] = records_in[i].size;
  if (count) r.any.store(true, std::memory_order_release);
  r.generation.fetch_add(1, std::memory_order_acq_rel);
}
