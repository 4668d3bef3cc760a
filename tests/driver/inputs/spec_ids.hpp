// Specialization constants shared by spec_kernels.cpp and spec_external.cpp.
#pragma once
#include <sycl/sycl.hpp>

inline constexpr sycl::specialization_id<int> first(1);
inline constexpr sycl::specialization_id<int> second(2);
inline constexpr sycl::specialization_id<int> third(3);
