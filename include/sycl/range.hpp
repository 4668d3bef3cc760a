// SYCL 2020 4.9.1.1. range class.
#pragma once

#include <sycl/detail/array.hpp>

SYCLONE_BEGIN_NAMESPACE

template <int Dimensions = 1>
class range : public detail::array<Dimensions, range<Dimensions>> {
  using base = detail::array<Dimensions, range<Dimensions>>;

public:
  static constexpr int dimensions = Dimensions;
  using base::base;
  range() = default;

  std::size_t size() const {
    std::size_t s = 1;
    for (int i = 0; i < Dimensions; ++i) s *= this->m_data[i];
    return s;
  }

  // A range<1> converts to size_t like id<1> (as DPC++ allows): seed 000's sub-group example
  // passes sub_group::get_max_local_range() as a count.
  operator detail::size_t_if_one<Dimensions>() const { return this->m_data[0]; }
};

range(std::size_t) -> range<1>;
range(std::size_t, std::size_t) -> range<2>;
range(std::size_t, std::size_t, std::size_t) -> range<3>;

SYCLONE_END_NAMESPACE
