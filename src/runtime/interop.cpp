// SYCL 2020 4.5.1 backend interoperability, interop_handle's native members (4.10.2) and
// sycl_ext_oneapi_peer_access: the runtime's type-erased halves of <sycl/backend.hpp>.
#include "buffer_impl.hpp"
#include "context_impl.hpp"
#include "event_impl.hpp"
#include "queue_impl.hpp"

#include <sycl/backend.hpp>

#include <mutex>
#include <string>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

namespace {

const char* backend_name(backend b) {
  switch (b) {
  case backend::syclone_host:
    return "backend::syclone_host";
  case backend::ext_oneapi_cuda:
    return "backend::ext_oneapi_cuda";
  default:
    return "backend::all";
  }
}

void check(backend actual, backend wanted, const char* what, const std::string& object) {
  if (actual != wanted)
    throw_error(errc::backend_mismatch, std::string(what) + "<" + backend_name(wanted) +
                                            ">: " + object + " is of " + backend_name(actual) +
                                            "; ask get_backend() first, or use a queue on a "
                                            "device of that backend");
}

std::string device_text(const device_impl& d) {
  return "the device `" + d.props().name + "`";
}

// The devices of every platform of backend `b`.
std::vector<std::shared_ptr<device_impl>> devices_of(backend b) {
  std::vector<std::shared_ptr<device_impl>> out;
  for (const auto& p : all_platforms())
    if (p->backend_platform().backend() == b)
      for (const auto& d : p->devices()) out.push_back(d);
  return out;
}

} // namespace

std::vector<std::int64_t> native_platform(const platform& p, backend b) {
  const auto& impl = impl_access::get(p);
  check(impl->backend_platform().backend(), b, "get_native",
        "the platform `" + impl->backend_platform().name() + "`");
  std::vector<std::int64_t> out;
  for (const auto& d : impl->devices()) {
    std::int64_t v = 0;
    if (d->backend_device().native_device(v)) out.push_back(v);
  }
  return out;
}

std::int64_t native_device(const device& d, backend b) {
  const auto& impl = impl_access::get(d);
  check(impl->backend_device().backend(), b, "get_native", device_text(*impl));
  std::int64_t v = 0;
  if (!impl->backend_device().native_device(v))
    throw_error(errc::backend_mismatch,
                "get_native: " + device_text(*impl) + " has no native device");
  return v;
}

void* native_context(const context& c, backend b) {
  const auto& impl = impl_access::get(c);
  const auto& devices = impl->devices();
  check(devices.front()->backend_device().backend(), b, "get_native",
        "the context of " + device_text(*devices.front()));
  // README "Backend interoperability": a context of several GPUs answers with its first
  // device's primary context (every device works in its own primary context).
  return devices.front()->backend_device().native_context();
}

std::vector<void*> native_contexts(const context& c, backend b) {
  const auto& impl = impl_access::get(c);
  const auto& devices = impl->devices();
  check(devices.front()->backend_device().backend(), b, "get_native",
        "the context of " + device_text(*devices.front()));
  std::vector<void*> out;
  for (const auto& d : devices) out.push_back(d->backend_device().native_context());
  return out;
}

void* native_queue(const queue& q, backend b) {
  const auto& impl = impl_access::get(q);
  check(impl->device()->backend_device().backend(), b, "get_native",
        "the queue of " + device_text(*impl->device()));
  return impl->stream().native_handle();
}

void* native_event(const event& e, backend b) {
  const auto& impl = impl_access::get(e);
  check(impl->backend, b, "get_native", "the event");
  // DPC++'s answer too: an event without a native operation (a host task, a command that
  // completed at once, a default-constructed event) has a null handle.
  auto native = impl->native();
  return native ? native->native_handle() : nullptr;
}

void* native_buffer(buffer_impl& buffer, backend b) {
  if (b == backend::syclone_host) return buffer.host_data();
  void* p = buffer.newest_device_copy(b);
  if (!p)
    throw_error(errc::invalid, std::string("get_native<") + backend_name(b) +
                                   ">(buffer): the buffer has no copy on a device of that backend "
                                   "yet; use it in a command on such a device first, or use "
                                   "interop_handle::get_native_mem in a host task");
  return p;
}

platform make_platform(backend b, const std::vector<std::int64_t>& natives) {
  for (const auto& p : all_platforms()) {
    if (p->backend_platform().backend() != b) continue;
    for (std::int64_t n : natives) {
      bool found = false;
      for (const auto& d : p->devices()) {
        std::int64_t v = 0;
        found = found || (d->backend_device().native_device(v) && v == n);
      }
      if (!found)
        throw_error(errc::invalid, "make_platform: native device " + std::to_string(n) +
                                       " is not a device of the platform `" +
                                       p->backend_platform().name() + "`");
    }
    if (natives.empty()) throw_error(errc::invalid, "make_platform: no native device given");
    return impl_access::make<platform>(p);
  }
  throw_error(errc::invalid, std::string("make_platform: no platform of ") + backend_name(b) +
                                 " on this machine (syclone-ls lists the platforms)");
}

device make_device(backend b, std::int64_t native) {
  for (const auto& d : devices_of(b)) {
    std::int64_t v = 0;
    if (d->backend_device().native_device(v) && v == native) return impl_access::make<device>(d);
  }
  throw_error(errc::invalid, "make_device: " + std::to_string(native) + " is not a device of " +
                                 backend_name(b) +
                                 " syclone can use (CUDA_VISIBLE_DEVICES and "
                                 "SYCLONE_DEVICE_SELECTOR restrict them; syclone-ls lists them)");
}

// The device_impl of a device a backend made over a user's native context: one per such device,
// kept as long as the backend keeps the device (for the process).
std::shared_ptr<device_impl> adopted_device(syclone::runtime::device& adopted,
                                            const std::shared_ptr<device_impl>& like) {
  static std::mutex mutex;
  static std::vector<std::shared_ptr<device_impl>> made;
  std::lock_guard lock(mutex);
  for (const auto& d : made)
    if (&d->backend_device() == &adopted) return d;
  made.push_back(
      std::make_shared<device_impl>(adopted, like->platform(), device_impl::adopted_tag{}));
  return made.back();
}

context make_context(backend b, void* native, const async_handler& handler) {
  if (native) {
    // A device's primary context: the device itself, in a context of its own.
    for (const auto& d : devices_of(b))
      if (d->backend_device().native_context() == native)
        return context(impl_access::make<device>(d), handler);
    // A context the user created: a device working in it (memory, streams, kernels).
    for (const auto& d : devices_of(b))
      if (auto* adopted = d->backend_device().adopt_context(native))
        return context(impl_access::make<device>(adopted_device(*adopted, d)), handler);
  }
  throw_error(errc::invalid, std::string("make_context: the native context is no context of a "
                                         "device of ") +
                                 backend_name(b) +
                                 " syclone can use (a live CUcontext of a visible device)");
}

queue make_queue(backend b, void* native, const context& ctx, const async_handler& handler) {
  const auto& c = impl_access::get(ctx);
  if (native)
    for (const auto& d : c->devices()) {
      if (d->backend_device().backend() != b) continue;
      if (auto stream = d->backend_device().adopt_stream(native, false))
        return impl_access::make<queue>(
            std::make_shared<queue_impl>(d, c, handler, property_list{}, std::move(stream)));
    }
  throw_error(errc::invalid, std::string("make_queue: the native queue is no stream of a device "
                                         "of the context in its primary context (") +
                                 backend_name(b) + ")");
}

event make_event(backend b, void* native, const context& ctx) {
  const auto& c = impl_access::get(ctx);
  if (native)
    for (const auto& d : c->devices()) {
      if (d->backend_device().backend() != b) continue;
      if (auto adopted = d->backend_device().adopt_event(native)) {
        auto ev = std::make_shared<event_impl>(false);
        ev->backend = b;
        ev->set_running();
        ev->set_native(std::move(adopted));
        return impl_access::make<event>(ev);
      }
    }
  throw_error(errc::invalid, std::string("make_event: the native event is no event of ") +
                                 backend_name(b) + " a device of the context can use");
}

} // namespace detail

// interop_handle

void interop_handle::check_backend(backend b, const char* what) const {
  detail::check(get_backend(), b, what,
                "the queue of " + detail::device_text(*detail::impl_access::get(m_device)));
}

void* interop_handle::native_queue(backend) const {
  // The stream the scheduler chose for the command (an out-of-order queue has several).
  auto& stream = m_command && m_command->stream ? *m_command->stream : m_queue->stream();
  return stream.native_handle();
}

void* interop_handle::native_mem(backend, detail::buffer_impl& buffer) const {
  const detail::requirement* req = nullptr;
  for (const auto& r : m_command->requirements)
    if (r.buffer == &buffer) req = &r;
  if (!req)
    detail::throw_error(errc::invalid,
                        "interop_handle::get_native_mem: the accessor does not belong to this "
                        "command group; create it with this command group's handler");
  auto& dev = *m_queue->device();
  // A native command's buffers were brought to the device before it ran; a host task's are on
  // the host until now.
  if (m_native_command) return buffer.data_on(dev);
  return buffer.native_on(dev, req->mode);
}

// sycl_ext_oneapi_peer_access

bool device::ext_oneapi_can_access_peer(const device& peer, ext::oneapi::peer_access value) {
  auto& self = m_impl->backend_device();
  auto& other = detail::impl_access::get(peer)->backend_device();
  if (&self == &other) return true;
  if (self.backend() != other.backend()) return false;
  return self.can_access_peer(other, value == ext::oneapi::peer_access::atomics_supported);
}

void device::ext_oneapi_enable_peer_access(const device& peer) {
  m_impl->backend_device().enable_peer_access(detail::impl_access::get(peer)->backend_device());
}

void device::ext_oneapi_disable_peer_access(const device& peer) {
  m_impl->backend_device().disable_peer_access(detail::impl_access::get(peer)->backend_device());
}

SYCLONE_END_NAMESPACE
