// SYCL 2020 4.7.6. Accessors: accessor (device and host_task targets), host_accessor and
// local_accessor.
#pragma once

#include <sycl/access.hpp>
#include <sycl/atomic.hpp>
#include <sycl/detail/buffer_core.hpp>
#include <sycl/detail/device/target.hpp>
#include <sycl/detail/object_identity.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/id.hpp>
#include <sycl/multi_ptr.hpp>
#include <sycl/property_list.hpp>
#include <sycl/range.hpp>

#include <cstdint>
#include <iterator>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

template <typename T, int Dimensions, typename AllocatorT>
class buffer;
class handler;

// SYCL 2020 4.7.6.4. Access tags.
template <access_mode Mode, target Target = target::device>
struct mode_target_tag_t {};
template <access_mode Mode>
struct mode_tag_t {};
inline constexpr mode_tag_t<access_mode::read> read_only{};
inline constexpr mode_tag_t<access_mode::read_write> read_write{};
inline constexpr mode_tag_t<access_mode::write> write_only{};
inline constexpr mode_target_tag_t<access_mode::read, target::host_task> read_only_host_task{};
inline constexpr mode_target_tag_t<access_mode::read_write, target::host_task>
    read_write_host_task{};
inline constexpr mode_target_tag_t<access_mode::write, target::host_task> write_only_host_task{};

namespace detail {
template <typename T>
struct is_access_tag : std::false_type {};
template <access_mode M>
struct is_access_tag<mode_tag_t<M>> : std::true_type {};
template <access_mode M, target T>
struct is_access_tag<mode_target_tag_t<M, T>> : std::true_type {};

constexpr bool is_read_only(access_mode m) {
  return m == access_mode::read;
}
// The access mode an accessor gets when none is named: read for const element types.
template <typename T>
inline constexpr access_mode default_access_mode =
    std::is_const_v<T> ? access_mode::read : access_mode::read_write;
constexpr access_mode canonical_mode(access_mode m) {
  return m == access_mode::discard_write        ? access_mode::write
         : m == access_mode::discard_read_write ? access_mode::read_write
         : m == access_mode::atomic             ? access_mode::read_write
                                                : m;
}
template <bool Atomic, typename T, typename Reference>
struct accessor_subscript {
  using type = Reference;
};
template <typename T, typename Reference>
struct accessor_subscript<true, T, Reference> {
  using type = atomic<T, access::address_space::global_space>;
};
template <bool Atomic, typename T, typename Reference>
struct local_atomic_subscript {
  using type = Reference;
};
template <typename T, typename Reference>
struct local_atomic_subscript<true, T, Reference> {
  using type = atomic<T, access::address_space::local_space>;
};
constexpr bool implies_no_init(access_mode m) {
  return m == access_mode::discard_write || m == access_mode::discard_read_write;
}

// What the last subscript of acc[i][j]...: the element (plain_element), or for
// access_mode::atomic (deprecated) a sycl::atomic over it (atomic_element).
struct plain_element {
  template <typename Ref, typename T>
  static Ref make(T* p) {
    return static_cast<Ref>(*p);
  }
};
template <access::address_space Space>
struct atomic_element {
  template <typename Ref, typename T>
  static atomic<std::remove_const_t<T>, Space> make(T* p) {
    using elem = std::remove_const_t<T>;
    return atomic<elem, Space>(
        multi_ptr<elem, Space, access::decorated::legacy>(const_cast<elem*>(p)));
  }
};

// acc[i][j]: a partially indexed accessor.
template <typename Ref, int Dimensions, int Remaining, typename Element = plain_element>
class subscript {
public:
  subscript(typename std::remove_reference_t<Ref>* data, const range<Dimensions>& mem,
            const id<Dimensions>& idx)
      : m_data(data), m_mem(mem), m_id(idx) {}
  decltype(auto) operator[](std::size_t i) const {
    id<Dimensions> next = m_id;
    next[Dimensions - Remaining] = i;
    if constexpr (Remaining == 1)
      return Element::template make<Ref>(m_data + linearize(next, m_mem));
    else
      return subscript<Ref, Dimensions, Remaining - 1, Element>(m_data, m_mem, next);
  }

private:
  typename std::remove_reference_t<Ref>* m_data;
  range<Dimensions> m_mem;
  id<Dimensions> m_id;
};

// Iterates the accessed region of a buffer in row-major order.
template <typename T, int Dimensions>
class region_iterator {
public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_const_t<T>;
  using difference_type = std::ptrdiff_t;
  using pointer = T*;
  using reference = T&;

  region_iterator() = default;
  region_iterator(T* data, const range<Dimensions>& mem, const id<Dimensions>& offset,
                  const range<Dimensions>& region, std::size_t linear)
      : m_data(data), m_mem(mem), m_offset(offset), m_region(region), m_linear(linear) {}

  reference operator*() const { return m_data[address(m_linear)]; }
  pointer operator->() const { return &**this; }
  reference operator[](difference_type n) const { return m_data[address(m_linear + n)]; }
  region_iterator& operator++() { return ++m_linear, *this; }
  region_iterator operator++(int) {
    auto t = *this;
    return ++m_linear, t;
  }
  region_iterator& operator--() { return --m_linear, *this; }
  region_iterator operator--(int) {
    auto t = *this;
    return --m_linear, t;
  }
  region_iterator& operator+=(difference_type n) { return m_linear += n, *this; }
  region_iterator& operator-=(difference_type n) { return m_linear -= n, *this; }
  friend region_iterator operator+(region_iterator a, difference_type n) { return a += n; }
  friend region_iterator operator+(difference_type n, region_iterator a) { return a += n; }
  friend region_iterator operator-(region_iterator a, difference_type n) { return a -= n; }
  friend difference_type operator-(const region_iterator& a, const region_iterator& b) {
    return static_cast<difference_type>(a.m_linear) - static_cast<difference_type>(b.m_linear);
  }
  friend bool operator==(const region_iterator& a, const region_iterator& b) {
    return a.m_linear == b.m_linear && a.m_data == b.m_data;
  }
  friend bool operator!=(const region_iterator& a, const region_iterator& b) { return !(a == b); }
  friend bool operator<(const region_iterator& a, const region_iterator& b) {
    return a.m_linear < b.m_linear;
  }
  friend bool operator>(const region_iterator& a, const region_iterator& b) { return b < a; }
  friend bool operator<=(const region_iterator& a, const region_iterator& b) { return !(b < a); }
  friend bool operator>=(const region_iterator& a, const region_iterator& b) { return !(a < b); }

private:
  std::size_t address(std::size_t linear) const {
    return linearize(id<Dimensions>(delinearize(linear, m_region) + m_offset), m_mem);
  }
  T* m_data = nullptr;
  range<Dimensions> m_mem;
  id<Dimensions> m_offset;
  range<Dimensions> m_region;
  std::size_t m_linear = 0;
};

// State every buffer accessor has; its layout is the same on host and device.
template <typename DataT, int Dimensions>
struct accessor_state {
  DataT* m_data = nullptr; // element {0,...} of the buffer on the device it is used on
  range<Dimensions> m_mem_range;
  id<Dimensions> m_offset;
  range<Dimensions> m_access_range;
  buffer_impl* m_buffer = nullptr; // host-side identity; never dereferenced on a device

  SYCLONE_INLINE std::size_t index(const id<Dimensions>& i) const {
    return linearize(id<Dimensions>(i + m_offset), m_mem_range);
  }
};

struct accessor_access;
// What std::hash of an accessor reads (SYCL 2020 4.5.2: equal accessors hash alike, and
// different ones should not): the memory, the first accessed element and the element count.
struct accessor_identity;
inline std::size_t hash_accessor(const void* data, std::size_t first, std::size_t count) noexcept {
  std::size_t h = reinterpret_cast<std::uintptr_t>(data);
  h ^= first + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= count + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

// Accessors of 0 dimensions (SYCL 2020 4.7.6.9, 4.7.6.10, 4.7.6.11) reach one element; inside
// they are accessors of one dimension and one element.
template <int Dimensions>
inline constexpr int adjusted_dims = Dimensions == 0 ? 1 : Dimensions;

// The targets of the conversion and assignment operators that only 0-dimensional accessors have;
// other dimensions get a type nobody can use, which keeps the operators non-templates (so that
// `double d = acc;` converts through the element type).
template <int Which>
struct unusable_accessor_operand {};

// The accessed element type a converting accessor constructor accepts (SYCL 2020 4.7.6.9.1):
// T to const T, and between T and const T when both are read-only.
template <typename To, access_mode ToMode, typename From, access_mode FromMode>
inline constexpr bool accessor_convertible_v =
    std::is_same_v<std::remove_const_t<To>, std::remove_const_t<From>> &&
    !(std::is_same_v<To, From> && ToMode == FromMode) &&
    (ToMode == FromMode ? (ToMode == access_mode::read || std::is_const_v<To>)
                        : (ToMode == access_mode::read && FromMode == access_mode::read_write));

// The index of operator[](id): id<D>, and for 0 dimensions (no operator[]) a type nobody has.
template <int Dimensions>
using accessor_index_t = std::conditional_t<(Dimensions > 0), id<adjusted_dims<Dimensions>>,
                                            unusable_accessor_operand<3>>;

// has_property / get_property of accessors: the only accessor property of SYCL 2020 is no_init.
template <typename Property>
bool accessor_has_property(bool no_init) {
  return std::is_same_v<Property, property::no_init> && no_init;
}
template <typename Property>
Property accessor_get_property(bool no_init, const char* what) {
  if constexpr (std::is_same_v<Property, property::no_init>)
    if (no_init) return Property{};
  throw_error(errc::invalid, std::string(what) +
                                 "::get_property: the accessor was not constructed with this "
                                 "property; check with has_property<>() first");
  if constexpr (std::is_default_constructible_v<Property>) return Property{};
}
} // namespace detail

template <typename DataT, int Dimensions = 1,
          access_mode AccessMode =
              (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write),
          target AccessTarget = target::device,
          access::placeholder IsPlaceholder = access::placeholder::false_t>
class accessor : public detail::owner_ordered<
                     accessor<DataT, Dimensions, AccessMode, AccessTarget, IsPlaceholder>> {
  static_assert(Dimensions >= 0 && Dimensions <= 3, "accessors have 0 to 3 dimensions");
  static_assert(AccessTarget == target::device || AccessTarget == target::host_task ||
                    AccessTarget == target::constant_buffer,
                "accessor target must be target::device, target::constant_buffer or "
                "target::host_task (use host_accessor on the host)");
  static_assert(AccessMode != access_mode::atomic || AccessTarget == target::device,
                "access_mode::atomic (deprecated in SYCL 2020) needs target::device");
  static constexpr int dims = detail::adjusted_dims<Dimensions>;
  static constexpr access_mode mode = detail::canonical_mode(AccessMode);
  static constexpr bool read_only =
      detail::is_read_only(mode) || AccessTarget == target::constant_buffer;
  using elem_t = std::remove_const_t<DataT>;
  template <typename Tag>
  using if_tag = std::enable_if_t<detail::is_access_tag<Tag>::value, int>;
  template <int D>
  using if_dims = std::enable_if_t<(D > 0), int>;

public:
  using value_type = std::conditional_t<read_only, const elem_t, elem_t>;
  using reference = value_type&;
  using const_reference = const elem_t&;
  using iterator = detail::region_iterator<value_type, dims>;
  using const_iterator = detail::region_iterator<const elem_t, dims>;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  using difference_type = std::ptrdiff_t;
  using size_type = std::size_t;

  // SYCL 2020 4.5.2: every accessor, also a default-constructed one, is an object of its own
  // (sycl_ext_oneapi_weak_object refers to it); its copies share its identity.
  accessor() : m_identity(detail::object_identity::make()) {}

  // 0 dimensions: the first element of a one-dimensional buffer (none of an empty one).
  template <typename T, typename A, int D = Dimensions, std::enable_if_t<D == 0, int> = 0>
  accessor(buffer<T, 1, A>& buf, const property_list& props = {}) {
    init(buf, nullptr, range<1>(buf.size() ? 1 : 0), id<1>{}, props);
  }
  template <typename T, typename A, int D = Dimensions, std::enable_if_t<D == 0, int> = 0>
  accessor(buffer<T, 1, A>& buf, handler& cgh, const property_list& props = {}) {
    init(buf, &cgh, range<1>(buf.size() ? 1 : 0), id<1>{}, props);
  }

  // Placeholder constructors: bound to a command group by handler::require.
  template <typename T, typename A, int D = Dimensions, if_dims<D> = 0>
  accessor(buffer<T, dims, A>& buf, const property_list& props = {}) {
    init(buf, nullptr, buf.get_range(), id<dims>{}, props);
  }
  template <typename T, typename A, typename Tag, int D = Dimensions, if_dims<D> = 0,
            if_tag<Tag> = 0>
  accessor(buffer<T, dims, A>& buf, Tag, const property_list& props = {}) : accessor(buf, props) {}
  template <typename T, typename A, int D = Dimensions, if_dims<D> = 0>
  accessor(buffer<T, dims, A>& buf, range<dims> access_range, const property_list& props = {}) {
    init(buf, nullptr, access_range, id<dims>{}, props);
  }
  template <typename T, typename A, typename Tag, int D = Dimensions, if_dims<D> = 0,
            if_tag<Tag> = 0>
  accessor(buffer<T, dims, A>& buf, range<dims> access_range, Tag, const property_list& props = {})
      : accessor(buf, access_range, props) {}
  template <typename T, typename A, int D = Dimensions, if_dims<D> = 0>
  accessor(buffer<T, dims, A>& buf, range<dims> access_range, id<dims> access_offset,
           const property_list& props = {}) {
    init(buf, nullptr, access_range, access_offset, props);
  }
  template <typename T, typename A, typename Tag, int D = Dimensions, if_dims<D> = 0,
            if_tag<Tag> = 0>
  accessor(buffer<T, dims, A>& buf, range<dims> access_range, id<dims> access_offset, Tag,
           const property_list& props = {})
      : accessor(buf, access_range, access_offset, props) {}

  // Command group constructors.
  template <typename T, typename A, int D = Dimensions, if_dims<D> = 0>
  accessor(buffer<T, dims, A>& buf, handler& cgh, const property_list& props = {}) {
    init(buf, &cgh, buf.get_range(), id<dims>{}, props);
  }
  template <typename T, typename A, typename Tag, int D = Dimensions, if_dims<D> = 0,
            if_tag<Tag> = 0>
  accessor(buffer<T, dims, A>& buf, handler& cgh, Tag, const property_list& props = {})
      : accessor(buf, cgh, props) {}
  template <typename T, typename A, int D = Dimensions, if_dims<D> = 0>
  accessor(buffer<T, dims, A>& buf, handler& cgh, range<dims> access_range,
           const property_list& props = {}) {
    init(buf, &cgh, access_range, id<dims>{}, props);
  }
  template <typename T, typename A, typename Tag, int D = Dimensions, if_dims<D> = 0,
            if_tag<Tag> = 0>
  accessor(buffer<T, dims, A>& buf, handler& cgh, range<dims> access_range, Tag,
           const property_list& props = {})
      : accessor(buf, cgh, access_range, props) {}
  template <typename T, typename A, int D = Dimensions, if_dims<D> = 0>
  accessor(buffer<T, dims, A>& buf, handler& cgh, range<dims> access_range, id<dims> access_offset,
           const property_list& props = {}) {
    init(buf, &cgh, access_range, access_offset, props);
  }
  template <typename T, typename A, typename Tag, int D = Dimensions, if_dims<D> = 0,
            if_tag<Tag> = 0>
  accessor(buffer<T, dims, A>& buf, handler& cgh, range<dims> access_range, id<dims> access_offset,
           Tag, const property_list& props = {})
      : accessor(buf, cgh, access_range, access_offset, props) {}

  // Copying an accessor into a kernel or host task binds it to that command group.
  accessor(const accessor& other)
      : m_state(other.m_state), m_identity(other.m_identity), m_no_init(other.m_no_init),
        m_placeholder(other.m_placeholder) {
    if constexpr (detail::dev::is_host) rebind();
  }
  accessor& operator=(const accessor& other) {
    m_state = other.m_state;
    m_identity = other.m_identity;
    m_no_init = other.m_no_init;
    m_placeholder = other.m_placeholder;
    if constexpr (detail::dev::is_host) rebind();
    return *this;
  }

  // SYCL 2020 4.7.6.9.1: a read-write accessor converts to a read-only one, and read-only
  // accessors of T and const T into each other.
  template <typename OtherT, access_mode OtherMode, access::placeholder OtherPlaceholder,
            typename = std::enable_if_t<
                detail::accessor_convertible_v<DataT, AccessMode, OtherT, OtherMode>>>
  // The converted accessor is the same object as `other` (sycl_ext_oneapi_weak_object).
  accessor(const accessor<OtherT, Dimensions, OtherMode, AccessTarget, OtherPlaceholder>& other)
      : m_identity(other.m_identity), m_no_init(other.m_no_init),
        m_placeholder(other.m_placeholder) {
    const auto& s = other.state();
    m_state.m_data = s.m_data;
    m_state.m_mem_range = s.m_mem_range;
    m_state.m_offset = s.m_offset;
    m_state.m_access_range = s.m_access_range;
    m_state.m_buffer = s.m_buffer;
    if constexpr (detail::dev::is_host) rebind();
  }

  void swap(accessor& other) {
    std::swap(m_state, other.m_state);
    m_identity.swap(other.m_identity);
    std::swap(m_no_init, other.m_no_init);
    std::swap(m_placeholder, other.m_placeholder);
  }
  bool is_placeholder() const { return m_placeholder; }
  size_type byte_size() const noexcept { return size() * sizeof(DataT); }
  size_type size() const noexcept { return m_state.m_access_range.size(); }
  size_type max_size() const noexcept { return size(); }
  [[deprecated]] size_t get_size() const { return byte_size(); }
  [[deprecated]] size_t get_count() const { return size(); }
  bool empty() const noexcept { return size() == 0; }
  template <int D = Dimensions, if_dims<D> = 0>
  range<dims> get_range() const {
    return m_state.m_access_range;
  }
  template <int D = Dimensions, if_dims<D> = 0>
  id<dims> get_offset() const {
    return m_state.m_offset;
  }

  template <typename Property>
  bool has_property() const noexcept {
    return detail::accessor_has_property<Property>(m_no_init);
  }
  template <typename Property>
  Property get_property() const {
    return detail::accessor_get_property<Property>(m_no_init, "accessor");
  }

  // access_mode::atomic (SYCL 2020 4.7.6.9, deprecated): elements are sycl::atomic objects (named
  // only by accessors of that mode, so that no other accessor meets the deprecated class).
  using subscript_result = typename detail::accessor_subscript<AccessMode == access_mode::atomic,
                                                               elem_t, reference>::type;

  // 0 dimensions: the element itself.
  operator std::conditional_t<Dimensions == 0, subscript_result,
                              detail::unusable_accessor_operand<0>>() const {
    if constexpr (Dimensions == 0)
      return element(m_state.m_data + offset_linear());
    else
      return {};
  }
  const accessor&
  operator=(const std::conditional_t<Dimensions == 0 && !read_only, value_type,
                                     detail::unusable_accessor_operand<1>>& other) const {
    if constexpr (Dimensions == 0 && !read_only) m_state.m_data[offset_linear()] = other;
    return *this;
  }
  const accessor&
  operator=(std::conditional_t<Dimensions == 0 && !read_only, value_type,
                               detail::unusable_accessor_operand<2>>&& other) const {
    if constexpr (Dimensions == 0 && !read_only) m_state.m_data[offset_linear()] = std::move(other);
    return *this;
  }

  // A non-template, as the size_t form of one dimension is a template: acc[item] (item<1>
  // converts to both id<1> and size_t) picks this one. 0 dimensions: an unusable parameter.
  subscript_result operator[](detail::accessor_index_t<Dimensions> index) const {
    return element(m_state.m_data + m_state.index(index));
  }
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>>
  subscript_result operator[](std::size_t index) const {
    return element(m_state.m_data + index + m_state.m_offset[0]);
  }
  // acc[i][j]...: the last subscript gives the element (for access_mode::atomic, a sycl::atomic).
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  auto operator[](std::size_t index) const {
    using element_t =
        std::conditional_t<AccessMode == access_mode::atomic,
                           detail::atomic_element<access::address_space::global_space>,
                           detail::plain_element>;
    id<Dimensions> i;
    i[0] = index;
    return detail::subscript<reference, Dimensions, Dimensions - 1, element_t>(
        m_state.m_data + offset_linear(), m_state.m_mem_range, i);
  }

  template <access::decorated IsDecorated>
  using accessor_ptr = multi_ptr<value_type, access::address_space::global_space, IsDecorated>;

  // SYCL 2020 4.7.6.9.1 (deprecated): the start of the underlying buffer, also for a ranged
  // accessor (SYCL 1.2.1 gave the first accessed element): a global_ptr, which converts to
  // value_type* as SYCL 1.2.1's raw pointer did; a raw pointer for host tasks.
  auto get_pointer() const noexcept {
    value_type* first = m_state.m_data;
    if constexpr (AccessTarget == target::device)
      return global_ptr<value_type>(first);
    else if constexpr (AccessTarget == target::constant_buffer)
      // SYCL 2020 4.7.6.9.1 (deprecated): constant_ptr<DataT>, DataT as the accessor names it.
      return constant_ptr<DataT>(const_cast<DataT*>(first));
    else
      return first;
  }

  // SYCL 2020 4.7.6.9: the start of the underlying buffer, also for a ranged accessor.
  template <access::decorated IsDecorated, target T = AccessTarget,
            typename = std::enable_if_t<T == target::device>>
  accessor_ptr<IsDecorated> get_multi_ptr() const noexcept {
    return accessor_ptr<IsDecorated>(
        detail::address_cast<detail::decorated_t<value_type, access::address_space::global_space>*>(
            m_state.m_data));
  }

  iterator begin() const noexcept {
    return iterator(m_state.m_data, m_state.m_mem_range, m_state.m_offset, m_state.m_access_range,
                    0);
  }
  iterator end() const noexcept {
    return iterator(m_state.m_data, m_state.m_mem_range, m_state.m_offset, m_state.m_access_range,
                    size());
  }
  const_iterator cbegin() const noexcept {
    return const_iterator(m_state.m_data, m_state.m_mem_range, m_state.m_offset,
                          m_state.m_access_range, 0);
  }
  const_iterator cend() const noexcept {
    return const_iterator(m_state.m_data, m_state.m_mem_range, m_state.m_offset,
                          m_state.m_access_range, size());
  }
  reverse_iterator rbegin() const noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() const noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator crbegin() const noexcept { return const_reverse_iterator(cend()); }
  const_reverse_iterator crend() const noexcept { return const_reverse_iterator(cbegin()); }

  friend bool operator==(const accessor& a, const accessor& b) {
    return a.m_state.m_data == b.m_state.m_data && a.m_state.m_buffer == b.m_state.m_buffer &&
           a.m_state.m_offset == b.m_state.m_offset &&
           a.m_state.m_access_range == b.m_state.m_access_range;
  }
  friend bool operator!=(const accessor& a, const accessor& b) { return !(a == b); }

  // Not part of the SYCL API: used by handler and by the converting constructor.
  const detail::accessor_state<value_type, dims>& state() const { return m_state; }
  void bind(handler& cgh) {
    m_state.m_data = static_cast<value_type*>(detail::require(
        cgh, *m_state.m_buffer, mode, m_no_init || detail::implies_no_init(AccessMode),
        AccessTarget == target::host_task));
  }

private:
  template <typename, int, access_mode, target, access::placeholder>
  friend class accessor;
  friend struct detail::weak_access;

  subscript_result element(value_type* p) const {
    if constexpr (AccessMode == access_mode::atomic)
      return subscript_result(global_ptr<elem_t>(p));
    else
      return *p;
  }
  std::size_t offset_linear() const {
    return detail::linearize(m_state.m_offset, m_state.m_mem_range);
  }
  template <typename T, typename A>
  void init(buffer<T, dims, A>& buf, handler* cgh, range<dims> access_range, id<dims> access_offset,
            const property_list& props) {
    static_assert(std::is_same_v<std::remove_const_t<T>, elem_t>,
                  "accessor element type must match the buffer's");
    auto& impl = *detail::impl_access::get(buf);
    m_state.m_buffer = &impl;
    m_state.m_mem_range = buf.get_range();
    m_state.m_offset = access_offset;
    m_state.m_access_range = access_range;
    m_identity = detail::object_identity::make();
    for (int d = 0; d < dims; ++d)
      if (access_offset[d] + access_range[d] > m_state.m_mem_range[d])
        detail::throw_error(errc::invalid,
                            "accessor: offset + range exceeds the buffer's range in dimension " +
                                std::to_string(d) + " (" + std::to_string(access_offset[d]) +
                                " + " + std::to_string(access_range[d]) + " > " +
                                std::to_string(m_state.m_mem_range[d]) +
                                "); shrink the access range or offset");
    m_no_init = props.has_property<property::no_init>();
    if (m_no_init && read_only)
      detail::throw_error(errc::invalid,
                          "accessor: property::no_init cannot be used with access_mode::read");
    m_placeholder = cgh == nullptr;
    if (cgh) bind(*cgh);
  }
  void rebind() {
    // A kernel running on the host copies its accessors outside any command group.
    if (m_state.m_buffer && !detail::dev::in_host_kernel()) rebind_captured();
  }
  [[gnu::noinline]] void rebind_captured() {
    if (const void* cg = detail::capturing_command_group())
      m_state.m_data =
          static_cast<value_type*>(detail::bind_captured_accessor(cg, *m_state.m_buffer));
  }

  detail::accessor_state<value_type, dims> m_state;
  detail::object_identity m_identity; // what its copies share (detail/object_identity.hpp)
  bool m_no_init = false;
  bool m_placeholder = false;
};

// SYCL 2020 4.7.6.9.2. Deduction guides: a tag gives the access mode (and target); constructors
// without a handler make placeholders.
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, const property_list& = {})
    -> accessor<T, D, detail::default_access_mode<T>, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, mode_tag_t<M>, const property_list& = {})
    -> accessor<T, D, M, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, mode_target_tag_t<M, Tg>, const property_list& = {})
    -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, range<D>, const property_list& = {})
    -> accessor<T, D, detail::default_access_mode<T>, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, range<D>, mode_tag_t<M>, const property_list& = {})
    -> accessor<T, D, M, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, range<D>, mode_target_tag_t<M, Tg>, const property_list& = {})
    -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, range<D>, id<D>, const property_list& = {})
    -> accessor<T, D, detail::default_access_mode<T>, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, range<D>, id<D>, mode_tag_t<M>, const property_list& = {})
    -> accessor<T, D, M, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, range<D>, id<D>, mode_target_tag_t<M, Tg>, const property_list& = {})
    -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, handler&, const property_list& = {})
    -> accessor<T, D, detail::default_access_mode<T>, target::device>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, handler&, mode_tag_t<M>, const property_list& = {})
    -> accessor<T, D, M, target::device>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, handler&, mode_target_tag_t<M, Tg>, const property_list& = {})
    -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, handler&, range<D>, const property_list& = {})
    -> accessor<T, D, detail::default_access_mode<T>, target::device>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, handler&, range<D>, mode_tag_t<M>, const property_list& = {})
    -> accessor<T, D, M, target::device>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, handler&, range<D>, mode_target_tag_t<M, Tg>, const property_list& = {})
    -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, handler&, range<D>, id<D>, const property_list& = {})
    -> accessor<T, D, detail::default_access_mode<T>, target::device>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, handler&, range<D>, id<D>, mode_tag_t<M>, const property_list& = {})
    -> accessor<T, D, M, target::device>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, handler&, range<D>, id<D>, mode_target_tag_t<M, Tg>,
         const property_list& = {}) -> accessor<T, D, M, Tg>;

// SYCL 2020 4.7.6.10. host_accessor.
template <typename DataT, int Dimensions = 1,
          access_mode AccessMode =
              (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write)>
class host_accessor : public detail::owner_ordered<host_accessor<DataT, Dimensions, AccessMode>> {
  static_assert(Dimensions >= 0 && Dimensions <= 3, "host accessors have 0 to 3 dimensions");
  static constexpr int dims = detail::adjusted_dims<Dimensions>;
  static constexpr access_mode mode = detail::canonical_mode(AccessMode);
  static constexpr bool read_only = detail::is_read_only(mode);
  using elem_t = std::remove_const_t<DataT>;
  template <typename Tag>
  using if_tag = std::enable_if_t<detail::is_access_tag<Tag>::value, int>;
  template <int D>
  using if_dims = std::enable_if_t<(D > 0), int>;

public:
  using value_type = std::conditional_t<read_only, const elem_t, elem_t>;
  using reference = value_type&;
  using const_reference = const elem_t&;
  using iterator = detail::region_iterator<value_type, dims>;
  using const_iterator = detail::region_iterator<const elem_t, dims>;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  using difference_type = std::ptrdiff_t;
  using size_type = std::size_t;

  // A host accessor is the hold it has on its buffer (m_hold), which its copies share; a
  // default-constructed one holds no buffer, but is an object of its own all the same.
  host_accessor() : m_hold(std::make_shared<char>()) {}
  template <typename T, typename A, int D = Dimensions, std::enable_if_t<D == 0, int> = 0>
  host_accessor(buffer<T, 1, A>& buf, const property_list& props = {}) {
    init(buf, range<1>(buf.size() ? 1 : 0), id<1>{}, props);
  }
  template <typename T, typename A, int D = Dimensions, if_dims<D> = 0>
  host_accessor(buffer<T, dims, A>& buf, const property_list& props = {}) {
    init(buf, buf.get_range(), id<dims>{}, props);
  }
  template <typename T, typename A, typename Tag, int D = Dimensions, if_dims<D> = 0,
            if_tag<Tag> = 0>
  host_accessor(buffer<T, dims, A>& buf, Tag, const property_list& props = {})
      : host_accessor(buf, props) {}
  template <typename T, typename A, int D = Dimensions, if_dims<D> = 0>
  host_accessor(buffer<T, dims, A>& buf, range<dims> access_range,
                const property_list& props = {}) {
    init(buf, access_range, id<dims>{}, props);
  }
  template <typename T, typename A, typename Tag, int D = Dimensions, if_dims<D> = 0,
            if_tag<Tag> = 0>
  host_accessor(buffer<T, dims, A>& buf, range<dims> access_range, Tag,
                const property_list& props = {})
      : host_accessor(buf, access_range, props) {}
  template <typename T, typename A, int D = Dimensions, if_dims<D> = 0>
  host_accessor(buffer<T, dims, A>& buf, range<dims> access_range, id<dims> access_offset,
                const property_list& props = {}) {
    init(buf, access_range, access_offset, props);
  }
  template <typename T, typename A, typename Tag, int D = Dimensions, if_dims<D> = 0,
            if_tag<Tag> = 0>
  host_accessor(buffer<T, dims, A>& buf, range<dims> access_range, id<dims> access_offset, Tag,
                const property_list& props = {})
      : host_accessor(buf, access_range, access_offset, props) {}

  // SYCL 2020 4.7.6.10: a read-write host accessor converts to a read-only one, and read-only
  // host accessors of T and const T into each other.
  template <typename OtherT, access_mode OtherMode,
            typename = std::enable_if_t<
                detail::accessor_convertible_v<DataT, AccessMode, OtherT, OtherMode>>>
  host_accessor(const host_accessor<OtherT, Dimensions, OtherMode>& other)
      : m_hold(other.m_hold), m_no_init(other.m_no_init) {
    m_state.m_data = other.m_state.m_data;
    m_state.m_mem_range = other.m_state.m_mem_range;
    m_state.m_offset = other.m_state.m_offset;
    m_state.m_access_range = other.m_state.m_access_range;
    m_state.m_buffer = other.m_state.m_buffer;
  }

  void swap(host_accessor& other) {
    std::swap(m_state, other.m_state);
    std::swap(m_hold, other.m_hold);
    std::swap(m_no_init, other.m_no_init);
  }
  size_type byte_size() const noexcept { return size() * sizeof(DataT); }
  size_type size() const noexcept { return m_state.m_access_range.size(); }
  size_type max_size() const noexcept { return size(); }
  bool empty() const noexcept { return size() == 0; }
  template <int D = Dimensions, if_dims<D> = 0>
  range<dims> get_range() const {
    return m_state.m_access_range;
  }
  template <int D = Dimensions, if_dims<D> = 0>
  id<dims> get_offset() const {
    return m_state.m_offset;
  }

  template <typename Property>
  bool has_property() const noexcept {
    return detail::accessor_has_property<Property>(m_no_init);
  }
  template <typename Property>
  Property get_property() const {
    return detail::accessor_get_property<Property>(m_no_init, "host_accessor");
  }

  // 0 dimensions: the element itself.
  operator std::conditional_t<Dimensions == 0, reference, detail::unusable_accessor_operand<0>>()
      const {
    if constexpr (Dimensions == 0)
      return *get_pointer();
    else
      return {};
  }
  const host_accessor&
  operator=(const std::conditional_t<Dimensions == 0 && !read_only, value_type,
                                     detail::unusable_accessor_operand<1>>& other) const {
    if constexpr (Dimensions == 0 && !read_only) *get_pointer() = other;
    return *this;
  }
  const host_accessor&
  operator=(std::conditional_t<Dimensions == 0 && !read_only, value_type,
                               detail::unusable_accessor_operand<2>>&& other) const {
    if constexpr (Dimensions == 0 && !read_only) *get_pointer() = std::move(other);
    return *this;
  }

  reference operator[](detail::accessor_index_t<Dimensions> index) const {
    return m_state.m_data[m_state.index(index)];
  }
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>>
  reference operator[](std::size_t index) const {
    return m_state.m_data[index + m_state.m_offset[0]];
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  auto operator[](std::size_t index) const {
    id<Dimensions> i;
    i[0] = index;
    return detail::subscript<reference, Dimensions, Dimensions - 1>(
        m_state.m_data + detail::linearize(m_state.m_offset, m_state.m_mem_range),
        m_state.m_mem_range, i);
  }
  // SYCL 2020 4.7.6.10: the start of the underlying buffer, also for a ranged accessor.
  std::add_pointer_t<value_type> get_pointer() const noexcept { return m_state.m_data; }
  iterator begin() const noexcept {
    return iterator(m_state.m_data, m_state.m_mem_range, m_state.m_offset, m_state.m_access_range,
                    0);
  }
  iterator end() const noexcept {
    return iterator(m_state.m_data, m_state.m_mem_range, m_state.m_offset, m_state.m_access_range,
                    size());
  }
  const_iterator cbegin() const noexcept {
    return const_iterator(m_state.m_data, m_state.m_mem_range, m_state.m_offset,
                          m_state.m_access_range, 0);
  }
  const_iterator cend() const noexcept {
    return const_iterator(m_state.m_data, m_state.m_mem_range, m_state.m_offset,
                          m_state.m_access_range, size());
  }
  reverse_iterator rbegin() const noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() const noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator crbegin() const noexcept { return const_reverse_iterator(cend()); }
  const_reverse_iterator crend() const noexcept { return const_reverse_iterator(cbegin()); }

  friend bool operator==(const host_accessor& a, const host_accessor& b) {
    return a.m_state.m_data == b.m_state.m_data && a.m_state.m_offset == b.m_state.m_offset &&
           a.m_state.m_access_range == b.m_state.m_access_range;
  }
  friend bool operator!=(const host_accessor& a, const host_accessor& b) { return !(a == b); }

private:
  template <typename, int, access_mode>
  friend class host_accessor;
  friend struct detail::accessor_identity;
  friend struct detail::weak_access;

  template <typename T, typename A>
  void init(buffer<T, dims, A>& buf, range<dims> access_range, id<dims> access_offset,
            const property_list& props) {
    static_assert(std::is_same_v<std::remove_const_t<T>, elem_t>,
                  "host_accessor element type must match the buffer's");
    auto& impl = *detail::impl_access::get(buf);
    m_state.m_buffer = &impl;
    m_state.m_mem_range = buf.get_range();
    m_state.m_offset = access_offset;
    m_state.m_access_range = access_range;
    for (int d = 0; d < dims; ++d)
      if (access_offset[d] + access_range[d] > m_state.m_mem_range[d])
        detail::throw_error(errc::invalid,
                            "host_accessor: offset + range exceeds the buffer's range in "
                            "dimension " +
                                std::to_string(d) + " (" + std::to_string(access_offset[d]) +
                                " + " + std::to_string(access_range[d]) + " > " +
                                std::to_string(m_state.m_mem_range[d]) +
                                "); shrink the access range or offset");
    m_no_init = props.has_property<property::no_init>();
    if (m_no_init && read_only)
      detail::throw_error(errc::invalid,
                          "host_accessor: property::no_init cannot be used with access_mode::read");
    bool no_init = m_no_init || detail::implies_no_init(AccessMode);
    void* data = nullptr;
    m_hold = detail::acquire_host_access(impl, mode, no_init, &data);
    m_state.m_data = static_cast<value_type*>(data);
  }

  detail::accessor_state<value_type, dims> m_state;
  std::shared_ptr<void> m_hold; // releases the buffer for later commands when the last copy dies
  bool m_no_init = false;
};

template <typename T, int D, typename A>
host_accessor(buffer<T, D, A>&, const property_list& = {})
    -> host_accessor<T, D, detail::default_access_mode<T>>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A>&, mode_tag_t<M>, const property_list& = {}) -> host_accessor<T, D, M>;
template <typename T, int D, typename A>
host_accessor(buffer<T, D, A>&, range<D>, const property_list& = {})
    -> host_accessor<T, D, detail::default_access_mode<T>>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A>&, range<D>, mode_tag_t<M>, const property_list& = {})
    -> host_accessor<T, D, M>;
template <typename T, int D, typename A>
host_accessor(buffer<T, D, A>&, range<D>, id<D>, const property_list& = {})
    -> host_accessor<T, D, detail::default_access_mode<T>>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A>&, range<D>, id<D>, mode_tag_t<M>, const property_list& = {})
    -> host_accessor<T, D, M>;

// SYCL 2020 4.7.6.4: no_init is a property of accessor and host_accessor.
template <typename DataT, int Dimensions, access_mode AccessMode, target AccessTarget,
          access::placeholder IsPlaceholder>
struct is_property_of<property::no_init,
                      accessor<DataT, Dimensions, AccessMode, AccessTarget, IsPlaceholder>>
    : std::true_type {};
template <typename DataT, int Dimensions, access_mode AccessMode>
struct is_property_of<property::no_init, host_accessor<DataT, Dimensions, AccessMode>>
    : std::true_type {};

// SYCL 2020 4.7.6.16 (deprecated, SYCL 1.2.1): accessor<T, D, mode, target::host_buffer> is a
// host accessor (what the deprecated buffer::get_access<mode>() returns).
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder IsPlaceholder>
class accessor<DataT, Dimensions, AccessMode, target::host_buffer, IsPlaceholder>
    : public host_accessor<DataT, Dimensions, AccessMode>,
      public detail::owner_ordered<
          accessor<DataT, Dimensions, AccessMode, target::host_buffer, IsPlaceholder>> {
  static_assert(AccessMode != access_mode::atomic,
                "access_mode::atomic needs target::device or target::local");
  using base = host_accessor<DataT, Dimensions, AccessMode>;
  using ordered = detail::owner_ordered<accessor>;

public:
  using base::base;
  using base::operator=;
  // sycl_ext_oneapi_weak_object: ordered against this type and against host_accessor.
  using base::ext_oneapi_owner_before;
  using ordered::ext_oneapi_owner_before;
  accessor() = default;
  // A copy of a host_accessor (DPC++'s host_accessor derives from this class, so code written for
  // it may write `sycl::accessor acc = buf.get_host_access();`): the same access, held as long
  // as either lives.
  accessor(const base& other) : base(other) {}
  bool is_placeholder() const noexcept { return false; }
  // SYCL 2020 4.7.6.16 (deprecated): the accessed bytes and elements.
  [[deprecated("use byte_size()")]] std::size_t get_size() const { return base::byte_size(); }
  [[deprecated("use size()")]] std::size_t get_count() const { return base::size(); }
};

template <typename DataT, int Dimensions, access_mode AccessMode>
accessor(host_accessor<DataT, Dimensions, AccessMode>)
    -> accessor<DataT, Dimensions, AccessMode, target::host_buffer>;

// SYCL 2020 4.7.6.11. local_accessor: work-group local memory, valid in nd_range kernels.
template <typename DataT, int Dimensions = 1>
class local_accessor : public detail::owner_ordered<local_accessor<DataT, Dimensions>> {
  static_assert(Dimensions >= 0 && Dimensions <= 3, "local accessors have 0 to 3 dimensions");
  static constexpr int dims = detail::adjusted_dims<Dimensions>;
  static constexpr bool read_only = std::is_const_v<DataT>;
  using elem_t = std::remove_const_t<DataT>;
  template <int D>
  using if_dims = std::enable_if_t<(D > 0), int>;

public:
  using value_type = DataT;
  using reference = DataT&;
  using const_reference = const DataT&;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using iterator = DataT*;
  using const_iterator = const DataT*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  // Each constructed local accessor is an object of its own, which its copies share
  // (sycl_ext_oneapi_weak_object).
  local_accessor() : m_identity(detail::object_identity::make()) {}
  template <int D = Dimensions, std::enable_if_t<D == 0, int> = 0>
  local_accessor(handler& cgh, const property_list& = {})
      : m_range(1), m_offset(reserve(cgh, 1)), m_identity(detail::object_identity::make()) {}

  // Copying a local accessor into a kernel tells the command group that the kernel uses local
  // memory (one that is only constructed in the command group does not count).
  local_accessor(const local_accessor& other)
      : m_range(other.m_range), m_offset(other.m_offset), m_identity(other.m_identity) {
    if constexpr (detail::dev::is_host) note_capture();
  }
  local_accessor& operator=(const local_accessor& other) {
    m_range = other.m_range;
    m_offset = other.m_offset;
    m_identity = other.m_identity;
    if constexpr (detail::dev::is_host) note_capture();
    return *this;
  }
  template <int D = Dimensions, if_dims<D> = 0>
  local_accessor(range<dims> allocation_size, handler& cgh, const property_list& = {})
      : m_range(allocation_size), m_offset(reserve(cgh, allocation_size.size())),
        m_identity(detail::object_identity::make()) {}

  // SYCL 2020 4.7.6.11: a local accessor of T converts to one of const T.
  template <typename OtherT,
            typename = std::enable_if_t<std::is_const_v<DataT> &&
                                        std::is_same_v<OtherT, std::remove_const_t<DataT>>>>
  local_accessor(const local_accessor<OtherT, Dimensions>& other)
      : m_range(other.m_range), m_offset(other.m_offset), m_identity(other.m_identity) {
    if constexpr (detail::dev::is_host) note_capture();
  }

  void swap(local_accessor& other) {
    std::swap(m_range, other.m_range);
    std::swap(m_offset, other.m_offset);
    m_identity.swap(other.m_identity);
  }
  size_type byte_size() const noexcept { return size() * sizeof(DataT); }
  size_type size() const noexcept { return m_range.size(); }
  size_type max_size() const noexcept { return size(); }
  bool empty() const noexcept { return size() == 0; }
  template <int D = Dimensions, if_dims<D> = 0>
  range<dims> get_range() const {
    return m_range;
  }

  // SYCL 2020 4.7.6.11: local accessors take no property; has_property is false for all.
  template <typename Property>
  bool has_property() const noexcept {
    return false;
  }
  template <typename Property>
  Property get_property() const {
    return detail::accessor_get_property<Property>(false, "local_accessor");
  }

  template <access::decorated IsDecorated>
  using accessor_ptr = multi_ptr<value_type, access::address_space::local_space, IsDecorated>;

  // SYCL 2020 4.7.6.11 (deprecated): converts to DataT* as SYCL 1.2.1's raw pointer did.
  local_ptr<value_type> get_pointer() const noexcept { return local_ptr<value_type>(data()); }
  template <access::decorated IsDecorated>
  accessor_ptr<IsDecorated> get_multi_ptr() const noexcept {
    return accessor_ptr<IsDecorated>(
        detail::address_cast<detail::decorated_t<value_type, access::address_space::local_space>*>(
            data()));
  }

  // 0 dimensions: the element itself.
  operator std::conditional_t<Dimensions == 0, reference, detail::unusable_accessor_operand<0>>()
      const {
    if constexpr (Dimensions == 0)
      return *data();
    else
      return {};
  }
  const local_accessor&
  operator=(const std::conditional_t<Dimensions == 0 && !read_only, value_type,
                                     detail::unusable_accessor_operand<1>>& other) const {
    if constexpr (Dimensions == 0 && !read_only) *data() = other;
    return *this;
  }
  const local_accessor&
  operator=(std::conditional_t<Dimensions == 0 && !read_only, value_type,
                               detail::unusable_accessor_operand<2>>&& other) const {
    if constexpr (Dimensions == 0 && !read_only) *data() = std::move(other);
    return *this;
  }

  reference operator[](detail::accessor_index_t<Dimensions> index) const {
    return data()[detail::linearize(index, m_range)];
  }
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>>
  reference operator[](std::size_t index) const {
    return data()[index];
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  auto operator[](std::size_t index) const {
    id<Dimensions> i;
    i[0] = index;
    return detail::subscript<reference, Dimensions, Dimensions - 1>(data(), m_range, i);
  }
  iterator begin() const noexcept { return data(); }
  iterator end() const noexcept { return data() + size(); }
  const_iterator cbegin() const noexcept { return data(); }
  const_iterator cend() const noexcept { return data() + size(); }
  reverse_iterator rbegin() const noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() const noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator crbegin() const noexcept { return const_reverse_iterator(cend()); }
  const_reverse_iterator crend() const noexcept { return const_reverse_iterator(cbegin()); }

  friend bool operator==(const local_accessor& a, const local_accessor& b) {
    return a.m_offset == b.m_offset && a.m_range == b.m_range;
  }
  friend bool operator!=(const local_accessor& a, const local_accessor& b) { return !(a == b); }

private:
  template <typename, int>
  friend class local_accessor;
  friend struct detail::accessor_identity;
  friend struct detail::weak_access;

  static void note_capture() {
    if (detail::dev::in_host_kernel()) return; // a kernel on the host copying it
    if (const void* cg = detail::capturing_command_group())
      detail::note_captured_local_accessor(cg);
  }
  static std::size_t reserve(handler& cgh, std::size_t count) {
    return detail::reserve_local_memory(cgh, count * sizeof(DataT),
                                        alignof(DataT) < 16 ? 16 : alignof(DataT));
  }
  DataT* data() const noexcept {
    return reinterpret_cast<DataT*>(detail::dev::local_memory() + m_offset);
  }

  range<dims> m_range; // zero: a default-constructed local accessor is empty
  std::size_t m_offset = 0;
  detail::object_identity m_identity; // what its copies share (detail/object_identity.hpp)
};

// SYCL 2020 4.7.6.11 (deprecated, SYCL 1.2.1): accessor<T, D, mode, target::local> is a
// local_accessor; with access_mode::atomic its elements are sycl::atomic objects in local memory.
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder IsPlaceholder>
class accessor<DataT, Dimensions, AccessMode, target::local, IsPlaceholder>
    : public local_accessor<std::remove_const_t<DataT>, Dimensions>,
      public detail::owner_ordered<
          accessor<DataT, Dimensions, AccessMode, target::local, IsPlaceholder>> {
  using base = local_accessor<std::remove_const_t<DataT>, Dimensions>;
  using ordered = detail::owner_ordered<accessor>;
  using elem_t = std::remove_const_t<DataT>;
  static constexpr int dims = detail::adjusted_dims<Dimensions>;
  static constexpr bool is_atomic = AccessMode == access_mode::atomic;

public:
  // sycl_ext_oneapi_weak_object: ordered against this type and against local_accessor.
  using base::ext_oneapi_owner_before;
  using ordered::ext_oneapi_owner_before;
  accessor() = default;
  template <int D = Dimensions, std::enable_if_t<D == 0, int> = 0>
  accessor(handler& cgh, const property_list& props = {}) : base(cgh, props) {}
  template <int D = Dimensions, std::enable_if_t<(D > 0), int> = 0>
  accessor(range<dims> allocation_size, handler& cgh, const property_list& props = {})
      : base(allocation_size, cgh, props) {}
  bool is_placeholder() const noexcept { return false; }

  using subscript_result =
      typename detail::local_atomic_subscript<is_atomic, elem_t, elem_t&>::type;
  subscript_result operator[](detail::accessor_index_t<Dimensions> index) const {
    return element(&base::operator[](index));
  }
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>>
  subscript_result operator[](std::size_t index) const {
    return element(&base::operator[](index));
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  auto operator[](std::size_t index) const {
    if constexpr (is_atomic) {
      id<Dimensions> i;
      i[0] = index;
      return detail::subscript<elem_t&, Dimensions, Dimensions - 1,
                               detail::atomic_element<access::address_space::local_space>>(
          base::begin(), base::get_range(), i);
    } else {
      return base::operator[](index);
    }
  }
  // 0 dimensions, access_mode::atomic: the sycl::atomic over the element (the plain element
  // otherwise, through local_accessor's conversion).
  operator std::conditional_t<(is_atomic && Dimensions == 0), subscript_result,
                              detail::unusable_accessor_operand<4>>() const {
    if constexpr (is_atomic && Dimensions == 0)
      return element(base::begin());
    else
      return {};
  }

  // SYCL 2020 4.7.6.11 (deprecated): the allocation's bytes and elements.
  [[deprecated("use byte_size()")]] std::size_t get_size() const { return base::byte_size(); }
  [[deprecated("use size()")]] std::size_t get_count() const { return base::size(); }

private:
  subscript_result element(elem_t* p) const {
    if constexpr (is_atomic)
      return subscript_result(local_ptr<elem_t>(p));
    else
      return *p;
  }
};

namespace detail {
struct accessor_identity {
  // The buffer, not the data address: a placeholder has none before it is bound.
  template <typename T, int D, access_mode M, target Tg, access::placeholder P>
  static std::size_t hash(const accessor<T, D, M, Tg, P>& a) noexcept {
    const auto& s = a.state();
    return hash_accessor(s.m_buffer, linearize(s.m_offset, s.m_mem_range), s.m_access_range.size());
  }
  template <typename T, int D, access_mode M>
  static std::size_t hash(const host_accessor<T, D, M>& a) noexcept {
    const auto& s = a.m_state;
    return hash_accessor(s.m_data, linearize(s.m_offset, s.m_mem_range), s.m_access_range.size());
  }
  // Local accessors of one command group differ by their offset in the work-group's block.
  template <typename T, int D>
  static std::size_t hash(const local_accessor<T, D>& a) noexcept {
    return hash_accessor(nullptr, a.m_offset, a.m_range.size());
  }
};
} // namespace detail

SYCLONE_END_NAMESPACE

// SYCL 2020 4.5.2. Common reference semantics: equal accessors hash alike.
template <typename DataT, int Dimensions, sycl::access_mode AccessMode, sycl::target AccessTarget,
          sycl::access::placeholder IsPlaceholder>
struct std::hash<sycl::accessor<DataT, Dimensions, AccessMode, AccessTarget, IsPlaceholder>> {
  std::size_t
  operator()(const sycl::accessor<DataT, Dimensions, AccessMode, AccessTarget, IsPlaceholder>& a)
      const noexcept {
    if constexpr (AccessTarget == sycl::target::host_buffer)
      return std::hash<sycl::host_accessor<DataT, Dimensions, AccessMode>>()(a);
    else if constexpr (AccessTarget == sycl::target::local)
      return std::hash<sycl::local_accessor<std::remove_const_t<DataT>, Dimensions>>()(a);
    else
      return sycl::detail::accessor_identity::hash(a);
  }
};
template <typename DataT, int Dimensions, sycl::access_mode AccessMode>
struct std::hash<sycl::host_accessor<DataT, Dimensions, AccessMode>> {
  std::size_t
  operator()(const sycl::host_accessor<DataT, Dimensions, AccessMode>& a) const noexcept {
    return sycl::detail::accessor_identity::hash(a);
  }
};
template <typename DataT, int Dimensions>
struct std::hash<sycl::local_accessor<DataT, Dimensions>> {
  std::size_t operator()(const sycl::local_accessor<DataT, Dimensions>& a) const noexcept {
    return sycl::detail::accessor_identity::hash(a);
  }
};
