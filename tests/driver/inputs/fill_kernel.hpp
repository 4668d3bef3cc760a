// A kernel template: every translation unit that instantiates fill<int> defines kernel
// fill_kernel<int> (and the lambda kernel of inline function fill_lambda), as it defines any
// other template instantiation.
#pragma once

#include "kernel_entry.hpp"

template <typename T>
class fill_kernel;

template <typename T>
void fill(T* data, T value) {
  kernel_entry<fill_kernel<T>>([=] { data[0] = value; });
}

inline void fill_lambda(int* data) {
  auto kernel = [=] { data[0] = 7; };
  kernel_entry<decltype(kernel)>(kernel);
}
