#include "kernel_registry.hpp"

#include <sycl/detail/kernel_info.hpp>
#include <sycl/exception.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>

namespace syclone::runtime {

namespace {

// Checks what a version-1 reader relies on; newer writers only append fields.
void validate(const syclone_image_descriptor* d) {
  auto fail = [](const std::string& why) {
    sycl::detail::throw_error(sycl::errc::runtime,
                              "invalid device image descriptor: " + why +
                                  "; rebuild the program with the syclone++ of this runtime");
  };
  if (!d) fail("null descriptor");
  if (d->version < 1) fail("version " + std::to_string(d->version) + " is not supported");
  if (!d->target || !d->format) fail("missing target or format");
  if (d->size > 0 && !d->data) fail("image of target " + std::string(d->target) + " has no data");
  if (d->kernel_count > 0 && !d->kernel_names)
    fail("image of target " + std::string(d->target) + " has no kernel names");
  for (std::uint32_t i = 0; i < d->kernel_count; ++i)
    if (!d->kernel_names[i])
      fail("kernel name " + std::to_string(i) + " of the " + d->target + " image is null");
}

} // namespace

bool kernel_image::has_kernel(std::string_view name) const {
  return std::binary_search(kernel_names.begin(), kernel_names.end(), name);
}

const std::vector<std::string_view>* kernel_image::spec_constants_of(std::string_view name) const {
  if (!spec_constants_known) return nullptr;
  auto it = std::lower_bound(kernel_names.begin(), kernel_names.end(), name);
  if (it == kernel_names.end() || *it != name) return nullptr;
  return &spec_constants[static_cast<std::size_t>(it - kernel_names.begin())];
}

kernel_registry& kernel_registry::get() {
  static kernel_registry* registry = new kernel_registry;
  return *registry;
}

void kernel_registry::register_image(const syclone_image_descriptor* descriptor) {
  validate(descriptor);
  auto image = std::make_shared<kernel_image>();
  image->descriptor = descriptor;
  image->target = descriptor->target;
  image->format = descriptor->format;
  image->data = {descriptor->data, static_cast<std::size_t>(descriptor->size)};
  // Names with their specialization constants (version 2 on), sorted by name.
  image->spec_constants_known = descriptor->version >= 2;
  std::vector<std::pair<std::string_view, std::vector<std::string_view>>> kernels;
  for (std::uint32_t i = 0; i < descriptor->kernel_count; ++i) {
    std::vector<std::string_view> spec_constants;
    if (image->spec_constants_known && descriptor->kernel_spec_constants &&
        descriptor->kernel_spec_constants[i])
      for (const char* const* name = descriptor->kernel_spec_constants[i]; *name; ++name)
        spec_constants.emplace_back(*name);
    std::sort(spec_constants.begin(), spec_constants.end());
    kernels.emplace_back(descriptor->kernel_names[i], std::move(spec_constants));
  }
  std::sort(kernels.begin(), kernels.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [name, spec_constants] : kernels) {
    image->kernel_names.push_back(name);
    image->spec_constants.push_back(std::move(spec_constants));
  }

  std::unique_lock lock(m_mutex);
  for (const auto& known : m_images)
    if (known->descriptor == descriptor) return;
  image->id = m_next_id++;
  m_images.push_back(std::move(image));
  m_generation.fetch_add(1, std::memory_order_acq_rel);
}

void kernel_registry::unregister_image(const syclone_image_descriptor* descriptor) {
  std::unique_lock lock(m_mutex);
  if (std::erase_if(m_images, [&](const auto& image) { return image->descriptor == descriptor; }))
    m_generation.fetch_add(1, std::memory_order_acq_rel);
}

std::vector<std::shared_ptr<const kernel_image>> kernel_registry::images() const {
  std::shared_lock lock(m_mutex);
  return m_images;
}

std::shared_ptr<const kernel_image> kernel_registry::find(std::string_view name,
                                                          std::string_view target) const {
  std::shared_lock lock(m_mutex);
  for (const auto& image : m_images)
    if (image->target == target && image->has_kernel(name)) return image;
  return nullptr;
}

bool kernel_registry::has_kernel(std::string_view name) const {
  std::shared_lock lock(m_mutex);
  return std::any_of(m_images.begin(), m_images.end(),
                     [&](const auto& image) { return image->has_kernel(name); });
}

std::vector<std::string> kernel_registry::targets_of(std::string_view name) const {
  std::vector<std::string> targets;
  std::shared_lock lock(m_mutex);
  for (const auto& image : m_images)
    if (image->has_kernel(name) &&
        std::find(targets.begin(), targets.end(), image->target) == targets.end())
      targets.emplace_back(image->target);
  return targets;
}

std::optional<std::vector<std::string>>
kernel_registry::spec_constants_of(std::string_view name) const {
  std::shared_lock lock(m_mutex);
  for (const auto& image : m_images)
    if (const auto* names = image->spec_constants_of(name))
      return std::vector<std::string>(names->begin(), names->end());
  // No image describes the kernel (-fsycl-targets=host): what the host compile recorded.
  if (auto it = m_host_reads.find(name); it != m_host_reads.end()) return it->second;
  if (!m_host_reads.empty() && m_host_kernels.count(name)) return std::vector<std::string>{};
  return std::nullopt;
}

void kernel_registry::register_host_reads(std::string_view kernel, std::string_view spec_constant) {
  std::unique_lock lock(m_mutex);
  auto& names = m_host_reads[std::string(kernel)];
  auto at = std::lower_bound(names.begin(), names.end(), spec_constant);
  if (at == names.end() || *at != spec_constant) names.insert(at, std::string(spec_constant));
}

void kernel_registry::register_host_kernel(std::string_view name) {
  std::unique_lock lock(m_mutex);
  auto it = m_host_kernels.find(name);
  if (it == m_host_kernels.end()) {
    it = m_host_kernels.emplace(std::string(name), 0).first;
    m_generation.fetch_add(1, std::memory_order_acq_rel);
  }
  ++it->second;
}

void kernel_registry::unregister_host_kernel(std::string_view name) {
  std::unique_lock lock(m_mutex);
  auto it = m_host_kernels.find(name);
  if (it != m_host_kernels.end() && --it->second == 0) {
    m_host_kernels.erase(it);
    m_generation.fetch_add(1, std::memory_order_acq_rel);
  }
}

bool kernel_registry::host_has_kernel(std::string_view name) const {
  {
    std::shared_lock lock(m_mutex);
    if (m_host_kernels.find(name) != m_host_kernels.end()) return true;
  }
  return has_kernel(name);
}

std::vector<std::string> kernel_registry::kernel_names() const {
  std::vector<std::string> names;
  {
    std::shared_lock lock(m_mutex);
    for (const auto& [name, count] : m_host_kernels) names.push_back(name);
    for (const auto& image : m_images)
      for (auto name : image->kernel_names) names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

} // namespace syclone::runtime

// Run from constructors before main: an exception cannot reach anyone, so it is reported here and
// the image is skipped (its kernels then fail to launch with "not compiled for <target>").
extern "C" SYCLONE_EXPORT void
__syclone_register_kernel_spec_constants(const syclone_kernel_spec_constant* records,
                                         uint64_t count) {
  for (uint64_t i = 0; i < count; ++i)
    syclone::runtime::kernel_registry::get().register_host_reads(records[i].kernel,
                                                                 records[i].spec_constant);
}

extern "C" SYCLONE_EXPORT void __syclone_register_image(const syclone_image_descriptor* image) {
  try {
    syclone::runtime::kernel_registry::get().register_image(image);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "syclone: error: %s\n", e.what());
  }
}

extern "C" SYCLONE_EXPORT void __syclone_unregister_image(const syclone_image_descriptor* image) {
  syclone::runtime::kernel_registry::get().unregister_image(image);
}
