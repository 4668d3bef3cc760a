// Per-thread free lists of fixed-size blocks for the objects every submission makes and drops
// (issue 16: a command's event, its handler and command, a backend's native event): taking a
// block a thread released before costs a few instructions where malloc and free cost a hundred
// or more. A block goes back to the list of the thread that releases it (objects often die on
// another thread than the one that made them: that thread then reuses them), up to a bound;
// beyond it, and once the thread's list is gone at its exit, blocks go back to operator delete.
// Under AddressSanitizer every block comes from operator new, so that a use after release is
// still caught.
#pragma once

#include <cstddef>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define SYCLONE_BLOCK_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SYCLONE_BLOCK_POOL 0
#endif
#endif
#ifndef SYCLONE_BLOCK_POOL
#define SYCLONE_BLOCK_POOL 1
#endif

namespace syclone::runtime {

template <std::size_t Size>
class block_cache {
public:
  static void* allocate() {
#if SYCLONE_BLOCK_POOL
    list& l = t_list; // one thread-local access (each costs a call in a shared library)
    if (l.count) return l.block[--l.count];
#endif
    return ::operator new(Size);
  }
  static void deallocate(void* p) noexcept {
#if SYCLONE_BLOCK_POOL
    list& l = t_list;
    if (l.count < capacity && !l.gone) {
      if (!l.registered) {
        // The first block kept: free the list's blocks when the thread exits.
        l.registered = true;
        static thread_local releaser at_exit;
        (void)at_exit;
      }
      l.block[l.count++] = p;
      return;
    }
#endif
    ::operator delete(p);
  }

private:
  static constexpr std::size_t capacity = 64;
  // Trivially destructible, so valid to the end of the thread: releases that come after the
  // releaser ran (other thread-local objects dying later) find it gone and use operator delete.
  struct list {
    void* block[capacity];
    std::size_t count;
    bool registered, gone;
  };
  struct releaser {
    ~releaser() {
      list& l = t_list;
      for (std::size_t i = 0; i < l.count; ++i) ::operator delete(l.block[i]);
      l.count = 0;
      l.gone = true;
    }
  };
  static inline thread_local list t_list{};
};

// An allocator for std::allocate_shared that takes its one-object blocks (the object with its
// shared_ptr control block) from block_cache.
template <typename T>
struct pooled_allocator {
  using value_type = T;
  pooled_allocator() noexcept = default;
  template <typename U>
  pooled_allocator(const pooled_allocator<U>&) noexcept {}
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  T* allocate(std::size_t n) {
    if (n == 1) return static_cast<T*>(block_cache<sizeof(T)>::allocate());
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n == 1)
      block_cache<sizeof(T)>::deallocate(p);
    else
      ::operator delete(p);
  }
  template <typename U>
  bool operator==(const pooled_allocator<U>&) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const pooled_allocator<U>&) const noexcept {
    return false;
  }
};

} // namespace syclone::runtime
