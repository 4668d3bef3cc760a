// SYCL 2020 4.7.3 images and 4.7.6.13-14 image accessors: what the image templates ask of the
// runtime beyond the buffer entry points their storage uses (buffer.cpp, queue.cpp).
#include "context_impl.hpp"
#include "device_impl.hpp"
#include "queue_impl.hpp"

#include <sycl/image.hpp>

#include <climits>
#include <string>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

void check_image_layout(const char* what, const char* format_name, std::size_t element,
                        int dimensions, const std::size_t* extent, const std::size_t* pitch) {
  // Coordinates are int (SYCL 2020 4.7.6.13): every dimension must be addressable by one.
  for (int d = 0; d < dimensions; ++d)
    if (extent[d] > static_cast<std::size_t>(INT_MAX))
      throw_error(errc::invalid,
                  std::string(what) + ": range[" + std::to_string(d) + "] is " +
                      std::to_string(extent[d]) + " elements, more than int coordinates address (" +
                      std::to_string(INT_MAX) + "; info::device::image2d_max_width and the like)");
  if (!pitch || dimensions < 2) return;
  const std::size_t row = extent[0] * element;
  if (pitch[0] < row || pitch[0] % element != 0)
    throw_error(errc::invalid, std::string(what) + ": the row pitch is " +
                                   std::to_string(pitch[0]) + " bytes; it must hold a row of " +
                                   std::to_string(extent[0]) + " elements (" + std::to_string(row) +
                                   " bytes) and be a multiple of the " + std::to_string(element) +
                                   "-byte element of " + format_name);
  if (dimensions < 3) return;
  const std::size_t slice = pitch[0] * extent[1];
  if (pitch[1] < slice || pitch[1] % element != 0)
    throw_error(errc::invalid, std::string(what) + ": the slice pitch is " +
                                   std::to_string(pitch[1]) + " bytes; it must hold " +
                                   std::to_string(extent[1]) + " rows of " +
                                   std::to_string(pitch[0]) + " bytes (" + std::to_string(slice) +
                                   " bytes) and be a multiple of the " + std::to_string(element) +
                                   "-byte element of " + format_name);
}

void* require_image(handler& cgh, buffer_impl& storage, access_mode mode, bool no_init,
                    bool on_host, const char* what) {
  auto& h = *cgh.impl();
  device_impl& dev = *h.m_queue->device();
  // SYCL 2020 4.7.6.13-14: a kernel's image accessor needs aspect::image on the device.
  if (!on_host && !dev.has(aspect::image))
    throw_error(errc::feature_not_supported,
                std::string(what) + ": the command group's device (" + dev.props().name +
                    ") has no aspect::image, so its kernels cannot use images; submit to a "
                    "device with aspect::image (the host device has it), or use "
                    "image_target::host_task in a host task");
  // SYCL 2020 4.7.3.3: an image bound to a context is used in no other.
  const auto* props = static_cast<const property_list*>(buffer_properties(storage));
  if (props && props->has_property<property::image::context_bound>()) {
    auto bound =
        impl_access::get(props->get_property<property::image::context_bound>().get_context());
    if (bound != h.m_queue->context())
      throw_error(errc::invalid,
                  std::string(what) +
                      ": the image was made with property::image::context_bound for another "
                      "context than the command group's queue; use a queue of that context");
  }
  return require(cgh, storage, mode, no_init, on_host);
}

} // namespace detail
SYCLONE_END_NAMESPACE
