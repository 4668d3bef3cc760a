// SYCL 2020 4.7.6.13. Unsampled image accessors and 4.7.6.14. Sampled image accessors.
//
// A kernel's (or host task's) image accessor is plain data, the kernel's argument like a buffer
// accessor: an image_view of the image's storage on the command group's device (its address
// there, taken when the accessor is constructed, as buffer accessors do) and, for sampled
// images, the sampler. Constructing one registers a requirement on the image's storage with the
// command group, so the scheduler orders the command after the image's earlier users and brings
// the contents to the device first. A host accessor holds the storage as a host_accessor holds a
// buffer: it waits for the commands using the image, and later commands wait for it.
#pragma once

#include <sycl/access.hpp>
#include <sycl/accessor.hpp>
#include <sycl/detail/image_texel.hpp>
#include <sycl/detail/object_identity.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/exception.hpp>
#include <sycl/image.hpp>
#include <sycl/property_list.hpp>
#include <sycl/vec.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

namespace detail {

// Registers an image accessor's requirement on the image's storage with the command group and
// returns the storage's address for it: on the handler's device, or on the host for a host task
// (on_host). A kernel's accessor (not on_host) needs a device with aspect::image (SYCL 2020
// 4.7.6.13: errc::feature_not_supported otherwise); an image made with
// property::image::context_bound is only used in that context (errc::invalid). `what` names
// the accessor class in messages.
SYCLONE_EXPORT void* require_image(handler& cgh, buffer_impl& storage, access_mode mode,
                                   bool no_init, bool on_host, const char* what);

// The element types of image accessors (SYCL 2020 4.7.6.13): int4, uint4, float4 or half4, const
// or not.
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
  image_view view;
  image_sampler sampler{}; // sampled image accessors

  friend bool operator==(const image_accessor_state& a, const image_accessor_state& b) {
    return a.image == b.image && a.size == b.size && a.no_init == b.no_init &&
           a.view.data == b.view.data;
  }
};
inline std::size_t hash_image_accessor(const image_accessor_state& s) noexcept {
  return std::hash<const void*>()(s.image) ^ (s.no_init ? 0x9e3779b97f4a7c15ull : 0);
}

// The sampler cannot filter the format: linear filtering of integer channels is undefined in
// OpenCL, whose sampling rules SYCL 2020 4.7.8 uses (feature_not_supported names the format).
inline void check_sampler(const char* what, const texel_layout& layout, const char* format_name,
                          filtering_mode filtering) {
  if (filtering == filtering_mode::linear && texel_type_is_integer(layout.type))
    throw_error(errc::feature_not_supported,
                std::string(what) + ": " + format_name +
                    " has integer channels, which cannot be sampled with filtering_mode::linear "
                    "(SYCL 2020 4.7.8 follows the OpenCL image rules, where that is undefined); "
                    "use filtering_mode::nearest, or a normalized or floating-point format");
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
  // A converted accessor (DataT to const DataT and back) is the same object as its source.
  template <typename Other>
  explicit image_accessor_base(const image_accessor_base<Other>& other)
      : m_state(other.m_state), m_identity(other.m_identity) {}

  // The image's layout; the address comes from the requirement (or the host access).
  template <int Dimensions>
  void describe(const image_state<Dimensions>& image, bool no_init) {
    m_state.image = &image;
    m_state.size = image.extent.size();
    m_state.no_init = no_init;
    for (int d = 0; d < Dimensions; ++d)
      m_state.view.extent[d] = static_cast<std::int32_t>(image.extent[d]);
    m_state.view.pitch[0] = image.pitch[0];
    m_state.view.pitch[1] = image.pitch[1];
    m_state.view.layout = image.layout;
    m_state.sampler = image.sampler;
  }

  image_accessor_state m_state;

private:
  template <typename>
  friend class image_accessor_base;
  friend struct std::hash<Derived>;
  friend struct weak_access;
  object_identity m_identity;
};

// no_init with a read-only access mode (SYCL 2020 4.7.6.13 follows the buffer accessors'
// rule, 4.7.6.9): errc::invalid.
inline bool image_no_init(const property_list& props, bool read_only, const char* what) {
  const bool no_init = props.has_property<property::no_init>();
  if (no_init && read_only)
    throw_error(errc::invalid, std::string(what) +
                                   ": property::no_init discards the image's contents, which an "
                                   "accessor of access_mode::read would read; drop the property "
                                   "or write the image");
  return no_init;
}
} // namespace detail

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
  using element_t = std::remove_const_t<DataT>;

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
    const auto& image = *image_ref.m_state;
    const bool no_init =
        detail::image_no_init(prop_list, AccessMode == sycl::access_mode::read, class_name);
    this->describe(image, no_init);
    this->m_state.view.data = static_cast<std::byte*>(
        detail::require_image(command_group_handler_ref, *image.storage, AccessMode, no_init,
                              AccessTarget == image_target::host_task, class_name));
  }

  // SYCL 2020 4.7.6.13: accessors of access_mode::read convert between DataT and const DataT.
  template <
      typename OtherT, sycl::access_mode M = AccessMode,
      typename = std::enable_if_t<M == sycl::access_mode::read && !std::is_same_v<OtherT, DataT> &&
                                  std::is_same_v<std::remove_const_t<OtherT>, element_t>>>
  unsampled_image_accessor(
      const unsampled_image_accessor<OtherT, Dimensions, AccessMode, AccessTarget>& other)
      : detail::image_accessor_base<unsampled_image_accessor>(other) {}

  template <typename CoordT, sycl::access_mode M = AccessMode,
            typename = std::enable_if_t<M == sycl::access_mode::read &&
                                        std::is_same_v<CoordT, coordinate_t>>>
  SYCLONE_INLINE element_t read(const CoordT& coords) const noexcept {
    return detail::image_read<element_t, Dimensions>(this->m_state.view, coords);
  }
  template <typename CoordT, sycl::access_mode M = AccessMode,
            typename = std::enable_if_t<M == sycl::access_mode::write &&
                                        std::is_same_v<CoordT, coordinate_t>>>
  SYCLONE_INLINE void write(const CoordT& coords, const element_t& color) const {
    detail::image_write<element_t, Dimensions>(this->m_state.view, coords, color);
  }

private:
  template <typename, int, sycl::access_mode, image_target>
  friend class unsampled_image_accessor;
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
  using element_t = std::remove_const_t<DataT>;

public:
  static constexpr int dimensions = Dimensions;
  static constexpr sycl::access_mode access_mode = AccessMode;

  using value_type = std::conditional_t<AccessMode == sycl::access_mode::read, const DataT, DataT>;
  using reference = value_type&;
  using const_reference = const DataT&;

  template <typename AllocatorT>
  host_unsampled_image_accessor(unsampled_image<Dimensions, AllocatorT>& image_ref,
                                const property_list& prop_list = {}) {
    const auto& image = *image_ref.m_state;
    const bool no_init =
        detail::image_no_init(prop_list, AccessMode == sycl::access_mode::read, class_name);
    this->describe(image, no_init);
    void* data = nullptr;
    m_hold = detail::acquire_host_access(*image.storage, AccessMode, no_init, &data);
    this->m_state.view.data = static_cast<std::byte*>(data);
  }

  template <
      typename OtherT, sycl::access_mode M = AccessMode,
      typename = std::enable_if_t<M == sycl::access_mode::read && !std::is_same_v<OtherT, DataT> &&
                                  std::is_same_v<std::remove_const_t<OtherT>, element_t>>>
  host_unsampled_image_accessor(
      const host_unsampled_image_accessor<OtherT, Dimensions, AccessMode>& other)
      : detail::image_accessor_base<host_unsampled_image_accessor>(other), m_hold(other.m_hold) {}

  template <typename CoordT, sycl::access_mode M = AccessMode,
            typename = std::enable_if_t<M != sycl::access_mode::write &&
                                        std::is_same_v<CoordT, coordinate_t>>>
  SYCLONE_INLINE element_t read(const CoordT& coords) const noexcept {
    return detail::image_read<element_t, Dimensions>(this->m_state.view, coords);
  }
  template <typename CoordT, sycl::access_mode M = AccessMode,
            typename = std::enable_if_t<M != sycl::access_mode::read &&
                                        std::is_same_v<CoordT, coordinate_t>>>
  SYCLONE_INLINE void write(const CoordT& coords, const element_t& color) const {
    detail::image_write<element_t, Dimensions>(this->m_state.view, coords, color);
  }

private:
  template <typename, int, sycl::access_mode>
  friend class host_unsampled_image_accessor;
  friend class detail::image_accessor_base<host_unsampled_image_accessor>;
  static constexpr const char* class_name = "sycl::host_unsampled_image_accessor";
  std::shared_ptr<void> m_hold; // the host access; released with the last copy
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
  using element_t = std::remove_const_t<DataT>;

public:
  using value_type = const DataT;
  using reference = const DataT&;
  using const_reference = const DataT&;

  template <typename AllocatorT>
  sampled_image_accessor(sampled_image<Dimensions, AllocatorT>& image_ref,
                         handler& command_group_handler_ref, const property_list& prop_list = {}) {
    (void)prop_list;
    const auto& image = *image_ref.m_state;
    detail::check_sampler(class_name, image.layout, image.format_name, image.sampler.filtering);
    this->describe(image, false);
    this->m_state.view.data = static_cast<std::byte*>(
        detail::require_image(command_group_handler_ref, *image.storage, access_mode::read, false,
                              AccessTarget == image_target::host_task, class_name));
  }

  // SYCL 2020 4.7.6.14: conversions between DataT and const DataT.
  template <typename OtherT,
            typename = std::enable_if_t<!std::is_same_v<OtherT, DataT> &&
                                        std::is_same_v<std::remove_const_t<OtherT>, element_t>>>
  sampled_image_accessor(const sampled_image_accessor<OtherT, Dimensions, AccessTarget>& other)
      : detail::image_accessor_base<sampled_image_accessor>(other) {}

  template <typename CoordT, typename = std::enable_if_t<std::is_same_v<CoordT, coordinate_t>>>
  SYCLONE_INLINE element_t read(const CoordT& coords) const noexcept {
    return detail::image_sample<element_t, Dimensions>(this->m_state.view, this->m_state.sampler,
                                                       coords);
  }

private:
  template <typename, int, image_target>
  friend class sampled_image_accessor;
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
  using element_t = std::remove_const_t<DataT>;

public:
  using value_type = const DataT;
  using reference = const DataT&;
  using const_reference = const DataT&;

  template <typename AllocatorT>
  host_sampled_image_accessor(sampled_image<Dimensions, AllocatorT>& image_ref,
                              const property_list& prop_list = {}) {
    (void)prop_list;
    const auto& image = *image_ref.m_state;
    detail::check_sampler(class_name, image.layout, image.format_name, image.sampler.filtering);
    this->describe(image, false);
    void* data = nullptr;
    m_hold = detail::acquire_host_access(*image.storage, access_mode::read, false, &data);
    this->m_state.view.data = static_cast<std::byte*>(data);
  }

  template <typename OtherT,
            typename = std::enable_if_t<!std::is_same_v<OtherT, DataT> &&
                                        std::is_same_v<std::remove_const_t<OtherT>, element_t>>>
  host_sampled_image_accessor(const host_sampled_image_accessor<OtherT, Dimensions>& other)
      : detail::image_accessor_base<host_sampled_image_accessor>(other), m_hold(other.m_hold) {}

  template <typename CoordT, typename = std::enable_if_t<std::is_same_v<CoordT, coordinate_t>>>
  SYCLONE_INLINE element_t read(const CoordT& coords) const noexcept {
    return detail::image_sample<element_t, Dimensions>(this->m_state.view, this->m_state.sampler,
                                                       coords);
  }

private:
  template <typename, int>
  friend class host_sampled_image_accessor;
  friend class detail::image_accessor_base<host_sampled_image_accessor>;
  static constexpr const char* class_name = "sycl::host_sampled_image_accessor";
  std::shared_ptr<void> m_hold;
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
