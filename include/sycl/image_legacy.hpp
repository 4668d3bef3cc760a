// SYCL 1.2.1's images, which SYCL 2020 removed (its "what changed" appendix: image, sampler and
// the target::image / host_image / image_array accessors) and DPC++ still offers, deprecated:
// SYCL 1.2.1 4.7.3 image (a channel order and a channel type instead of an image_format),
// 4.7.6.12 image accessors (one accessor class reads and writes, sampling with a sampler given
// to each read) and 4.7.8 sampler. They share the SYCL 2020 images' storage, dependency tracking
// and element code (image.hpp, image_accessor.hpp, detail/image_texel.hpp).
#pragma once

#include <sycl/accessor.hpp>
#include <sycl/image.hpp>
#include <sycl/image_accessor.hpp>

#include <functional>
#include <memory>
#include <string>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

// SYCL 1.2.1 4.7.3: the channels of an element and their type (OpenCL's cl_channel_order and
// cl_channel_type). DPC++'s ext_oneapi_srgba is named so that programs naming it compile; an
// image of it is refused (errc::feature_not_supported).
enum class image_channel_order : unsigned int {
  a,
  r,
  rx,
  rg,
  rgx,
  ra,
  rgb,
  rgbx,
  rgba,
  argb,
  bgra,
  intensity,
  luminance,
  abgr,
  ext_oneapi_srgba
};
enum class image_channel_type : unsigned int {
  snorm_int8,
  snorm_int16,
  unorm_int8,
  unorm_int16,
  unorm_short_565,
  unorm_short_555,
  unorm_int_101010,
  signed_int8,
  signed_int16,
  signed_int32,
  unsigned_int8,
  unsigned_int16,
  unsigned_int32,
  fp16,
  fp32
};

namespace detail {
// The storage layout of an order and a type (OpenCL 1.2 5.3.1.1; x channels are not stored, as
// DPC++ counts them); `name` receives "image_channel_order::o, image_channel_type::t" for
// messages. errc::invalid for values outside the enums and for packed types with an order other
// than rgb / rgbx, errc::feature_not_supported for ext_oneapi_srgba.
SYCLONE_EXPORT texel_layout legacy_image_layout(image_channel_order order, image_channel_type type,
                                                const char** name);
} // namespace detail

// SYCL 1.2.1 4.7.8: a sampler is the configuration of sampled reads, given to each read.
class sampler {
public:
  sampler(coordinate_normalization_mode normalization_mode, addressing_mode addressing,
          filtering_mode filtering, const property_list& prop_list = {})
      : m_sampler{addressing, normalization_mode, filtering} {
    (void)prop_list; // SYCL 1.2.1 defines no sampler properties
  }

  addressing_mode get_addressing_mode() const { return m_sampler.addressing; }
  filtering_mode get_filtering_mode() const { return m_sampler.filtering; }
  coordinate_normalization_mode get_coordinate_normalization_mode() const {
    return m_sampler.coordinate;
  }

  template <typename Property>
  bool has_property() const noexcept {
    return false;
  }
  template <typename Property>
  Property get_property() const {
    detail::throw_error(errc::invalid, "sycl::sampler::get_property: a sampler has no properties");
  }

  friend bool operator==(const sampler& a, const sampler& b) {
    return a.m_sampler.addressing == b.m_sampler.addressing &&
           a.m_sampler.coordinate == b.m_sampler.coordinate &&
           a.m_sampler.filtering == b.m_sampler.filtering;
  }
  friend bool operator!=(const sampler& a, const sampler& b) { return !(a == b); }

  // Not part of the SYCL API: the SYCL 2020 form the reads use.
  image_sampler native() const { return m_sampler; }

private:
  image_sampler m_sampler;
};

template <int Dimensions = 1, typename AllocatorT = sycl::image_allocator>
class image;

namespace detail {

// A read with a sampler takes int or float coordinates (SYCL 1.2.1 4.7.6.12); the sampling works
// on float ones.
template <int Dimensions, typename CoordT>
SYCLONE_INLINE auto float_coordinates(const CoordT& c) {
  if constexpr (Dimensions == 1)
    return static_cast<float>(c);
  else if constexpr (Dimensions == 2)
    return vec<float, 2>(static_cast<float>(c[0]), static_cast<float>(c[1]));
  else
    return vec<float, 4>(static_cast<float>(c[0]), static_cast<float>(c[1]),
                         static_cast<float>(c[2]), 0.0f);
}
template <typename CoordT, int Dimensions>
inline constexpr bool is_legacy_coordinate_v =
    std::is_same_v<CoordT, image_coordinate_t<int, Dimensions>> ||
    std::is_same_v<CoordT, image_coordinate_t<float, Dimensions>>;

// Integer channels are not filtered (undefined in OpenCL); where the sampler, known only at the
// read, asks for linear filtering of them, the read is nearest.
inline image_sampler legacy_sampler(const sampler& s, const texel_layout& l) {
  image_sampler r = s.native();
  if (texel_type_is_integer(l.type)) r.filtering = filtering_mode::nearest;
  return r;
}

// The extents of a view as a range.
template <int Dimensions>
range<Dimensions> legacy_range(const image_view& v) {
  if constexpr (Dimensions == 1)
    return range<1>(v.extent[0]);
  else if constexpr (Dimensions == 2)
    return range<2>(v.extent[0], v.extent[1]);
  else
    return range<3>(v.extent[0], v.extent[1], v.extent[2]);
}

// SYCL 1.2.1 4.7.6.12: what accessor<dataT, D, mode, target::image / host_image> have in
// common: reads (with or without a sampler), writes, get_count, get_size and get_range.
template <typename Derived, typename DataT, int Dimensions, access_mode Mode, bool Host>
class legacy_image_accessor_base : public image_accessor_base<Derived> {
  static constexpr bool can_read =
      Mode == access_mode::read || (Host && Mode == access_mode::read_write);
  static constexpr bool can_write =
      Mode == access_mode::write || Mode == access_mode::discard_write ||
      (Host && (Mode == access_mode::read_write || Mode == access_mode::discard_read_write));
  using element_t = std::remove_const_t<DataT>;
  template <typename CoordT>
  static constexpr bool int_coordinate =
      std::is_same_v<CoordT, image_coordinate_t<int, Dimensions>>;

public:
  using value_type = DataT;
  using reference = DataT&;
  using const_reference = const DataT&;

  std::size_t get_count() const { return this->m_state.size; }
  std::size_t get_size() const {
    return this->m_state.size * this->m_state.view.layout.element_size;
  }
  range<Dimensions> get_range() const { return legacy_range<Dimensions>(this->m_state.view); }

  template <typename CoordT, bool R = can_read,
            typename = std::enable_if_t<R && int_coordinate<CoordT>>>
  SYCLONE_INLINE element_t read(const CoordT& coords) const {
    return image_read<element_t, Dimensions>(this->m_state.view, coords);
  }
  template <typename CoordT, bool R = can_read,
            typename = std::enable_if_t<R && is_legacy_coordinate_v<CoordT, Dimensions>>>
  SYCLONE_INLINE element_t read(const CoordT& coords, const sampler& smpl) const {
    return image_sample<element_t, Dimensions>(this->m_state.view,
                                               legacy_sampler(smpl, this->m_state.view.layout),
                                               float_coordinates<Dimensions>(coords));
  }
  template <typename CoordT, bool W = can_write,
            typename = std::enable_if_t<W && int_coordinate<CoordT>>>
  SYCLONE_INLINE void write(const CoordT& coords, const element_t& color) const {
    image_write<element_t, Dimensions>(this->m_state.view, coords, color);
  }

protected:
  template <int ImageDimensions>
  void describe_legacy(const image_state<ImageDimensions>& image) {
    auto& s = this->m_state;
    s.image = &image;
    s.size = image.extent.size();
    for (int d = 0; d < ImageDimensions; ++d)
      s.view.extent[d] = static_cast<std::int32_t>(image.extent[d]);
    s.view.pitch[0] = image.pitch[0];
    s.view.pitch[1] = image.pitch[1];
    s.view.layout = image.layout;
  }
};

// One layer of an image array accessor (SYCL 1.2.1 __image_array_slice__): the interface of
// accessor<dataT, D, mode, target::image> over that layer.
template <typename DataT, int Dimensions, access_mode Mode>
class image_array_slice {
  static constexpr bool can_read = Mode == access_mode::read;
  static constexpr bool can_write =
      Mode == access_mode::write || Mode == access_mode::discard_write;
  using element_t = std::remove_const_t<DataT>;

public:
  SYCLONE_INLINE explicit image_array_slice(const image_view& layer) : m_view(layer) {}

  template <
      typename CoordT, bool R = can_read,
      typename = std::enable_if_t<R && std::is_same_v<CoordT, image_coordinate_t<int, Dimensions>>>>
  SYCLONE_INLINE element_t read(const CoordT& coords) const {
    return image_read<element_t, Dimensions>(m_view, coords);
  }
  template <typename CoordT, bool R = can_read,
            typename = std::enable_if_t<R && is_legacy_coordinate_v<CoordT, Dimensions>>>
  SYCLONE_INLINE element_t read(const CoordT& coords, const sampler& smpl) const {
    return image_sample<element_t, Dimensions>(m_view, legacy_sampler(smpl, m_view.layout),
                                               float_coordinates<Dimensions>(coords));
  }
  template <
      typename CoordT, bool W = can_write,
      typename = std::enable_if_t<W && std::is_same_v<CoordT, image_coordinate_t<int, Dimensions>>>>
  SYCLONE_INLINE void write(const CoordT& coords, const element_t& color) const {
    image_write<element_t, Dimensions>(m_view, coords, color);
  }

private:
  image_view m_view;
};

} // namespace detail

// SYCL 1.2.1 4.7.3. image: an image of a channel order and type.
template <int Dimensions, typename AllocatorT>
class image {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "images have 1 to 3 dimensions");
  template <int D>
  using if_multi = std::enable_if_t<(D > 1), int>;

public:
  image(image_channel_order order, image_channel_type type, const range<Dimensions>& range_ref,
        const property_list& prop_list = {})
      : image(order, type, range_ref, AllocatorT(), prop_list) {}
  image(image_channel_order order, image_channel_type type, const range<Dimensions>& range_ref,
        AllocatorT allocator, const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(nullptr, nullptr, order, type, range_ref, nullptr, prop_list);
  }
  template <int D = Dimensions, if_multi<D> = 0>
  image(image_channel_order order, image_channel_type type, const range<Dimensions>& range_ref,
        const range<D - 1>& pitch, const property_list& prop_list = {})
      : image(order, type, range_ref, pitch, AllocatorT(), prop_list) {}
  template <int D = Dimensions, if_multi<D> = 0>
  image(image_channel_order order, image_channel_type type, const range<Dimensions>& range_ref,
        const range<D - 1>& pitch, AllocatorT allocator, const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(nullptr, nullptr, order, type, range_ref, detail::image_pitch(pitch).data(), prop_list);
  }
  // Host memory the image owns for its lifetime and writes back to.
  image(void* host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, const property_list& prop_list = {})
      : image(host_pointer, order, type, range_ref, AllocatorT(), prop_list) {}
  image(void* host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, AllocatorT allocator,
        const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(host_pointer, host_pointer, order, type, range_ref, nullptr, prop_list);
  }
  template <int D = Dimensions, if_multi<D> = 0>
  image(void* host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, const range<D - 1>& pitch,
        const property_list& prop_list = {})
      : image(host_pointer, order, type, range_ref, pitch, AllocatorT(), prop_list) {}
  template <int D = Dimensions, if_multi<D> = 0>
  image(void* host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, const range<D - 1>& pitch, AllocatorT allocator,
        const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(host_pointer, host_pointer, order, type, range_ref, detail::image_pitch(pitch).data(),
           prop_list);
  }
  // Read-only host memory: never written back.
  image(const void* host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, const property_list& prop_list = {})
      : image(host_pointer, order, type, range_ref, AllocatorT(), prop_list) {}
  image(const void* host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, AllocatorT allocator,
        const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(host_pointer, nullptr, order, type, range_ref, nullptr, prop_list);
  }
  template <int D = Dimensions, if_multi<D> = 0>
  image(const void* host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, const range<D - 1>& pitch,
        const property_list& prop_list = {})
      : image(host_pointer, order, type, range_ref, pitch, AllocatorT(), prop_list) {}
  template <int D = Dimensions, if_multi<D> = 0>
  image(const void* host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, const range<D - 1>& pitch, AllocatorT allocator,
        const property_list& prop_list = {})
      : m_alloc(allocator) {
    create(host_pointer, nullptr, order, type, range_ref, detail::image_pitch(pitch).data(),
           prop_list);
  }
  // Shared host memory: the image keeps a copy of the shared_ptr and writes back to it.
  image(std::shared_ptr<void>& host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, const property_list& prop_list = {})
      : image(host_pointer, order, type, range_ref, AllocatorT(), prop_list) {}
  image(std::shared_ptr<void>& host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, AllocatorT allocator,
        const property_list& prop_list = {})
      : m_alloc(allocator) {
    create_shared(host_pointer, order, type, range_ref, nullptr, prop_list);
  }
  template <int D = Dimensions, if_multi<D> = 0>
  image(std::shared_ptr<void>& host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, const range<D - 1>& pitch,
        const property_list& prop_list = {})
      : image(host_pointer, order, type, range_ref, pitch, AllocatorT(), prop_list) {}
  template <int D = Dimensions, if_multi<D> = 0>
  image(std::shared_ptr<void>& host_pointer, image_channel_order order, image_channel_type type,
        const range<Dimensions>& range_ref, const range<D - 1>& pitch, AllocatorT allocator,
        const property_list& prop_list = {})
      : m_alloc(allocator) {
    create_shared(host_pointer, order, type, range_ref, detail::image_pitch(pitch).data(),
                  prop_list);
  }

  image(const image&) = default;
  image(image&&) = default;
  image& operator=(const image&) = default;
  image& operator=(image&&) = default;
  ~image() = default; // the storage waits for the image's commands and writes back

  friend bool operator==(const image& a, const image& b) { return a.m_state == b.m_state; }
  friend bool operator!=(const image& a, const image& b) { return !(a == b); }

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
  std::size_t get_size() const { return byte_size(); }
  std::size_t get_count() const { return size(); }
  std::size_t byte_size() const noexcept { return detail::image_byte_size(*m_state); }
  std::size_t size() const noexcept { return m_state->extent.size(); }
  AllocatorT get_allocator() const { return m_alloc; }

  template <typename DataT, access_mode Mode>
  accessor<DataT, Dimensions, Mode, target::image> get_access(handler& command_group_handler) {
    return accessor<DataT, Dimensions, Mode, target::image>(*this, command_group_handler);
  }
  template <typename DataT, access_mode Mode>
  accessor<DataT, Dimensions, Mode, target::host_image> get_access() {
    return accessor<DataT, Dimensions, Mode, target::host_image>(*this);
  }

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
  template <typename, int, access_mode, target, access::placeholder>
  friend class accessor;
  friend struct std::hash<image>;

  void create(const void* host, void* write_back, image_channel_order order,
              image_channel_type type, const range<Dimensions>& r, const std::size_t* pitch,
              const property_list& props) {
    const char* name = nullptr;
    detail::texel_layout layout = detail::legacy_image_layout(order, type, &name);
    m_state = detail::make_image_state("sycl::image", layout, name, r, pitch, props);
    detail::create_image_storage(*m_state, m_alloc, host, write_back, true);
  }
  void create_shared(const std::shared_ptr<void>& host, image_channel_order order,
                     image_channel_type type, const range<Dimensions>& r, const std::size_t* pitch,
                     const property_list& props) {
    const char* name = nullptr;
    detail::texel_layout layout = detail::legacy_image_layout(order, type, &name);
    m_state = detail::make_image_state("sycl::image", layout, name, r, pitch, props);
    detail::create_image_storage(*m_state, m_alloc, host.get(), nullptr, false);
    if (host)
      detail::set_final_data(*m_state->storage,
                             detail::image_final_data_writer(std::shared_ptr<void>(host)));
  }

  std::shared_ptr<detail::image_state<Dimensions>> m_state;
  AllocatorT m_alloc;
};

template <int Dimensions, typename AllocatorT>
struct is_property_of<property::image::use_host_ptr, image<Dimensions, AllocatorT>>
    : std::true_type {};
template <int Dimensions, typename AllocatorT>
struct is_property_of<property::image::use_mutex, image<Dimensions, AllocatorT>> : std::true_type {
};
template <int Dimensions, typename AllocatorT>
struct is_property_of<property::image::context_bound, image<Dimensions, AllocatorT>>
    : std::true_type {};

#define SYCLONE_LEGACY_IMAGE_ELEMENT_CHECK                                                         \
  static_assert(Dimensions >= 1 && Dimensions <= 3, "image accessors have 1 to 3 dimensions");     \
  static_assert(detail::is_image_element_v<DataT>,                                                 \
                "SYCL 1.2.1 4.7.6.12: the element type of an image accessor is cl_int4, "          \
                "cl_uint4, cl_float4 or cl_half4")

// SYCL 1.2.1 4.7.6.12: accessor<dataT, D, mode, target::image>, in kernels; modes read, write
// and discard_write.
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder IsPlaceholder>
class accessor<DataT, Dimensions, AccessMode, target::image, IsPlaceholder>
    : public detail::legacy_image_accessor_base<
          accessor<DataT, Dimensions, AccessMode, target::image, IsPlaceholder>, DataT, Dimensions,
          AccessMode, false> {
  SYCLONE_LEGACY_IMAGE_ELEMENT_CHECK;
  static_assert(AccessMode == access_mode::read || AccessMode == access_mode::write ||
                    AccessMode == access_mode::discard_write,
                "SYCL 1.2.1 4.7.6.12: an image accessor reads, writes or discard-writes");

public:
  template <typename AllocatorT>
  accessor(image<Dimensions, AllocatorT>& image_ref, handler& command_group_handler_ref,
           const property_list& prop_list = {}) {
    (void)prop_list;
    const auto& state = *image_ref.m_state;
    this->describe_legacy(state);
    this->m_state.view.data = static_cast<std::byte*>(
        detail::require_image(command_group_handler_ref, *state.storage, AccessMode,
                              detail::implies_no_init(AccessMode), false, class_name));
  }

private:
  friend class detail::image_accessor_base<accessor>;
  static constexpr const char* class_name = "sycl::accessor<..., target::image>";
};

// SYCL 1.2.1 4.7.6.12: accessor<dataT, D, mode, target::host_image>, on the host; also
// read_write and discard_read_write.
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder IsPlaceholder>
class accessor<DataT, Dimensions, AccessMode, target::host_image, IsPlaceholder>
    : public detail::legacy_image_accessor_base<
          accessor<DataT, Dimensions, AccessMode, target::host_image, IsPlaceholder>, DataT,
          Dimensions, AccessMode, true> {
  SYCLONE_LEGACY_IMAGE_ELEMENT_CHECK;
  static_assert(AccessMode != access_mode::atomic,
                "SYCL 1.2.1 4.7.6.12: image accessors are not atomic");

public:
  template <typename AllocatorT>
  accessor(image<Dimensions, AllocatorT>& image_ref, const property_list& prop_list = {}) {
    (void)prop_list;
    const auto& state = *image_ref.m_state;
    this->describe_legacy(state);
    void* data = nullptr;
    m_hold = detail::acquire_host_access(*state.storage, AccessMode,
                                         detail::implies_no_init(AccessMode), &data);
    this->m_state.view.data = static_cast<std::byte*>(data);
  }

private:
  friend class detail::image_accessor_base<accessor>;
  static constexpr const char* class_name = "sycl::accessor<..., target::host_image>";
  std::shared_ptr<void> m_hold; // the host access; released with the last copy
};

// SYCL 1.2.1 4.7.6.12: accessor<dataT, D, mode, target::image_array> over an image of D + 1
// dimensions, its last dimension the layers; acc[layer] reads and writes one layer (OpenCL
// clamps the layer index to the layers there are).
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder IsPlaceholder>
class accessor<DataT, Dimensions, AccessMode, target::image_array, IsPlaceholder>
    : public detail::image_accessor_base<
          accessor<DataT, Dimensions, AccessMode, target::image_array, IsPlaceholder>> {
  static_assert(Dimensions >= 1 && Dimensions <= 2,
                "SYCL 1.2.1 4.7.6.12: an image array accessor has 1 or 2 dimensions (its image "
                "one more)");
  static_assert(detail::is_image_element_v<DataT>,
                "SYCL 1.2.1 4.7.6.12: the element type of an image accessor is cl_int4, cl_uint4, "
                "cl_float4 or cl_half4");
  static_assert(AccessMode == access_mode::read || AccessMode == access_mode::write ||
                    AccessMode == access_mode::discard_write,
                "SYCL 1.2.1 4.7.6.12: an image array accessor reads, writes or discard-writes");

public:
  using value_type = DataT;
  using reference = DataT&;
  using const_reference = const DataT&;

  template <typename AllocatorT>
  accessor(image<Dimensions + 1, AllocatorT>& image_ref, handler& command_group_handler_ref,
           const property_list& prop_list = {}) {
    (void)prop_list;
    const auto& state = *image_ref.m_state;
    auto& s = this->m_state;
    s.image = &state;
    s.size = state.extent.size();
    for (int d = 0; d <= Dimensions; ++d)
      s.view.extent[d] = static_cast<std::int32_t>(state.extent[d]);
    s.view.pitch[0] = state.pitch[0];
    s.view.pitch[1] = state.pitch[1];
    s.view.layout = state.layout;
    s.view.data = static_cast<std::byte*>(
        detail::require_image(command_group_handler_ref, *state.storage, AccessMode,
                              detail::implies_no_init(AccessMode), false, class_name));
  }

  std::size_t get_count() const { return this->m_state.size; }
  std::size_t get_size() const {
    return this->m_state.size * this->m_state.view.layout.element_size;
  }
  range<Dimensions + 1> get_range() const {
    return detail::legacy_range<Dimensions + 1>(this->m_state.view);
  }

  SYCLONE_INLINE detail::image_array_slice<DataT, Dimensions, AccessMode>
  operator[](std::size_t index) const {
    const detail::image_view& v = this->m_state.view;
    const std::int32_t layers = v.extent[Dimensions];
    const std::int32_t layer = index > static_cast<std::size_t>(layers - 1)
                                   ? layers - 1
                                   : static_cast<std::int32_t>(index);
    detail::image_view slice = v;
    slice.data = v.data + static_cast<std::size_t>(layer) * v.pitch[Dimensions - 1];
    slice.extent[Dimensions] = 1;
    return detail::image_array_slice<DataT, Dimensions, AccessMode>(slice);
  }

private:
  friend class detail::image_accessor_base<accessor>;
  static constexpr const char* class_name = "sycl::accessor<..., target::image_array>";
};

#undef SYCLONE_LEGACY_IMAGE_ELEMENT_CHECK

SYCLONE_END_NAMESPACE

template <>
struct std::hash<sycl::sampler> {
  std::size_t operator()(const sycl::sampler& s) const noexcept {
    auto n = s.native();
    return (static_cast<std::size_t>(n.addressing) << 8) ^
           (static_cast<std::size_t>(n.coordinate) << 4) ^ static_cast<std::size_t>(n.filtering);
  }
};
template <int Dimensions, typename AllocatorT>
struct std::hash<sycl::image<Dimensions, AllocatorT>> {
  std::size_t operator()(const sycl::image<Dimensions, AllocatorT>& i) const noexcept {
    return std::hash<const void*>()(i.m_state.get());
  }
};
