// SYCL 2020 4.9.1.4. item class.
#pragma once

#include <sycl/id.hpp>
#include <sycl/range.hpp>

SYCLONE_BEGIN_NAMESPACE

namespace detail {
struct item_access;
}

template <int Dimensions = 1, bool WithOffset = true>
class item {
public:
  static constexpr int dimensions = Dimensions;
  item() = delete;

  id<Dimensions> get_id() const { return m_id; }
  std::size_t get_id(int dimension) const { return m_id[dimension]; }
  std::size_t operator[](int dimension) const { return m_id[dimension]; }
  range<Dimensions> get_range() const { return m_range; }
  std::size_t get_range(int dimension) const { return m_range[dimension]; }

  template <bool W = WithOffset, typename = std::enable_if_t<W>>
  [[deprecated("SYCL 2020 deprecates offsets")]] id<Dimensions> get_offset() const {
    return m_offset;
  }
  // The target type depends on W so that item<D, true> declares no conversion to itself.
  template <bool W = WithOffset, typename = std::enable_if_t<!W>>
  operator item<Dimensions, !W>() const {
    return item<Dimensions, true>(m_id, m_range, id<Dimensions>{});
  }

  std::size_t get_linear_id() const {
    if constexpr (WithOffset) return detail::linearize(id<Dimensions>(m_id - m_offset), m_range);
    else return detail::linearize(m_id, m_range);
  }

  // Not a template, so that `ptr[item]` converts (see id<1>).
  operator detail::size_t_if_one<Dimensions>() const { return m_id[0]; }

  friend bool operator==(const item& a, const item& b) {
    return a.m_id == b.m_id && a.m_range == b.m_range && a.m_offset == b.m_offset;
  }
  friend bool operator!=(const item& a, const item& b) { return !(a == b); }

private:
  friend struct detail::item_access;
  template <int, bool>
  friend class item;
  item(const id<Dimensions>& i, const range<Dimensions>& r, const id<Dimensions>& offset)
      : m_id(i), m_range(r), m_offset(offset) {}

  id<Dimensions> m_id;
  range<Dimensions> m_range;
  id<Dimensions> m_offset;
};

namespace detail {
// The runtime builds items; users cannot (SYCL 2020: item is not user-constructible).
struct item_access {
  template <int D>
  static item<D, false> make(const id<D>& i, const range<D>& r) {
    return item<D, false>(i, r, id<D>{});
  }
  template <int D>
  static item<D, true> make_with_offset(const id<D>& i, const range<D>& r, const id<D>& off) {
    return item<D, true>(i, r, off);
  }
};
} // namespace detail

SYCLONE_END_NAMESPACE
