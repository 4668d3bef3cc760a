// SYCL 2020 4.7.2. Buffers.
#pragma once

#include <sycl/accessor.hpp>
#include <sycl/context.hpp>
#include <sycl/detail/buffer_core.hpp>
#include <sycl/detail/owner_less_base.hpp>
#include <sycl/exception.hpp>
#include <sycl/id.hpp>
#include <sycl/is_device_copyable.hpp>
#include <sycl/property_list.hpp>
#include <sycl/range.hpp>

#include <algorithm>
#include <functional>
#include <iterator>
#include <memory>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

// SYCL 2020 4.7.1.1. The default buffer allocator.
template <typename T>
using buffer_allocator = std::allocator<T>;

template <typename T, int Dimensions = 1,
          typename AllocatorT = buffer_allocator<std::remove_const_t<T>>>
class buffer : public detail::owner_ordered<buffer<T, Dimensions, AllocatorT>> {
  static_assert(Dimensions >= 1 && Dimensions <= 3,
                "syclone supports buffers of 1 to 3 dimensions");
  static_assert(is_device_copyable_v<std::remove_const_t<T>>,
                "SYCL 2020 4.7.2: a buffer's element type must be device copyable (trivially "
                "copyable, or marked by a sycl::is_device_copyable specialization)");

public:
  using value_type = std::remove_const_t<T>;
  using reference = value_type&;
  using const_reference = const value_type&;
  using allocator_type = AllocatorT;

  buffer(const range<Dimensions>& r, const property_list& props = {})
      : buffer(r, AllocatorT(), props) {}
  buffer(const range<Dimensions>& r, AllocatorT alloc, const property_list& props = {})
      : m_range(r), m_alloc(alloc), m_props(props) {
    create(nullptr, nullptr);
  }
  buffer(T* host_data, const range<Dimensions>& r, const property_list& props = {})
      : buffer(host_data, r, AllocatorT(), props) {}
  buffer(T* host_data, const range<Dimensions>& r, AllocatorT alloc,
         const property_list& props = {})
      : m_range(r), m_alloc(alloc), m_props(props) {
    check_host_pointer(host_data);
    // SYCL 2020 4.7.2.1: the buffer owns the host memory for its lifetime: read when needed.
    if constexpr (std::is_const_v<T>)
      create(host_data, nullptr, false, true);
    else
      create(host_data, host_data, false, true);
  }
  template <typename U = T, typename = std::enable_if_t<!std::is_const_v<U>>>
  buffer(const T* host_data, const range<Dimensions>& r, const property_list& props = {})
      : buffer(host_data, r, AllocatorT(), props) {}
  template <typename U = T, typename = std::enable_if_t<!std::is_const_v<U>>>
  buffer(const T* host_data, const range<Dimensions>& r, AllocatorT alloc,
         const property_list& props = {})
      : m_range(r), m_alloc(alloc), m_props(props) {
    check_host_pointer(host_data);
    // Const data is never written back (SYCL 2020 4.7.2.3); read when first needed (4.7.2.1).
    create(host_data, nullptr, false, true);
  }
  buffer(const std::shared_ptr<T>& host_data, const range<Dimensions>& r,
         const property_list& props = {})
      : buffer(host_data, r, AllocatorT(), props) {}
  buffer(const std::shared_ptr<T>& host_data, const range<Dimensions>& r, AllocatorT alloc,
         const property_list& props = {})
      : m_range(r), m_alloc(alloc), m_props(props) {
    check_host_pointer(host_data.get());
    create(host_data.get(), nullptr);
    if constexpr (!std::is_const_v<T>)
      if (host_data) set_final_data(std::shared_ptr<T>(host_data));
  }
  buffer(const std::shared_ptr<T[]>& host_data, const range<Dimensions>& r,
         const property_list& props = {})
      : buffer(host_data, r, AllocatorT(), props) {}
  buffer(const std::shared_ptr<T[]>& host_data, const range<Dimensions>& r, AllocatorT alloc,
         const property_list& props = {})
      : m_range(r), m_alloc(alloc), m_props(props) {
    check_host_pointer(host_data.get());
    create(host_data.get(), nullptr);
    if constexpr (!std::is_const_v<T>)
      if (host_data) {
        std::shared_ptr<T[]> keep = host_data;
        detail::set_final_data(
            *m_impl, [keep](const void* src, std::size_t first, std::size_t count) {
              std::copy_n(static_cast<const value_type*>(src) + first, count, keep.get() + first);
            });
      }
  }
  template <typename InputIterator, int D = Dimensions,
            typename = std::enable_if_t<D == 1 && !std::is_integral_v<InputIterator>>,
            typename = typename std::iterator_traits<InputIterator>::iterator_category>
  buffer(InputIterator first, InputIterator last, const property_list& props = {})
      : buffer(first, last, AllocatorT(), props) {}
  template <typename InputIterator, int D = Dimensions,
            typename = std::enable_if_t<D == 1 && !std::is_integral_v<InputIterator>>,
            typename = typename std::iterator_traits<InputIterator>::iterator_category>
  buffer(InputIterator first, InputIterator last, AllocatorT alloc, const property_list& props = {})
      : m_range(static_cast<std::size_t>(std::distance(first, last))), m_alloc(alloc),
        m_props(props) {
    std::vector<value_type> staged(first, last);
    create(staged.data(), nullptr);
  }
  template <typename Container, int D = Dimensions, typename = std::enable_if_t<D == 1>,
            typename = decltype(std::data(std::declval<Container&>())),
            typename = decltype(std::size(std::declval<Container&>()))>
  buffer(Container& container, const property_list& props = {})
      : buffer(container, AllocatorT(), props) {}
  template <typename Container, int D = Dimensions, typename = std::enable_if_t<D == 1>,
            typename = decltype(std::data(std::declval<Container&>())),
            typename = decltype(std::size(std::declval<Container&>()))>
  buffer(Container& container, AllocatorT alloc, const property_list& props = {})
      : m_range(std::size(container)), m_alloc(alloc), m_props(props) {
    // SYCL 2020 4.7.2.1: the container's memory is the buffer's host memory for the buffer's
    // lifetime (nothing is allocated through the allocator); a container of const elements is
    // copied and never written.
    auto* host_data = std::data(container);
    check_host_pointer(host_data);
    if constexpr (std::is_const_v<std::remove_pointer_t<decltype(host_data)>>)
      create(host_data, nullptr);
    else
      create(host_data, host_data, true);
  }

  // SYCL 2020 4.7.2.3: a sub-buffer, a contiguous region of b.
  buffer(buffer& b, const id<Dimensions>& base_index, const range<Dimensions>& sub_range)
      : m_range(sub_range), m_alloc(b.m_alloc), m_props(b.m_props) {
    if (b.is_sub_buffer())
      detail::throw_error(errc::invalid, "sub-buffer: cannot create a sub-buffer of a sub-buffer; "
                                         "create it from the parent buffer");
    for (int d = 0; d < Dimensions; ++d)
      if (base_index[d] + sub_range[d] > b.m_range[d])
        detail::throw_error(errc::invalid,
                            "sub-buffer: base index + range exceeds the parent buffer's range in "
                            "dimension " +
                                std::to_string(d));
    // Contiguity: every dimension after the first partial one must be full.
    for (int d = 1; d < Dimensions; ++d)
      if (sub_range[d] != b.m_range[d] && !all_one_before(sub_range, d))
        detail::throw_error(errc::invalid,
                            "sub-buffer: the region is not contiguous in the parent buffer; only "
                            "the first dimension of a multi-dimensional sub-buffer may be partial");
    m_impl = detail::make_sub_buffer(b.m_impl, layout(), detail::linearize(base_index, b.m_range));
  }

  buffer(const buffer&) = default;
  buffer(buffer&&) = default;
  buffer& operator=(const buffer&) = default;
  buffer& operator=(buffer&&) = default;
  ~buffer() = default; // the impl waits and writes back when the last handle goes

  range<Dimensions> get_range() const { return m_range; }
  std::size_t byte_size() const noexcept { return size() * sizeof(T); }
  std::size_t size() const noexcept { return m_range.size(); }
  [[deprecated]] std::size_t get_count() const { return size(); }
  [[deprecated]] std::size_t get_size() const { return byte_size(); }
  AllocatorT get_allocator() const { return m_alloc; }

  template <access_mode Mode = access_mode::read_write, target Targ = target::device>
  accessor<T, Dimensions, Mode, Targ> get_access(handler& cgh) {
    return accessor<T, Dimensions, Mode, Targ>(*this, cgh);
  }
  template <access_mode Mode = access_mode::read_write, target Targ = target::device>
  accessor<T, Dimensions, Mode, Targ> get_access(handler& cgh, range<Dimensions> access_range,
                                                 id<Dimensions> access_offset = {}) {
    return accessor<T, Dimensions, Mode, Targ>(*this, cgh, access_range, access_offset);
  }
  // SYCL 2020 4.7.2.3 (deprecated): host access through an accessor of target::host_buffer.
  template <access_mode Mode>
  [[deprecated("use get_host_access()")]] accessor<T, Dimensions, Mode, target::host_buffer>
  get_access() {
    return accessor<T, Dimensions, Mode, target::host_buffer>(*this);
  }
  template <access_mode Mode>
  [[deprecated("use get_host_access()")]] accessor<T, Dimensions, Mode, target::host_buffer>
  get_access(range<Dimensions> access_range, id<Dimensions> access_offset = {}) {
    return accessor<T, Dimensions, Mode, target::host_buffer>(*this, access_range, access_offset);
  }
  // SYCL 2020 4.7.2.3: the accessor the arguments deduce (accessor{buffer, args...}), e.g.
  // get_access(cgh, write_only, no_init). The arguments are forwarded: the handler is not
  // copyable.
  template <typename... Ts>
  auto get_access(Ts&&... args) {
    return accessor{*this, std::forward<Ts>(args)...};
  }
  template <typename... Ts>
  auto get_host_access(Ts&&... args) {
    return host_accessor{*this, std::forward<Ts>(args)...};
  }

  void set_final_data(std::nullptr_t) {
    detail::set_final_data(*m_impl, static_cast<void*>(nullptr));
  }
  template <typename U = T, typename = std::enable_if_t<!std::is_const_v<U>>>
  void set_final_data(T* final_data) {
    detail::set_final_data(*m_impl, static_cast<void*>(final_data));
  }
  template <typename Destination, typename = std::enable_if_t<!std::is_pointer_v<Destination> &&
                                                              !std::is_null_pointer_v<Destination>>>
  void set_final_data(Destination final_data) {
    // The writer copies elements [first, first + count) of the buffer to the same elements of
    // the destination (the whole buffer on destruction, a region for handler::update_host).
    if constexpr (is_weak_ptr<Destination>::value) {
      detail::set_final_data(
          *m_impl, [w = final_data](const void* src, std::size_t first, std::size_t count) {
            if (auto p = w.lock())
              std::copy_n(static_cast<const value_type*>(src) + first, count, p.get() + first);
          });
    } else if constexpr (is_shared_ptr<Destination>::value) {
      detail::set_final_data(
          *m_impl, [p = final_data](const void* src, std::size_t first, std::size_t count) {
            if (p) std::copy_n(static_cast<const value_type*>(src) + first, count, p.get() + first);
          });
    } else {
      // An output-only iterator (std::back_inserter) cannot skip elements: it receives writes
      // that start at the first element.
      detail::set_final_data(
          *m_impl, [it = final_data](const void* src, std::size_t first, std::size_t count) {
            using category = typename std::iterator_traits<Destination>::iterator_category;
            if constexpr (std::is_base_of_v<std::forward_iterator_tag, category>)
              std::copy_n(static_cast<const value_type*>(src) + first, count,
                          std::next(it, static_cast<std::ptrdiff_t>(first)));
            else if (first == 0)
              std::copy_n(static_cast<const value_type*>(src), count, it);
          });
    }
  }
  void set_write_back(bool flag = true) { detail::set_write_back(*m_impl, flag); }
  bool is_sub_buffer() const { return detail::is_sub_buffer(*m_impl); }

  template <typename ReinterpretT, int ReinterpretDim>
  buffer<ReinterpretT, ReinterpretDim,
         typename std::allocator_traits<AllocatorT>::template rebind_alloc<
             std::remove_const_t<ReinterpretT>>>
  reinterpret(range<ReinterpretDim> reinterpret_range) const {
    if (reinterpret_range.size() * sizeof(ReinterpretT) != byte_size())
      detail::throw_error(errc::invalid,
                          "buffer::reinterpret: the new range holds " +
                              std::to_string(reinterpret_range.size() * sizeof(ReinterpretT)) +
                              " bytes but the buffer holds " + std::to_string(byte_size()));
    using result_t = buffer<ReinterpretT, ReinterpretDim,
                            typename std::allocator_traits<AllocatorT>::template rebind_alloc<
                                std::remove_const_t<ReinterpretT>>>;
    return result_t(m_impl, reinterpret_range, m_props);
  }
  template <typename ReinterpretT, int ReinterpretDim = Dimensions,
            typename = std::enable_if_t<ReinterpretDim == 1 || sizeof(ReinterpretT) == sizeof(T)>>
  auto reinterpret() const {
    if constexpr (ReinterpretDim == 1)
      return reinterpret<ReinterpretT, 1>(range<1>(byte_size() / sizeof(ReinterpretT)));
    else
      return reinterpret<ReinterpretT, ReinterpretDim>(m_range);
  }

  template <typename Property>
  bool has_property() const noexcept {
    return m_props.has_property<Property>();
  }
  template <typename Property>
  Property get_property() const {
    return m_props.get_property<Property>();
  }

  friend bool operator==(const buffer& a, const buffer& b) { return a.m_impl == b.m_impl; }
  friend bool operator!=(const buffer& a, const buffer& b) { return !(a == b); }

private:
  template <typename, int, typename>
  friend class buffer;
  friend struct detail::impl_access;
  friend struct detail::weak_access;

  template <typename X>
  struct is_shared_ptr : std::false_type {};
  template <typename X>
  struct is_shared_ptr<std::shared_ptr<X>> : std::true_type {};
  template <typename X>
  struct is_weak_ptr : std::false_type {};
  template <typename X>
  struct is_weak_ptr<std::weak_ptr<X>> : std::true_type {};

  buffer(std::shared_ptr<detail::buffer_impl> impl, const range<Dimensions>& r,
         const property_list& props)
      : m_impl(std::move(impl)), m_range(r), m_props(props) {}

  static bool all_one_before(const range<Dimensions>& r, int d) {
    for (int i = 0; i < d; ++i)
      if (r[i] != 1) return false;
    return true;
  }
  void check_host_pointer(const void* p) const {
    if (!p && m_range.size() != 0)
      detail::throw_error(errc::invalid,
                          "buffer: the host pointer is null but the range has " +
                              std::to_string(m_range.size()) +
                              " elements; pass valid host data or use the range-only constructor");
  }
  detail::buffer_layout layout() const {
    detail::buffer_layout l;
    l.dimensions = Dimensions;
    for (int d = 0; d < Dimensions; ++d) l.range[d] = m_range[d];
    l.element_size = sizeof(T);
    return l;
  }
  void create(const void* host_data, void* write_back, bool host_storage = false,
              bool defer_copy = false) {
    detail::host_allocator ha;
    ha.state = std::make_shared<AllocatorT>(m_alloc);
    ha.allocate = [](void* state, std::size_t bytes) -> void* {
      using traits = std::allocator_traits<AllocatorT>;
      auto& a = *static_cast<AllocatorT*>(state);
      return traits::allocate(a, (bytes + sizeof(value_type) - 1) / sizeof(value_type));
    };
    ha.deallocate = [](void* state, void* p, std::size_t bytes) {
      using traits = std::allocator_traits<AllocatorT>;
      auto& a = *static_cast<AllocatorT*>(state);
      traits::deallocate(a, static_cast<value_type*>(p),
                         (bytes + sizeof(value_type) - 1) / sizeof(value_type));
    };
    bool use_host =
        (host_storage || m_props.has_property<property::buffer::use_host_ptr>()) && host_data;
    m_impl = detail::make_buffer(layout(), host_data, write_back, use_host, std::move(ha), &m_props,
                                 defer_copy);
  }

  std::shared_ptr<detail::buffer_impl> m_impl;
  range<Dimensions> m_range;
  AllocatorT m_alloc;
  property_list m_props;
};

// SYCL 2020 4.7.2.2: the buffer properties are properties of buffer.
template <typename T, int Dimensions, typename AllocatorT>
struct is_property_of<property::buffer::use_host_ptr, buffer<T, Dimensions, AllocatorT>>
    : std::true_type {};
template <typename T, int Dimensions, typename AllocatorT>
struct is_property_of<property::buffer::use_mutex, buffer<T, Dimensions, AllocatorT>>
    : std::true_type {};
template <typename T, int Dimensions, typename AllocatorT>
struct is_property_of<property::buffer::context_bound, buffer<T, Dimensions, AllocatorT>>
    : std::true_type {};

// SYCL 2020 4.7.2.4. Deduction guides.
template <class InputIterator, class AllocatorT>
buffer(InputIterator, InputIterator, AllocatorT, const property_list& = {})
    -> buffer<typename std::iterator_traits<InputIterator>::value_type, 1, AllocatorT>;
template <class InputIterator>
buffer(InputIterator, InputIterator, const property_list& = {})
    -> buffer<typename std::iterator_traits<InputIterator>::value_type, 1>;
template <class T, int Dimensions, class AllocatorT>
buffer(const T*, const range<Dimensions>&, AllocatorT, const property_list& = {})
    -> buffer<T, Dimensions, AllocatorT>;
template <class T, int Dimensions>
buffer(const T*, const range<Dimensions>&, const property_list& = {}) -> buffer<T, Dimensions>;
template <class T, int Dimensions>
buffer(T*, const range<Dimensions>&, const property_list& = {}) -> buffer<T, Dimensions>;
template <class T, int Dimensions, class AllocatorT>
buffer(T*, const range<Dimensions>&, AllocatorT, const property_list& = {})
    -> buffer<T, Dimensions, AllocatorT>;
template <class T, int Dimensions>
buffer(const std::shared_ptr<T>&, const range<Dimensions>&, const property_list& = {})
    -> buffer<T, Dimensions>;
template <class T, int Dimensions, class AllocatorT>
buffer(const std::shared_ptr<T>&, const range<Dimensions>&, AllocatorT, const property_list& = {})
    -> buffer<T, Dimensions, AllocatorT>;
template <class T, int Dimensions>
buffer(const std::shared_ptr<T[]>&, const range<Dimensions>&, const property_list& = {})
    -> buffer<T, Dimensions>;
template <class T, int Dimensions, class AllocatorT>
buffer(const std::shared_ptr<T[]>&, const range<Dimensions>&, AllocatorT, const property_list& = {})
    -> buffer<T, Dimensions, AllocatorT>;
template <class Container, class AllocatorT,
          typename = decltype(std::data(std::declval<Container&>()))>
buffer(Container&, AllocatorT, const property_list& = {})
    -> buffer<typename Container::value_type, 1, AllocatorT>;
template <class Container, typename = decltype(std::data(std::declval<Container&>()))>
buffer(Container&, const property_list& = {}) -> buffer<typename Container::value_type, 1>;

SYCLONE_END_NAMESPACE

// SYCL 2020 4.5.2. Common reference semantics: copies of a buffer hash alike.
template <typename T, int Dimensions, typename AllocatorT>
struct std::hash<sycl::buffer<T, Dimensions, AllocatorT>> {
  std::size_t operator()(const sycl::buffer<T, Dimensions, AllocatorT>& b) const noexcept {
    return std::hash<const void*>()(sycl::detail::impl_access::get(b).get());
  }
};
