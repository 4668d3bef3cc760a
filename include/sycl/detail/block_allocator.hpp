// Blocks for what a command group makes on every submission (a kernel's object with its
// shared_ptr control block), from the runtime's per-thread pools (issue 16: a submission then
// calls neither malloc nor free). Not part of the SYCL API.
#pragma once

#include <sycl/detail/config.hpp>

#include <cstddef>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

// A block of at least `bytes`, aligned as operator new aligns; release it with the same size.
SYCLONE_EXPORT void* allocate_block(std::size_t bytes);
SYCLONE_EXPORT void release_block(void* block, std::size_t bytes) noexcept;

// An allocator for std::allocate_shared over allocate_block (types aligned at most as operator
// new aligns).
template <typename T>
struct block_allocator {
  using value_type = T;
  block_allocator() noexcept = default;
  template <typename U>
  block_allocator(const block_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_block(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { release_block(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const block_allocator<U>&) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const block_allocator<U>&) const noexcept {
    return false;
  }
};

} // namespace detail
SYCLONE_END_NAMESPACE
