// SYCL 2020 5.4 (full feature set): a kernel odr-uses a constant-initialized static local of the
// host function that submits it (its address is taken), as the CTS full_feature_set does. clang
// then emits that host function into the device code, and with it the dynamic initializer of a
// variable the function reaches (here a class template's static std::unique_ptr): for nvptx64
// and spirv64 it wrote a static-initializer list that LLVM could not read back, so syclone++
// failed on this program. Device code runs no static initializers; the lists are dropped.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <memory>

template <typename T>
struct singleton {
  static std::unique_ptr<T> instance;
  static T& get() {
    if (!instance) instance.reset(new T());
    return *instance;
  }
};
template <typename T>
std::unique_ptr<T> singleton<T>::instance;

struct settings {
  int scale = 3;
};

int main() {
  sycl::queue q;
  const int scale = singleton<settings>::get().scale;
  static const int value = 42;
  static constexpr int other = 41;
  int* out = sycl::malloc_shared<int>(2, q);
  std::size_t* index = sycl::malloc_shared<std::size_t>(1, q);
  *index = 0; // a runtime index, so the address of the statics is really used
  q.single_task([=] {
     const int* p = &value;
     const int* o = &other;
     out[0] = p[*index];
     out[1] = o[*index];
   }).wait();
  const bool ok = out[0] == 42 && out[1] == 41 && scale == 3;
  sycl::free(out, q);
  sycl::free(index, q);
  if (!ok) {
    std::printf("static_local_in_kernel: wrong values\n");
    return 1;
  }
  std::printf("static_local_in_kernel: OK\n");
  return 0;
}
