// SYCL 2020 4.6.1.1. Device selectors: callables scoring a device (negative: never choose it).
#pragma once

#include <sycl/device.hpp>

#include <initializer_list>
#include <type_traits>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

namespace detail {
// Score a device gets from default_selector_v: GPUs first, then the CPU.
SYCLONE_EXPORT int default_device_score(const device& dev);
} // namespace detail

inline int default_selector_v(const device& dev) {
  return detail::default_device_score(dev);
}
inline int gpu_selector_v(const device& dev) {
  return dev.is_gpu() ? 1000 : -1;
}
inline int cpu_selector_v(const device& dev) {
  return dev.is_cpu() ? 1000 : -1;
}
inline int accelerator_selector_v(const device& dev) {
  return dev.is_accelerator() ? 1000 : -1;
}

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

// SYCL 2020 4.6.4.3. Device aspect traits: whether any (all) of the devices this compilation
// can run on has an aspect. A syclone program runs on the host CPU device and, where one is
// found, an NVIDIA GPU; an aspect is "any" when either device can report it and "all" when both
// always do (host_device.cpp and cuda_device.cpp list their aspects: a GPU reports
// usm_atomic_host_allocations only with native host atomics, so that one is not "all"). Of
// sycl_ext_intel_device_info's aspects, a GPU may have those its driver answers and both devices
// free memory; the Intel GPU layout and the version 7 queries no device has.
template <aspect Aspect>
struct any_device_has
    : std::bool_constant<
          Aspect != aspect::accelerator && Aspect != aspect::custom && Aspect != aspect::emulated &&
          Aspect != aspect::ext_oneapi_is_composite && Aspect != aspect::ext_oneapi_is_component &&
          Aspect != aspect::ext_intel_gpu_eu_count &&
          Aspect != aspect::ext_intel_gpu_eu_simd_width && Aspect != aspect::ext_intel_gpu_slices &&
          Aspect != aspect::ext_intel_gpu_subslices_per_slice &&
          Aspect != aspect::ext_intel_gpu_eu_count_per_subslice &&
          Aspect != aspect::ext_intel_gpu_hw_threads_per_eu &&
          Aspect != aspect::ext_intel_current_clock_throttle_reasons &&
          Aspect != aspect::ext_intel_fan_speed && Aspect != aspect::ext_intel_power_limits> {};
template <aspect Aspect>
struct all_devices_have
    : std::bool_constant<
          Aspect == aspect::online_compiler || Aspect == aspect::online_linker ||
          Aspect == aspect::fp64 || Aspect == aspect::atomic64 || Aspect == aspect::image ||
          Aspect == aspect::queue_profiling || Aspect == aspect::usm_device_allocations ||
          Aspect == aspect::usm_host_allocations ||
          Aspect == aspect::ext_oneapi_bfloat16_math_functions ||
          Aspect == aspect::ext_intel_free_memory || Aspect == aspect::ext_oneapi_ballot_group ||
          Aspect == aspect::ext_oneapi_fixed_size_group ||
          Aspect == aspect::ext_oneapi_opportunistic_group ||
          Aspect == aspect::ext_oneapi_tangle_group> {};
template <aspect Aspect>
inline constexpr bool any_device_has_v = any_device_has<Aspect>::value;
template <aspect Aspect>
inline constexpr bool all_devices_have_v = all_devices_have<Aspect>::value;

// SYCL 2020 4.6.1.2 (deprecated, SYCL 1.2.1): selector classes with a virtual operator(). They are
// callables like the SYCL 2020 selectors, so queue, device and platform constructors take them
// (and any user class derived from device_selector) through the same template.
class [[deprecated("use SYCL 2020 callable device selectors instead")]] device_selector {
public:
  device_selector() = default;
  device_selector(const device_selector&) = default;
  device_selector& operator=(const device_selector&) = default;
  virtual ~device_selector() = default;

  // The device scoring highest; errc::runtime when every device scores negative.
  device select_device() const { return device(*this); }
  virtual int operator()(const device& dev) const = 0;
};

class [[deprecated("use default_selector_v instead")]] default_selector : public device_selector {
public:
  int operator()(const device& dev) const override { return default_selector_v(dev); }
};
class [[deprecated("use cpu_selector_v instead")]] cpu_selector : public device_selector {
public:
  int operator()(const device& dev) const override { return cpu_selector_v(dev); }
};
class [[deprecated("use gpu_selector_v instead")]] gpu_selector : public device_selector {
public:
  int operator()(const device& dev) const override { return gpu_selector_v(dev); }
};
class [[deprecated("use accelerator_selector_v instead")]] accelerator_selector
    : public device_selector {
public:
  int operator()(const device& dev) const override { return accelerator_selector_v(dev); }
};

SYCLONE_END_NAMESPACE
