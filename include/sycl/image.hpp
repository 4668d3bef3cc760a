// SYCL 2020 4.7.3. Images: unsampled_image and sampled_image, their properties (4.7.3.3) and
// destruction rules (4.7.3.4). The accessors are in <sycl/image_accessor.hpp>, the sampler in
// <sycl/sampler.hpp>.
//
// An image's elements live in a buffer_impl of bytes (the runtime's buffer storage), laid out
// in rows of get_pitch()[0] bytes and slices of get_pitch()[1] bytes: images take part in the
// scheduler's dependency tracking, device copies, host accessors and write-back exactly as
// buffers do, through the same runtime entry points (detail/buffer_core.hpp). Accessors read
// and write the elements in software (detail/image_texel.hpp) on every device.
#pragma once

#include <sycl/access.hpp>
#include <sycl/context.hpp>
#include <sycl/detail/buffer_core.hpp>
#include <sycl/detail/image_texel.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/exception.hpp>
#include <sycl/property_list.hpp>
#include <sycl/range.hpp>
#include <sycl/sampler.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

class handler;

// SYCL 2020 4.7.1.1: the default allocator of images allocates in units of std::byte.
using image_allocator = std::allocator<std::byte>;

// SYCL 2020 4.7.6.13: where an image accessor is used (a kernel or a host task).
enum class image_target : unsigned int { device, host_task };

// SYCL 2020 4.7.3.3. Image properties.
namespace property::image {
class use_host_ptr {
public:
  use_host_ptr() = default;
};
class use_mutex {
public:
  use_mutex(std::mutex& mutex_ref) : m_mutex(&mutex_ref) {}
  std::mutex* get_mutex_ptr() const { return m_mutex; }

private:
  std::mutex* m_mutex;
};
class context_bound {
public:
  context_bound(context bound_context) : m_context(std::move(bound_context)) {}
  context get_context() const { return m_context; }

private:
  context m_context;
};
} // namespace property::image

template <>
struct is_property<property::image::use_host_ptr> : std::true_type {};
template <>
struct is_property<property::image::use_mutex> : std::true_type {};
template <>
struct is_property<property::image::context_bound> : std::true_type {};

namespace detail {

// What an image is: shared by its copies (SYCL 2020 4.5.2, common reference semantics).
template <int Dimensions>
struct image_state {
  image_format format;
  range<Dimensions> extent;
  texel_layout layout;       // how the elements are stored (from the format or channel order/type)
  const char* format_name;   // for messages
  std::size_t pitch[2] = {}; // row and slice pitch in bytes (SYCL 2020 4.7.3)
  property_list props;
  image_sampler sampler{}; // sampled images only
  std::shared_ptr<buffer_impl> storage;
  std::shared_ptr<const void> keep; // shared host memory the image was made with
};

// The pitches an image was given (row, then slice), in bytes.
template <int D>
std::array<std::size_t, 2> image_pitch(const range<D>& pitch) {
  std::array<std::size_t, 2> p{};
  for (int d = 0; d < D; ++d) p[d] = pitch[d];
  return p;
}

template <int Dimensions>
std::size_t image_byte_size(const image_state<Dimensions>& s) noexcept {
  if constexpr (Dimensions == 1)
    return s.extent[0] * s.layout.element_size;
  else
    return s.extent[Dimensions - 1] * s.pitch[Dimensions - 2];
}

// Checks the extents and the pitches (SYCL 2020 4.7.3; the layout is OpenCL's, clCreateImage: a
// pitch is a multiple of the element size and holds at least a row, a slice at least its rows):
// errc::invalid naming the object, the format and the remedy.
SYCLONE_EXPORT void check_image_layout(const char* what, const char* format_name,
                                       std::size_t element_size, int dimensions,
                                       const std::size_t* extent, const std::size_t* pitch);

// The image's state with the default pitches where none are given (a row of r[0] elements, a
// slice of r[0] * r[1]).
template <int Dimensions>
std::shared_ptr<image_state<Dimensions>>
make_image_state(const char* what, const texel_layout& layout, const char* format_name,
                 const range<Dimensions>& extent, const std::size_t* pitch,
                 const property_list& props) {
  std::size_t e[3] = {1, 1, 1};
  for (int d = 0; d < Dimensions; ++d) e[d] = extent[d];
  check_image_layout(what, format_name, layout.element_size, Dimensions, e, pitch);
  auto s = std::make_shared<image_state<Dimensions>>(
      image_state<Dimensions>{image_format::r8g8b8a8_unorm, extent, layout, format_name});
  s->props = props;
  const std::size_t element = layout.element_size;
  if constexpr (Dimensions > 1) s->pitch[0] = pitch ? pitch[0] : extent[0] * element;
  if constexpr (Dimensions > 2) s->pitch[1] = pitch ? pitch[1] : extent[0] * extent[1] * element;
  return s;
}
template <int Dimensions>
std::shared_ptr<image_state<Dimensions>>
make_image_state(const char* what, image_format format, const range<Dimensions>& extent,
                 const std::size_t* pitch, const property_list& props) {
  if (static_cast<unsigned>(format) > static_cast<unsigned>(image_format::b8g8r8a8_unorm))
    throw_error(errc::invalid, std::string(what) + ": image_format value " +
                                   std::to_string(static_cast<unsigned>(format)) +
                                   " is not one of SYCL 2020's image formats (4.7.3)");
  auto s =
      make_image_state(what, layout_of(format), image_format_name(format), extent, pitch, props);
  s->format = format;
  return s;
}

// The image's storage: a buffer of byte_size() bytes allocated with the image's allocator (in
// units of std::byte), holding the host data (copied when first needed while the image owns
// it, SYCL 2020 4.7.3.4), or using it as the storage (property::image::use_host_ptr).
template <typename AllocatorT, int Dimensions>
void create_image_storage(image_state<Dimensions>& s, const AllocatorT& alloc, const void* host,
                          void* write_back, bool defer_copy) {
  using traits = std::allocator_traits<AllocatorT>;
  using value_type = typename traits::value_type;
  host_allocator ha;
  ha.state = std::make_shared<AllocatorT>(alloc);
  ha.allocate = [](void* state, std::size_t bytes) -> void* {
    auto& a = *static_cast<AllocatorT*>(state);
    return traits::allocate(a, (bytes + sizeof(value_type) - 1) / sizeof(value_type));
  };
  ha.deallocate = [](void* state, void* p, std::size_t bytes) {
    auto& a = *static_cast<AllocatorT*>(state);
    traits::deallocate(a, static_cast<value_type*>(p),
                       (bytes + sizeof(value_type) - 1) / sizeof(value_type));
  };
  buffer_layout layout;
  layout.dimensions = 1;
  layout.range[0] = image_byte_size(s);
  layout.element_size = 1;
  const bool use_host = host && s.props.template has_property<property::image::use_host_ptr>();
  s.storage =
      make_buffer(layout, host, write_back, use_host, std::move(ha), &s.props, defer_copy && host);
}

template <typename X>
inline constexpr bool is_weak_ptr_v = false;
template <typename X>
inline constexpr bool is_weak_ptr_v<std::weak_ptr<X>> = true;
template <typename X>
inline constexpr bool is_shared_ptr_v = false;
template <typename X>
inline constexpr bool is_shared_ptr_v<std::shared_ptr<X>> = true;

// Bytes [first, first + count) of the image's contents to the same bytes of `dst` (nothing where
// dst is the storage itself: property::image::use_host_ptr).
inline void copy_image_bytes(void* dst, const void* src, std::size_t first, std::size_t count) {
  if (!dst || dst == src) return;
  std::memcpy(static_cast<std::byte*>(dst) + first, static_cast<const std::byte*>(src) + first,
              count);
}

// A write-back destination of set_final_data (SYCL 2020 4.7.3.1: an output iterator, a raw
// pointer being one, or a std::weak_ptr): the image's bytes as the destination's elements.
template <typename Destination>
final_data_writer image_final_data_writer(Destination d) {
  if constexpr (std::is_pointer_v<Destination>) {
    return [d](const void* src, std::size_t first, std::size_t count) {
      copy_image_bytes(d, src, first, count);
    };
  } else if constexpr (is_weak_ptr_v<Destination>) {
    return [d](const void* src, std::size_t first, std::size_t count) {
      if (auto p = d.lock()) copy_image_bytes(p.get(), src, first, count);
    };
  } else if constexpr (is_shared_ptr_v<Destination>) {
    return [d](const void* src, std::size_t first, std::size_t count) {
      if (d) copy_image_bytes(d.get(), src, first, count);
    };
  } else {
    // Another output iterator: the image's bytes as its value_type (std::byte for iterators
    // without one, such as std::back_insert_iterator, unless their container says otherwise).
    using declared = typename std::iterator_traits<Destination>::value_type;
    using element = std::conditional_t<!std::is_void_v<declared>, declared, std::byte>;
    return [d](const void* src, std::size_t first, std::size_t count) {
      if (first != 0) return; // an output iterator starts at the first element
      auto out = d;
      const auto* p = static_cast<const std::byte*>(src);
      for (std::size_t b = 0; b + sizeof(element) <= count; b += sizeof(element)) {
        element e;
        std::memcpy(&e, p + b, sizeof(element));
        *out++ = e;
      }
    };
  }
}

} // namespace detail

template <typename DataT, int Dimensions, access_mode AccessMode,
          image_target AccessTarget = image_target::device>
class unsampled_image_accessor;
template <typename DataT, int Dimensions = 1,
          access_mode AccessMode =
              (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write)>
class host_unsampled_image_accessor;
template <typename DataT, int Dimensions, image_target AccessTarget = image_target::device>
class sampled_image_accessor;
template <typename DataT, int Dimensions>
class host_sampled_image_accessor;

// SYCL 2020 4.7.3.1. Unsampled images.
template <int Dimensions = 1, typename AllocatorT = sycl::image_allocator>
class unsampled_image : public detail::owner_ordered<unsampled_image<Dimensions, AllocatorT>> {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "images have 1 to 3 dimensions");
  template <int D>
  using if_multi = std::enable_if_t<(D > 1), int>;

public:
  // Without host memory: nothing is written back unless set_final_data names a destination.
  unsampled_image(image_format format, const range<Dimensions>& range_ref,
                  const property_list& prop_list = {})
      : unsampled_image(format, range_ref, AllocatorT(), prop_list) {}
  unsampled_image(image_format format, const range<Dimensions>& range_ref, AllocatorT allocator,
                  const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(nullptr, format, range_ref, nullptr, prop_list);
  }
  template <int D = Dimensions, if_multi<D> = 0>
  unsampled_image(image_format format, const range<Dimensions>& range_ref,
                  const range<D - 1>& pitch, const property_list& prop_list = {})
      : unsampled_image(format, range_ref, pitch, AllocatorT(), prop_list) {}
  template <int D = Dimensions, if_multi<D> = 0>
  unsampled_image(image_format format, const range<Dimensions>& range_ref,
                  const range<D - 1>& pitch, AllocatorT allocator,
                  const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(nullptr, format, range_ref, detail::image_pitch(pitch).data(), prop_list);
  }
  // With host memory, which the image owns for its lifetime and writes back to on destruction.
  unsampled_image(void* host_pointer, image_format format, const range<Dimensions>& range_ref,
                  const property_list& prop_list = {})
      : unsampled_image(host_pointer, format, range_ref, AllocatorT(), prop_list) {}
  unsampled_image(void* host_pointer, image_format format, const range<Dimensions>& range_ref,
                  AllocatorT allocator, const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(host_pointer, format, range_ref, nullptr, prop_list);
  }
  template <int D = Dimensions, if_multi<D> = 0>
  unsampled_image(void* host_pointer, image_format format, const range<Dimensions>& range_ref,
                  const range<D - 1>& pitch, const property_list& prop_list = {})
      : unsampled_image(host_pointer, format, range_ref, pitch, AllocatorT(), prop_list) {}
  template <int D = Dimensions, if_multi<D> = 0>
  unsampled_image(void* host_pointer, image_format format, const range<Dimensions>& range_ref,
                  const range<D - 1>& pitch, AllocatorT allocator,
                  const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(host_pointer, format, range_ref, detail::image_pitch(pitch).data(), prop_list);
  }
  // With shared host memory: the image keeps its own copy of the shared_ptr.
  unsampled_image(std::shared_ptr<void>& host_pointer, image_format format,
                  const range<Dimensions>& range_ref, const property_list& prop_list = {})
      : unsampled_image(host_pointer, format, range_ref, AllocatorT(), prop_list) {}
  unsampled_image(std::shared_ptr<void>& host_pointer, image_format format,
                  const range<Dimensions>& range_ref, AllocatorT allocator,
                  const property_list& prop_list = {})
      : m_alloc(allocator) {
    create_shared(host_pointer, format, range_ref, nullptr, prop_list);
  }
  template <int D = Dimensions, if_multi<D> = 0>
  unsampled_image(std::shared_ptr<void>& host_pointer, image_format format,
                  const range<Dimensions>& range_ref, const range<D - 1>& pitch,
                  const property_list& prop_list = {})
      : unsampled_image(host_pointer, format, range_ref, pitch, AllocatorT(), prop_list) {}
  template <int D = Dimensions, if_multi<D> = 0>
  unsampled_image(std::shared_ptr<void>& host_pointer, image_format format,
                  const range<Dimensions>& range_ref, const range<D - 1>& pitch,
                  AllocatorT allocator, const property_list& prop_list = {})
      : m_alloc(allocator) {
    create_shared(host_pointer, format, range_ref, detail::image_pitch(pitch).data(), prop_list);
  }

  unsampled_image(const unsampled_image&) = default;
  unsampled_image(unsampled_image&&) = default;
  unsampled_image& operator=(const unsampled_image&) = default;
  unsampled_image& operator=(unsampled_image&&) = default;
  // SYCL 2020 4.7.3.4: the last copy's destruction waits for the commands using the image and
  // writes its contents back (the storage's destructor).
  ~unsampled_image() = default;

  friend bool operator==(const unsampled_image& a, const unsampled_image& b) {
    return a.m_state == b.m_state;
  }
  friend bool operator!=(const unsampled_image& a, const unsampled_image& b) { return !(a == b); }

  template <typename Property>
  bool has_property() const noexcept {
    return m_state->props.template has_property<Property>();
  }
  template <typename Property>
  Property get_property() const {
    return m_state->props.template get_property<Property>();
  }

  range<Dimensions> get_range() const { return m_state->extent; }
  template <int D = Dimensions, if_multi<D> = 0>
  range<D - 1> get_pitch() const {
    if constexpr (D == 2)
      return range<1>(m_state->pitch[0]);
    else
      return range<2>(m_state->pitch[0], m_state->pitch[1]);
  }
  std::size_t byte_size() const noexcept { return detail::image_byte_size(*m_state); }
  std::size_t size() const noexcept { return m_state->extent.size(); }
  AllocatorT get_allocator() const { return m_alloc; }

  template <typename DataT,
            access_mode Mode = (std::is_const_v<DataT> ? access_mode::read
                                                       : access_mode::read_write),
            image_target Targ = image_target::device>
  unsampled_image_accessor<DataT, Dimensions, Mode, Targ>
  get_access(handler& command_group_handler, const property_list& prop_list = {}) {
    return unsampled_image_accessor<DataT, Dimensions, Mode, Targ>(*this, command_group_handler,
                                                                   prop_list);
  }
  template <typename DataT, access_mode Mode = (std::is_const_v<DataT> ? access_mode::read
                                                                       : access_mode::read_write)>
  host_unsampled_image_accessor<DataT, Dimensions, Mode>
  get_host_access(const property_list& prop_list = {}) {
    return host_unsampled_image_accessor<DataT, Dimensions, Mode>(*this, prop_list);
  }

  // SYCL 2020 4.7.3.1: where the contents go when the image is destroyed, if anything wrote it:
  // an output iterator (a raw pointer is one) or a std::weak_ptr; nullptr: nowhere.
  template <typename Destination = std::nullptr_t>
  void set_final_data(Destination final_data = nullptr) {
    if constexpr (std::is_null_pointer_v<Destination>)
      detail::set_final_data(*m_state->storage, static_cast<void*>(nullptr));
    else if constexpr (std::is_pointer_v<Destination>)
      detail::set_final_data(*m_state->storage, static_cast<void*>(final_data));
    else
      detail::set_final_data(*m_state->storage, detail::image_final_data_writer(final_data));
  }
  void set_write_back(bool flag = true) { detail::set_write_back(*m_state->storage, flag); }

private:
  template <typename, int, access_mode, image_target>
  friend class unsampled_image_accessor;
  template <typename, int, access_mode>
  friend class host_unsampled_image_accessor;
  friend struct std::hash<unsampled_image>;
  friend struct detail::weak_access;

  // sycl_ext_oneapi_weak_object::lock: the image a weak_object refers to.
  unsampled_image(std::shared_ptr<detail::image_state<Dimensions>> state, AllocatorT alloc)
      : m_state(std::move(state)), m_alloc(std::move(alloc)) {}

  void create(void* host, image_format format, const range<Dimensions>& r, const std::size_t* pitch,
              const property_list& props) {
    m_state = detail::make_image_state("sycl::unsampled_image", format, r, pitch, props);
    // The host memory is the image's until it goes (read when first needed), and receives the
    // contents back.
    detail::create_image_storage(*m_state, m_alloc, host, host, true);
  }
  void create_shared(const std::shared_ptr<void>& host, image_format format,
                     const range<Dimensions>& r, const std::size_t* pitch,
                     const property_list& props) {
    m_state = detail::make_image_state("sycl::unsampled_image", format, r, pitch, props);
    detail::create_image_storage(*m_state, m_alloc, host.get(), nullptr, false);
    if (host)
      detail::set_final_data(*m_state->storage,
                             detail::image_final_data_writer(std::shared_ptr<void>(host)));
  }

  std::shared_ptr<detail::image_state<Dimensions>> m_state;
  AllocatorT m_alloc;
};

// SYCL 2020 4.7.3.2. Sampled images: read-only, over host memory, with a sampler. Nothing is
// written back.
template <int Dimensions = 1, typename AllocatorT = sycl::image_allocator>
class sampled_image : public detail::owner_ordered<sampled_image<Dimensions, AllocatorT>> {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "images have 1 to 3 dimensions");
  template <int D>
  using if_multi = std::enable_if_t<(D > 1), int>;

public:
  sampled_image(const void* host_pointer, image_format format, image_sampler sampler,
                const range<Dimensions>& range_ref, const property_list& prop_list = {})
      : sampled_image(host_pointer, format, sampler, range_ref, AllocatorT(), prop_list) {}
  sampled_image(const void* host_pointer, image_format format, image_sampler sampler,
                const range<Dimensions>& range_ref, AllocatorT allocator,
                const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(host_pointer, true, format, sampler, range_ref, nullptr, prop_list);
  }
  template <int D = Dimensions, if_multi<D> = 0>
  sampled_image(const void* host_pointer, image_format format, image_sampler sampler,
                const range<Dimensions>& range_ref, const range<D - 1>& pitch,
                const property_list& prop_list = {})
      : sampled_image(host_pointer, format, sampler, range_ref, pitch, AllocatorT(), prop_list) {}
  template <int D = Dimensions, if_multi<D> = 0>
  sampled_image(const void* host_pointer, image_format format, image_sampler sampler,
                const range<Dimensions>& range_ref, const range<D - 1>& pitch, AllocatorT allocator,
                const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(host_pointer, true, format, sampler, range_ref, detail::image_pitch(pitch).data(),
           prop_list);
  }
  sampled_image(std::shared_ptr<const void>& host_pointer, image_format format,
                image_sampler sampler, const range<Dimensions>& range_ref,
                const property_list& prop_list = {})
      : sampled_image(host_pointer, format, sampler, range_ref, AllocatorT(), prop_list) {}
  sampled_image(std::shared_ptr<const void>& host_pointer, image_format format,
                image_sampler sampler, const range<Dimensions>& range_ref, AllocatorT allocator,
                const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(host_pointer.get(), false, format, sampler, range_ref, nullptr, prop_list);
    m_state->keep = host_pointer;
  }
  template <int D = Dimensions, if_multi<D> = 0>
  sampled_image(std::shared_ptr<const void>& host_pointer, image_format format,
                image_sampler sampler, const range<Dimensions>& range_ref,
                const range<D - 1>& pitch, const property_list& prop_list = {})
      : sampled_image(host_pointer, format, sampler, range_ref, pitch, AllocatorT(), prop_list) {}
  template <int D = Dimensions, if_multi<D> = 0>
  sampled_image(std::shared_ptr<const void>& host_pointer, image_format format,
                image_sampler sampler, const range<Dimensions>& range_ref,
                const range<D - 1>& pitch, AllocatorT allocator,
                const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(host_pointer.get(), false, format, sampler, range_ref, detail::image_pitch(pitch).data(),
           prop_list);
    m_state->keep = host_pointer;
  }

  sampled_image(const sampled_image&) = default;
  sampled_image(sampled_image&&) = default;
  sampled_image& operator=(const sampled_image&) = default;
  sampled_image& operator=(sampled_image&&) = default;
  ~sampled_image() = default;

  friend bool operator==(const sampled_image& a, const sampled_image& b) {
    return a.m_state == b.m_state;
  }
  friend bool operator!=(const sampled_image& a, const sampled_image& b) { return !(a == b); }

  template <typename Property>
  bool has_property() const noexcept {
    return m_state->props.template has_property<Property>();
  }
  template <typename Property>
  Property get_property() const {
    return m_state->props.template get_property<Property>();
  }

  range<Dimensions> get_range() const { return m_state->extent; }
  template <int D = Dimensions, if_multi<D> = 0>
  range<D - 1> get_pitch() const {
    if constexpr (D == 2)
      return range<1>(m_state->pitch[0]);
    else
      return range<2>(m_state->pitch[0], m_state->pitch[1]);
  }
  std::size_t byte_size() const noexcept { return detail::image_byte_size(*m_state); }
  std::size_t size() const noexcept { return m_state->extent.size(); }
  AllocatorT get_allocator() const { return m_alloc; }

  template <typename DataT, image_target Targ = image_target::device>
  sampled_image_accessor<DataT, Dimensions, Targ> get_access(handler& command_group_handler,
                                                             const property_list& prop_list = {}) {
    return sampled_image_accessor<DataT, Dimensions, Targ>(*this, command_group_handler, prop_list);
  }
  template <typename DataT>
  host_sampled_image_accessor<DataT, Dimensions>
  get_host_access(const property_list& prop_list = {}) {
    return host_sampled_image_accessor<DataT, Dimensions>(*this, prop_list);
  }

private:
  template <typename, int, image_target>
  friend class sampled_image_accessor;
  template <typename, int>
  friend class host_sampled_image_accessor;
  friend struct std::hash<sampled_image>;
  friend struct detail::weak_access;

  // sycl_ext_oneapi_weak_object::lock: the image a weak_object refers to.
  sampled_image(std::shared_ptr<detail::image_state<Dimensions>> s, AllocatorT alloc)
      : m_state(std::move(s)), m_alloc(std::move(alloc)) {}

  void create(const void* host, bool owned, image_format format, image_sampler sampler,
              const range<Dimensions>& r, const std::size_t* pitch, const property_list& props) {
    m_state = detail::make_image_state("sycl::sampled_image", format, r, pitch, props);
    m_state->sampler = sampler;
    detail::create_image_storage(*m_state, m_alloc, host, nullptr, owned);
  }

  std::shared_ptr<detail::image_state<Dimensions>> m_state;
  AllocatorT m_alloc;
};

template <int Dimensions, typename AllocatorT>
struct is_property_of<property::image::use_host_ptr, unsampled_image<Dimensions, AllocatorT>>
    : std::true_type {};
template <int Dimensions, typename AllocatorT>
struct is_property_of<property::image::use_mutex, unsampled_image<Dimensions, AllocatorT>>
    : std::true_type {};
template <int Dimensions, typename AllocatorT>
struct is_property_of<property::image::context_bound, unsampled_image<Dimensions, AllocatorT>>
    : std::true_type {};
template <int Dimensions, typename AllocatorT>
struct is_property_of<property::image::use_host_ptr, sampled_image<Dimensions, AllocatorT>>
    : std::true_type {};
template <int Dimensions, typename AllocatorT>
struct is_property_of<property::image::use_mutex, sampled_image<Dimensions, AllocatorT>>
    : std::true_type {};
template <int Dimensions, typename AllocatorT>
struct is_property_of<property::image::context_bound, sampled_image<Dimensions, AllocatorT>>
    : std::true_type {};

SYCLONE_END_NAMESPACE

// SYCL 2020 4.5.2. Common reference semantics: copies hash alike.
template <int Dimensions, typename AllocatorT>
struct std::hash<sycl::unsampled_image<Dimensions, AllocatorT>> {
  std::size_t operator()(const sycl::unsampled_image<Dimensions, AllocatorT>& i) const noexcept {
    return std::hash<const void*>()(i.m_state.get());
  }
};
template <int Dimensions, typename AllocatorT>
struct std::hash<sycl::sampled_image<Dimensions, AllocatorT>> {
  std::size_t operator()(const sycl::sampled_image<Dimensions, AllocatorT>& i) const noexcept {
    return std::hash<const void*>()(i.m_state.get());
  }
};

#include <sycl/image_accessor.hpp>
