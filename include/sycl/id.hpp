// SYCL 2020 4.9.1.3. id class.
#pragma once

#include <sycl/detail/array.hpp>
#include <sycl/range.hpp>

SYCLONE_BEGIN_NAMESPACE

template <int Dimensions, bool WithOffset>
class item;

template <int Dimensions = 1>
class id : public detail::array<Dimensions, id<Dimensions>> {
  using base = detail::array<Dimensions, id<Dimensions>>;

public:
  static constexpr int dimensions = Dimensions;
  using base::base;
  id() = default;

  id(const range<Dimensions>& r) {
    for (int i = 0; i < Dimensions; ++i) this->m_data[i] = r[i];
  }
  template <bool WithOffset>
  id(const item<Dimensions, WithOffset>& it) {
    for (int i = 0; i < Dimensions; ++i) this->m_data[i] = it.get_id(i);
  }

  // SYCL 2020: an id<1> converts to size_t. Not a template: a conversion function template
  // cannot convert to ptrdiff_t, so `ptr[i]` with an id<1> would not compile.
  operator detail::size_t_if_one<Dimensions>() const { return this->m_data[0]; }
};

id(std::size_t) -> id<1>;
id(std::size_t, std::size_t) -> id<2>;
id(std::size_t, std::size_t, std::size_t) -> id<3>;

namespace detail {
template <int D>
inline std::size_t linearize(const id<D>& i, const range<D>& r) {
  std::size_t lin = i[0];
  for (int d = 1; d < D; ++d) lin = lin * r[d] + i[d];
  return lin;
}
template <int D>
inline id<D> delinearize(std::size_t lin, const range<D>& r) {
  id<D> i;
  for (int d = D - 1; d > 0; --d) {
    i[d] = lin % r[d];
    lin /= r[d];
  }
  i[0] = lin;
  return i;
}
} // namespace detail

SYCLONE_END_NAMESPACE
