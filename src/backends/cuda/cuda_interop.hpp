// Backend interoperability of the CUDA backend (SYCL 2020 4.5.1, README "Backend
// interoperability"): events made from a user's CUevent (sycl::make_event).
#pragma once

#include "../../runtime/backend.hpp"
#include "cuda_driver.hpp"

namespace syclone::cuda {

// A CUevent the user created and still owns: completion is asked of the driver; streams wait
// for it on the GPU (cuda_stream::wait_on_device).
class adopted_event final : public runtime::native_event {
public:
  adopted_event(CUcontext context, CUevent event) : m_context(context), m_event(event) {}
  bool query() override;
  void wait() override;
  void notify(std::function<void(std::exception_ptr)> fn) override;
  void* native_handle() const noexcept override { return m_event; }
  CUevent get() const noexcept { return m_event; }

private:
  CUcontext m_context;
  CUevent m_event;
};

} // namespace syclone::cuda
