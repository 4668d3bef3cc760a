// SYCL 2020 4.10.2. interop_handle: what a host task (or a native command,
// sycl_ext_oneapi_enqueue_native_command) sees of the queue it runs for. The get_native_*
// members are defined in <sycl/backend.hpp>, with the backends' native types.
#pragma once

#include <sycl/access.hpp>
#include <sycl/context.hpp>
#include <sycl/detail/impl_fwd.hpp>
#include <sycl/device.hpp>

SYCLONE_BEGIN_NAMESPACE

template <typename DataT, int Dimensions, access_mode AccessMode, target AccessTarget,
          access::placeholder IsPlaceholder>
class accessor;

namespace detail {
struct command;
}

class SYCLONE_EXPORT interop_handle {
public:
  interop_handle() = delete;
  backend get_backend() const noexcept;

  // SYCL 2020 4.10.2: the native memory of a buffer the command group requires (for the CUDA
  // backend its CUdeviceptr on the queue's device, up to date when the call returns); the native
  // queue (CUstream), device (CUdevice) and context (CUcontext). Each throws
  // errc::backend_mismatch when the queue is not of `Backend`.
  template <backend Backend, typename DataT, int Dims, access_mode AccMode, target AccTarget,
            access::placeholder IsPlaceholder>
  auto get_native_mem(
      const accessor<DataT, Dims, AccMode, AccTarget, IsPlaceholder>& bufferAccessor) const;
  template <backend Backend>
  auto get_native_queue() const;
  template <backend Backend>
  auto get_native_device() const;
  template <backend Backend>
  auto get_native_context() const;

  // sycl_ext_codeplay_enqueue_native_command: syclone has no SYCL graphs, so never.
  bool ext_codeplay_has_graph() const noexcept { return false; }

  device get_device() const { return m_device; }
  context get_context() const { return m_context; }

  // Not part of the SYCL API: the runtime creates handles. `cmd` is the command that runs;
  // `native_command`: a native command (its buffers are already on the device) rather than a
  // host task (its buffers are on the host until get_native_mem moves them).
  interop_handle(device dev, context ctx, std::shared_ptr<detail::queue_impl> q,
                 detail::command* cmd, bool native_command)
      : m_device(std::move(dev)), m_context(std::move(ctx)), m_queue(std::move(q)), m_command(cmd),
        m_native_command(native_command) {}

private:
  // Type-erased halves of the get_native_* members (src/runtime/interop.cpp).
  void* native_mem(backend b, detail::buffer_impl& buffer) const;
  void* native_queue(backend b) const;
  void check_backend(backend b, const char* what) const;

  device m_device;
  context m_context;
  std::shared_ptr<detail::queue_impl> m_queue;
  detail::command* m_command;
  bool m_native_command;
};

SYCLONE_END_NAMESPACE
