// buffer_impl: a buffer's storage, the commands that use it, and its write-back (SYCL 2020
// 4.7.2). Commands refer to a buffer by raw pointer: the last user handle's destructor waits
// for them before the storage goes (SYCL 2020 4.7.2.3 "buffer synchronization rules").
#pragma once

#include "device_impl.hpp"
#include "event_impl.hpp"
#include "residency.hpp"

#include <sycl/buffer.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

struct mem_region;

// The buffers a command group being recorded requires (handler_impl): room for one of them on a
// device is never made by evicting another, nor by waiting for another.
class buffer_set {
public:
  virtual void collect(std::vector<const evictable*>& out) const = 0;

protected:
  ~buffer_set() = default;
};

class buffer_impl final : public std::enable_shared_from_this<buffer_impl>, public evictable {
public:
  buffer_impl(const buffer_layout& layout, const void* host_data, void* write_back,
              bool use_host_ptr, host_allocator alloc, bool defer_copy = false);
  buffer_impl(std::shared_ptr<buffer_impl> parent, const buffer_layout& layout,
              std::size_t element_offset);
  ~buffer_impl();
  buffer_impl(const buffer_impl&) = delete;
  buffer_impl& operator=(const buffer_impl&) = delete;

  std::size_t byte_size() const { return m_bytes; }
  // The buffer whose storage and dependency state this one shares (itself unless a sub-buffer).
  buffer_impl& root() { return m_parent ? m_parent->root() : *this; }
  bool is_sub_buffer() const { return m_parent != nullptr; }
  // Host address of element {0,...} of this (sub-)buffer.
  std::byte* host_data() { return root().storage() + m_byte_offset; }

  // Address of element {0,...} on device d, allocating the buffer there on first use
  // (DESIGN.md: accessors capture the pointer on the handler's device). When d has no room, idle
  // copies of other buffers leave it first (residency.hpp); errc::memory_allocation when even
  // that frees too little.
  // `group`: the command group asking, when one is.
  void* data_on(device_impl& d, const buffer_set* group = nullptr);
  // A command group that requires the buffer holds a pin from handler::require until its
  // command is registered (add_access): in between, the device address it captured must stay.
  void pin() { root().m_pins.fetch_add(1, std::memory_order_relaxed); }
  void unpin() { root().m_pins.fetch_sub(1, std::memory_order_release); }
  // Brings the copy on d (or on the host, when d is null or host-addressable) up to date for an
  // access in `mode`, in dependency order just before the command runs; device copies are
  // made on `s`, ahead of the command's own operation.
  // Returns the native event of the copy it made onto d, if any. A newer copy on another device
  // of the same backend moves over directly (peer to peer on NVIDIA GPUs), others through the
  // host copy.
  std::shared_ptr<syclone::runtime::native_event>
  prepare(device_impl* d, access_mode mode, bool no_init, syclone::runtime::stream* s);
  // interop_handle::get_native_mem in a host task (whose buffers are on the host): brings the
  // copy on d up to date for `mode` at once and returns its address.
  void* native_on(device_impl& d, access_mode mode);
  // get_native(buffer): waits for the buffer's commands, then the address of its newest copy on
  // a device the host cannot address of backend `b` (brought up to date from the host copy
  // when stale); null when the buffer has no copy on such a device.
  void* newest_device_copy(sycl::backend b);
  // A host accessor's read of what a device command just wrote: when the host copy is stale
  // and the newest contents are on `d`, copies them to the host copy on `s`, the stream the
  // writing command ran on (ordered after it, as cudaMemcpy is after a kernel: one round trip
  // instead of waiting for the command and then copying on another stream), and waits for that
  // copy. False, having done nothing, when the newest contents are elsewhere or the host copy
  // is current.
  bool sync_host_after(device_impl& d, syclone::runtime::stream& s);
  // A buffer reduction's result mirror (issue 14): pinned host memory of the buffer's size on
  // device d, which a reduction kernel writes its result to as well as to the device copy.
  // Made at the first call and kept until the buffer goes; null unless this is a root buffer
  // of `bytes` bytes (one element) on a device the host cannot address.
  void* host_mirror(device_impl& d, std::size_t bytes);
  // The kernel of `ev` writes `mirror` (host_mirror's) with the whole buffer's new contents:
  // until the next write access, the host copy is brought up to date from there once the kernel
  // completed, instead of by a copy from the device.
  void mirror_written(void* mirror, std::shared_ptr<syclone::runtime::native_event> ev);

  // Appends to `deps` the dependencies of a new access in `mode` (commands that may not have
  // completed: the scheduler tells those that did, without a driver call where stream order
  // already answers); records `ev` as that access. Thread-safe.
  // `writer`, if given, receives the last writing command when it is among the dependencies.
  void add_access(access_mode mode, const std::shared_ptr<event_impl>& ev,
                  std::vector<std::shared_ptr<event_impl>>& deps,
                  std::shared_ptr<event_impl>* writer = nullptr);
  // Waits for every command that uses the buffer.
  void wait_all();

  void set_final_data(void* ptr);
  void set_final_data(final_data_writer writer);
  // SYCL 2020 4.9.4.3 handler::update_host: copies region `r` of this (sub-)buffer from its host
  // copy (made current by prepare) to the host memory the buffer was built with or given by
  // set_final_data; a buffer without such memory has nothing to update.
  void update_host_memory(const mem_region& r);
  void set_write_back(bool flag) { root_state().write_back_enabled = flag; }
  property_list* properties() { return &m_props; }

private:
  struct state {
    std::mutex mutex;
    std::shared_ptr<event_impl> last_write;
    std::vector<std::shared_ptr<event_impl>> reads; // since last_write
    bool write_back_enabled = true;
    // Whether any access could have written the contents: a buffer nothing wrote leaves its
    // final data as it is (the host may have changed it meanwhile; the CTS relies on this).
    bool written = false;
    void* final_ptr = nullptr;
    final_data_writer final_writer;
    // Copies on devices the host cannot address; the host copy is m_storage.
    struct device_copy {
      std::shared_ptr<device_impl> device;
      void* ptr = nullptr;
      bool valid = false;
      // The copy that last brought the contents here, and the stream it ran on: a command on
      // another stream (an out-of-order queue has several, other queues their own) that finds
      // the copy valid waits for it too, since no command orders it after that copy.
      std::shared_ptr<syclone::runtime::native_event> filled;
      const syclone::runtime::stream* filled_on = nullptr;
      std::uint64_t last_use = 0; // residency::tick of the last command group that used it
      std::uint64_t epoch = 0;    // the device's epoch when allocated (stale after a reset)
      // Its address went to the user (get_native): it stays until the buffer goes.
      bool exported = false;
    };
    std::vector<device_copy> device_copies;
    std::atomic<bool> has_device_copies{false}; // ever had one (set under data_mutex)
    bool host_valid = true;
    // host_mirror's block, of mirror_device's staging pool; valid while the last write was the
    // kernel of mirror_event, which writes it.
    void* mirror = nullptr;
    device_impl* mirror_device = nullptr;
    std::uint64_t mirror_epoch = 0;
    // The only current contents were on a device reset after a fault (issue 28): reading them
    // is an error until the buffer is written anew (no_init).
    bool lost = false;
    std::string lost_on; // that device's name
    // Devices whose residency registry this buffer joined (removed from all at destruction).
    std::vector<device_impl*> registered_on;
    bool mirror_valid = false;
    std::shared_ptr<syclone::runtime::native_event> mirror_event;
    std::mutex data_mutex; // guards device_copies, host_valid and the mirror
  };
  // The host copy from a valid mirror once its kernel completed; false (nothing done) when the
  // mirror is not valid or the kernel failed.
  bool sync_host_from_mirror(state& s);
  state::device_copy* find_copy(device_impl& d);
  void sync_host_locked(state& s);
  state& root_state() { return root().m_state; }
  // evictable (residency.hpp), on the root buffer.
  std::size_t evict_from(device_impl& d, bool& busy) noexcept override;
  std::size_t pending_on(device_impl& d, std::vector<std::shared_ptr<event_impl>>& out,
                         bool& busy) noexcept override;
  std::uint64_t last_use_on(device_impl& d) noexcept override;
  bool only_copy_on(device_impl& d, std::string& what) noexcept override;
  // Forgets (never frees) copies made on a device before its reset after a fault, marking the
  // buffer lost when one of them held the only current contents. Under data_mutex.
  void drop_stale_copies(state& s);
  // The message of a device allocation that found no room, even after evicting.
  [[noreturn]] void throw_no_room(device_impl& d);
  // Copies elements [first, first + count) of the root's contents to its final data; the
  // caller holds the user's mutex (property::buffer::use_mutex) if there is one.
  void write_final_data(std::size_t first, std::size_t count);
  // Locks the mutex of property::buffer::use_mutex, if the buffer has one.
  std::unique_lock<std::mutex> lock_user_mutex();

  std::shared_ptr<buffer_impl> m_parent; // sub-buffers keep their parent alive
  std::size_t m_byte_offset = 0;
  std::size_t m_bytes = 0;
  std::size_t m_element_size = 1;
  // The root's host copy, holding the initial contents a deferred copy owes it (make_buffer's
  // defer_copy) once anything reads or writes it.
  std::byte* storage() {
    if (m_initial_pending.load(std::memory_order_acquire)) copy_initial();
    return m_storage;
  }
  void copy_initial();

  std::byte* m_storage = nullptr; // root only
  bool m_owns_storage = false;
  const void* m_initial = nullptr; // host data not copied into m_storage yet
  std::atomic<bool> m_initial_pending{false};
  std::once_flag m_initial_once;
  std::atomic<unsigned> m_pins{0}; // root only: see pin()
  host_allocator m_alloc;
  state m_state;
  property_list m_props;
};

} // namespace detail
SYCLONE_END_NAMESPACE
