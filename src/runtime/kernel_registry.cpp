#include "kernel_registry.hpp"

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
  image->kernel_names.assign(descriptor->kernel_names,
                             descriptor->kernel_names + descriptor->kernel_count);
  std::sort(image->kernel_names.begin(), image->kernel_names.end());

  std::unique_lock lock(m_mutex);
  for (const auto& known : m_images)
    if (known->descriptor == descriptor) return;
  image->id = m_next_id++;
  m_images.push_back(std::move(image));
}

void kernel_registry::unregister_image(const syclone_image_descriptor* descriptor) {
  std::unique_lock lock(m_mutex);
  std::erase_if(m_images, [&](const auto& image) { return image->descriptor == descriptor; });
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

} // namespace syclone::runtime

// Run from constructors before main: an exception cannot reach anyone, so it is reported here and
// the image is skipped (its kernels then fail to launch with "not compiled for <target>").
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
