// SYCL 2020 4.6.1, 4.6.2, 4.6.4. Platforms, devices, selectors and their info descriptors.
#include "context_impl.hpp"
#include "device_impl.hpp"
#include "plugins.hpp"

#include <sycl/context.hpp>
#include <sycl/device_selector.hpp>
#include <sycl/ext/oneapi/experimental/composite_device.hpp>
#include <sycl/ext/oneapi/num_compute_units.hpp>
#include <sycl/kernel_bundle.hpp>
#include <sycl/khr/max_work_group_queries.hpp>

#include <algorithm>
#include <climits>
#include <cstdlib>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

bool device_impl::has(aspect a) const {
  const auto& as = props().aspects;
  return std::find(as.begin(), as.end(), a) != as.end();
}

syclone::runtime::stream& device_impl::internal_stream() {
  std::lock_guard lock(m_stream_mutex);
  const std::uint64_t now = m_device.epoch();
  if (m_internal_stream && m_internal_stream_epoch != now)
    m_old_internal_streams.push_back(std::move(m_internal_stream));
  if (!m_internal_stream) {
    m_internal_stream = m_device.create_stream(false);
    m_internal_stream_epoch = now;
  }
  return *m_internal_stream;
}

bool device_impl::recover_after_fault() {
  return m_device.recover();
}

std::exception_ptr device_impl::describe_fault(std::exception_ptr error) {
  const std::uint64_t now = epoch();
  if (m_fault_described.load(std::memory_order_acquire) == now || !m_device.faulted()) return error;
  if (m_fault_described.exchange(now, std::memory_order_acq_rel) == now) return error;
  try {
    std::rethrow_exception(error);
  } catch (const sycl::exception& e) {
    std::string lost = m_residency.only_copies_on(*this);
    std::string text = std::string(e.what()) + "\n" + props().name +
                       " is unusable after this fault. The next queue made for it resets it: "
                       "where the driver allows, the device works again (the queues, events and "
                       "device memory from before are gone); NVIDIA's drivers 580 refuse, and "
                       "the process must be restarted to use it again.";
    if (!lost.empty())
      text += " Buffers whose only current contents were on it, lost to the fault:" + lost;
    else
      text += " No buffer had its only current contents there.";
    return std::make_exception_ptr(sycl::exception(e.code(), text));
  } catch (...) {
  }
  return error;
}

std::shared_ptr<context_impl> device_impl::default_context() {
  if (!m_parent && !m_adopted) return platform()->default_context();
  std::lock_guard lock(m_context_mutex);
  auto c = m_context.lock();
  if (!c) {
    std::vector<std::shared_ptr<device_impl>> devices{shared_from_this()};
    c = std::make_shared<context_impl>(std::move(devices), async_handler{}, property_list{});
    m_context = c;
  }
  return c;
}

std::shared_ptr<context_impl> platform_impl::default_context() {
  std::lock_guard lock(m_mutex);
  if (!m_default_context)
    m_default_context = std::make_shared<context_impl>(m_devices, async_handler{}, property_list{});
  return m_default_context;
}

namespace {
// SYCLONE_DEVICE_SELECTOR restricts the devices the program sees, in the spirit of DPC++'s
// ONEAPI_DEVICE_SELECTOR: a ';'-separated list of <backend>:<device> terms, backend one of
// host, cuda or *, device one of *, cpu, gpu or an index within the backend. A device is
// visible when some term matches it. Example: SYCLONE_DEVICE_SELECTOR=cuda:gpu.
struct selector_term {
  std::string backend, device;
};
std::vector<selector_term> device_filter() {
  std::vector<selector_term> terms;
  const char* env = std::getenv("SYCLONE_DEVICE_SELECTOR");
  if (!env || !*env) return terms;
  std::string s = env;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    std::size_t end = s.find(';', pos);
    std::string term = s.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? s.size() + 1 : end + 1;
    if (term.empty()) continue;
    auto colon = term.find(':');
    selector_term t{term.substr(0, colon),
                    colon == std::string::npos ? "*" : term.substr(colon + 1)};
    if (t.backend != "host" && t.backend != "cuda" && t.backend != "*")
      throw_error(errc::invalid, "SYCLONE_DEVICE_SELECTOR: unknown backend '" + t.backend +
                                     "' in '" + s + "'; use host, cuda or *");
    terms.push_back(t);
  }
  return terms;
}
bool visible(const std::vector<selector_term>& terms, backend b, const device_impl& d,
             std::size_t index) {
  if (terms.empty()) return true;
  const char* name = b == backend::syclone_host ? "host" : "cuda";
  for (const auto& t : terms) {
    if (t.backend != "*" && t.backend != name) continue;
    if (t.device == "*") return true;
    if (t.device == "cpu" && d.props().type == info::device_type::cpu) return true;
    if (t.device == "gpu" && d.props().type == info::device_type::gpu) return true;
    if (!t.device.empty() && t.device.find_first_not_of("0123456789") == std::string::npos &&
        std::stoul(t.device) == index)
      return true;
  }
  return false;
}
} // namespace

const std::vector<std::shared_ptr<platform_impl>>& all_platforms() {
  static const std::vector<std::shared_ptr<platform_impl>> platforms = [] {
    std::vector<std::shared_ptr<platform_impl>> result;
    auto filter = device_filter();
    auto add = [&](syclone::runtime::platform& p) {
      auto impl = std::make_shared<platform_impl>(p);
      std::size_t index = 0;
      for (syclone::runtime::device* d : p.devices()) {
        auto dev = std::make_shared<device_impl>(*d, impl);
        if (visible(filter, p.backend(), *dev, index++)) impl->add_device(std::move(dev));
      }
      if (!impl->devices().empty()) result.push_back(std::move(impl));
    };
    // Plugins first: default_selector_v prefers their GPUs, and list order is what users see.
    for (syclone::runtime::platform* p : syclone::runtime::load_plugins()) add(*p);
    add(syclone::runtime::host_platform());
    return result;
  }();
  return platforms;
}

static bool type_matches(info::device_type want, info::device_type have) {
  if (want == info::device_type::all) return true;
  if (want == info::device_type::automatic) return true;
  return want == have;
}

int default_device_score(const device& dev) {
  // GPUs first (they are what a SYCL program is usually written for), then the CPU.
  if (dev.is_gpu()) return 500;
  if (dev.is_cpu()) return 300;
  return 100;
}

} // namespace detail

// platform
platform::platform() : platform(default_selector_v) {}
backend platform::get_backend() const noexcept {
  return m_impl->backend_platform().backend();
}
context platform::khr_get_default_context() const {
  return detail::impl_access::make<context>(m_impl->default_context());
}
context platform::ext_oneapi_get_default_context() const {
  return khr_get_default_context();
}
std::vector<device> platform::get_devices(info::device_type type) const {
  std::vector<device> out;
  for (const auto& d : m_impl->devices())
    if (detail::type_matches(type, d->props().type))
      out.push_back(detail::impl_access::make<device>(d));
  return out;
}
bool platform::has(aspect asp) const {
  for (const auto& d : m_impl->devices())
    if (!d->has(asp)) return false;
  return !m_impl->devices().empty();
}
bool platform::has_extension(const std::string&) const {
  return false;
}
std::vector<platform> platform::get_platforms() {
  std::vector<platform> out;
  for (const auto& p : detail::all_platforms())
    out.push_back(detail::impl_access::make<platform>(p));
  return out;
}

template <>
SYCLONE_EXPORT std::string platform::get_info<info::platform::name>() const {
  return m_impl->backend_platform().name();
}
template <>
SYCLONE_EXPORT std::string platform::get_info<info::platform::vendor>() const {
  return m_impl->backend_platform().vendor();
}
template <>
SYCLONE_EXPORT std::string platform::get_info<info::platform::version>() const {
  return m_impl->backend_platform().version();
}
template <>
SYCLONE_EXPORT std::string platform::get_info<info::platform::profile>() const {
  return "FULL_PROFILE";
}
template <>
SYCLONE_EXPORT std::vector<std::string> platform::get_info<info::platform::extensions>() const {
  return {};
}

// device
device::device() : device(default_selector_v) {}

device device::select(const std::function<int(const device&)>& selector) {
  device best{std::shared_ptr<detail::device_impl>()};
  int best_score = -1;
  for (const device& d : get_devices()) {
    int s = selector(d);
    if (s >= 0 && (!best.m_impl || s > best_score)) {
      best = d;
      best_score = s;
    }
  }
  if (!best.m_impl) {
    std::string available;
    for (const device& d : get_devices())
      available += (available.empty() ? "" : ", ") + d.m_impl->props().name;
    std::string why;
    for (const auto& st : syclone::runtime::plugin_statuses())
      if (!st.loaded) why += "; " + st.name + " backend: " + st.reason;
    detail::throw_error(errc::runtime,
                        "no device satisfies the device selector (available: " + available + why +
                            "). A GPU selector needs an NVIDIA GPU with its driver "
                            "(libcuda.so.1) installed");
  }
  return best;
}

bool device::is_cpu() const {
  return m_impl->props().type == info::device_type::cpu;
}
bool device::is_gpu() const {
  return m_impl->props().type == info::device_type::gpu;
}
bool device::is_accelerator() const {
  return m_impl->props().type == info::device_type::accelerator;
}
platform device::get_platform() const {
  return detail::impl_access::make<platform>(m_impl->platform());
}
backend device::get_backend() const noexcept {
  return m_impl->backend_device().backend();
}
bool device::has(aspect asp) const {
  return m_impl->has(asp);
}
bool device::has_extension(const std::string&) const {
  return false;
}
std::vector<device> device::get_devices(info::device_type type) {
  std::vector<device> out;
  for (const auto& p : detail::all_platforms())
    for (const auto& d : p->devices())
      if (detail::type_matches(type, d->props().type))
        out.push_back(detail::impl_access::make<device>(d));
  return out;
}

#define SYCLONE_DEVICE_INFO(desc, expr)                                                            \
  template <>                                                                                      \
  SYCLONE_EXPORT info::device::desc::return_type device::get_info<info::device::desc>() const {    \
    const auto& p = m_impl->props();                                                               \
    (void)p;                                                                                       \
    return expr;                                                                                   \
  }
SYCLONE_DEVICE_INFO(device_type, p.type)
SYCLONE_DEVICE_INFO(vendor_id, p.vendor_id)
SYCLONE_DEVICE_INFO(max_compute_units, p.compute_units)
SYCLONE_DEVICE_INFO(max_work_item_dimensions, 3u)
SYCLONE_DEVICE_INFO(max_work_group_size, p.max_work_group_size)
SYCLONE_DEVICE_INFO(max_num_sub_groups, p.max_num_sub_groups)
SYCLONE_DEVICE_INFO(sub_group_independent_forward_progress,
                    p.sub_group_independent_forward_progress)
SYCLONE_DEVICE_INFO(sub_group_sizes, p.sub_group_sizes)
SYCLONE_DEVICE_INFO(primary_sub_group_size, p.primary_sub_group_size)
SYCLONE_DEVICE_INFO(preferred_vector_width_char, 16u)
SYCLONE_DEVICE_INFO(preferred_vector_width_short, 8u)
SYCLONE_DEVICE_INFO(preferred_vector_width_int, 4u)
SYCLONE_DEVICE_INFO(preferred_vector_width_long, 2u)
SYCLONE_DEVICE_INFO(preferred_vector_width_float, 4u)
SYCLONE_DEVICE_INFO(preferred_vector_width_double, 2u)
SYCLONE_DEVICE_INFO(preferred_vector_width_half, 8u)
SYCLONE_DEVICE_INFO(max_clock_frequency, p.clock_mhz)
SYCLONE_DEVICE_INFO(address_bits, 64u)
SYCLONE_DEVICE_INFO(max_mem_alloc_size, p.max_mem_alloc_size)
SYCLONE_DEVICE_INFO(max_parameter_size, std::size_t{4096})
SYCLONE_DEVICE_INFO(mem_base_addr_align, p.mem_base_addr_align)
SYCLONE_DEVICE_INFO(global_mem_cache_type, info::global_mem_cache_type::read_write)
SYCLONE_DEVICE_INFO(global_mem_cache_line_size, p.global_mem_cache_line_size)
SYCLONE_DEVICE_INFO(global_mem_cache_size, p.global_mem_cache_size)
SYCLONE_DEVICE_INFO(global_mem_size, p.global_mem_size)
SYCLONE_DEVICE_INFO(local_mem_type, p.local_mem_type)
SYCLONE_DEVICE_INFO(local_mem_size, p.local_mem_size)
SYCLONE_DEVICE_INFO(error_correction_support, false)
SYCLONE_DEVICE_INFO(atomic_memory_order_capabilities,
                    (std::vector<memory_order>{memory_order::relaxed, memory_order::acquire,
                                               memory_order::release, memory_order::acq_rel,
                                               memory_order::seq_cst}))
SYCLONE_DEVICE_INFO(atomic_memory_scope_capabilities,
                    (std::vector<memory_scope>{memory_scope::work_item, memory_scope::sub_group,
                                               memory_scope::work_group, memory_scope::device,
                                               memory_scope::system}))
SYCLONE_DEVICE_INFO(atomic_fence_order_capabilities,
                    (std::vector<memory_order>{memory_order::relaxed, memory_order::acquire,
                                               memory_order::release, memory_order::acq_rel,
                                               memory_order::seq_cst}))
SYCLONE_DEVICE_INFO(atomic_fence_scope_capabilities,
                    (std::vector<memory_scope>{memory_scope::work_item, memory_scope::sub_group,
                                               memory_scope::work_group, memory_scope::device,
                                               memory_scope::system}))
SYCLONE_DEVICE_INFO(built_in_kernel_ids, std::vector<kernel_id>{})
SYCLONE_DEVICE_INFO(built_in_kernels, std::vector<std::string>{})
SYCLONE_DEVICE_INFO(profiling_timer_resolution, std::size_t{1})
SYCLONE_DEVICE_INFO(is_available, true)
// The host device runs input bundles with their values at launch; the CUDA device JIT-compiles.
SYCLONE_DEVICE_INFO(is_compiler_available, true)
SYCLONE_DEVICE_INFO(is_linker_available, true)
SYCLONE_DEVICE_INFO(name, p.name)
SYCLONE_DEVICE_INFO(vendor, p.vendor)
SYCLONE_DEVICE_INFO(driver_version, p.driver_version)
SYCLONE_DEVICE_INFO(version, p.version)
SYCLONE_DEVICE_INFO(backend_version, p.driver_version)
SYCLONE_DEVICE_INFO(aspects, p.aspects)
SYCLONE_DEVICE_INFO(platform, get_platform())
// SYCL 2020 4.6.4.2: the backend says whether the device can be partitioned (the host CPU: one
// sub-device per thread of its pool at most; NVIDIA GPUs: no). No device partitions by affinity
// domain: syclone does not bind threads to NUMA nodes or caches.
SYCLONE_DEVICE_INFO(partition_max_sub_devices, m_impl->backend_device().partition_max_sub_devices())
SYCLONE_DEVICE_INFO(partition_properties,
                    (m_impl->backend_device().partition_max_sub_devices() == 0
                         ? std::vector<info::partition_property>{}
                         : std::vector<info::partition_property>{
                               info::partition_property::partition_equally,
                               info::partition_property::partition_by_counts}))
SYCLONE_DEVICE_INFO(partition_type_property, m_impl->partition_type())
SYCLONE_DEVICE_INFO(partition_affinity_domains, std::vector<info::partition_affinity_domain>{})
SYCLONE_DEVICE_INFO(partition_type_affinity_domain, m_impl->partition_domain())
SYCLONE_DEVICE_INFO(preferred_vector_width_long_long, 2u)
// The widths of the device's native vector registers: SIMD lanes of the CPU's widest registers
// (16, 32 or 64 bytes: SSE or NEON, AVX, AVX-512), scalar registers on a GPU (its vectors are the
// work-items of a warp); 0 for a type the device does not support.
SYCLONE_DEVICE_INFO(native_vector_width_char, p.type == info::device_type::gpu ? 1u : p.simd_bytes)
SYCLONE_DEVICE_INFO(native_vector_width_short,
                    p.type == info::device_type::gpu ? 1u : p.simd_bytes / 2)
SYCLONE_DEVICE_INFO(native_vector_width_int,
                    p.type == info::device_type::gpu ? 1u : p.simd_bytes / 4)
SYCLONE_DEVICE_INFO(native_vector_width_long,
                    p.type == info::device_type::gpu ? 1u : p.simd_bytes / 8)
SYCLONE_DEVICE_INFO(native_vector_width_long_long,
                    p.type == info::device_type::gpu ? 1u : p.simd_bytes / 8)
SYCLONE_DEVICE_INFO(native_vector_width_float,
                    p.type == info::device_type::gpu ? 1u : p.simd_bytes / 4)
SYCLONE_DEVICE_INFO(native_vector_width_double, !has(aspect::fp64) ? 0u
                                                : p.type == info::device_type::gpu
                                                    ? 1u
                                                    : p.simd_bytes / 8)
SYCLONE_DEVICE_INFO(native_vector_width_half, !has(aspect::fp16)                 ? 0u
                                              : p.type == info::device_type::gpu ? 2u
                                                                                 : p.simd_bytes / 2)
// Images (SYCL 2020 4.7.3) are read and written in software on every device with aspect::image
// (detail/image_texel.hpp): a dimension is limited by the int coordinates that address it, an
// image by the memory it takes (max_mem_alloc_size); an accessor is ~100 bytes of the kernel's
// argument and carries its sampler, so a kernel takes 128 of each kind (a GPU's 32764-byte
// parameter space holds that many). Without aspect::image every limit is 0.
SYCLONE_DEVICE_INFO(max_read_image_args, has(aspect::image) ? 128u : 0u)
SYCLONE_DEVICE_INFO(max_write_image_args, has(aspect::image) ? 128u : 0u)
SYCLONE_DEVICE_INFO(image2d_max_width, has(aspect::image) ? std::size_t{INT_MAX} : 0)
SYCLONE_DEVICE_INFO(image2d_max_height, has(aspect::image) ? std::size_t{INT_MAX} : 0)
SYCLONE_DEVICE_INFO(image3d_max_width, has(aspect::image) ? std::size_t{INT_MAX} : 0)
SYCLONE_DEVICE_INFO(image3d_max_height, has(aspect::image) ? std::size_t{INT_MAX} : 0)
SYCLONE_DEVICE_INFO(image3d_max_depth, has(aspect::image) ? std::size_t{INT_MAX} : 0)
SYCLONE_DEVICE_INFO(image_max_buffer_size, has(aspect::image) ? std::size_t{INT_MAX} : 0)
SYCLONE_DEVICE_INFO(max_samplers, has(aspect::image) ? 128u : 0u)
SYCLONE_DEVICE_INFO(is_endian_little, true) // x86-64 hosts and NVIDIA GPUs
// Kernels' printf (sycl::ext::oneapi::experimental::printf): the CUDA context's printf buffer
// (CU_LIMIT_PRINTF_FIFO_SIZE); on the host device output goes to stdout as it comes, no limit.
SYCLONE_DEVICE_INFO(printf_buffer_size, p.printf_buffer_size)
SYCLONE_DEVICE_INFO(image_support, has(aspect::image))
// constant_buffer accessors address global memory: any allocation, any number of them (the
// OpenCL minimum of 8 is reported for the count).
SYCLONE_DEVICE_INFO(max_constant_buffer_size, p.max_mem_alloc_size)
SYCLONE_DEVICE_INFO(max_constant_args, 8u)
SYCLONE_DEVICE_INFO(host_unified_memory, m_impl->host_addressable())
SYCLONE_DEVICE_INFO(queue_profiling, has(aspect::queue_profiling))
SYCLONE_DEVICE_INFO(extensions, std::vector<std::string>{})
SYCLONE_DEVICE_INFO(half_fp_config, (std::vector<info::fp_config>{
                                        info::fp_config::denorm, info::fp_config::inf_nan,
                                        info::fp_config::round_to_nearest, info::fp_config::fma}))
SYCLONE_DEVICE_INFO(single_fp_config,
                    (std::vector<info::fp_config>{
                        info::fp_config::denorm, info::fp_config::inf_nan,
                        info::fp_config::round_to_nearest, info::fp_config::round_to_zero,
                        info::fp_config::round_to_inf, info::fp_config::fma,
                        info::fp_config::correctly_rounded_divide_sqrt}))
SYCLONE_DEVICE_INFO(double_fp_config,
                    (std::vector<info::fp_config>{
                        info::fp_config::denorm, info::fp_config::inf_nan,
                        info::fp_config::round_to_nearest, info::fp_config::round_to_zero,
                        info::fp_config::round_to_inf, info::fp_config::fma}))
#undef SYCLONE_DEVICE_INFO

// SYCL 2020 4.6.4.2: only a sub-device has a parent.
template <>
SYCLONE_EXPORT device device::get_info<info::device::parent_device>() const {
  if (!m_impl->parent())
    detail::throw_error(errc::invalid,
                        "device::get_info<info::device::parent_device>: " + m_impl->props().name +
                            " is a root device, not a sub-device (create_sub_devices makes "
                            "sub-devices; check info::device::partition_type_property first)");
  return detail::impl_access::make<device>(m_impl->parent());
}

namespace {
const char* partition_name(info::partition_property p) {
  switch (p) {
  case info::partition_property::partition_equally:
    return "partition_equally";
  case info::partition_property::partition_by_counts:
    return "partition_by_counts";
  case info::partition_property::partition_by_affinity_domain:
    return "partition_by_affinity_domain";
  default:
    return "no_partition";
  }
}

// Throws errc::feature_not_supported unless the device can be partitioned (SYCL 2020 4.6.4.2).
void require_partitionable(const detail::device_impl& d, info::partition_property how) {
  if (d.backend_device().partition_max_sub_devices() == 0)
    detail::throw_error(errc::feature_not_supported,
                        std::string("device::create_sub_devices<") + partition_name(how) +
                            ">: " + d.props().name +
                            " cannot be partitioned (its info::device::partition_properties is "
                            "empty); partition the host CPU device instead");
}

std::vector<device> make_sub_devices(const std::shared_ptr<detail::device_impl>& parent,
                                     const std::vector<std::uint32_t>& counts,
                                     info::partition_property how) {
  std::vector<device> out;
  out.reserve(counts.size());
  for (std::uint32_t n : counts) {
    auto backend = parent->backend_device().create_sub_device(n);
    if (!backend)
      detail::throw_error(errc::feature_not_supported,
                          std::string("device::create_sub_devices<") + partition_name(how) +
                              ">: the backend of " + parent->props().name +
                              " cannot make a sub-device");
    out.push_back(detail::impl_access::make<device>(std::make_shared<detail::device_impl>(
        std::move(backend), parent, how, info::partition_affinity_domain::not_applicable)));
  }
  return out;
}
} // namespace

std::vector<device> device::create_sub_devices_equally(std::size_t count) const {
  constexpr auto how = info::partition_property::partition_equally;
  require_partitionable(*m_impl, how);
  const std::uint32_t units = m_impl->props().compute_units;
  if (count == 0)
    detail::throw_error(errc::invalid, "device::create_sub_devices<partition_equally>(0): each "
                                       "sub-device needs at least one compute unit; pass a count "
                                       "from 1 to " +
                                           std::to_string(units) +
                                           " (info::device::max_compute_units)");
  if (count > units)
    detail::throw_error(errc::invalid,
                        "device::create_sub_devices<partition_equally>(" + std::to_string(count) +
                            "): " + m_impl->props().name + " has only " + std::to_string(units) +
                            " compute units (info::device::max_compute_units); pass at most " +
                            std::to_string(units));
  // As many sub-devices of `count` compute units as fit; the remaining units go unused.
  std::vector<std::uint32_t> counts(units / count, static_cast<std::uint32_t>(count));
  return make_sub_devices(m_impl, counts, how);
}

std::vector<device>
device::create_sub_devices_by_counts(const std::vector<std::size_t>& counts) const {
  constexpr auto how = info::partition_property::partition_by_counts;
  require_partitionable(*m_impl, how);
  const std::uint32_t units = m_impl->props().compute_units;
  const std::uint32_t max_devices = m_impl->backend_device().partition_max_sub_devices();
  auto listed = [&] {
    std::string s = "{";
    for (std::size_t i = 0; i < counts.size(); ++i)
      s += (i ? ", " : "") + std::to_string(counts[i]);
    return s + "}";
  };
  if (counts.empty())
    detail::throw_error(errc::invalid, "device::create_sub_devices<partition_by_counts>({}): the "
                                       "counts are empty; pass the compute units of each "
                                       "sub-device");
  if (counts.size() > max_devices)
    detail::throw_error(errc::invalid,
                        "device::create_sub_devices<partition_by_counts>(" + listed() +
                            "): " + std::to_string(counts.size()) + " sub-devices, but " +
                            m_impl->props().name + " makes at most " + std::to_string(max_devices) +
                            " (info::device::partition_max_sub_devices); pass fewer counts");
  std::size_t total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0)
      detail::throw_error(errc::invalid,
                          "device::create_sub_devices<partition_by_counts>(" + listed() +
                              "): count " + std::to_string(i) +
                              " is 0; each sub-device needs at least one compute unit");
    total += std::min<std::size_t>(counts[i], units + std::size_t(1)); // no overflow
  }
  if (total > units)
    detail::throw_error(errc::invalid,
                        "device::create_sub_devices<partition_by_counts>(" + listed() +
                            "): the counts add up to more than the " + std::to_string(units) +
                            " compute units of " + m_impl->props().name +
                            " (info::device::max_compute_units); pass counts whose sum is at "
                            "most " +
                            std::to_string(units));
  return make_sub_devices(m_impl, std::vector<std::uint32_t>(counts.begin(), counts.end()), how);
}

std::vector<device>
device::create_sub_devices_by_affinity(info::partition_affinity_domain domain) const {
  static const char* const names[] = {"not_applicable", "numa",     "L4_cache",          "L3_cache",
                                      "L2_cache",       "L1_cache", "next_partitionable"};
  auto index = static_cast<std::size_t>(domain);
  detail::throw_error(errc::feature_not_supported,
                      std::string("device::create_sub_devices<partition_by_affinity_domain>(") +
                          (index < 7 ? names[index] : "?") + "): " + m_impl->props().name +
                          " cannot be partitioned by affinity domain (syclone does not bind its "
                          "threads to NUMA nodes or caches; info::device::"
                          "partition_affinity_domains is empty); use partition_equally or "
                          "partition_by_counts where info::device::partition_properties lists "
                          "them");
}

template <>
SYCLONE_EXPORT std::vector<device>
device::get_info<ext::oneapi::experimental::info::device::component_devices>() const {
  return {};
}
template <>
SYCLONE_EXPORT device
device::get_info<ext::oneapi::experimental::info::device::composite_device>() const {
  detail::throw_error(
      errc::invalid,
      "info::device::composite_device (sycl_ext_oneapi_composite_device): " + m_impl->props().name +
          " is not a component of a composite device (it lacks "
          "aspect::ext_oneapi_is_component); check the aspect before asking");
}
std::vector<device> platform::ext_oneapi_get_composite_devices() const {
  return {};
}
namespace ext::oneapi::experimental {
std::vector<device> get_composite_devices() {
  return {};
}
} // namespace ext::oneapi::experimental

template <>
SYCLONE_EXPORT std::size_t device::get_info<ext::oneapi::info::device::num_compute_units>() const {
  return m_impl->props().compute_units;
}
template <>
SYCLONE_EXPORT range<1> device::get_info<khr::info::device::max_work_group_range<1>>() const {
  return range<1>(m_impl->props().max_work_groups[2]);
}
template <>
SYCLONE_EXPORT range<2> device::get_info<khr::info::device::max_work_group_range<2>>() const {
  const auto& s = m_impl->props().max_work_groups;
  return range<2>(s[1], s[2]);
}
template <>
SYCLONE_EXPORT range<3> device::get_info<khr::info::device::max_work_group_range<3>>() const {
  const auto& s = m_impl->props().max_work_groups;
  return range<3>(s[0], s[1], s[2]);
}
template <>
SYCLONE_EXPORT std::size_t device::get_info<khr::info::device::max_work_group_range_size>() const {
  return m_impl->props().max_work_groups_total;
}
template <>
SYCLONE_EXPORT range<1> device::get_info<info::device::max_work_item_sizes<1>>() const {
  return range<1>(m_impl->props().max_work_item_sizes[2]);
}
template <>
SYCLONE_EXPORT range<2> device::get_info<info::device::max_work_item_sizes<2>>() const {
  const auto& s = m_impl->props().max_work_item_sizes;
  return range<2>(s[1], s[2]);
}
template <>
SYCLONE_EXPORT range<3> device::get_info<info::device::max_work_item_sizes<3>>() const {
  const auto& s = m_impl->props().max_work_item_sizes;
  return range<3>(s[0], s[1], s[2]);
}

SYCLONE_END_NAMESPACE
