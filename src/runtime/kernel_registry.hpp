// The process-wide registry of device images (DESIGN.md "Kernel launch": a GPU device finds the
// image holding a kernel's name). Images arrive through __syclone_register_image from the
// constructors that syclone++ links into every program and shared library with device code
// (include/sycl/detail/image.hpp), and leave at exit or dlclose.
#pragma once

#include <sycl/detail/config.hpp>
#include <sycl/detail/image.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace syclone::runtime {

// One registered image. The views point into the data of the module (program or shared library)
// that registered it: they stay valid while the image is registered, which for images of the
// program itself is the whole run.
struct kernel_image {
  const syclone_image_descriptor* descriptor = nullptr;
  // Never reused within a process, unlike descriptor addresses after dlclose + dlopen: the key
  // for anything derived from the image (JIT caches, loaded modules).
  std::uint64_t id = 0;
  std::string_view target; // "nvptx64"
  std::string_view format; // "llvm-bc"
  std::span<const unsigned char> data;
  std::vector<std::string_view> kernel_names; // sorted
  // Per entry of kernel_names: the specialization constants that kernel reads, sorted. Known
  // from descriptor version 2 on; older descriptors do not say (spec_constants_known false).
  std::vector<std::vector<std::string_view>> spec_constants;
  bool spec_constants_known = false;

  SYCLONE_EXPORT bool has_kernel(std::string_view name) const;
  // The specialization constants kernel `name` reads; nullptr when the image does not hold the
  // kernel or does not record them.
  SYCLONE_EXPORT const std::vector<std::string_view>*
  spec_constants_of(std::string_view name) const;
};

class SYCLONE_EXPORT kernel_registry {
public:
  // The registry of this process. It is never destroyed, so that images of modules whose
  // destructors run after the runtime's own static objects can still unregister.
  static kernel_registry& get();

  // Adds an image; a descriptor that is already registered is left as it is. Throws
  // sycl::exception (errc::runtime) for a descriptor this runtime cannot read.
  void register_image(const syclone_image_descriptor* descriptor);
  // Removes an image; unknown descriptors are ignored.
  void unregister_image(const syclone_image_descriptor* descriptor);

  // All images in registration order.
  std::vector<std::shared_ptr<const kernel_image>> images() const;
  // The image for target `target` ("nvptx64") that holds kernel `name`, or nullptr. Where several
  // modules hold the same kernel, the one registered first wins.
  std::shared_ptr<const kernel_image> find(std::string_view name, std::string_view target) const;
  // Whether any image (of any target) holds kernel `name`.
  bool has_kernel(std::string_view name) const;
  // The targets of the images that hold kernel `name`, for messages such as "kernel K was compiled
  // for nvptx64 only".
  std::vector<std::string> targets_of(std::string_view name) const;
  // The specialization constants kernel `name` reads, from the first image that records them;
  // nullopt when none does (no image holds the kernel, or only images of older descriptors).
  std::optional<std::vector<std::string>> spec_constants_of(std::string_view name) const;
  // What the host compile saw kernel `kernel` read (include/sycl/detail/kernel_info.hpp), for
  // kernels without a device image.
  void register_host_reads(std::string_view kernel, std::string_view spec_constant);

  // The kernels the host program submits (include/sycl/detail/host_kernels.hpp), counted: the
  // same kernel may be instantiated by several modules.
  void register_host_kernel(std::string_view name);
  void unregister_host_kernel(std::string_view name);
  // Whether the host program holds kernel `name`: registered by it or, for programs whose
  // objects predate that registration, listed in an image (its host code was linked with it).
  bool host_has_kernel(std::string_view name) const;
  // Every kernel of the application, sorted: those of the images and of the host program.
  std::vector<std::string> kernel_names() const;

  // Changes whenever an image or host kernel comes or goes (a module loaded or unloaded): what
  // was looked up under one generation holds while the generation stays the same, so launches
  // cache their lookups under it instead of searching the images each time.
  std::uint64_t generation() const noexcept { return m_generation.load(std::memory_order_acquire); }

private:
  kernel_registry() = default;

  mutable std::shared_mutex m_mutex;
  std::vector<std::shared_ptr<const kernel_image>> m_images;
  std::uint64_t m_next_id = 1;
  std::atomic<std::uint64_t> m_generation{1}; // bumped under the unique lock
  std::map<std::string, int, std::less<>> m_host_kernels;
  std::map<std::string, std::vector<std::string>, std::less<>> m_host_reads; // sorted names
};

} // namespace syclone::runtime
