// SYCL 2020 4.7.3 images and 4.7.6.13-14 image accessors: what the image templates ask of the
// runtime beyond the buffer entry points their storage uses (buffer.cpp, queue.cpp).
#include "context_impl.hpp"
#include "device_impl.hpp"
#include "queue_impl.hpp"

#include <sycl/image.hpp>
#include <sycl/image_legacy.hpp>

#include <climits>
#include <mutex>
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

namespace {
const char* const order_names[] = {"a",    "r",         "rx",        "rg",   "rgx",
                                   "ra",   "rgb",       "rgbx",      "rgba", "argb",
                                   "bgra", "intensity", "luminance", "abgr", "ext_oneapi_srgba"};
const char* const type_names[] = {
    "snorm_int8",      "snorm_int16",      "unorm_int8",     "unorm_int16",  "unorm_short_565",
    "unorm_short_555", "unorm_int_101010", "signed_int8",    "signed_int16", "signed_int32",
    "unsigned_int8",   "unsigned_int16",   "unsigned_int32", "fp16",         "fp32"};
constexpr unsigned order_count = sizeof(order_names) / sizeof(order_names[0]);
constexpr unsigned type_count = sizeof(type_names) / sizeof(type_names[0]);

// "image_channel_order::o, image_channel_type::t", made once per pair: images keep the pointer.
const char* layout_name(unsigned order, unsigned type) {
  static std::string names[order_count][type_count];
  static std::once_flag once;
  std::call_once(once, [] {
    for (unsigned o = 0; o < order_count; ++o)
      for (unsigned t = 0; t < type_count; ++t)
        names[o][t] = std::string("image_channel_order::") + order_names[o] +
                      ", image_channel_type::" + type_names[t];
  });
  return names[order][type].c_str();
}
} // namespace

texel_layout legacy_image_layout(image_channel_order order, image_channel_type type,
                                 const char** name) {
  const auto o = static_cast<unsigned>(order), t = static_cast<unsigned>(type);
  if (o >= order_count || t >= type_count)
    throw_error(errc::invalid, "sycl::image: image_channel_order value " + std::to_string(o) +
                                   " or image_channel_type value " + std::to_string(t) +
                                   " is not one of SYCL 1.2.1's (4.7.3)");
  *name = layout_name(o, t);
  if (order == image_channel_order::ext_oneapi_srgba)
    throw_error(errc::feature_not_supported,
                std::string("sycl::image: ") + *name +
                    ": sRGB images are not supported by syclone; store linear values in an "
                    "image_channel_order::rgba image");
  static constexpr texel_type types[] = {
      texel_type::snorm8,   texel_type::snorm16,  texel_type::unorm8,      texel_type::unorm16,
      texel_type::unorm565, texel_type::unorm555, texel_type::unorm101010, texel_type::sint8,
      texel_type::sint16,   texel_type::sint32,   texel_type::uint8,       texel_type::uint16,
      texel_type::uint32,   texel_type::fp16,     texel_type::fp32};
  texel_layout l;
  l.type = types[t];
  auto set = [&l](int channels, std::int8_t r, std::int8_t g, std::int8_t b, std::int8_t a,
                  int border_alpha) {
    l.channels = static_cast<std::uint8_t>(channels);
    l.source[0] = r;
    l.source[1] = g;
    l.source[2] = b;
    l.source[3] = a;
    l.border_alpha = static_cast<std::uint8_t>(border_alpha);
  };
  // OpenCL 1.2 8.3 and table 8.1: which stored channel each of r, g, b, a reads (missing ones
  // read as 0, alpha as 1), and the border colour's alpha (1 for r, rg, rgb and luminance).
  switch (order) {
  case image_channel_order::a:
    set(1, -1, -1, -1, 0, 0);
    break;
  case image_channel_order::r:
    set(1, 0, -1, -1, -1, 1);
    break;
  case image_channel_order::rx:
    set(1, 0, -1, -1, -1, 0);
    break;
  case image_channel_order::rg:
    set(2, 0, 1, -1, -1, 1);
    break;
  case image_channel_order::rgx:
    set(2, 0, 1, -1, -1, 0);
    break;
  case image_channel_order::ra:
    set(2, 0, -1, -1, 1, 0);
    break;
  case image_channel_order::rgb:
    set(3, 0, 1, 2, -1, 1);
    break;
  case image_channel_order::rgbx:
    set(3, 0, 1, 2, -1, 0);
    break;
  case image_channel_order::rgba:
    set(4, 0, 1, 2, 3, 0);
    break;
  case image_channel_order::argb:
    set(4, 1, 2, 3, 0, 0);
    break;
  case image_channel_order::bgra:
    set(4, 2, 1, 0, 3, 0);
    break;
  case image_channel_order::intensity:
    set(1, 0, 0, 0, 0, 0);
    break;
  case image_channel_order::luminance:
    set(1, 0, 0, 0, -1, 1);
    break;
  case image_channel_order::abgr:
    set(4, 3, 2, 1, 0, 0);
    break;
  default:
    break;
  }
  if (texel_type_is_packed(l.type)) {
    // OpenCL 1.2 5.3.1.1: the packed types hold r, g and b in one word.
    if (order != image_channel_order::rgb && order != image_channel_order::rgbx)
      throw_error(errc::invalid, std::string("sycl::image: ") + *name +
                                     ": a packed channel type holds r, g and b in one word; use "
                                     "it with image_channel_order::rgb or rgbx");
    l.channels = 1;
    l.element_size = l.type == texel_type::unorm101010 ? 4 : 2;
  } else {
    l.element_size = static_cast<std::uint8_t>(l.channels * texel_type_size(l.type));
  }
  return l;
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
