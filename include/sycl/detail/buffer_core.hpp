// What buffer and accessor templates share with the runtime's non-template buffer_impl.
#pragma once

#include <sycl/access.hpp>
#include <sycl/detail/impl_fwd.hpp>

#include <cstddef>
#include <functional>
#include <memory>

SYCLONE_BEGIN_NAMESPACE
class handler;
namespace detail {

// How the buffer's host storage is obtained: the buffer's AllocatorT, type-erased.
struct host_allocator {
  std::shared_ptr<void> state;
  void* (*allocate)(void* state, std::size_t bytes) = nullptr;
  void (*deallocate)(void* state, void* ptr, std::size_t bytes) = nullptr;
};

struct buffer_layout {
  int dimensions = 1;
  std::size_t range[3] = {1, 1, 1};
  std::size_t element_size = 1;
};

// Creates a buffer. host_data: initial contents (may be null); write_back: the pointer the
// contents go back to on destruction (may be null); use_host_ptr: host_data is the storage;
// defer_copy: host_data stays valid for the buffer's lifetime (SYCL 2020 4.7.2.1: the buffer
// owns a host pointer it was given), so its contents are copied when a command or host
// accessor first needs them, not before.
SYCLONE_EXPORT std::shared_ptr<buffer_impl>
make_buffer(const buffer_layout& layout, const void* host_data, void* write_back, bool use_host_ptr,
            host_allocator alloc, const void* props /* const property_list* */,
            bool defer_copy = false);
SYCLONE_EXPORT std::shared_ptr<buffer_impl>
make_sub_buffer(const std::shared_ptr<buffer_impl>& parent, const buffer_layout& layout,
                std::size_t element_offset);
// Write-back target on destruction and of handler::update_host: a raw pointer, or a callback
// (shared_ptr, iterators) that copies elements [first, first + count) of the buffer's contents
// (`src` is element 0) to the same elements of the destination.
using final_data_writer =
    std::function<void(const void* src, std::size_t first, std::size_t count)>;
SYCLONE_EXPORT void set_final_data(buffer_impl& b, void* ptr);
SYCLONE_EXPORT void set_final_data(buffer_impl& b, final_data_writer writer);
SYCLONE_EXPORT void set_write_back(buffer_impl& b, bool flag);
SYCLONE_EXPORT bool is_sub_buffer(const buffer_impl& b);
SYCLONE_EXPORT const void* buffer_properties(const buffer_impl& b); // const property_list*

// Registers an accessor's requirement with the command group and returns the base address
// of the buffer's data on the handler's device (DESIGN.md: accessors capture it eagerly).
// on_host: the memory is used by a host task (host_task accessors), not by the device.
SYCLONE_EXPORT void* require(handler& cgh, buffer_impl& b, access_mode mode, bool no_init,
                             bool on_host);
// A host accessor: waits for the commands using the buffer and blocks later ones while alive.
SYCLONE_EXPORT std::shared_ptr<void> acquire_host_access(buffer_impl& b, access_mode mode,
                                                         bool no_init, void** data);
// Called when an accessor is copied while a command group captures its kernel or host task:
// returns the buffer's data address for that command group (binding placeholders that were
// require()d), or throws errc::kernel_argument if the command group does not require it.
SYCLONE_EXPORT void* bind_captured_accessor(const void* capturing_cg, buffer_impl& b);
// The command group currently copying its kernel functor on this thread (null otherwise).
SYCLONE_EXPORT const void* capturing_command_group() noexcept;
// Reserves local memory for a local_accessor; returns its offset in the work-group's block.
SYCLONE_EXPORT std::size_t reserve_local_memory(handler& cgh, std::size_t bytes, std::size_t align);
// Called when a local_accessor is copied while a command group captures its kernel: the kernel
// uses local memory (a range kernel that does throws errc::kernel_argument at submit).
SYCLONE_EXPORT void note_captured_local_accessor(const void* capturing_cg) noexcept;
// Identity of a handler's command group (stored in accessors for the capture check).
SYCLONE_EXPORT const void* command_group_id(const handler& cgh) noexcept;

} // namespace detail
SYCLONE_END_NAMESPACE
