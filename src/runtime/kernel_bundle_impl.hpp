// kernel_bundle_impl, device_image_impl and kernel_impl (SYCL 2020 4.11); what
// include/sycl/kernel_bundle.hpp explains about device images applies here.
#pragma once

#include "context_impl.hpp"
#include "device_impl.hpp"
#include "queue_impl.hpp"

#include <sycl/kernel_bundle.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

// Where the code of a device image runs.
enum class image_target {
  host,    // compiled into the host program; the host device runs it
  nvptx64, // LLVM bitcode in an nvptx64 image, JIT-compiled for NVIDIA GPUs
};
const char* target_name(image_target target);
// The image target whose code `dev` runs.
image_target target_of(const device_impl& dev);

// One kernel for one target.
class device_image_impl {
public:
  const char* kernel = nullptr; // interned unique stable name (kernel_id::get_name)
  image_target target = image_target::host;
  bundle_state state = bundle_state::input;
  // The specialization constants the kernel reads (unique stable names, sorted), as syclone++
  // recorded them in the kernel's device image; empty also where nothing recorded them (a
  // program built with -fsycl-targets=host has no device image).
  std::vector<std::string> spec_constants;
  // The values compiled into an object or executable image; null for an input image, whose
  // values are its bundle's. Never changed once the image exists.
  std::shared_ptr<spec_constant_values> values;

  bool reads(std::string_view spec_constant) const;
  bool native_spec_constants() const { return target == image_target::nvptx64; }
};

class kernel_bundle_impl {
public:
  kernel_bundle_impl(std::shared_ptr<context_impl> context,
                     std::vector<std::shared_ptr<device_impl>> devices, bundle_state state)
      : m_context(std::move(context)), m_devices(std::move(devices)), m_state(state) {}

  const std::shared_ptr<context_impl>& context() const { return m_context; }
  const std::vector<std::shared_ptr<device_impl>>& devices() const { return m_devices; }
  bundle_state state() const { return m_state; }
  const std::vector<std::shared_ptr<device_image_impl>>& images() const { return m_images; }
  void add_image(std::shared_ptr<device_image_impl> image) { m_images.push_back(std::move(image)); }
  bool has_device(const device_impl& dev) const;

  // The image of `kernel` whose code `dev` runs, or null.
  const device_image_impl* find(std::string_view kernel, const device_impl& dev) const;

  // Values of an input bundle (kernel_bundle::set_specialization_constant). A copy, safe to keep.
  spec_constant_values input_values() const;
  void set_input_value(const void* id, const char* name, const void* value, std::size_t size);
  void set_input_values(spec_constant_values values);

private:
  std::shared_ptr<context_impl> m_context;
  std::vector<std::shared_ptr<device_impl>> m_devices;
  bundle_state m_state;
  std::vector<std::shared_ptr<device_image_impl>> m_images;
  mutable std::mutex m_mutex;
  spec_constant_values m_input_values;
};

class kernel_impl {
public:
  kernel_impl(std::shared_ptr<kernel_bundle_impl> bundle, const char* name)
      : m_bundle(std::move(bundle)), m_name(name) {}
  const std::shared_ptr<kernel_bundle_impl>& bundle() const { return m_bundle; }
  const char* name() const { return m_name; }

private:
  std::shared_ptr<kernel_bundle_impl> m_bundle;
  const char* m_name;
};

// handler::use_kernel_bundle at submission (SYCL 2020 4.9.4.4): a kernel command runs the
// bundle's image of its kernel for `dev`, with the values compiled into that image. Throws
// errc::kernel_not_supported when the bundle has no such image. Other commands are left alone.
void bind_kernel_bundle(const kernel_bundle_impl& bundle, command& cmd, const device_impl& dev);

// SYCL 2020 4.11.8 / 5.7: a kernel command for a device its kernel is not compatible with (no
// device code for it) throws errc::kernel_not_supported at submission.
void check_compatible(const command& cmd, const device_impl& dev);

} // namespace detail
SYCLONE_END_NAMESPACE
