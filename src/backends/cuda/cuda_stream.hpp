// An in-order CUDA stream for one SYCL queue (runtime::stream): kernels, copies and fills, each
// bracketed by two timing events that make its runtime::native_event.
#pragma once

#include "../../runtime/backend.hpp"
#include "cuda_event.hpp"
#include "cuda_kernels.hpp"
#include "launch_geometry.hpp"
#include "launch_thread.hpp"
#include "transfer_plan.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace syclone::cuda {

class cuda_device;

class cuda_stream final : public runtime::stream {
public:
  // `profiling`: operations record a timing event before and after them, so that their events
  // report start and end times (runtime::native_event::profile).
  cuda_stream(cuda_device& device, bool profiling);
  // A stream over `adopted`, a CUstream of the device's context the user owns (make_queue).
  cuda_stream(cuda_device& device, bool profiling, CUstream adopted);
  ~cuda_stream() override;

  // Waits on the GPU for an operation of any CUDA device (cuStreamWaitEvent accepts events of
  // other contexts); false for other backends' events.
  bool wait_on_device(runtime::native_event& e) override;
  void prepare_kernel_launch(sycl::detail::kernel_launch& launch,
                             std::size_t local_memory_bytes) override;
  std::shared_ptr<runtime::native_event> run_kernel(const sycl::detail::kernel_launch& launch,
                                                    std::size_t local_memory_bytes) override;
  std::shared_ptr<runtime::native_event> copy(const sycl::detail::mem_region& src,
                                              const sycl::detail::mem_region& dst) override;
  std::shared_ptr<runtime::native_event>
  fill(const sycl::detail::mem_region& dst, const void* pattern, std::size_t pattern_size) override;
  // A one-block kernel that stores the bytes into the pinned memory: it starts right behind the
  // kernel before it, where a copy-engine transfer waits several microseconds longer.
  std::shared_ptr<runtime::native_event> copy_to_pinned(const void* src, void* dst,
                                                        std::size_t bytes) override;
  // The CUstream for the user's own work (interop): every launch handed over was made, and none
  // is handed over any more, so that what the user enqueues follows what syclone did.
  void* native_handle() const noexcept override;
  // Runs `enqueue` with the device's context current, between the stream's previous operation
  // and the event it returns.
  std::shared_ptr<runtime::native_event> run_native(const std::function<void()>& enqueue) override;

private:
  struct kernel_plan {
    kernel_function* kernel;
    function_limits limits;
    launch_geometry geometry;
  };
  // The function for `launch`, its limits with `local_bytes` of local memory and the launch
  // shape; throws where the kernel cannot run (prepare_kernel_launch's errors).
  kernel_plan plan(const sycl::detail::kernel_launch& launch, std::size_t local_bytes);
  // Records the start event (streams that profile), runs `enqueue` (which adds the operation to
  // the stream), records the end event; no lock held across the driver calls, except between
  // the two timing events of a stream that profiles.
  template <typename Enqueue>
  std::shared_ptr<cuda_event> submit(operation_name what, Enqueue&& enqueue);
  void execute(const transfer_op& op, const void* staging, std::size_t pattern_size,
               const std::string& what);
  // Frees the host staging buffers of fills that completed.
  void release_staging();
  // Throws errc::runtime when the device's context was reset since the stream was made.
  void check_alive() const;

  cuda_device& m_device;
  bool m_profiling;
  std::shared_ptr<stream_handle> m_handle;
  struct staging_buffer {
    std::shared_ptr<cuda_event> event;
    void* host;
  };
  std::mutex m_staging_mutex; // guards m_staging; held across no driver call
  std::vector<staging_buffer> m_staging;
  std::atomic<std::size_t> m_staging_count{0}; // m_staging.size(), read without the lock
  // Makes the kernel launches of a busy stream (launch_thread.hpp); null for streams that
  // profile, record events lazily, belong to the user (make_queue) or with
  // SYCLONE_CUDA_LAUNCH_THREAD=0. Declared last: it stops, having made every launch, first.
  std::unique_ptr<launch_thread> m_launcher;
  mutable std::atomic<bool> m_native_handed_out{false};
};

} // namespace syclone::cuda
