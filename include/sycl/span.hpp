// SYCL 2020 4.14.4. sycl::span: C++20's std::span under SYCL's name, usable in device code and
// in C++17 (SYCL 2020 requires C++17). Array reductions (4.9.2) take one.
#pragma once

#include <sycl/detail/config.hpp>

#include <array>
#include <cstddef>
#include <iterator>
#include <limits>
#include <type_traits>

SYCLONE_BEGIN_NAMESPACE

inline constexpr std::size_t dynamic_extent = std::numeric_limits<std::size_t>::max();

template <typename ElementType, std::size_t Extent = dynamic_extent>
class span;

namespace detail {
template <typename T>
struct is_span : std::false_type {};
template <typename T, std::size_t E>
struct is_span<span<T, E>> : std::true_type {};
template <typename T>
struct is_std_array : std::false_type {};
template <typename T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};

// A contiguous container whose elements convert to ElementType (vector, string, array ...).
template <typename C, typename ElementType, typename = void>
inline constexpr bool is_span_container_v = false;
template <typename C, typename ElementType>
inline constexpr bool is_span_container_v<
    C, ElementType,
    std::void_t<decltype(std::data(std::declval<C&>())), decltype(std::size(std::declval<C&>()))>> =
    !is_span<std::remove_cv_t<C>>::value && !is_std_array<std::remove_cv_t<C>>::value &&
    !std::is_array_v<C> &&
    std::is_convertible_v<std::remove_pointer_t<decltype(std::data(std::declval<C&>()))> (*)[],
                          ElementType (*)[]>;

template <std::size_t Extent>
struct span_size {
  constexpr span_size(std::size_t) noexcept {}
  constexpr std::size_t get() const noexcept { return Extent; }
};
template <>
struct span_size<dynamic_extent> {
  constexpr span_size(std::size_t n) noexcept : m_size(n) {}
  constexpr std::size_t get() const noexcept { return m_size; }
  std::size_t m_size;
};
} // namespace detail

template <typename ElementType, std::size_t Extent>
class span {
public:
  using element_type = ElementType;
  using value_type = std::remove_cv_t<ElementType>;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using pointer = element_type*;
  using const_pointer = const element_type*;
  using reference = element_type&;
  using const_reference = const element_type&;
  using iterator = pointer;
  using reverse_iterator = std::reverse_iterator<iterator>;
  static constexpr size_type extent = Extent;

  // SYCL 2020 4.14.4.1. Constructors.
  template <std::size_t E = Extent, typename = std::enable_if_t<E == 0 || E == dynamic_extent>>
  constexpr span() noexcept : m_data(nullptr), m_size(0) {}
  template <typename It>
  constexpr span(It first, size_type count) : m_data(std::addressof(*first)), m_size(count) {}
  template <typename It, typename End,
            typename = std::enable_if_t<!std::is_convertible_v<End, std::size_t>>>
  constexpr span(It first, End last)
      : m_data(std::addressof(*first)), m_size(static_cast<size_type>(last - first)) {}
  template <std::size_t N, typename = std::enable_if_t<Extent == dynamic_extent || Extent == N>>
  constexpr span(element_type (&arr)[N]) noexcept : m_data(arr), m_size(N) {}
  template <typename T, std::size_t N,
            typename = std::enable_if_t<(Extent == dynamic_extent || Extent == N) &&
                                        std::is_convertible_v<T (*)[], element_type (*)[]>>>
  constexpr span(std::array<T, N>& arr) noexcept : m_data(arr.data()), m_size(N) {}
  template <typename T, std::size_t N,
            typename = std::enable_if_t<(Extent == dynamic_extent || Extent == N) &&
                                        std::is_convertible_v<const T (*)[], element_type (*)[]>>>
  constexpr span(const std::array<T, N>& arr) noexcept : m_data(arr.data()), m_size(N) {}
  template <typename Container,
            typename = std::enable_if_t<detail::is_span_container_v<Container, element_type>>>
  constexpr span(Container& c) : m_data(std::data(c)), m_size(std::size(c)) {}
  template <typename Container,
            typename = std::enable_if_t<detail::is_span_container_v<const Container, element_type>>>
  constexpr span(const Container& c) : m_data(std::data(c)), m_size(std::size(c)) {}
  template <typename T, std::size_t E,
            typename = std::enable_if_t<(Extent == dynamic_extent || E == Extent) &&
                                        std::is_convertible_v<T (*)[], element_type (*)[]>>>
  constexpr span(const span<T, E>& s) noexcept : m_data(s.data()), m_size(s.size()) {}
  constexpr span(const span&) noexcept = default;
  constexpr span& operator=(const span&) noexcept = default;

  // SYCL 2020 4.14.4.2. Subviews.
  template <std::size_t Count>
  constexpr span<element_type, Count> first() const {
    return span<element_type, Count>(m_data, Count);
  }
  template <std::size_t Count>
  constexpr span<element_type, Count> last() const {
    return span<element_type, Count>(m_data + (size() - Count), Count);
  }
  template <std::size_t Offset, std::size_t Count = dynamic_extent>
  constexpr auto subspan() const {
    constexpr std::size_t e = Count != dynamic_extent    ? Count
                              : Extent != dynamic_extent ? Extent - Offset
                                                         : dynamic_extent;
    return span<element_type, e>(m_data + Offset,
                                 Count == dynamic_extent ? size() - Offset : Count);
  }
  constexpr span<element_type, dynamic_extent> first(size_type count) const {
    return {m_data, count};
  }
  constexpr span<element_type, dynamic_extent> last(size_type count) const {
    return {m_data + (size() - count), count};
  }
  constexpr span<element_type, dynamic_extent> subspan(size_type offset,
                                                       size_type count = dynamic_extent) const {
    return {m_data + offset, count == dynamic_extent ? size() - offset : count};
  }

  // SYCL 2020 4.14.4.3. Observers, element access, iterators.
  constexpr size_type size() const noexcept { return m_size.get(); }
  constexpr size_type size_bytes() const noexcept { return size() * sizeof(element_type); }
  [[nodiscard]] constexpr bool empty() const noexcept { return size() == 0; }
  constexpr reference operator[](size_type idx) const { return m_data[idx]; }
  constexpr reference front() const { return m_data[0]; }
  constexpr reference back() const { return m_data[size() - 1]; }
  constexpr pointer data() const noexcept { return m_data; }
  constexpr iterator begin() const noexcept { return m_data; }
  constexpr iterator end() const noexcept { return m_data + size(); }
  constexpr reverse_iterator rbegin() const noexcept { return reverse_iterator(end()); }
  constexpr reverse_iterator rend() const noexcept { return reverse_iterator(begin()); }

private:
  pointer m_data;
  [[no_unique_address]] detail::span_size<Extent> m_size;
};

// Deduction guides (as std::span's).
template <typename T, std::size_t N>
span(T (&)[N]) -> span<T, N>;
template <typename T, std::size_t N>
span(std::array<T, N>&) -> span<T, N>;
template <typename T, std::size_t N>
span(const std::array<T, N>&) -> span<const T, N>;
template <typename It, typename EndOrSize>
span(It, EndOrSize) -> span<std::remove_reference_t<decltype(*std::declval<It&>())>>;
template <typename Container>
span(Container&) -> span<typename Container::value_type>;
template <typename Container>
span(const Container&) -> span<const typename Container::value_type>;

template <typename T, std::size_t N>
span<const std::byte, N == dynamic_extent ? dynamic_extent : N * sizeof(T)>
as_bytes(span<T, N> s) noexcept {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size_bytes()};
}
template <typename T, std::size_t N, typename = std::enable_if_t<!std::is_const_v<T>>>
span<std::byte, N == dynamic_extent ? dynamic_extent : N * sizeof(T)>
as_writable_bytes(span<T, N> s) noexcept {
  return {reinterpret_cast<std::byte*>(s.data()), s.size_bytes()};
}

SYCLONE_END_NAMESPACE
