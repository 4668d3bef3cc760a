// SYCL 2020 4.16 on the host device: every work-item has its own sycl::stream state (formatting
// flags, precision, width, the statement it is writing). A work-item of an nd_range kernel keeps
// it with its fiber's stack (work-items of a group interleave on one thread at barriers); a
// work-item of a range or single_task kernel, which runs to its end before the next starts on
// the thread, keeps it in the thread's table. The executor clears a table when a work-item starts.
#pragma once

#include <sycl/stream.hpp>

#include <cstdint>

namespace syclone::host {

struct work_item_streams {
  struct entry {
    std::uint64_t id = 0; // the stream's identity; 0: free
    sycl::detail::stream_state state;
  };
  // A work-item rarely writes to more than a few streams; past this many the oldest entry's state
  // restarts (its open statement ends there).
  static constexpr unsigned capacity = 8;
  entry entries[capacity];
  unsigned next = 0;

  void clear() noexcept {
    for (entry& e : entries) e.id = 0;
    next = 0;
  }
  sycl::detail::stream_state& find(std::uint64_t id, const sycl::detail::stream_state& initial) {
    for (entry& e : entries)
      if (e.id == id) return e.state;
    entry& e = entries[next++ % capacity];
    e.id = id;
    e.state = initial;
    return e.state;
  }
};

// The running work-item's table.
work_item_streams& current_work_item_streams();
// A range or single_task kernel's work-item starts on this thread.
void begin_thread_work_item() noexcept;
// Sets whether the launch running on this thread writes to a stream; returns the previous value.
bool exchange_streams_active(bool active) noexcept;

} // namespace syclone::host
