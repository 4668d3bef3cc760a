// SYCL 2020 4.6.1.1. Device selectors: callables scoring a device (negative: never choose it).
#pragma once

#include <sycl/device.hpp>

#include <initializer_list>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

namespace detail {
// Score a device gets from default_selector_v: GPUs first, then the CPU.
SYCLONE_EXPORT int default_device_score(const device& dev);
} // namespace detail

inline int default_selector_v(const device& dev) { return detail::default_device_score(dev); }
inline int gpu_selector_v(const device& dev) { return dev.is_gpu() ? 1000 : -1; }
inline int cpu_selector_v(const device& dev) { return dev.is_cpu() ? 1000 : -1; }
inline int accelerator_selector_v(const device& dev) { return dev.is_accelerator() ? 1000 : -1; }

// SYCL 2020 4.6.1.1: aspect_selector(require, deny) and the variadic and template forms.
inline auto aspect_selector(const std::vector<aspect>& aspect_list,
                            const std::vector<aspect>& deny_list = {}) {
  return [aspect_list, deny_list](const device& dev) {
    for (aspect a : aspect_list)
      if (!dev.has(a)) return -1;
    for (aspect a : deny_list)
      if (dev.has(a)) return -1;
    return default_selector_v(dev);
  };
}
template <typename... AspectList,
          typename = std::enable_if_t<(std::is_same_v<AspectList, aspect> && ...)>>
auto aspect_selector(AspectList... aspect_list) {
  return aspect_selector(std::vector<aspect>{aspect_list...});
}
template <aspect... AspectList>
auto aspect_selector() {
  return aspect_selector(std::vector<aspect>{AspectList...});
}

SYCLONE_END_NAMESPACE
