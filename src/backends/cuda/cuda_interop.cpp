// Backend interoperability (SYCL 2020 4.5.1) and sycl_ext_oneapi_peer_access for NVIDIA GPUs.
#include "cuda_interop.hpp"

#include "cuda_device.hpp"
#include "cuda_stream.hpp"

#include <sycl/exception.hpp>

#include <algorithm>
#include <cstdint>
#include <thread>

namespace syclone::cuda {

// adopted_event

bool adopted_event::query() {
  CUresult r = invoke(driver().event_query, m_event);
  if (r == CUDA_SUCCESS) return true;
  if (r == CUDA_ERROR_NOT_READY) return false;
  throw_error(driver().event_query.name, r, "event made with sycl::make_event");
}

void adopted_event::wait() {
  call(driver().event_synchronize, m_event);
}

void adopted_event::notify(std::function<void(std::exception_ptr)> fn) {
  // Rare (something on the host waits for a user's event): one thread per wait is affordable.
  std::thread([this, fn = std::move(fn)] {
    std::exception_ptr error;
    try {
      make_current(m_context);
      wait();
    } catch (...) {
      error = std::current_exception();
    }
    fn(error);
  }).detach();
}

// cuda_device

std::unique_ptr<runtime::stream> cuda_device::adopt_stream(void* native, bool profiling) {
  auto stream = static_cast<CUstream>(native);
  CUcontext owner = nullptr;
  if (!stream || invoke(driver().stream_get_ctx, stream, &owner) != CUDA_SUCCESS ||
      owner != m_context)
    return nullptr;
  return std::make_unique<cuda_stream>(*this, profiling, stream);
}

std::shared_ptr<runtime::native_event> cuda_device::adopt_event(void* native) {
  auto event = static_cast<CUevent>(native);
  if (!event) return nullptr;
  make_current(m_context);
  // cuEventQuery tells a live event (complete or not) from a handle that is none.
  CUresult r = invoke(driver().event_query, event);
  if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY) return nullptr;
  return std::make_shared<adopted_event>(m_context, event);
}

runtime::device* cuda_device::adopt_context(void* native) {
  auto context = static_cast<CUcontext>(native);
  const driver_api& d = driver();
  if (!context || !d.ctx_push_current.fn || !d.ctx_pop_current.fn || !d.ctx_get_device.fn)
    return nullptr;
  if (context == m_context) return this;
  // The context's device, asked while it is current for a moment: pushing and popping leave the
  // thread's own current context as it was (make_current's record of it stays true), and a
  // handle that is no context fails the push.
  if (invoke(d.ctx_push_current, context) != CUDA_SUCCESS) return nullptr;
  CUdevice owner = -1;
  CUresult r = invoke(d.ctx_get_device, &owner);
  unsigned long long id = reinterpret_cast<std::uintptr_t>(context);
  if (d.ctx_get_id.fn && invoke(d.ctx_get_id, context, &id) != CUDA_SUCCESS)
    id = reinterpret_cast<std::uintptr_t>(context);
  CUcontext popped = nullptr;
  invoke(d.ctx_pop_current, &popped);
  if (r != CUDA_SUCCESS || owner != m_device) return nullptr;
  std::lock_guard lock(m_adopt_mutex);
  for (auto& a : m_adopted)
    if (a.id == id && a.device->m_context == context) return a.device.get();
  m_adopted.push_back({id, std::make_unique<cuda_device>(*this, context)});
  return m_adopted.back().device.get();
}

void cuda_device::bind_thread() noexcept {
  forget_current();
  try_make_current(m_context);
}

bool cuda_device::can_access_peer(runtime::device& peer, bool atomics) {
  auto* other = dynamic_cast<cuda_device*>(&peer);
  if (!other) return false;
  if (other == this) return true;
  int v = 0;
  if (atomics) {
    if (invoke(driver().device_get_p2p_attribute, &v,
               CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, m_device,
               other->m_device) != CUDA_SUCCESS)
      return false;
    return v != 0;
  }
  return invoke(driver().device_can_access_peer, &v, m_device, other->m_device) == CUDA_SUCCESS &&
         v != 0;
}

void cuda_device::enable_peer_access(runtime::device& peer) {
  if (&peer == this) return;
  auto* other = dynamic_cast<cuda_device*>(&peer);
  if (!other || !can_access_peer(peer, false)) no_peer_access(peer);
  make_current(m_context);
  CUresult r = invoke(driver().ctx_enable_peer_access, other->m_context, 0u);
  // Enabling twice (the user, or a buffer copy before) is no error.
  if (r == CUDA_SUCCESS || r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) return;
  if (r == CUDA_ERROR_PEER_ACCESS_UNSUPPORTED) no_peer_access(peer);
  throw_error(driver().ctx_enable_peer_access.name, r,
              "enabling peer access from " + m_props.name + " to " + other->m_props.name);
}

void cuda_device::disable_peer_access(runtime::device& peer) {
  if (&peer == this) return;
  auto* other = dynamic_cast<cuda_device*>(&peer);
  if (!other || !can_access_peer(peer, false)) no_peer_access(peer);
  make_current(m_context);
  CUresult r = invoke(driver().ctx_disable_peer_access, other->m_context);
  // Buffer copies from `peer` keep working after this: the driver stages them through the host.
  if (r == CUDA_SUCCESS || r == CUDA_ERROR_PEER_ACCESS_NOT_ENABLED) return;
  throw_error(driver().ctx_disable_peer_access.name, r,
              "disabling peer access from " + m_props.name + " to " + other->m_props.name);
}

bool cuda_device::copies_from(runtime::device& src) {
  auto* other = dynamic_cast<cuda_device*>(&src);
  if (!other) return false;
  if (other == this) return true;
  // cuMemcpyAsync copies between any two devices (unified addressing); with peer access it goes
  // over NVLink / PCIe directly, without it the driver stages it through host memory. Peer access
  // is enabled the first time a buffer moves from `src`, where the hardware allows it.
  std::lock_guard lock(m_peer_mutex);
  if (std::find(m_copy_peers.begin(), m_copy_peers.end(), other) != m_copy_peers.end()) return true;
  if (can_access_peer(src, false) && try_make_current(m_context) == CUDA_SUCCESS) {
    CUresult r = invoke(driver().ctx_enable_peer_access, other->m_context, 0u);
    (void)r; // failing leaves the copy to the driver's staging
  }
  m_copy_peers.push_back(other);
  return true;
}

} // namespace syclone::cuda
