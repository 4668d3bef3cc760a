// SYCL 2020 4.10.2. interop_handle: what a host_task sees of the queue it runs for.
#pragma once

#include <sycl/context.hpp>
#include <sycl/detail/impl_fwd.hpp>
#include <sycl/device.hpp>

SYCLONE_BEGIN_NAMESPACE

class SYCLONE_EXPORT interop_handle {
public:
  interop_handle() = delete;
  backend get_backend() const noexcept;
  device get_device() const { return m_device; }
  context get_context() const { return m_context; }

  // Not part of the SYCL API: the runtime creates handles.
  interop_handle(device dev, context ctx) : m_device(std::move(dev)), m_context(std::move(ctx)) {}

private:
  device m_device;
  context m_context;
};

SYCLONE_END_NAMESPACE
