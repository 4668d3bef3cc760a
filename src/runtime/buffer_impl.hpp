// buffer_impl: a buffer's storage, the commands that use it, and its write-back (SYCL 2020
// 4.7.2). Commands refer to a buffer by raw pointer: the last user handle's destructor waits
// for them before the storage goes (SYCL 2020 4.7.2.3 "buffer synchronization rules").
#pragma once

#include "event_impl.hpp"

#include <sycl/buffer.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

class buffer_impl {
public:
  buffer_impl(const buffer_layout& layout, const void* host_data, void* write_back,
              bool use_host_ptr, host_allocator alloc);
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
  std::byte* host_data() { return root().m_storage + m_byte_offset; }

  // Dependencies of a new access in `mode`; records `ev` as that access. Thread-safe.
  std::vector<std::shared_ptr<event_impl>> add_access(access_mode mode,
                                                      const std::shared_ptr<event_impl>& ev);
  // Waits for every command that uses the buffer.
  void wait_all();

  void set_final_data(void* ptr);
  void set_final_data(std::function<void(const void*)> writer);
  void set_write_back(bool flag) { root_state().write_back_enabled = flag; }
  property_list* properties() { return &m_props; }

private:
  struct state {
    std::mutex mutex;
    std::shared_ptr<event_impl> last_write;
    std::vector<std::shared_ptr<event_impl>> reads; // since last_write
    bool write_back_enabled = true;
    void* final_ptr = nullptr;
    std::function<void(const void*)> final_writer;
  };
  state& root_state() { return root().m_state; }

  std::shared_ptr<buffer_impl> m_parent; // sub-buffers keep their parent alive
  std::size_t m_byte_offset = 0;
  std::size_t m_bytes = 0;
  std::byte* m_storage = nullptr; // root only
  bool m_owns_storage = false;
  host_allocator m_alloc;
  state m_state;
  property_list m_props;
};

} // namespace detail
SYCLONE_END_NAMESPACE
