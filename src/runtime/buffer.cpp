// SYCL 2020 4.7.2. Buffer storage, dependency tracking and write-back.
#include "buffer_impl.hpp"
#include "queue_impl.hpp"

#include <sycl/handler.hpp>
#include <sycl/image.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

namespace {
std::size_t bytes_of(const buffer_layout& l) {
  std::size_t n = l.element_size;
  for (int d = 0; d < l.dimensions; ++d) n *= l.range[d];
  return n;
}

// Blocks of pinned host memory of one device, for small buffers read back by host accessors
// (a reduction's result): a device-to-host copy into pinned memory is a DMA the host waits for
// on an event, into pageable memory the driver stages it and blocks. Never freed: devices live
// as long as the process. SYCLONE_PINNED_READBACK=0 copies to the buffer's memory directly.
class readback_staging {
public:
  static constexpr std::size_t block = 4096;
  static bool enabled() {
    static const bool on = [] {
      const char* e = std::getenv("SYCLONE_PINNED_READBACK");
      return !(e && std::strcmp(e, "0") == 0);
    }();
    return on;
  }
  static readback_staging& of(device_impl& dev) {
    static std::mutex mutex;
    static auto* pools = new std::map<device_impl*, readback_staging*>();
    std::lock_guard lock(mutex);
    auto& p = (*pools)[&dev];
    if (!p) p = new readback_staging(dev);
    return *p;
  }
  // A block, or null when no pinned memory is to be had (the caller copies directly); `epoch`:
  // the device's epoch the block belongs to (a reset after a fault takes the memory along).
  void* take(std::uint64_t& epoch) {
    std::lock_guard lock(m_mutex);
    if (m_device.epoch() != m_epoch) {
      m_free.clear();
      m_epoch = m_device.epoch();
    }
    epoch = m_epoch;
    if (!m_free.empty()) {
      void* p = m_free.back();
      m_free.pop_back();
      return p;
    }
    return m_device.backend_device().allocate(block, 64, usm::alloc::host);
  }
  void give_back(void* p, std::uint64_t epoch) {
    std::lock_guard lock(m_mutex);
    if (epoch == m_epoch) m_free.push_back(p);
  }

private:
  explicit readback_staging(device_impl& dev) : m_device(dev) {}
  device_impl& m_device;
  std::mutex m_mutex;
  std::vector<void*> m_free;
  std::uint64_t m_epoch = 0;
};
} // namespace

buffer_impl::buffer_impl(const buffer_layout& layout, const void* host_data, void* write_back,
                         bool use_host_ptr, host_allocator alloc, bool defer_copy)
    : m_bytes(bytes_of(layout)), m_element_size(layout.element_size), m_alloc(std::move(alloc)) {
  if (use_host_ptr) {
    m_storage = static_cast<std::byte*>(const_cast<void*>(host_data));
  } else {
    if (m_bytes) {
      m_storage = static_cast<std::byte*>(m_alloc.allocate(m_alloc.state.get(), m_bytes));
      if (!m_storage)
        throw_error(errc::memory_allocation, "buffer: the allocator returned no memory for " +
                                                 std::to_string(m_bytes) + " bytes");
      m_owns_storage = true;
    }
    if (host_data && m_bytes) {
      if (defer_copy) {
        m_initial = host_data;
        m_initial_pending.store(true, std::memory_order_release);
      } else {
        std::memcpy(m_storage, host_data, m_bytes);
      }
    }
  }
  m_state.final_ptr = write_back;
}

void buffer_impl::copy_initial() {
  std::call_once(m_initial_once, [this] {
    std::memcpy(m_storage, m_initial, m_bytes);
    m_initial = nullptr;
    m_initial_pending.store(false, std::memory_order_release);
  });
}

buffer_impl::buffer_impl(std::shared_ptr<buffer_impl> parent, const buffer_layout& layout,
                         std::size_t element_offset)
    : m_parent(std::move(parent)), m_byte_offset(element_offset * layout.element_size),
      m_bytes(bytes_of(layout)), m_element_size(layout.element_size) {
  m_state.write_back_enabled = false; // the parent writes back
}

buffer_impl::~buffer_impl() {
  // SYCL 2020 4.7.2.3: destruction blocks until every command using the buffer is done, then
  // copies the contents to the final data.
  if (m_parent) {
    wait_all();
    return;
  }
  wait_all();
  std::vector<device_impl*> registered_on;
  {
    std::lock_guard lock(m_state.data_mutex);
    try {
      sync_host_locked(m_state);
    } catch (...) {
      // The copy back failed (the device failed): the queue reported it; the host copy stays.
    }
    drop_stale_copies(m_state);
    registered_on = m_state.registered_on;
  }
  // Out of the devices' registries before the copies go (without a buffer lock: residency.hpp).
  for (device_impl* d : registered_on) d->residency().remove(*this);
  // SYCL 2020 4.7.2.3: the contents go back to the final data; unchanged contents need not.
  // Contents a device reset lost are not written over the final data (the fault was reported).
  if (m_state.write_back_enabled && m_state.written && m_bytes && !m_state.lost) {
    auto user_lock = lock_user_mutex();
    write_final_data(0, m_bytes / m_element_size);
  }
  if (m_owns_storage) m_alloc.deallocate(m_alloc.state.get(), m_storage, m_bytes);
  if (m_state.mirror)
    readback_staging::of(*m_state.mirror_device).give_back(m_state.mirror, m_state.mirror_epoch);
  for (auto& c : m_state.device_copies)
    c.device->backend_device().deallocate(c.ptr, usm::alloc::device);
}

std::unique_lock<std::mutex> buffer_impl::lock_user_mutex() {
  auto* props = root().properties();
  // An image's storage is a buffer too (image.hpp), with the image's properties.
  if (props->has_property<property::image::use_mutex>())
    return std::unique_lock<std::mutex>(
        *props->get_property<property::image::use_mutex>().get_mutex_ptr());
  if (!props->has_property<property::buffer::use_mutex>()) return {};
  return std::unique_lock<std::mutex>(
      *props->get_property<property::buffer::use_mutex>().get_mutex_ptr());
}

void buffer_impl::write_final_data(std::size_t first, std::size_t count) {
  buffer_impl& r = root();
  state& s = r.m_state;
  if (s.final_writer)
    s.final_writer(r.storage(), first, count);
  else if (s.final_ptr && s.final_ptr != r.m_storage)
    std::memcpy(static_cast<std::byte*>(s.final_ptr) + first * r.m_element_size,
                r.storage() + first * r.m_element_size, count * r.m_element_size);
}

void buffer_impl::update_host_memory(const mem_region& region) {
  buffer_impl& r = root();
  state& s = r.m_state;
  if (!s.final_writer && (!s.final_ptr || s.final_ptr == r.m_storage)) return;
  auto user_lock = lock_user_mutex();
  // Rows of the region's innermost dimension are contiguous; the root's elements are counted
  // from the start of its storage (a sub-buffer starts m_byte_offset into it).
  const int inner = region.dimensions - 1;
  std::size_t range[3] = {1, 1, 1}, mem[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
  for (int d = 0; d < region.dimensions; ++d) {
    range[d] = region.range[d];
    mem[d] = region.mem[d];
    offset[d] = region.offset[d];
  }
  const std::size_t base = m_byte_offset / r.m_element_size;
  const std::size_t row = range[inner];
  std::size_t outer[2] = {1, 1}; // the dimensions before `inner`
  for (int d = 0; d < inner; ++d) outer[d] = range[d];
  for (std::size_t i = 0; i < outer[0]; ++i)
    for (std::size_t j = 0; j < outer[1]; ++j) {
      std::size_t idx[3] = {0, 0, 0};
      if (inner >= 1) idx[0] = i;
      if (inner >= 2) idx[1] = j;
      std::size_t linear = 0;
      for (int d = 0; d < region.dimensions; ++d) linear = linear * mem[d] + offset[d] + idx[d];
      write_final_data(base + linear, row);
    }
}

buffer_impl::state::device_copy* buffer_impl::find_copy(device_impl& d) {
  for (auto& c : root_state().device_copies)
    if (c.device.get() == &d) return &c;
  return nullptr;
}

void* buffer_impl::data_on(device_impl& d, const buffer_set* group) {
  if (d.host_addressable()) return host_data();
  buffer_impl& r = root();
  state& s = r.m_state;
  std::unique_lock lock(s.data_mutex);
  r.drop_stale_copies(s);
  auto* c = find_copy(d);
  void* p = nullptr;
  const std::uint64_t epoch = d.epoch();
  if (!c) {
    if (r.m_bytes) {
      // Without the lock: making room may wait for commands, which may need this buffer's.
      lock.unlock();
      std::vector<const evictable*> held{&r};
      if (group) group->collect(held);
      p = d.residency().allocate(d, r.m_bytes, 256, usm::alloc::device, held);
      if (!p) r.throw_no_room(d);
      lock.lock();
      r.drop_stale_copies(s);
      c = find_copy(d); // another thread may have been quicker
      if (c) {
        d.backend_device().deallocate(p, usm::alloc::device);
      } else {
        d.residency().add(r);
        if (std::find(s.registered_on.begin(), s.registered_on.end(), &d) == s.registered_on.end())
          s.registered_on.push_back(&d);
      }
    }
  }
  if (!c) {
    s.device_copies.push_back({nullptr, p, false, nullptr, nullptr});
    s.device_copies.back().epoch = epoch;
    s.has_device_copies.store(true, std::memory_order_release);
    // Keep the device alive as long as the copy (a platform's device, a sub-device, a device
    // over a user's native context: every device_impl has a shared owner).
    s.device_copies.back().device = d.weak_from_this().lock();
    c = &s.device_copies.back();
  }
  c->last_use = residency::tick();
  return static_cast<std::byte*>(c->ptr) + m_byte_offset;
}

namespace {
std::string mebibytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}
} // namespace

void buffer_impl::throw_no_room(device_impl& d) {
  throw_error(errc::memory_allocation,
              "buffer: cannot allocate " + std::to_string(m_bytes) + " bytes (" +
                  mebibytes(m_bytes) + ", " + std::to_string(m_bytes / m_element_size) +
                  " elements of " + std::to_string(m_element_size) + " bytes) on " +
                  d.props().name + " (" + mebibytes(d.props().global_mem_size) +
                  " of device memory), even after moving every other buffer it could back to "
                  "the host: the rest is held by USM allocations, by the other buffers of this "
                  "command group and by command groups other threads are recording. Free USM "
                  "memory, or split the work over smaller buffers (sub-buffers of a larger "
                  "one) so that each command's buffers fit on the device together");
}

std::size_t buffer_impl::evict_from(device_impl& d, bool& busy) noexcept {
  state& s = m_state;
  std::unique_lock data(s.data_mutex, std::try_to_lock);
  // After data_mutex: a command group that captured the copy's address (data_on, under that
  // mutex) pinned the buffer before, and unpins only once its command is registered.
  if (!data || m_pins.load(std::memory_order_acquire)) {
    busy = true;
    return 0;
  }
  // A copy a reset after a fault destroyed goes at once (nothing to free or write back).
  const std::size_t before = s.device_copies.size();
  drop_stale_copies(s);
  if (s.device_copies.size() != before && !find_copy(d)) return m_bytes;
  {
    std::unique_lock access(s.mutex, std::try_to_lock);
    if (!access) {
      busy = true;
      return 0;
    }
    // The status alone (is_complete could run the continuations of a command that completed,
    // which may want this buffer's locks): one done but not marked yet is waited for by
    // residency::allocate, through pending_on, and goes in its next round.
    auto running = [](const std::shared_ptr<event_impl>& e) {
      return e && e->status() != info::event_command_status::complete;
    };
    if (running(s.last_write) || std::any_of(s.reads.begin(), s.reads.end(), running)) return 0;
  }
  auto* c = find_copy(d);
  if (!c || c->exported || !c->ptr) return 0;
  if (c->valid && !s.host_valid) {
    try {
      sync_host_locked(s);
    } catch (...) {
      return 0; // the copy back failed: the device copy still holds the contents
    }
  }
  void* p = c->ptr;
  auto device = std::move(c->device);
  s.device_copies.erase(s.device_copies.begin() + (c - s.device_copies.data()));
  device->backend_device().deallocate(p, usm::alloc::device);
  return m_bytes;
}

std::size_t buffer_impl::pending_on(device_impl& d, std::vector<std::shared_ptr<event_impl>>& out,
                                    bool& busy) noexcept {
  state& s = m_state;
  std::unique_lock data(s.data_mutex, std::try_to_lock);
  if (!data || m_pins.load(std::memory_order_acquire)) {
    busy = true;
    return 0;
  }
  auto* c = find_copy(d);
  if (!c || c->exported || !c->ptr) return 0;
  std::unique_lock access(s.mutex, std::try_to_lock);
  if (!access) {
    busy = true;
    return 0;
  }
  const std::size_t before = out.size();
  auto running = [](const std::shared_ptr<event_impl>& e) {
    return e && e->status() != info::event_command_status::complete; // as in evict_from
  };
  try {
    if (running(s.last_write)) out.push_back(s.last_write);
    for (auto& r : s.reads)
      if (running(r)) out.push_back(r);
  } catch (...) { // no memory for the list: nothing to wait for
    out.resize(before);
    return 0;
  }
  return out.size() > before ? m_bytes : 0;
}

std::uint64_t buffer_impl::last_use_on(device_impl& d) noexcept {
  std::unique_lock data(m_state.data_mutex, std::try_to_lock);
  if (!data) return UINT64_MAX; // in use right now
  auto* c = find_copy(d);
  return c ? c->last_use : 0;
}

void* buffer_impl::host_mirror(device_impl& d, std::size_t bytes) {
  if (d.host_addressable() || m_parent || m_bytes != bytes || !bytes ||
      bytes > readback_staging::block)
    return nullptr;
  std::lock_guard lock(m_state.data_mutex);
  drop_stale_copies(m_state);
  if (!m_state.mirror) {
    std::uint64_t epoch = 0;
    void* p = readback_staging::of(d).take(epoch);
    if (!p) return nullptr; // no pinned memory to be had: the host accessor copies instead
    m_state.mirror = p;
    m_state.mirror_device = &d;
    m_state.mirror_epoch = epoch;
  }
  // One device's pinned block; a reduction on another device leaves it alone.
  return m_state.mirror_device == &d ? m_state.mirror : nullptr;
}

void buffer_impl::mirror_written(void* mirror, std::shared_ptr<syclone::runtime::native_event> ev) {
  std::lock_guard lock(m_state.data_mutex);
  if (mirror != m_state.mirror || m_state.host_valid) return;
  m_state.mirror_valid = true;
  m_state.mirror_event = std::move(ev);
}

bool buffer_impl::sync_host_from_mirror(state& s) {
  if (!s.mirror_valid) return false;
  try {
    s.mirror_event->wait();
  } catch (...) {
    // The kernel failed (its waiter reports it): the mirror holds nothing; the device copy is
    // what a copy can still read.
    s.mirror_valid = false;
    s.mirror_event.reset();
    return false;
  }
  std::memcpy(storage(), s.mirror, m_bytes);
  s.host_valid = true;
  return true;
}

namespace {
[[noreturn]] void throw_lost(std::size_t bytes, const std::string& device) {
  throw_error(errc::runtime,
              "buffer of " + std::to_string(bytes) + " bytes: its only current contents were on " +
                  device +
                  ", whose CUDA context was reset after a fault in a kernel (reported "
                  "before): they are lost. Write the buffer anew (an accessor with no_init) or "
                  "make a new one");
}
} // namespace

void buffer_impl::drop_stale_copies(state& s) {
  if (s.mirror && s.mirror_device->epoch() != s.mirror_epoch) {
    s.mirror = nullptr; // went with the reset: neither read nor given back
    s.mirror_valid = false;
    s.mirror_event.reset();
  }
  auto stale = [](const state::device_copy& c) { return c.device->epoch() != c.epoch; };
  if (std::none_of(s.device_copies.begin(), s.device_copies.end(), stale)) return;
  bool current_elsewhere = s.host_valid;
  for (auto& c : s.device_copies)
    if (c.valid && !stale(c)) current_elsewhere = true;
  for (auto& c : s.device_copies)
    if (stale(c) && c.valid && !current_elsewhere) {
      s.lost = true;
      s.lost_on = c.device->props().name;
    }
  std::erase_if(s.device_copies, stale);
  if (s.lost) s.host_valid = true; // holds what it held; reading it is refused until rewritten
}

bool buffer_impl::only_copy_on(device_impl& d, std::string& what) noexcept {
  std::unique_lock data(m_state.data_mutex, std::try_to_lock);
  if (!data) return false;
  auto* c = find_copy(d);
  if (!c || !c->valid || m_state.host_valid || m_state.mirror_valid) return false;
  for (auto& o : m_state.device_copies)
    if (&o != c && o.valid) return false;
  try {
    char address[32];
    std::snprintf(address, sizeof address, "%p", static_cast<void*>(m_storage));
    what = "a buffer of " + std::to_string(m_bytes / m_element_size) + " elements of " +
           std::to_string(m_element_size) + " bytes (host copy at " + address + ")";
  } catch (...) {
    return false;
  }
  return true;
}

// Copies the newest device copy to the host copy, if the host copy is stale.
void buffer_impl::sync_host_locked(state& s) {
  drop_stale_copies(s);
  if (s.lost) throw_lost(m_bytes, s.lost_on);
  if (s.host_valid) return;
  if (sync_host_from_mirror(s)) return;
  for (auto& c : s.device_copies)
    if (c.valid) {
      auto& stream = c.device->internal_stream();
      auto native = stream.copy(contiguous(c.ptr, 1, m_bytes), contiguous(storage(), 1, m_bytes));
      if (native) native->wait();
      s.host_valid = true;
      return;
    }
  s.host_valid = true; // no copy holds data: the contents were never initialized
}

bool buffer_impl::sync_host_after(device_impl& d, syclone::runtime::stream& stream) {
  buffer_impl& r = root();
  state& s = r.m_state;
  std::lock_guard lock(s.data_mutex);
  r.drop_stale_copies(s);
  if (s.host_valid) return false;
  state::device_copy* newest = nullptr;
  for (auto& c : s.device_copies)
    if (c.valid) {
      newest = &c;
      break;
    }
  if (!newest || newest->device.get() != &d || !r.m_bytes) return false;
  // A reduction kernel writes the result to the mirror too: the host accessor's wait for the
  // kernel is all the read-back needs (sync_host_locked reads the mirror then).
  if (s.mirror_valid) return false;
  if (r.m_bytes <= readback_staging::block && readback_staging::enabled()) {
    auto& pool = readback_staging::of(d);
    std::uint64_t epoch = 0;
    if (void* staging = pool.take(epoch)) {
      struct give_back {
        readback_staging& pool;
        void* block;
        std::uint64_t epoch;
        ~give_back() { pool.give_back(block, epoch); }
      } hold{pool, staging, epoch};
      auto native = stream.copy_to_pinned(newest->ptr, staging, r.m_bytes);
      if (native) native->wait();
      std::memcpy(r.storage(), staging, r.m_bytes);
      s.host_valid = true;
      return true;
    }
  }
  auto native =
      stream.copy(contiguous(newest->ptr, 1, r.m_bytes), contiguous(r.storage(), 1, r.m_bytes));
  if (native) native->wait();
  s.host_valid = true;
  return true;
}

std::shared_ptr<syclone::runtime::native_event>
buffer_impl::prepare(device_impl* d, access_mode mode, bool no_init,
                     syclone::runtime::stream* stream) {
  buffer_impl& r = root();
  state& s = r.m_state;
  // Only ever used on the host: nothing to move. Read without data_mutex (another thread may be
  // adding a copy on another device meanwhile, which this command does not use).
  if (!s.has_device_copies.load(std::memory_order_acquire)) return nullptr;
  bool writes = mode != access_mode::read;
  std::lock_guard lock(s.data_mutex);
  r.drop_stale_copies(s);
  if (s.lost) {
    if (!no_init) throw_lost(r.m_bytes, s.lost_on);
    s.lost = false; // written anew
  }
  if (!d || d->host_addressable()) {
    if (!no_init) r.sync_host_locked(s);
    s.host_valid = true;
    if (writes) {
      for (auto& c : s.device_copies) c.valid = false;
      s.mirror_valid = false;
      s.mirror_event.reset();
    }
    return nullptr;
  }
  auto* c = find_copy(*d);
  if (!c) return nullptr; // data_on was never called for d: nothing on d uses this buffer
  std::shared_ptr<syclone::runtime::native_event> moved;
  if (!c->valid && !no_init) {
    // The newest contents on another device that d's streams read directly: copied on `stream`,
    // which the scheduler ordered after the command that wrote them (several GPUs: peer to peer
    // where the hardware allows). Through the host copy otherwise.
    state::device_copy* peer = nullptr;
    if (!s.host_valid)
      for (auto& o : s.device_copies)
        if (o.valid && &o != c && d->backend_device().copies_from(o.device->backend_device())) {
          peer = &o;
          break;
        }
    if (peer) {
      moved = stream->copy(contiguous(peer->ptr, 1, r.m_bytes), contiguous(c->ptr, 1, r.m_bytes));
    } else {
      r.sync_host_locked(s);
      // Ordered before the command on the same stream.
      moved = stream->copy(contiguous(r.storage(), 1, r.m_bytes), contiguous(c->ptr, 1, r.m_bytes));
    }
    c->filled = moved;
    c->filled_on = stream;
  } else if (c->valid && c->filled && c->filled_on != stream) {
    if (c->filled->query())
      c->filled.reset();
    else if (!stream->wait_on_device(*c->filled))
      c->filled->wait();
  }
  c->valid = true;
  if (writes) {
    // The command writes the buffer: a mirror holds older contents (the command itself may
    // write it anew: mirror_written, after this).
    s.mirror_valid = false;
    s.mirror_event.reset();
    s.host_valid = false;
    for (auto& o : s.device_copies)
      if (&o != c) o.valid = false;
  }
  return moved;
}

void* buffer_impl::native_on(device_impl& d, access_mode mode) {
  void* p = data_on(d);
  if (d.host_addressable()) return p;
  auto moved = prepare(&d, mode, false, &d.internal_stream());
  if (moved) moved->wait();
  return p;
}

void* buffer_impl::newest_device_copy(sycl::backend b) {
  wait_all();
  buffer_impl& r = root();
  state& s = r.m_state;
  std::shared_ptr<device_impl> target;
  {
    std::lock_guard lock(s.data_mutex);
    r.drop_stale_copies(s);
    for (auto& c : s.device_copies)
      if (c.device->backend_device().backend() == b && (c.valid || !target)) {
        if (c.valid) {
          c.exported = true;
          return static_cast<std::byte*>(c.ptr) + m_byte_offset;
        }
        target = c.device;
      }
  }
  if (!target) return nullptr;
  // Only stale copies on that backend: the newest contents are on the host or another device.
  // The copy is the user's from now on: never evicted (a loop, as eviction may come between).
  for (bool marked = false; !marked;) {
    data_on(*target);
    std::lock_guard lock(s.data_mutex);
    if (auto* c = find_copy(*target)) marked = c->exported = true;
  }
  return native_on(*target, access_mode::read);
}

void buffer_impl::add_access(access_mode mode, const std::shared_ptr<event_impl>& ev,
                             std::vector<std::shared_ptr<event_impl>>& deps,
                             std::shared_ptr<event_impl>* writer) {
  auto done = [](const std::shared_ptr<event_impl>& e) {
    return e->status() == info::event_command_status::complete;
  };
  state& s = root_state();
  std::lock_guard lock(s.mutex);
  if (s.last_write && !done(s.last_write)) {
    deps.push_back(s.last_write);
    if (writer) *writer = s.last_write;
  }
  if (mode == access_mode::read) {
    // Reads pile up between writes; now and then those a newer read on the same device stream
    // stands for go, and if many remain, the backend is asked which of them finished.
    if (s.reads.size() >= 16) {
      erase_superseded(s.reads);
      if (s.reads.size() >= 16) erase_completed(s.reads);
    }
    s.reads.push_back(ev);
  } else {
    for (auto& r : s.reads)
      if (!done(r)) deps.push_back(r);
    s.reads.clear();
    s.last_write = ev;
    s.written = true;
  }
}

void buffer_impl::wait_all() {
  state& s = root_state();
  std::shared_ptr<event_impl> w;
  std::vector<std::shared_ptr<event_impl>> reads;
  {
    std::lock_guard lock(s.mutex);
    w = s.last_write;
    reads = s.reads;
  }
  if (w) w->wait();
  for (auto& r : reads) r->wait();
}

void buffer_impl::set_final_data(void* ptr) {
  state& s = root_state();
  s.final_ptr = ptr;
  s.final_writer = nullptr;
}
void buffer_impl::set_final_data(final_data_writer writer) {
  state& s = root_state();
  s.final_ptr = nullptr;
  s.final_writer = std::move(writer);
}

std::shared_ptr<buffer_impl> make_buffer(const buffer_layout& layout, const void* host_data,
                                         void* write_back, bool use_host_ptr, host_allocator alloc,
                                         const void* props, bool defer_copy) {
  auto b = std::make_shared<buffer_impl>(layout, host_data, write_back, use_host_ptr,
                                         std::move(alloc), defer_copy);
  if (props) *b->properties() = *static_cast<const property_list*>(props);
  return b;
}
// The entry point of programs built before make_buffer took defer_copy (libsyclone.so.0's
// ABI): they copy their host data at construction, as they always did.
SYCLONE_EXPORT std::shared_ptr<buffer_impl> make_buffer(const buffer_layout& layout,
                                                        const void* host_data, void* write_back,
                                                        bool use_host_ptr, host_allocator alloc,
                                                        const void* props);
std::shared_ptr<buffer_impl> make_buffer(const buffer_layout& layout, const void* host_data,
                                         void* write_back, bool use_host_ptr, host_allocator alloc,
                                         const void* props) {
  return make_buffer(layout, host_data, write_back, use_host_ptr, std::move(alloc), props, false);
}

std::shared_ptr<buffer_impl> make_sub_buffer(const std::shared_ptr<buffer_impl>& parent,
                                             const buffer_layout& layout,
                                             std::size_t element_offset) {
  return std::make_shared<buffer_impl>(parent, layout, element_offset);
}
void set_final_data(buffer_impl& b, void* ptr) {
  b.set_final_data(ptr);
}
void set_final_data(buffer_impl& b, final_data_writer writer) {
  b.set_final_data(std::move(writer));
}
void set_write_back(buffer_impl& b, bool flag) {
  b.set_write_back(flag);
}
bool is_sub_buffer(const buffer_impl& b) {
  return b.is_sub_buffer();
}
const void* buffer_properties(const buffer_impl& b) {
  return const_cast<buffer_impl&>(b).properties();
}

namespace {
// Held by host accessors: completing the event releases the buffer for later commands.
// It also keeps the buffer alive, so that a buffer destroyed while a host accessor still
// exists writes back once the accessor goes, instead of waiting for it forever.
struct host_access_hold {
  std::shared_ptr<event_impl> event;
  std::shared_ptr<buffer_impl> buffer;
  ~host_access_hold() {
    if (event) event->set_complete();
  }
};
} // namespace

std::shared_ptr<void> acquire_host_access(buffer_impl& b, access_mode mode, bool /*no_init*/,
                                          void** data) {
  auto ev = std::make_shared<event_impl>(false);
  ev->host_access = true;
  std::vector<std::shared_ptr<event_impl>> deps;
  std::shared_ptr<event_impl> writer;
  b.add_access(mode, ev, deps, &writer);
  // The usual case of a host accessor after a kernel (a reduction's result read back): the
  // copy to the host goes right behind the kernel on its stream, so that waiting for it waits
  // for both. Anything unusual (the command not on a device stream yet, its queue gone, an
  // error) takes the general path below, which waits for the command first.
  if (writer && !writer->host_access && writer->native() &&
      writer->status() != info::event_command_status::complete) {
    if (auto q = writer->queue(); q && writer->stream()) {
      try {
        b.sync_host_after(*q->device(), const_cast<syclone::runtime::stream&>(*writer->stream()));
      } catch (...) {
        // Reported by the waits below (the command's failure) or by the copy made there.
      }
    }
  }
  try {
    for (auto& d : deps)
      if (!d->host_access) d->wait();
    ev->set_running();
    b.prepare(nullptr, mode, false, nullptr);
  } catch (...) {
    // No accessor comes of it: later commands must not wait for one (a lost buffer's read, a
    // failed copy back).
    ev->set_complete();
    throw;
  }
  *data = b.host_data();
  auto hold = std::make_shared<host_access_hold>();
  hold->event = std::move(ev);
  hold->buffer = b.shared_from_this();
  return hold;
}

} // namespace detail
SYCLONE_END_NAMESPACE
