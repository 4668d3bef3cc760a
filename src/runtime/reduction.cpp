// SYCL 2020 4.9.2 reductions: the runtime side of include/sycl/reduction.hpp. Scratch memory for
// the work-groups' partial results lives until the command completes (the command keeps it);
// on a GPU it comes from a per-device pool of blocks zeroed once, since every reduction kernel
// leaves its counter at zero again, so a launch allocates nothing after the first ones.
#include "buffer_impl.hpp"
#include "queue_impl.hpp"

#include <sycl/reduction.hpp>
#include <sycl/usm.hpp>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

namespace {
handler_impl& impl_of(handler& cgh) {
  return *cgh.impl();
}

// Blocks of device memory by size class (powers of two), per device. Never freed: devices live
// as long as the process.
class scratch_pool {
public:
  static scratch_pool& of(device_impl& dev) {
    static std::mutex mutex;
    static auto* pools = new std::map<device_impl*, scratch_pool*>();
    std::lock_guard lock(mutex);
    auto& p = (*pools)[&dev];
    if (!p) p = new scratch_pool(dev);
    return *p;
  }

  // A zeroed block of at least `bytes`; `zero_on` orders the zeroing of a new block before the
  // kernel that uses it.
  // `zeroed`: from the blocks every kernel leaves zeroed (kept apart from the others).
  // `epoch`: the device's epoch the block belongs to (set here).
  std::pair<void*, std::size_t> take(std::size_t bytes, syclone::runtime::stream& zero_on,
                                     bool zeroed, std::uint64_t& epoch) {
    std::size_t size = 64 * 1024;
    while (size < bytes) size *= 2;
    {
      std::lock_guard lock(m_mutex);
      if (m_device.epoch() != m_epoch) { // reset after a fault: the blocks went with it
        m_free.clear();
        m_free_zeroed.clear();
        m_epoch = m_device.epoch();
      }
      epoch = m_epoch;
      auto& free = (zeroed ? m_free_zeroed : m_free)[size];
      if (!free.empty()) {
        void* p = free.back();
        free.pop_back();
        return {p, size};
      }
    }
    void* p = m_device.backend_device().allocate(size, 256, usm::alloc::device);
    if (!p)
      throw_error(errc::memory_allocation,
                  "reduction: cannot allocate " + std::to_string(size) +
                      " bytes of scratch memory on " + m_device.props().name +
                      " for the work-groups' partial results; use fewer work-groups");
    unsigned char zero = 0;
    auto ev = zero_on.fill(contiguous(p, 1, size), &zero, 1);
    (void)ev; // ordered before the kernel on the same stream
    return {p, size};
  }
  void give_back(void* p, std::size_t size, bool zeroed, std::uint64_t epoch) {
    std::lock_guard lock(m_mutex);
    if (epoch == m_epoch) (zeroed ? m_free_zeroed : m_free)[size].push_back(p);
  }

private:
  explicit scratch_pool(device_impl& dev) : m_device(dev) {}
  device_impl& m_device;
  std::mutex m_mutex;
  std::map<std::size_t, std::vector<void*>> m_free;
  std::map<std::size_t, std::vector<void*>> m_free_zeroed;
  std::uint64_t m_epoch = 0;
};

struct pooled_scratch {
  pooled_scratch(scratch_pool* pool, void* ptr, std::size_t size, bool zeroed, std::uint64_t epoch)
      : pool(pool), ptr(ptr), size(size), zeroed(zeroed), epoch(epoch) {}
  pooled_scratch(const pooled_scratch&) = delete;
  pooled_scratch& operator=(const pooled_scratch&) = delete;
  ~pooled_scratch() { pool->give_back(ptr, size, zeroed, epoch); }
  scratch_pool* pool;
  void* ptr;
  std::size_t size;
  bool zeroed;
  std::uint64_t epoch;
};
struct host_scratch {
  explicit host_scratch(void* ptr) : ptr(ptr) {}
  host_scratch(const host_scratch&) = delete;
  host_scratch& operator=(const host_scratch&) = delete;
  ~host_scratch() { std::free(ptr); }
  void* ptr;
};

} // namespace

reduction_target reduction_target_of(handler& cgh) {
  auto& dev = *impl_of(cgh).m_queue->device();
  const auto& p = dev.props();
  reduction_target t;
  t.host = dev.host_addressable();
  t.compute_units = p.compute_units ? p.compute_units : 1;
  t.max_work_group_size =
      static_cast<std::uint32_t>(p.max_work_group_size ? p.max_work_group_size : 1);
  const char* strategy = std::getenv("SYCLONE_REDUCTION_STRATEGY");
  t.atomic_groups = strategy && std::strcmp(strategy, "atomic") == 0;
  return t;
}

namespace {
std::byte* scratch(handler& cgh, std::size_t bytes, bool zeroed) {
  auto& h = impl_of(cgh);
  auto& dev = *h.m_queue->device();
  if (dev.host_addressable()) {
    void* p = std::calloc(1, bytes);
    if (!p)
      throw_error(errc::memory_allocation, "reduction: cannot allocate " + std::to_string(bytes) +
                                               " bytes of scratch memory for the partial results");
    h.keep_until_complete(std::make_shared<host_scratch>(p));
    return static_cast<std::byte*>(p);
  }
  auto& pool = scratch_pool::of(dev);
  std::uint64_t epoch = 0;
  auto [p, size] = pool.take(bytes, h.pin_stream(), zeroed, epoch);
  h.keep_until_complete(std::make_shared<pooled_scratch>(&pool, p, size, zeroed, epoch));
  return static_cast<std::byte*>(p);
}
} // namespace

std::byte* reduction_scratch(handler& cgh, std::size_t bytes) {
  return scratch(cgh, bytes, false);
}
std::byte* reduction_scratch_zeroed(handler& cgh, std::size_t bytes) {
  return scratch(cgh, bytes, true);
}

void check_reduction_pointer(handler& cgh, const void* ptr, std::size_t index) {
  auto& h = impl_of(cgh);
  std::string which = "reduction variable " + std::to_string(index);
  if (!ptr)
    throw_error(errc::invalid, "parallel_for: " + which +
                                   " is a null pointer; pass USM memory (malloc_shared, "
                                   "malloc_device) or a buffer");
  // The host device writes any host memory: USM of another context (Celerity allocates in one
  // context and reduces on queues of another) or none at all.
  // Not a GPU's device allocation, though: the host device would take its address for its own.
  if (h.m_queue->device()->host_addressable()) {
    const device_impl* owner =
        h.m_queue->context()->foreign_device_owner(ptr, *h.m_queue->device());
    if (!owner) return;
    throw_error(errc::invalid, "parallel_for: " + which + " is a USM device allocation of " +
                                   owner->props().name + ", which " +
                                   h.m_queue->device()->props().name +
                                   " cannot access (SYCL 2020 4.8.2); reduce on a queue of that "
                                   "device, or into host or shared memory");
  }
  context ctx = impl_access::make<context>(h.m_queue->context());
  if (get_pointer_type(ptr, ctx) == usm::alloc::unknown) {
    // USM of another context of the queue's platform that the device addresses: host or shared
    // memory, or a device allocation of this device (or of its root device). Celerity allocates
    // in a context per device and reduces on queues of the default context, as DPC++ and
    // AdaptiveCpp allow; on CUDA every context of a device is its primary context.
    context_impl::allocation a{};
    const device_impl& dev = *h.m_queue->device();
    auto root = [](const device_impl* d) {
      while (d && d->parent()) d = d->parent().get();
      return d;
    };
    if (h.m_queue->context()->find_in_platform(ptr, dev, a) &&
        (a.kind != usm::alloc::device || root(a.device) == root(&dev)))
      return;
    char addr[32];
    std::snprintf(addr, sizeof addr, "%p", ptr);
    throw_error(errc::invalid,
                "parallel_for: " + which + " (" + addr +
                    ") is not USM memory of the queue's context, so the device cannot write it "
                    "(SYCL 2020 4.9.2.1); allocate it with sycl::malloc_shared or "
                    "sycl::malloc_device on this queue, or reduce into a sycl::buffer");
  }
}

void* reduction_buffer_mirror(handler& cgh, buffer_impl& b, std::size_t bytes) {
  static const bool on = [] {
    const char* e = std::getenv("SYCLONE_REDUCTION_MIRROR");
    return !(e && std::strcmp(e, "0") == 0);
  }();
  if (!on) return nullptr;
  auto& h = impl_of(cgh);
  auto& dev = *h.m_queue->device();
  if (dev.host_addressable()) return nullptr;
  for (auto& r : h.m_command.requirements)
    if (r.buffer == &b) {
      r.mirror = b.host_mirror(dev, bytes);
      return r.mirror;
    }
  return nullptr;
}

void prepare_reduction_result(handler& cgh, void* ptr, std::size_t bytes) {
  auto& h = impl_of(cgh);
  auto& dev = *h.m_queue->device();
  if (dev.host_addressable()) return;
  const char* advice = std::getenv("SYCLONE_REDUCTION_SHARED_ADVICE");
  if (advice && std::strcmp(advice, "0") == 0) return;
  context ctx = impl_access::make<context>(h.m_queue->context());
  if (get_pointer_type(ptr, ctx) == usm::alloc::shared)
    dev.backend_device().advise_shared_access(ptr, bytes);
}

void throw_reduction_error(const char* what) {
  throw_error(errc::invalid, what);
}

} // namespace detail
SYCLONE_END_NAMESPACE
