// The identity of SYCL objects whose state is plain data (accessor, local_accessor, stream and
// the image accessors): SYCL 2020 4.5.2 gives them common reference semantics (copies are the
// same object, which is destroyed with its last copy), but their bytes are also the kernel's
// argument, so they cannot hold a std::shared_ptr. Each such object holds an object_identity: a
// pointer to a small block counting the copies that own it (strong) and the weak references of
// sycl_ext_oneapi_weak_object (weak). The block is made by the object's constructors and never
// dereferenced on a device; its address orders objects by owner (ext_oneapi_owner_before).
//
// Only host code outside kernels counts owners. A copy made by a kernel (in device code, or on
// the host device: dev::in_host_kernel) holds the pointer without counting: it cannot outlive the
// kernel, whose object the command owns with its own counted copies until the kernel has run;
// and a kernel's work-items must not contend for one counter.
#pragma once

#include <sycl/detail/block_allocator.hpp>
#include <sycl/detail/config.hpp>
#include <sycl/detail/device/target.hpp>

#include <atomic>
#include <cstdint>
#include <new>
#include <utility>

SYCLONE_BEGIN_NAMESPACE
namespace detail {

class object_identity {
public:
  // No identity (until the owning class's constructor gives it one with make()).
  object_identity() = default;

  // A new object: its first owner (host code; an object a kernel makes gets no identity: it
  // cannot outlive the kernel, and work-items do not allocate).
  static object_identity make() {
    object_identity id;
    if constexpr (dev::is_host)
      if (!dev::in_host_kernel())
        id.m_bits =
            reinterpret_cast<std::uintptr_t>(new (allocate_block(sizeof(block))) block) | strong;
    return id;
  }

  // A copy owns the object as its source does: a copy of an owner owns it too, a copy of a weak
  // reference is a weak reference.
  object_identity(const object_identity& other) noexcept : m_bits(other.m_bits) {
    if constexpr (dev::is_host) {
      if ((m_bits & kind_mask) == weak || !dev::in_host_kernel()) {
        acquire();
        return;
      }
    }
    m_bits &= ~kind_mask;
  }
  object_identity(object_identity&& other) noexcept : m_bits(other.m_bits) { other.m_bits = 0; }
  object_identity& operator=(const object_identity& other) noexcept {
    if (this != &other) {
      object_identity copy(other);
      swap(copy);
    }
    return *this;
  }
  object_identity& operator=(object_identity&& other) noexcept {
    object_identity taken(std::move(other));
    swap(taken);
    return *this;
  }
  ~object_identity() {
    if constexpr (dev::is_host) release();
  }
  void swap(object_identity& other) noexcept {
    std::uintptr_t t = m_bits;
    m_bits = other.m_bits;
    other.m_bits = t;
  }

  // The object's address for owner-based ordering; null without an identity.
  const void* key() const noexcept { return get(); }

  // sycl_ext_oneapi_weak_object: this owner becomes a weak reference (weak_object's copy).
  void make_weak() noexcept {
    if ((m_bits & kind_mask) != strong) return;
    get()->weak.fetch_add(1, std::memory_order_relaxed);
    release_strong(get());
    m_bits = (m_bits & ~kind_mask) | weak;
  }
  // A weak reference becomes an owner if some owner is left (weak_object::lock); false if the
  // object is gone (this stays a weak reference).
  bool make_strong() noexcept {
    if ((m_bits & kind_mask) != weak) return (m_bits & kind_mask) == strong;
    block* b = get();
    std::uint32_t n = b->strong.load(std::memory_order_relaxed);
    do {
      if (n == 0) return false;
    } while (!b->strong.compare_exchange_weak(n, n + 1, std::memory_order_acq_rel,
                                              std::memory_order_relaxed));
    m_bits = (m_bits & ~kind_mask) | strong;
    release_weak(b);
    return true;
  }
  // No owner is left (or there never was an identity).
  bool expired() const noexcept {
    const block* b = get();
    return !b || b->strong.load(std::memory_order_acquire) == 0;
  }

private:
  // From the runtime's per-thread pools (block_allocator.hpp): accessors are made on every
  // submission.
  struct block {
    std::atomic<std::uint32_t> strong{1};
    // The weak references, plus one for all owners together (dropped with the last of them).
    std::atomic<std::uint32_t> weak{1};
  };
  // The two low bits of m_bits: what this holds of the block (blocks are 4-byte aligned).
  static constexpr std::uintptr_t none = 0, strong = 1, weak = 2, kind_mask = 3;

  block* get() const noexcept { return reinterpret_cast<block*>(m_bits & ~kind_mask); }
  // Out of line: kernels' copies, which count nothing, stay small enough to inline.
  [[gnu::noinline]] void acquire() noexcept {
    block* b = get();
    if (!b) return;
    if ((m_bits & kind_mask) == weak) {
      b->weak.fetch_add(1, std::memory_order_relaxed);
    } else {
      // A copy of an owner (or of a kernel's copy, whose owner is alive).
      b->strong.fetch_add(1, std::memory_order_relaxed);
      m_bits = (m_bits & ~kind_mask) | strong;
    }
  }
  void release() noexcept {
    if (m_bits & kind_mask) release_counted();
    m_bits = 0;
  }
  [[gnu::noinline]] void release_counted() noexcept {
    if ((m_bits & kind_mask) == strong)
      release_strong(get());
    else
      release_weak(get());
  }
  static void release_strong(block* b) noexcept {
    if (b->strong.fetch_sub(1, std::memory_order_acq_rel) == 1) release_weak(b);
  }
  static void release_weak(block* b) noexcept {
    if (b->weak.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      b->~block();
      release_block(b, sizeof(block));
    }
  }

  std::uintptr_t m_bits = 0; // block* | kind; the same layout on host and device
};

// Access to the object_identity of the classes that hold one (friends of struct weak_access).
struct weak_access;

} // namespace detail
SYCLONE_END_NAMESPACE
