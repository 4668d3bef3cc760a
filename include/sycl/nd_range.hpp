// SYCL 2020 4.9.1.2. nd_range class.
#pragma once

#include <sycl/id.hpp>
#include <sycl/range.hpp>

SYCLONE_BEGIN_NAMESPACE

namespace detail {
struct nd_range_access;
} // namespace detail

template <int Dimensions = 1>
class nd_range {
public:
  static constexpr int dimensions = Dimensions;

  nd_range(range<Dimensions> global_size, range<Dimensions> local_size)
      : m_global(global_size), m_local(local_size) {}
  [[deprecated("SYCL 2020 deprecates offsets")]] nd_range(range<Dimensions> global_size,
                                                          range<Dimensions> local_size,
                                                          id<Dimensions> offset)
      : m_global(global_size), m_local(local_size), m_offset(offset) {}

  range<Dimensions> get_global_range() const { return m_global; }
  range<Dimensions> get_local_range() const { return m_local; }
  range<Dimensions> get_group_range() const {
    range<Dimensions> g = m_global;
    for (int i = 0; i < Dimensions; ++i) g[i] = m_local[i] ? m_global[i] / m_local[i] : 0;
    return g;
  }
  [[deprecated("SYCL 2020 deprecates offsets")]] id<Dimensions> get_offset() const {
    return m_offset;
  }

  friend bool operator==(const nd_range& a, const nd_range& b) {
    return a.m_global == b.m_global && a.m_local == b.m_local && a.m_offset == b.m_offset;
  }
  friend bool operator!=(const nd_range& a, const nd_range& b) { return !(a == b); }

private:
  friend struct detail::nd_range_access;
  range<Dimensions> m_global;
  range<Dimensions> m_local;
  id<Dimensions> m_offset;
};

namespace detail {
// The (deprecated) offset of an nd_range, for the runtime's own use without the warning.
struct nd_range_access {
  template <int D>
  static id<D> offset(const nd_range<D>& r) {
    return r.m_offset;
  }
  template <int D>
  static nd_range<D> make(const range<D>& global, const range<D>& local, const id<D>& offset) {
    nd_range<D> r(global, local);
    r.m_offset = offset;
    return r;
  }
};
} // namespace detail

SYCLONE_END_NAMESPACE
