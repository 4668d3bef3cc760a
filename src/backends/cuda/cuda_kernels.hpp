// Kernels of one device: found by name in the registered nvptx64 images, compiled by the JIT
// (src/jit) for the launch's specialization constants, loaded as CUDA modules and kept for
// later launches (DESIGN.md "Kernel launch").
#pragma once

#include "../../jit/jit.hpp"
#include "../../runtime/kernel_registry.hpp"
#include "cuda_driver.hpp"
#include "launch_geometry.hpp"

#include <sycl/detail/kernel_launch.hpp>

#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace syclone::runtime {
class device;
}

namespace syclone::cuda {

// A number no other kernel_function of the process had: caches that outlive a device (per
// thread) tell a function from a later one at the same address by it.
inline std::uint64_t new_kernel_serial() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

// A loaded kernel and what launches need to know about it.
struct kernel_function {
  const std::uint64_t serial = new_kernel_serial();
  std::string name;        // the kernel's name, for messages
  std::string description; // "kernel `K` on NVIDIA H100": what launches call it in messages
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  function_limits limits;
  std::size_t static_shared_bytes = 0;
  std::size_t local_bytes_per_thread = 0; // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES (0 if unknown)
  // The kernel calls printf (CUDA's vprintf): each launch is followed by print_after_kernel.
  bool prints = false;
  // The dynamic shared memory launches may use now
  // (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES; 48 KiB less the static part until raised).
  std::atomic<std::size_t> dynamic_shared_limit{0};
  std::mutex attribute_mutex;
};

// The libdevice.10.bc the JIT links: $SYCLONE_LIBDEVICE, else under $CUDA_HOME, $CUDA_PATH or
// /usr/local/cuda (nvvm/libdevice/libdevice.10.bc); empty when none exists (the JIT then
// searches its own list).
std::string find_libdevice();

// CUDA prints what kernels wrote with printf (sycl::ext::oneapi::experimental::printf) only at
// certain driver calls: a synchronization, the next launch, or just before running a stream
// callback. Enqueued on `stream` right after a printing kernel, an empty callback has the driver
// print that kernel's output as soon as it completed, whatever the program waits for, and before
// the kernel's completion event (recorded after the callback) completes. Where the driver lacks
// cuStreamAddCallback, or the call fails, the output waits for the next synchronization point,
// as in CUDA programs.
void print_after_kernel(CUstream stream) noexcept;

// The message for a kernel no nvptx64 image holds (errc::kernel_not_supported), naming the
// targets it was compiled for, if any.
std::string not_compiled_message(const std::string& kernel,
                                 const std::vector<std::string>& targets);

class kernel_cache {
public:
  struct device_info {
    CUcontext context = nullptr;
    std::string arch;                  // "sm_90"
    int driver_version = 0;            // cuDriverGetVersion
    std::string device_name;           // for messages
    runtime::device* device = nullptr; // whose device_global instances modules point to
  };
  explicit kernel_cache(device_info info) : m_info(std::move(info)) {}

  // The function for `launch`: cached per (image, kernel, specialization constant values).
  // Throws sycl::exception: errc::kernel_not_supported when no nvptx64 image holds the kernel,
  // errc::build when the JIT or the driver's PTX compiler fails. A launch without
  // specialization constant values is answered from a per-thread cache of the functions found
  // under the kernel registry's current generation: no lock, no image search, no key to build.
  kernel_function& get(const sycl::detail::kernel_launch& launch);
  // The same for kernel `name` with `values` (null: defaults); what sycl::build prepares and
  // launches from its bundle find. Only the values the kernel reads (recorded in its image)
  // enter the key, so a bundle that sets more compiles the kernel once for what it uses.
  kernel_function& get(const std::string& name, const sycl::detail::spec_constant_values* values);

private:
  struct slot {
    std::mutex mutex;
    std::unique_ptr<kernel_function> function;
    std::exception_ptr error; // errc::build: the compilation failed and is not tried again
  };
  std::unique_ptr<kernel_function> compile(const runtime::kernel_image& image,
                                           const std::string& name,
                                           std::vector<jit::spec_constant> values);
  std::unique_ptr<kernel_function> load(const std::string& kernel, const std::string& ptx);
  void bind_device_globals(const std::string& kernel, CUmodule module, const std::string& ptx);

  device_info m_info;
  std::mutex m_mutex;
  std::unordered_map<std::string, std::unique_ptr<slot>> m_slots;
};

} // namespace syclone::cuda
