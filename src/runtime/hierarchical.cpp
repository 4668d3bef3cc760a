// SYCL 2020 4.10.7.3: a private_memory belongs to the work-group that created it; the runtime
// side of the misuse check of include/sycl/hierarchical.hpp.
//
// The host device checks each use and throws from inside the kernel (an asynchronous error of
// the queue, like any exception a host kernel throws). On a GPU a hierarchical kernel carries
// the address of an error slot: 8 bytes of pinned host memory the device writes, zero while
// nothing went wrong. A misuse stores (group << 32 | creating group) there and the work-item
// goes on with its own value (the kernel, the queue and the context stay usable); when the
// command completed, the runtime reads the slot and reports the same sycl::exception the host
// throws, as an asynchronous error of the queue, before waiters of the command return.
#include "queue_impl.hpp"

#include <sycl/hierarchical.hpp>

#include <map>
#include <mutex>
#include <string>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

void throw_private_memory_misuse(std::size_t group, std::size_t expected_group) {
  throw_error(errc::invalid,
              "private_memory: used by a work-item of work-group " + std::to_string(group) +
                  " but created in work-group " + std::to_string(expected_group) +
                  "; declare the private_memory in the work-group scope of the kernel that "
                  "uses it, and use it only inside that group's parallel_for_work_item");
}

namespace {

// Error slots of one device, from blocks of pinned host memory mapped for the device. Never
// freed: devices live as long as the process.
class error_slots {
public:
  static error_slots& of(device_impl& dev) {
    static std::mutex mutex;
    static auto* pools = new std::map<device_impl*, error_slots*>();
    std::lock_guard lock(mutex);
    auto& p = (*pools)[&dev];
    if (!p) p = new error_slots(dev);
    return *p;
  }

  // A zeroed slot, of pinned memory of the device's epoch `epoch` (set here).
  std::uint64_t* take(std::uint64_t& epoch) {
    std::lock_guard lock(m_mutex);
    epoch = m_device.epoch();
    if (epoch != m_epoch) { // the device was reset: its pinned memory went with it
      m_free.clear();
      m_epoch = epoch;
    }
    if (m_free.empty()) {
      constexpr std::size_t block = 4096;
      void* p = m_device.backend_device().allocate(block, 64, usm::alloc::host);
      if (!p)
        throw_error(errc::memory_allocation,
                    "parallel_for_work_group: cannot allocate the " + std::to_string(block) +
                        " bytes of pinned host memory where hierarchical kernels on " +
                        m_device.props().name + " report errors; free host memory");
      auto* slots = static_cast<std::uint64_t*>(p);
      for (std::size_t i = 0; i < block / sizeof(std::uint64_t); ++i) {
        slots[i] = 0;
        m_free.push_back(slots + i);
      }
    }
    std::uint64_t* slot = m_free.back();
    m_free.pop_back();
    return slot;
  }
  void give_back(std::uint64_t* slot, std::uint64_t epoch) {
    std::lock_guard lock(m_mutex);
    if (epoch == m_epoch) m_free.push_back(slot);
  }

private:
  explicit error_slots(device_impl& dev) : m_device(dev) {}
  device_impl& m_device;
  std::mutex m_mutex;
  std::vector<std::uint64_t*> m_free;
  std::uint64_t m_epoch = 0;
};

// Kept by the command: reads the slot once the kernel completed.
struct error_check {
  error_check(error_slots* pool, std::uint64_t* slot, std::uint64_t epoch, device_impl* dev,
              std::weak_ptr<queue_impl> queue)
      : pool(pool), slot(slot), epoch(epoch), dev(dev), queue(std::move(queue)) {}
  error_check(const error_check&) = delete;
  error_check& operator=(const error_check&) = delete;
  ~error_check() {
    if (dev->epoch() != epoch) return; // reset after a fault: the slot's memory is gone
    std::uint64_t found = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (found) {
      *slot = 0;
      if (auto q = queue.lock()) {
        try {
          throw_private_memory_misuse(static_cast<std::size_t>(found >> 32),
                                      static_cast<std::size_t>(found & 0xffffffffu));
        } catch (...) {
          q->report_async(std::current_exception());
        }
      }
    }
    pool->give_back(slot, epoch);
  }
  error_slots* pool;
  std::uint64_t* slot;
  std::uint64_t epoch;
  device_impl* dev;
  std::weak_ptr<queue_impl> queue;
};

} // namespace

std::uint64_t* hierarchical_error_slot(handler& cgh) {
  auto& h = *cgh.impl();
  auto& dev = *h.m_queue->device();
  if (dev.host_addressable()) return nullptr; // the host throws where the misuse happens
  auto& pool = error_slots::of(dev);
  std::uint64_t epoch = 0;
  std::uint64_t* slot = pool.take(epoch);
  h.keep_until_complete(std::make_shared<error_check>(&pool, slot, epoch, &dev, h.m_queue));
  return slot;
}

} // namespace detail
SYCLONE_END_NAMESPACE
