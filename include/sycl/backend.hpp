// SYCL 2020 4.5.1. Backend interoperability: backend_traits, backend_input_t /
// backend_return_t, get_native and the make_* functions, and the get_native_* members of
// interop_handle. The backends' native types come from their own headers
// (<sycl/ext/oneapi/backend/cuda.hpp>, included below); README "Backend interoperability".
#pragma once

#include <sycl/buffer.hpp>
#include <sycl/context.hpp>
#include <sycl/device.hpp>
#include <sycl/event.hpp>
#include <sycl/exception.hpp>
#include <sycl/interop_handle.hpp>
#include <sycl/platform.hpp>
#include <sycl/queue.hpp>

#include <cstdint>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

// Specialized by each backend with interoperability: input_type<T> (what make_* takes),
// return_type<T> (what get_native returns) for T = platform, device, context, queue, event,
// buffer<...>.
template <backend Backend>
class backend_traits;

template <backend Backend, typename SyclType>
using backend_input_t = typename backend_traits<Backend>::template input_type<SyclType>;
template <backend Backend, typename SyclType>
using backend_return_t = typename backend_traits<Backend>::template return_type<SyclType>;

namespace detail {

// The runtime's type-erased halves (src/runtime/interop.cpp). Handles travel as integers
// (device ordinals) or pointers (contexts, queues, events, memory). Each get throws
// errc::backend_mismatch when the object is not of backend `b`; each make throws
// errc::invalid for a handle that is none of `b`'s objects syclone can use.
SYCLONE_EXPORT std::vector<std::int64_t> native_platform(const platform& p, backend b);
SYCLONE_EXPORT std::int64_t native_device(const device& d, backend b);
SYCLONE_EXPORT void* native_context(const context& c, backend b);
// Every device's native context, in the order of the context's devices.
SYCLONE_EXPORT std::vector<void*> native_contexts(const context& c, backend b);
SYCLONE_EXPORT void* native_queue(const queue& q, backend b);
SYCLONE_EXPORT void* native_event(const event& e, backend b);
SYCLONE_EXPORT void* native_buffer(buffer_impl& buffer, backend b);
SYCLONE_EXPORT platform make_platform(backend b, const std::vector<std::int64_t>& devices);
SYCLONE_EXPORT device make_device(backend b, std::int64_t native);
SYCLONE_EXPORT context make_context(backend b, void* native, const async_handler& handler);
SYCLONE_EXPORT queue make_queue(backend b, void* native, const context& ctx,
                                const async_handler& handler);
SYCLONE_EXPORT event make_event(backend b, void* native, const context& ctx);

// How a backend's native types convert to and from the erased handles; specialized with
// backend_traits.
template <backend Backend>
struct native_conversion;

} // namespace detail

// SYCL 2020 4.5.1.2. The native object underlying a SYCL object of backend `Backend`.
template <backend Backend, typename T>
auto get_native(const T& syclObject) -> backend_return_t<Backend, T> {
  return detail::native_conversion<Backend>::get(syclObject);
}

// SYCL 2020 4.5.1.3. SYCL objects over native objects. The native objects stay the user's:
// syclone never destroys a stream or event it did not create.
template <backend Backend>
platform make_platform(const backend_input_t<Backend, platform>& backendObject) {
  return detail::make_platform(Backend,
                               detail::native_conversion<Backend>::platform_in(backendObject));
}
template <backend Backend>
device make_device(const backend_input_t<Backend, device>& backendObject) {
  return detail::make_device(Backend, detail::native_conversion<Backend>::device_in(backendObject));
}
template <backend Backend>
context make_context(const backend_input_t<Backend, context>& backendObject,
                     const async_handler asyncHandler = {}) {
  return detail::make_context(
      Backend, detail::native_conversion<Backend>::context_in(backendObject), asyncHandler);
}
template <backend Backend>
queue make_queue(const backend_input_t<Backend, queue>& backendObject, const context& targetContext,
                 const async_handler asyncHandler = {}) {
  return detail::make_queue(Backend, detail::native_conversion<Backend>::queue_in(backendObject),
                            targetContext, asyncHandler);
}
template <backend Backend>
event make_event(const backend_input_t<Backend, event>& backendObject,
                 const context& targetContext) {
  return detail::make_event(Backend, detail::native_conversion<Backend>::event_in(backendObject),
                            targetContext);
}
// A buffer over native memory: no backend of syclone offers it (DPC++'s CUDA backend neither).
template <backend Backend, typename T, int Dimensions = 1,
          typename AllocatorT = buffer_allocator<std::remove_const_t<T>>>
buffer<T, Dimensions, AllocatorT>
make_buffer(const backend_input_t<Backend, buffer<T, Dimensions, AllocatorT>>&, const context&,
            event = {}) {
  detail::throw_error(errc::feature_not_supported,
                      "sycl::make_buffer: syclone cannot make a buffer over native memory; "
                      "allocate USM (malloc_device) and use the native pointer with it instead");
}

// interop_handle's members (declared in <sycl/interop_handle.hpp>).
template <backend Backend, typename DataT, int Dims, access_mode AccMode, target AccTarget,
          access::placeholder IsPlaceholder>
auto interop_handle::get_native_mem(
    const accessor<DataT, Dims, AccMode, AccTarget, IsPlaceholder>& bufferAccessor) const {
  check_backend(Backend, "interop_handle::get_native_mem");
  detail::buffer_impl* b = bufferAccessor.state().m_buffer;
  if (!b)
    detail::throw_error(errc::invalid, "interop_handle::get_native_mem: the accessor is not "
                                       "bound to a buffer (a default-constructed accessor)");
  return detail::native_conversion<Backend>::template mem_out<buffer<DataT, Dims>>(
      native_mem(Backend, *b));
}
template <backend Backend>
auto interop_handle::get_native_queue() const {
  check_backend(Backend, "interop_handle::get_native_queue");
  return detail::native_conversion<Backend>::queue_out(native_queue(Backend));
}
template <backend Backend>
auto interop_handle::get_native_device() const {
  check_backend(Backend, "interop_handle::get_native_device");
  return get_native<Backend>(m_device);
}
template <backend Backend>
auto interop_handle::get_native_context() const {
  check_backend(Backend, "interop_handle::get_native_context");
  return get_native<Backend>(m_context);
}

SYCLONE_END_NAMESPACE

#include <sycl/ext/oneapi/backend/cuda.hpp>
