// SYCL 2020 4.16 sycl::stream: the runtime side of include/sycl/stream.hpp. The buffer lives in
// memory both the device and the host address (host memory on the host device, USM shared
// memory on a GPU); when the command completed, its statements are written to stdout in the
// order the work-items reserved them, and the buffer is freed.
#include "queue_impl.hpp"

#include "../backends/host/work_item_streams.hpp"

#include <sycl/reduction.hpp>
#include <sycl/stream.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

namespace {
std::atomic<std::uint64_t> g_next_stream_id{1};

// Printed and freed when the command completed (the command keeps it alive until then).
struct stream_output {
  stream_output(std::shared_ptr<device_impl> dev, std::byte* data, std::size_t size,
                std::size_t capacity, std::size_t segment)
      : dev(std::move(dev)), data(data), size(size), capacity(capacity), segment(segment) {
    if (this->dev) epoch = this->dev->epoch();
  }
  stream_output(const stream_output&) = delete;
  stream_output& operator=(const stream_output&) = delete;
  ~stream_output() {
    if (dev && dev->epoch() != epoch) return; // reset after a fault: the memory went with it
    std::uint64_t reserved;
    std::memcpy(&reserved, data, sizeof reserved);
    if (reserved > capacity) reserved = capacity;
    // Whole statements, in the order they were reserved, while they fit in the total.
    std::size_t left = size;
    for (std::uint64_t at = 0; at + segment <= reserved; at += segment) {
      std::uint32_t length;
      std::memcpy(&length, data + 8 + at, sizeof length);
      if (length > segment - 4) length = static_cast<std::uint32_t>(segment - 4);
      if (length > left) break;
      std::fwrite(data + 8 + at + 4, 1, length, stdout);
      left -= length;
    }
    std::fflush(stdout);
    if (dev)
      dev->backend_device().deallocate(data, usm::alloc::shared);
    else
      std::free(data);
  }
  std::shared_ptr<device_impl> dev; // null: host memory from calloc
  std::uint64_t epoch = 0;          // dev's, when it allocated data
  std::byte* data;
  std::size_t size;     // totalBufferSize: the characters printed at most
  std::size_t capacity; // bytes of segments after the header
  std::size_t segment;
};

// Segments for one per character of the total (each statement has at least one), or as many as
// 64 MiB hold where that is less, but at least the total in full statements. Memory of both
// kinds (calloc, CUDA managed) is only backed where written.
std::size_t segment_capacity(std::size_t bytes, std::size_t segment) {
  constexpr std::size_t cap = std::size_t(64) << 20;
  std::size_t per_character = bytes <= cap / segment ? bytes * segment : cap / segment * segment;
  std::size_t characters = segment > 4 ? segment - 4 : 1;
  std::size_t full = (bytes + characters - 1) / characters * segment;
  return std::max(per_character, full);
}

} // namespace

std::byte* stream_buffer(handler& cgh, std::size_t bytes, std::size_t segment, std::uint64_t* id,
                         std::size_t* capacity) {
  auto& h = *cgh.impl();
  auto dev = h.m_queue->device();
  *capacity = segment_capacity(bytes, segment);
  std::size_t total = 8 + *capacity;
  std::byte* data;
  std::shared_ptr<device_impl> owner;
  if (dev->host_addressable()) {
    data = static_cast<std::byte*>(std::calloc(1, total));
  } else {
    data = static_cast<std::byte*>(dev->backend_device().allocate(total, 64, usm::alloc::shared));
    if (data) std::memset(data, 0, 8);
    owner = dev;
  }
  if (!data)
    throw_error(errc::memory_allocation, "sycl::stream: cannot allocate its buffer of " +
                                             std::to_string(bytes) + " bytes on " +
                                             dev->props().name + "; use a smaller totalBufferSize");
  *id = g_next_stream_id.fetch_add(1, std::memory_order_relaxed);
  h.keep_until_complete(std::make_shared<stream_output>(owner, data, bytes, *capacity, segment));
  h.m_command.writes_output = true;
  return data;
}

bool command_writes_stream(handler& cgh) {
  return cgh.impl()->m_command.writes_output;
}

// SYCL 2020 4.16: the running work-item's own state (work_item_streams.hpp).
stream_state& host_stream_state(std::uint64_t id, const stream_state& initial) {
  return syclone::host::current_work_item_streams().find(id, initial);
}

} // namespace detail
SYCLONE_END_NAMESPACE
