// SYCL 2020 4.6.3 context, 4.8 USM allocation bookkeeping.
#include "context_impl.hpp"
#include "queue_impl.hpp"

#include <algorithm>
#include <cstdio>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

namespace {
// Every live context, so a copy can tell whose memory a pointer it was not given for is.
struct context_registry {
  std::mutex mutex;
  std::vector<const context_impl*> live;
};
context_registry& registry() {
  static auto* r = new context_registry; // outlives contexts destroyed at exit
  return *r;
}
} // namespace

context_impl::context_impl(std::vector<std::shared_ptr<device_impl>> devices, async_handler handler,
                           property_list props)
    : m_devices(std::move(devices)), m_handler(std::move(handler)), m_props(std::move(props)) {
  if (m_devices.empty()) throw_error(errc::invalid, "context: a context needs at least one device");
  for (const auto& d : m_devices)
    if (d->platform() != m_devices.front()->platform())
      throw_error(errc::invalid, "context: all devices of a context must belong to one platform");
  std::lock_guard lock(registry().mutex);
  registry().live.push_back(this);
}

const device_impl* context_impl::foreign_device_owner(const void* ptr,
                                                      const device_impl& reader) const {
  allocation a;
  if (!ptr || find(ptr, a)) return nullptr;
  std::lock_guard lock(registry().mutex);
  for (const context_impl* c : registry().live)
    if (c->find(ptr, a))
      return a.kind == usm::alloc::device && a.device && a.device->platform() != reader.platform()
                 ? a.device
                 : nullptr;
  return nullptr;
}

bool context_impl::find_in_platform(const void* ptr, const device_impl& reader,
                                    allocation& out) const {
  if (!ptr) return false;
  if (find(ptr, out)) return true;
  std::lock_guard lock(registry().mutex);
  for (const context_impl* c : registry().live)
    if (c != this && c->platform() == reader.platform() && c->find(ptr, out)) return true;
  return false;
}

context_impl::~context_impl() {
  {
    std::lock_guard lock(registry().mutex);
    auto& live = registry().live;
    live.erase(std::remove(live.begin(), live.end(), this), live.end());
  }
  // Memory the program never freed goes with its context.
  for (auto& [addr, a] : m_allocations) {
    auto& dev = a.device ? a.device->backend_device() : m_devices.front()->backend_device();
    if (dev.epoch() == a.epoch) dev.deallocate(reinterpret_cast<void*>(addr), a.kind);
  }
}

bool context_impl::contains(const device_impl* d) const {
  // SYCL 2020 4.6.4.2 / 4.8.3: a context also serves the descendants (sub-devices, at any
  // depth) of its devices; they share their root device's memory.
  for (; d; d = d->parent().get())
    for (const auto& x : m_devices)
      if (x.get() == d) return true;
  return false;
}

void* context_impl::allocate(std::size_t alignment, std::size_t bytes, device_impl* dev,
                             usm::alloc kind) {
  if (bytes == 0) return nullptr;
  if (alignment & (alignment - 1)) return nullptr; // SYCL 2020 4.8.3: not a power of two
  if (dev && !contains(dev)) return nullptr;
  device_impl* target = dev ? dev : m_devices.front().get();
  // Larger than the device can allocate at once (SIZE_MAX from an overflowing typed request
  // included): fail as SYCL 2020 4.8.3 asks, before a backend rounds the size up and wraps.
  std::uint64_t limit = target->props().max_mem_alloc_size;
  if (limit && bytes > limit) return nullptr;
  if (kind == usm::alloc::device && !target->has(aspect::usm_device_allocations)) return nullptr;
  if (kind == usm::alloc::shared && !target->has(aspect::usm_shared_allocations)) return nullptr;
  if (kind == usm::alloc::host && !target->has(aspect::usm_host_allocations)) return nullptr;
  // Device memory held by idle buffer copies makes room first (residency.hpp).
  void* p = kind == usm::alloc::host
                ? target->backend_device().allocate(bytes, alignment, kind)
                : target->residency().allocate(*target, bytes, alignment, kind, {});
  if (!p) return nullptr;
  std::lock_guard lock(m_mutex);
  if (target->parent() && kind != usm::alloc::host &&
      std::none_of(m_sub_devices.begin(), m_sub_devices.end(),
                   [&](const auto& d) { return d.get() == target; }))
    m_sub_devices.push_back(target->shared_from_this());
  m_allocations[reinterpret_cast<std::uintptr_t>(p)] = {
      bytes, kind, kind == usm::alloc::host ? nullptr : target,
      (kind == usm::alloc::host ? *m_devices.front() : *target).epoch()};
  return p;
}

void context_impl::free(void* ptr) {
  if (!ptr) return;
  allocation a;
  {
    std::lock_guard lock(m_mutex);
    auto it = m_allocations.find(reinterpret_cast<std::uintptr_t>(ptr));
    if (it == m_allocations.end()) {
      char text[32];
      std::snprintf(text, sizeof text, "%p", ptr);
      throw_error(errc::invalid,
                  std::string("sycl::free: pointer ") + text +
                      " was not allocated by sycl::malloc_* in this context (or was already "
                      "freed); free it in the context that allocated it");
    }
    a = it->second;
    m_allocations.erase(it);
  }
  auto& dev = a.device ? a.device->backend_device() : m_devices.front()->backend_device();
  if (dev.epoch() != a.epoch) return; // the device was reset since: the memory went with it
  // Given back once the commands submitted before have completed: on the host device nothing
  // else waits for them; a GPU driver's free waits only for the work already on the device, not
  // for commands the runtime still holds back (behind a host task, a barrier, another queue).
  // The latch keeps the device (a sub-device may otherwise go with the last queue of it).
  std::shared_ptr<device_impl> owner = a.device ? a.device->shared_from_this() : m_devices.front();
  auto latch = std::make_shared<release_latch>([owner, ptr, kind = a.kind, epoch = a.epoch] {
    auto& d = owner->backend_device();
    if (d.epoch() == epoch) d.deallocate(ptr, kind);
  });
  {
    std::lock_guard lock(m_mutex);
    for (command_source* source : m_sources) source->hold_until_complete(latch);
  }
  latch->drop();
}

void context_impl::add_source(command_source* source) {
  std::lock_guard lock(m_mutex);
  m_sources.push_back(source);
}
void context_impl::remove_source(command_source* source) {
  std::lock_guard lock(m_mutex);
  std::erase(m_sources, source);
}

bool context_impl::find(const void* ptr, allocation& out) const {
  auto p = reinterpret_cast<std::uintptr_t>(ptr);
  std::lock_guard lock(m_mutex);
  auto it = m_allocations.upper_bound(p);
  if (it == m_allocations.begin()) return false;
  --it;
  if (p >= it->first + it->second.size) return false;
  out = it->second;
  return true;
}

void* usm_allocate(std::size_t alignment, std::size_t bytes, const device* dev, const context& ctx,
                   usm::alloc kind) {
  const auto& c = impl_access::get(ctx);
  device_impl* d = dev ? impl_access::get(*dev).get() : nullptr;
  return c->allocate(alignment, bytes, d, kind);
}

context queue_context(const queue& q) {
  return q.get_context();
}
device queue_device(const queue& q) {
  return q.get_device();
}

} // namespace detail

context::context(const property_list& props) : context(device(), async_handler{}, props) {}
context::context(async_handler handler, const property_list& props)
    : context(device(), std::move(handler), props) {}
context::context(const device& dev, const property_list& props)
    : context(dev, async_handler{}, props) {}
context::context(const device& dev, async_handler handler, const property_list& props)
    : context(std::vector<device>{dev}, std::move(handler), props) {}
context::context(const platform& plt, const property_list& props)
    : context(plt.get_devices(), async_handler{}, props) {}
context::context(const platform& plt, async_handler handler, const property_list& props)
    : context(plt.get_devices(), std::move(handler), props) {}
context::context(const std::vector<device>& devices, const property_list& props)
    : context(devices, async_handler{}, props) {}
context::context(const std::vector<device>& devices, async_handler handler,
                 const property_list& props) {
  std::vector<std::shared_ptr<detail::device_impl>> impls;
  for (const auto& d : devices) impls.push_back(detail::impl_access::get(d));
  m_impl = std::make_shared<detail::context_impl>(std::move(impls), std::move(handler), props);
}

backend context::get_backend() const noexcept {
  return m_impl->devices().front()->backend_device().backend();
}
platform context::get_platform() const {
  return detail::impl_access::make<platform>(m_impl->platform());
}
std::vector<device> context::get_devices() const {
  std::vector<device> out;
  for (const auto& d : m_impl->devices()) out.push_back(detail::impl_access::make<device>(d));
  return out;
}
const property_list& context::properties() const {
  return m_impl->properties();
}

template <>
SYCLONE_EXPORT platform context::get_info<info::context::platform>() const {
  return get_platform();
}
template <>
SYCLONE_EXPORT std::vector<device> context::get_info<info::context::devices>() const {
  return get_devices();
}
template <>
SYCLONE_EXPORT std::vector<memory_order>
context::get_info<info::context::atomic_memory_order_capabilities>() const {
  return {memory_order::relaxed, memory_order::acquire, memory_order::release,
          memory_order::acq_rel, memory_order::seq_cst};
}
// SYCL 2020 4.6.3.2: what every device of the context supports; all syclone devices support
// every order and scope (device::get_info reports the same).
template <>
SYCLONE_EXPORT std::vector<memory_scope>
context::get_info<info::context::atomic_memory_scope_capabilities>() const {
  return {memory_scope::work_item, memory_scope::sub_group, memory_scope::work_group,
          memory_scope::device, memory_scope::system};
}
template <>
SYCLONE_EXPORT std::vector<memory_order>
context::get_info<info::context::atomic_fence_order_capabilities>() const {
  return get_info<info::context::atomic_memory_order_capabilities>();
}
template <>
SYCLONE_EXPORT std::vector<memory_scope>
context::get_info<info::context::atomic_fence_scope_capabilities>() const {
  return get_info<info::context::atomic_memory_scope_capabilities>();
}

void free(void* ptr, const context& ctx) {
  detail::impl_access::get(ctx)->free(ptr);
}
void free(void* ptr, const queue& q) {
  free(ptr, q.get_context());
}

usm::alloc get_pointer_type(const void* ptr, const context& ctx) {
  detail::context_impl::allocation a;
  if (!ptr || !detail::impl_access::get(ctx)->find(ptr, a)) return usm::alloc::unknown;
  return a.kind;
}

device get_pointer_device(const void* ptr, const context& ctx) {
  detail::context_impl::allocation a;
  const auto& c = detail::impl_access::get(ctx);
  if (!ptr || !c->find(ptr, a))
    detail::throw_error(errc::invalid, "get_pointer_device: the pointer is not a USM allocation "
                                       "of this context");
  // SYCL 2020 4.8.4: host allocations report the first device of the context.
  // Device and shared allocations report their device (a sub-device too: the context keeps it).
  std::shared_ptr<detail::device_impl> result =
      a.device ? a.device->shared_from_this() : c->devices().front();
  return detail::impl_access::make<device>(result);
}

SYCLONE_END_NAMESPACE
