// An unnamed kernel (named by its lambda's type), built into a shared library.
#include "kernel_entry.hpp"

void run_unnamed(float* data) {
  auto kernel = [=] { data[0] += 1.0f; };
  kernel_entry<decltype(kernel)>(kernel);
}
