// SYCL 2020 4.7.3. Images (unsampled_image, sampled_image and their properties), 4.7.6.13 and
// 4.7.6.14. Image accessors, 4.7.8. Image samplers.
//
// syclone has no images yet: no device reports aspect::image and info::device::image_support is
// false. The types, properties and traits are the specification's, so that programs naming them
// compile; every constructor of an image or an image accessor throws
// errc::feature_not_supported, so nothing pretends to hold image data.
#pragma once

#include <sycl/access.hpp>
#include <sycl/accessor.hpp>
#include <sycl/context.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/detail/object_identity.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/exception.hpp>
#include <sycl/property_list.hpp>
#include <sycl/range.hpp>
#include <sycl/vec.hpp>

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

class handler;

// SYCL 2020 4.7.3: the layout of an image's elements (channel order, width and type).
enum class image_format : unsigned int {
  r8g8b8a8_unorm,
  r16g16b16a16_unorm,
  r8g8b8a8_sint,
  r16g16b16a16_sint,
  r32b32g32a32_sint,
  r8g8b8a8_uint,
  r16g16b16a16_uint,
  r32b32g32a32_uint,
  r16b16g16a16_sfloat,
  r32g32b32a32_sfloat,
  b8g8r8a8_unorm
};

// SYCL 2020 4.7.1.1: the default allocator of images allocates in units of std::byte.
using image_allocator = std::allocator<std::byte>;

// SYCL 2020 4.7.6.13: where an image accessor is used (a kernel or a host task).
enum class image_target : unsigned int { device, host_task };

// SYCL 2020 4.7.8. Image samplers.
enum class addressing_mode : unsigned int { mirrored_repeat, repeat, clamp_to_edge, clamp, none };
enum class filtering_mode : unsigned int { nearest, linear };
enum class coordinate_normalization_mode : unsigned int { normalized, unnormalized };
struct image_sampler {
  addressing_mode addressing;
  coordinate_normalization_mode coordinate;
  filtering_mode filtering;
};

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
// Why every image constructor refuses: the message names the object, the cause and the remedy.
[[noreturn]] inline void images_not_supported(const char* what) {
  throw_error(errc::feature_not_supported,
              std::string(what) +
                  ": images (SYCL 2020 4.7.3) are not supported by syclone; no syclone device "
                  "has aspect::image. Keep the data in a sycl::buffer and use accessors");
}

// Bytes of one element of each image_format (four channels of 8, 16 or 32 bits).
constexpr std::size_t image_element_size(image_format f) {
  switch (f) {
  case image_format::r16g16b16a16_unorm:
  case image_format::r16g16b16a16_sint:
  case image_format::r16g16b16a16_uint:
  case image_format::r16b16g16a16_sfloat:
    return 8;
  case image_format::r32b32g32a32_sint:
  case image_format::r32b32g32a32_uint:
  case image_format::r32g32b32a32_sfloat:
    return 16;
  default:
    return 4;
  }
}

// What an image is: shared by its copies (SYCL 2020 4.5.2, common reference semantics).
template <int Dimensions>
struct image_state {
  image_format format;
  range<Dimensions> extent;
  std::size_t pitch[2] = {}; // row and slice pitch in bytes (SYCL 2020 4.7.3)
  property_list props;
  image_sampler sampler{}; // sampled images only
};

// The pitches an image was given (row, then slice), in bytes.
template <int D>
std::array<std::size_t, 2> image_pitch(const range<D>& pitch) {
  std::array<std::size_t, 2> p{};
  for (int d = 0; d < D; ++d) p[d] = pitch[d];
  return p;
}

template <int Dimensions>
std::shared_ptr<image_state<Dimensions>>
make_image_state(image_format format, const range<Dimensions>& extent, const std::size_t* pitch,
                 const property_list& props) {
  auto s = std::make_shared<image_state<Dimensions>>(image_state<Dimensions>{format, extent});
  s->props = props;
  std::size_t element = image_element_size(format);
  // Without pitches a row holds r[0] elements and a slice r[0] * r[1] (SYCL 2020 4.7.3).
  if constexpr (Dimensions > 1) s->pitch[0] = pitch ? pitch[0] : extent[0] * element;
  if constexpr (Dimensions > 2) s->pitch[1] = pitch ? pitch[1] : extent[0] * extent[1] * element;
  return s;
}

template <int Dimensions>
std::size_t image_byte_size(const image_state<Dimensions>& s) noexcept {
  if constexpr (Dimensions == 1)
    return s.extent[0] * image_element_size(s.format);
  else
    return s.extent[Dimensions - 1] * s.pitch[Dimensions - 2];
}

// The element types of image accessors (SYCL 2020 4.7.6.13): int4, uint4, float4 or half4.
template <typename DataT>
inline constexpr bool is_image_element_v =
    std::is_same_v<std::remove_const_t<DataT>, vec<std::int32_t, 4>> ||
    std::is_same_v<std::remove_const_t<DataT>, vec<std::uint32_t, 4>> ||
    std::is_same_v<std::remove_const_t<DataT>, vec<float, 4>> ||
    std::is_same_v<std::remove_const_t<DataT>, vec<half, 4>>;

// The coordinates of image accessors: int, int2, int4 (unsampled) or float, float2, float4
// (sampled) for 1, 2 and 3 dimensions.
template <typename T, int Dimensions>
using image_coordinate_t = std::conditional_t<Dimensions == 1, T, vec<T, Dimensions == 2 ? 2 : 4>>;

// State every image accessor has: plain data, the same on host and device.
struct image_accessor_state {
  const void* image = nullptr; // identity of the image's state; never dereferenced on a device
  std::size_t size = 0;        // elements of the image
  bool no_init = false;

  friend bool operator==(const image_accessor_state& a, const image_accessor_state& b) {
    return a.image == b.image && a.size == b.size && a.no_init == b.no_init;
  }
};
inline std::size_t hash_image_accessor(const image_accessor_state& s) noexcept {
  return std::hash<const void*>()(s.image) ^ (s.no_init ? 0x9e3779b97f4a7c15ull : 0);
}

// Reading or writing an image element: never reached, as no image accessor can be constructed.
template <typename DataT>
[[noreturn]] DataT image_access_not_supported(const char* what) {
  if constexpr (dev::is_host)
    images_not_supported(what);
  else
    __builtin_trap();
}

// What the four image accessors share (SYCL 2020 4.7.6.13-14): common reference semantics over
// their state, the no_init property query and size(). Derived::class_name names the class in
// messages.
template <typename Derived>
class image_accessor_base : public owner_ordered<Derived> {
public:
  friend bool operator==(const Derived& a, const Derived& b) { return a.m_state == b.m_state; }
  friend bool operator!=(const Derived& a, const Derived& b) { return !(a == b); }

  template <typename Property>
  bool has_property() const noexcept {
    return accessor_has_property<Property>(m_state.no_init);
  }
  template <typename Property>
  Property get_property() const {
    return accessor_get_property<Property>(m_state.no_init, Derived::class_name);
  }

  std::size_t size() const noexcept { return m_state.size; }

protected:
  // Each constructed image accessor is an object of its own (sycl_ext_oneapi_weak_object).
  image_accessor_base() : m_identity(object_identity::make()) {}

private:
  friend struct std::hash<Derived>;
  friend struct weak_access;
  image_accessor_state m_state;
  object_identity m_identity;
};
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
  unsampled_image(image_format format, const range<Dimensions>& range_ref,
                  const property_list& prop_list = {})
      : unsampled_image(format, range_ref, AllocatorT(), prop_list) {}
  unsampled_image(image_format format, const range<Dimensions>& range_ref, AllocatorT allocator,
                  const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(format, range_ref, nullptr, prop_list);
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
    create(format, range_ref, detail::image_pitch(pitch).data(), prop_list);
  }
  unsampled_image(void* host_pointer, image_format format, const range<Dimensions>& range_ref,
                  const property_list& prop_list = {})
      : unsampled_image(host_pointer, format, range_ref, AllocatorT(), prop_list) {}
  unsampled_image(void* host_pointer, image_format format, const range<Dimensions>& range_ref,
                  AllocatorT allocator, const property_list& prop_list = {})
      : m_alloc(allocator) {
    (void)host_pointer;
    create(format, range_ref, nullptr, prop_list);
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
    (void)host_pointer;
    create(format, range_ref, detail::image_pitch(pitch).data(), prop_list);
  }
  unsampled_image(std::shared_ptr<void>& host_pointer, image_format format,
                  const range<Dimensions>& range_ref, const property_list& prop_list = {})
      : unsampled_image(host_pointer, format, range_ref, AllocatorT(), prop_list) {}
  unsampled_image(std::shared_ptr<void>& host_pointer, image_format format,
                  const range<Dimensions>& range_ref, AllocatorT allocator,
                  const property_list& prop_list = {})
      : m_alloc(allocator) {
    (void)host_pointer;
    create(format, range_ref, nullptr, prop_list);
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
    (void)host_pointer;
    create(format, range_ref, detail::image_pitch(pitch).data(), prop_list);
  }

  unsampled_image(const unsampled_image&) = default;
  unsampled_image(unsampled_image&&) = default;
  unsampled_image& operator=(const unsampled_image&) = default;
  unsampled_image& operator=(unsampled_image&&) = default;
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

  // Writing back needs image memory on a device, which no syclone device has.
  template <typename Destination = std::nullptr_t>
  void set_final_data(Destination final_data = nullptr) {
    (void)final_data;
    detail::images_not_supported("sycl::unsampled_image::set_final_data");
  }
  void set_write_back(bool flag = true) {
    (void)flag;
    detail::images_not_supported("sycl::unsampled_image::set_write_back");
  }

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

  void create(image_format format, const range<Dimensions>& r, const std::size_t* pitch,
              const property_list& props) {
    m_state = detail::make_image_state(format, r, pitch, props);
    detail::images_not_supported("sycl::unsampled_image");
  }

  std::shared_ptr<detail::image_state<Dimensions>> m_state;
  AllocatorT m_alloc;
};

// SYCL 2020 4.7.3.2. Sampled images: read-only, over host memory, with a sampler.
template <int Dimensions = 1, typename AllocatorT = sycl::image_allocator>
class sampled_image : public detail::owner_ordered<sampled_image<Dimensions, AllocatorT>> {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "images have 1 to 3 dimensions");
  template <int D>
  using if_multi = std::enable_if_t<(D > 1), int>;

public:
  sampled_image(const void* host_pointer, image_format format, image_sampler sampler,
                const range<Dimensions>& range_ref, const property_list& prop_list = {}) {
    (void)host_pointer;
    create(format, sampler, range_ref, nullptr, prop_list);
  }
  template <int D = Dimensions, if_multi<D> = 0>
  sampled_image(const void* host_pointer, image_format format, image_sampler sampler,
                const range<Dimensions>& range_ref, const range<D - 1>& pitch,
                const property_list& prop_list = {}) {
    (void)host_pointer;
    create(format, sampler, range_ref, detail::image_pitch(pitch).data(), prop_list);
  }
  sampled_image(std::shared_ptr<const void>& host_pointer, image_format format,
                image_sampler sampler, const range<Dimensions>& range_ref,
                const property_list& prop_list = {}) {
    (void)host_pointer;
    create(format, sampler, range_ref, nullptr, prop_list);
  }
  template <int D = Dimensions, if_multi<D> = 0>
  sampled_image(std::shared_ptr<const void>& host_pointer, image_format format,
                image_sampler sampler, const range<Dimensions>& range_ref,
                const range<D - 1>& pitch, const property_list& prop_list = {}) {
    (void)host_pointer;
    create(format, sampler, range_ref, detail::image_pitch(pitch).data(), prop_list);
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
  std::size_t byte_size() const { return detail::image_byte_size(*m_state); }
  std::size_t size() const { return m_state->extent.size(); }

  // The spec writes these as get_access(Ts...) forwarding to the accessor's constructor; the
  // accessor's element type cannot be deduced from the image, so it is named first.
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
  explicit sampled_image(std::shared_ptr<detail::image_state<Dimensions>> state)
      : m_state(std::move(state)) {}

  void create(image_format format, image_sampler sampler, const range<Dimensions>& r,
              const std::size_t* pitch, const property_list& props) {
    m_state = detail::make_image_state(format, r, pitch, props);
    m_state->sampler = sampler;
    detail::images_not_supported("sycl::sampled_image");
  }

  std::shared_ptr<detail::image_state<Dimensions>> m_state;
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

// SYCL 2020 4.7.6.13. Unsampled image accessors: read or write, in a kernel or a host task.
template <typename DataT, int Dimensions, access_mode AccessMode, image_target AccessTarget>
class unsampled_image_accessor
    : public detail::image_accessor_base<
          unsampled_image_accessor<DataT, Dimensions, AccessMode, AccessTarget>> {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "image accessors have 1 to 3 dimensions");
  static_assert(detail::is_image_element_v<DataT>,
                "SYCL 2020 4.7.6.13: the element type of an image accessor is int4, uint4, "
                "float4 or half4");
  static_assert(AccessMode == sycl::access_mode::read || AccessMode == sycl::access_mode::write,
                "SYCL 2020 4.7.6.13: an unsampled_image_accessor reads (access_mode::read) or "
                "writes (access_mode::write)");
  using coordinate_t = detail::image_coordinate_t<int, Dimensions>;

public:
  static constexpr int dimensions = Dimensions;
  static constexpr sycl::access_mode access_mode = AccessMode;
  static constexpr image_target access_target = AccessTarget;

  using value_type = std::conditional_t<AccessMode == sycl::access_mode::read, const DataT, DataT>;
  using reference = value_type&;
  using const_reference = const DataT&;

  template <typename AllocatorT>
  unsampled_image_accessor(unsampled_image<Dimensions, AllocatorT>& image_ref,
                           handler& command_group_handler_ref,
                           const property_list& prop_list = {}) {
    (void)image_ref;
    (void)command_group_handler_ref;
    (void)prop_list;
    detail::images_not_supported("sycl::unsampled_image_accessor");
  }

  template <typename CoordT, sycl::access_mode M = AccessMode,
            typename = std::enable_if_t<M == sycl::access_mode::read &&
                                        std::is_same_v<CoordT, coordinate_t>>>
  DataT read(const CoordT& coords) const noexcept {
    (void)coords;
    return detail::image_access_not_supported<DataT>("sycl::unsampled_image_accessor::read");
  }
  template <typename CoordT, sycl::access_mode M = AccessMode,
            typename = std::enable_if_t<M == sycl::access_mode::write &&
                                        std::is_same_v<CoordT, coordinate_t>>>
  void write(const CoordT& coords, const DataT& color) const {
    (void)coords;
    (void)color;
    detail::image_access_not_supported<void>("sycl::unsampled_image_accessor::write");
  }

private:
  friend class detail::image_accessor_base<unsampled_image_accessor>;
  static constexpr const char* class_name = "sycl::unsampled_image_accessor";
};

// SYCL 2020 4.7.6.13. Host unsampled image accessors: host code outside host tasks.
template <typename DataT, int Dimensions, access_mode AccessMode>
class host_unsampled_image_accessor
    : public detail::image_accessor_base<
          host_unsampled_image_accessor<DataT, Dimensions, AccessMode>> {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "image accessors have 1 to 3 dimensions");
  static_assert(detail::is_image_element_v<DataT>,
                "SYCL 2020 4.7.6.13: the element type of an image accessor is int4, uint4, "
                "float4 or half4");
  static_assert(AccessMode == sycl::access_mode::read || AccessMode == sycl::access_mode::write ||
                    AccessMode == sycl::access_mode::read_write,
                "SYCL 2020 4.7.6.13: a host_unsampled_image_accessor reads, writes or both");
  using coordinate_t = detail::image_coordinate_t<int, Dimensions>;

public:
  static constexpr int dimensions = Dimensions;
  static constexpr sycl::access_mode access_mode = AccessMode;

  using value_type = std::conditional_t<AccessMode == sycl::access_mode::read, const DataT, DataT>;
  using reference = value_type&;
  using const_reference = const DataT&;

  template <typename AllocatorT>
  host_unsampled_image_accessor(unsampled_image<Dimensions, AllocatorT>& image_ref,
                                const property_list& prop_list = {}) {
    (void)image_ref;
    (void)prop_list;
    detail::images_not_supported("sycl::host_unsampled_image_accessor");
  }

  template <typename CoordT, sycl::access_mode M = AccessMode,
            typename = std::enable_if_t<M != sycl::access_mode::write &&
                                        std::is_same_v<CoordT, coordinate_t>>>
  DataT read(const CoordT& coords) const noexcept {
    (void)coords;
    return detail::image_access_not_supported<DataT>("sycl::host_unsampled_image_accessor::read");
  }
  template <typename CoordT, sycl::access_mode M = AccessMode,
            typename = std::enable_if_t<M != sycl::access_mode::read &&
                                        std::is_same_v<CoordT, coordinate_t>>>
  void write(const CoordT& coords, const DataT& color) const {
    (void)coords;
    (void)color;
    detail::image_access_not_supported<void>("sycl::host_unsampled_image_accessor::write");
  }

private:
  friend class detail::image_accessor_base<host_unsampled_image_accessor>;
  static constexpr const char* class_name = "sycl::host_unsampled_image_accessor";
};

// SYCL 2020 4.7.6.14. Sampled image accessors: read-only, in a kernel or a host task.
template <typename DataT, int Dimensions, image_target AccessTarget>
class sampled_image_accessor
    : public detail::image_accessor_base<sampled_image_accessor<DataT, Dimensions, AccessTarget>> {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "image accessors have 1 to 3 dimensions");
  static_assert(detail::is_image_element_v<DataT>,
                "SYCL 2020 4.7.6.14: the element type of an image accessor is int4, uint4, "
                "float4 or half4");
  using coordinate_t = detail::image_coordinate_t<float, Dimensions>;

public:
  using value_type = const DataT;
  using reference = const DataT&;
  using const_reference = const DataT&;

  template <typename AllocatorT>
  sampled_image_accessor(sampled_image<Dimensions, AllocatorT>& image_ref,
                         handler& command_group_handler_ref, const property_list& prop_list = {}) {
    (void)image_ref;
    (void)command_group_handler_ref;
    (void)prop_list;
    detail::images_not_supported("sycl::sampled_image_accessor");
  }

  template <typename CoordT, typename = std::enable_if_t<std::is_same_v<CoordT, coordinate_t>>>
  DataT read(const CoordT& coords) const noexcept {
    (void)coords;
    return detail::image_access_not_supported<DataT>("sycl::sampled_image_accessor::read");
  }

private:
  friend class detail::image_accessor_base<sampled_image_accessor>;
  static constexpr const char* class_name = "sycl::sampled_image_accessor";
};

// SYCL 2020 4.7.6.14. Host sampled image accessors.
template <typename DataT, int Dimensions>
class host_sampled_image_accessor
    : public detail::image_accessor_base<host_sampled_image_accessor<DataT, Dimensions>> {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "image accessors have 1 to 3 dimensions");
  static_assert(detail::is_image_element_v<DataT>,
                "SYCL 2020 4.7.6.14: the element type of an image accessor is int4, uint4, "
                "float4 or half4");
  using coordinate_t = detail::image_coordinate_t<float, Dimensions>;

public:
  using value_type = const DataT;
  using reference = const DataT&;
  using const_reference = const DataT&;

  template <typename AllocatorT>
  host_sampled_image_accessor(sampled_image<Dimensions, AllocatorT>& image_ref,
                              const property_list& prop_list = {}) {
    (void)image_ref;
    (void)prop_list;
    detail::images_not_supported("sycl::host_sampled_image_accessor");
  }

  template <typename CoordT, typename = std::enable_if_t<std::is_same_v<CoordT, coordinate_t>>>
  DataT read(const CoordT& coords) const noexcept {
    (void)coords;
    return detail::image_access_not_supported<DataT>("sycl::host_sampled_image_accessor::read");
  }

private:
  friend class detail::image_accessor_base<host_sampled_image_accessor>;
  static constexpr const char* class_name = "sycl::host_sampled_image_accessor";
};

// SYCL 2020 4.7.6.13: no_init is a property of the unsampled image accessors.
template <typename DataT, int Dimensions, access_mode AccessMode, image_target AccessTarget>
struct is_property_of<property::no_init,
                      unsampled_image_accessor<DataT, Dimensions, AccessMode, AccessTarget>>
    : std::true_type {};
template <typename DataT, int Dimensions, access_mode AccessMode>
struct is_property_of<property::no_init,
                      host_unsampled_image_accessor<DataT, Dimensions, AccessMode>>
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
template <typename DataT, int Dimensions, sycl::access_mode AccessMode,
          sycl::image_target AccessTarget>
struct std::hash<sycl::unsampled_image_accessor<DataT, Dimensions, AccessMode, AccessTarget>> {
  std::size_t
  operator()(const sycl::unsampled_image_accessor<DataT, Dimensions, AccessMode, AccessTarget>& a)
      const noexcept {
    return sycl::detail::hash_image_accessor(a.m_state);
  }
};
template <typename DataT, int Dimensions, sycl::access_mode AccessMode>
struct std::hash<sycl::host_unsampled_image_accessor<DataT, Dimensions, AccessMode>> {
  std::size_t operator()(
      const sycl::host_unsampled_image_accessor<DataT, Dimensions, AccessMode>& a) const noexcept {
    return sycl::detail::hash_image_accessor(a.m_state);
  }
};
template <typename DataT, int Dimensions, sycl::image_target AccessTarget>
struct std::hash<sycl::sampled_image_accessor<DataT, Dimensions, AccessTarget>> {
  std::size_t operator()(
      const sycl::sampled_image_accessor<DataT, Dimensions, AccessTarget>& a) const noexcept {
    return sycl::detail::hash_image_accessor(a.m_state);
  }
};
template <typename DataT, int Dimensions>
struct std::hash<sycl::host_sampled_image_accessor<DataT, Dimensions>> {
  std::size_t
  operator()(const sycl::host_sampled_image_accessor<DataT, Dimensions>& a) const noexcept {
    return sycl::detail::hash_image_accessor(a.m_state);
  }
};
