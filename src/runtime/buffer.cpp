// SYCL 2020 4.7.2. Buffer storage, dependency tracking and write-back.
#include "buffer_impl.hpp"
#include "queue_impl.hpp"

#include <cstring>
#include <new>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

namespace {
std::size_t bytes_of(const buffer_layout& l) {
  std::size_t n = l.element_size;
  for (int d = 0; d < l.dimensions; ++d) n *= l.range[d];
  return n;
}
} // namespace

buffer_impl::buffer_impl(const buffer_layout& layout, const void* host_data, void* write_back,
                         bool use_host_ptr, host_allocator alloc)
    : m_bytes(bytes_of(layout)), m_alloc(std::move(alloc)) {
  if (use_host_ptr) {
    m_storage = static_cast<std::byte*>(const_cast<void*>(host_data));
  } else {
    if (m_bytes) {
      m_storage = static_cast<std::byte*>(m_alloc.allocate(m_alloc.state.get(), m_bytes));
      if (!m_storage)
        throw_error(errc::memory_allocation,
                    "buffer: the allocator returned no memory for " + std::to_string(m_bytes) +
                        " bytes");
      m_owns_storage = true;
    }
    if (host_data && m_bytes) std::memcpy(m_storage, host_data, m_bytes);
  }
  m_state.final_ptr = write_back;
}

buffer_impl::buffer_impl(std::shared_ptr<buffer_impl> parent, const buffer_layout& layout,
                         std::size_t element_offset)
    : m_parent(std::move(parent)), m_byte_offset(element_offset * layout.element_size),
      m_bytes(bytes_of(layout)) {
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
  if (m_state.write_back_enabled && m_bytes) {
    if (m_state.final_writer) m_state.final_writer(m_storage);
    else if (m_state.final_ptr && m_state.final_ptr != m_storage)
      std::memcpy(m_state.final_ptr, m_storage, m_bytes);
  }
  if (m_owns_storage) m_alloc.deallocate(m_alloc.state.get(), m_storage, m_bytes);
}

std::vector<std::shared_ptr<event_impl>>
buffer_impl::add_access(access_mode mode, const std::shared_ptr<event_impl>& ev) {
  state& s = root_state();
  std::lock_guard lock(s.mutex);
  std::vector<std::shared_ptr<event_impl>> deps;
  if (s.last_write && !s.last_write->is_complete()) deps.push_back(s.last_write);
  if (mode == access_mode::read) {
    std::erase_if(s.reads, [](const auto& e) { return e->is_complete(); });
    s.reads.push_back(ev);
  } else {
    for (auto& r : s.reads)
      if (!r->is_complete()) deps.push_back(r);
    s.reads.clear();
    s.last_write = ev;
  }
  return deps;
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
void buffer_impl::set_final_data(std::function<void(const void*)> writer) {
  state& s = root_state();
  s.final_ptr = nullptr;
  s.final_writer = std::move(writer);
}

std::shared_ptr<buffer_impl> make_buffer(const buffer_layout& layout, const void* host_data,
                                         void* write_back, bool use_host_ptr, host_allocator alloc,
                                         const void* props) {
  auto b = std::make_shared<buffer_impl>(layout, host_data, write_back, use_host_ptr,
                                         std::move(alloc));
  if (props) *b->properties() = *static_cast<const property_list*>(props);
  return b;
}
std::shared_ptr<buffer_impl> make_sub_buffer(const std::shared_ptr<buffer_impl>& parent,
                                             const buffer_layout& layout,
                                             std::size_t element_offset) {
  return std::make_shared<buffer_impl>(parent, layout, element_offset);
}
void set_final_data(buffer_impl& b, void* ptr) { b.set_final_data(ptr); }
void set_final_data(buffer_impl& b, std::function<void(const void*)> writer) {
  b.set_final_data(std::move(writer));
}
void set_write_back(buffer_impl& b, bool flag) { b.set_write_back(flag); }
bool is_sub_buffer(const buffer_impl& b) { return b.is_sub_buffer(); }
const void* buffer_properties(const buffer_impl& b) {
  return const_cast<buffer_impl&>(b).properties();
}

namespace {
// Held by host accessors: completing the event releases the buffer for later commands.
struct host_access_hold {
  std::shared_ptr<event_impl> event;
  ~host_access_hold() {
    if (event) event->set_complete();
  }
};
} // namespace

std::shared_ptr<void> acquire_host_access(buffer_impl& b, access_mode mode, bool /*no_init*/,
                                          void** data) {
  auto ev = std::make_shared<event_impl>(false);
  auto deps = b.add_access(mode, ev);
  for (auto& d : deps) d->wait();
  ev->set_running();
  *data = b.host_data();
  auto hold = std::make_shared<host_access_hold>();
  hold->event = std::move(ev);
  return hold;
}

} // namespace detail
SYCLONE_END_NAMESPACE
