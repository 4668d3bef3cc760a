// SYCL 2020 4.8. Unified shared memory.
#pragma once

#include <sycl/context.hpp>
#include <sycl/device.hpp>
#include <sycl/property_list.hpp>

#include <cstddef>
#include <limits>
#include <new>

SYCLONE_BEGIN_NAMESPACE

class queue;

namespace usm {
enum class alloc { host, device, shared, unknown };
}

namespace detail {
// All USM allocations go through here; returns nullptr on failure (SYCL 2020 4.8.3).
SYCLONE_EXPORT void* usm_allocate(std::size_t alignment, std::size_t bytes, const device* dev,
                                  const context& ctx, usm::alloc kind);
SYCLONE_EXPORT context queue_context(const queue& q);
// count * size, or SIZE_MAX (which no allocation satisfies) when the product overflows: a
// typed allocation of too many elements fails instead of wrapping to a small size.
inline std::size_t usm_bytes(std::size_t count, std::size_t size) {
  std::size_t bytes = 0;
  return __builtin_mul_overflow(count, size, &bytes) ? std::numeric_limits<std::size_t>::max()
                                                     : bytes;
}
SYCLONE_EXPORT device queue_device(const queue& q);
} // namespace detail

// SYCL 2020 4.8.3.2. Device allocation functions.
inline void* malloc_device(std::size_t num_bytes, const device& dev, const context& ctx,
                           const property_list& = {}) {
  return detail::usm_allocate(0, num_bytes, &dev, ctx, usm::alloc::device);
}
template <typename T>
T* malloc_device(std::size_t count, const device& dev, const context& ctx,
                 const property_list& = {}) {
  return static_cast<T*>(detail::usm_allocate(alignof(T), detail::usm_bytes(count, sizeof(T)), &dev,
                                              ctx, usm::alloc::device));
}
inline void* malloc_device(std::size_t num_bytes, const queue& q, const property_list& p = {}) {
  return malloc_device(num_bytes, detail::queue_device(q), detail::queue_context(q), p);
}
template <typename T>
T* malloc_device(std::size_t count, const queue& q, const property_list& p = {}) {
  return malloc_device<T>(count, detail::queue_device(q), detail::queue_context(q), p);
}
inline void* aligned_alloc_device(std::size_t alignment, std::size_t num_bytes, const device& dev,
                                  const context& ctx, const property_list& = {}) {
  return detail::usm_allocate(alignment, num_bytes, &dev, ctx, usm::alloc::device);
}
template <typename T>
T* aligned_alloc_device(std::size_t alignment, std::size_t count, const device& dev,
                        const context& ctx, const property_list& = {}) {
  return static_cast<T*>(detail::usm_allocate(alignment < alignof(T) ? alignof(T) : alignment,
                                              detail::usm_bytes(count, sizeof(T)), &dev, ctx,
                                              usm::alloc::device));
}
inline void* aligned_alloc_device(std::size_t alignment, std::size_t num_bytes, const queue& q,
                                  const property_list& p = {}) {
  return aligned_alloc_device(alignment, num_bytes, detail::queue_device(q),
                              detail::queue_context(q), p);
}
template <typename T>
T* aligned_alloc_device(std::size_t alignment, std::size_t count, const queue& q,
                        const property_list& p = {}) {
  return aligned_alloc_device<T>(alignment, count, detail::queue_device(q),
                                 detail::queue_context(q), p);
}

// SYCL 2020 4.8.3.3. Host allocation functions.
inline void* malloc_host(std::size_t num_bytes, const context& ctx, const property_list& = {}) {
  return detail::usm_allocate(0, num_bytes, nullptr, ctx, usm::alloc::host);
}
template <typename T>
T* malloc_host(std::size_t count, const context& ctx, const property_list& = {}) {
  return static_cast<T*>(detail::usm_allocate(alignof(T), detail::usm_bytes(count, sizeof(T)),
                                              nullptr, ctx, usm::alloc::host));
}
inline void* malloc_host(std::size_t num_bytes, const queue& q, const property_list& p = {}) {
  return malloc_host(num_bytes, detail::queue_context(q), p);
}
template <typename T>
T* malloc_host(std::size_t count, const queue& q, const property_list& p = {}) {
  return malloc_host<T>(count, detail::queue_context(q), p);
}
inline void* aligned_alloc_host(std::size_t alignment, std::size_t num_bytes, const context& ctx,
                                const property_list& = {}) {
  return detail::usm_allocate(alignment, num_bytes, nullptr, ctx, usm::alloc::host);
}
template <typename T>
T* aligned_alloc_host(std::size_t alignment, std::size_t count, const context& ctx,
                      const property_list& = {}) {
  return static_cast<T*>(detail::usm_allocate(alignment < alignof(T) ? alignof(T) : alignment,
                                              detail::usm_bytes(count, sizeof(T)), nullptr, ctx,
                                              usm::alloc::host));
}
inline void* aligned_alloc_host(std::size_t alignment, std::size_t num_bytes, const queue& q,
                                const property_list& p = {}) {
  return aligned_alloc_host(alignment, num_bytes, detail::queue_context(q), p);
}
template <typename T>
T* aligned_alloc_host(std::size_t alignment, std::size_t count, const queue& q,
                      const property_list& p = {}) {
  return aligned_alloc_host<T>(alignment, count, detail::queue_context(q), p);
}

// SYCL 2020 4.8.3.4. Shared allocation functions.
inline void* malloc_shared(std::size_t num_bytes, const device& dev, const context& ctx,
                           const property_list& = {}) {
  return detail::usm_allocate(0, num_bytes, &dev, ctx, usm::alloc::shared);
}
template <typename T>
T* malloc_shared(std::size_t count, const device& dev, const context& ctx,
                 const property_list& = {}) {
  return static_cast<T*>(detail::usm_allocate(alignof(T), detail::usm_bytes(count, sizeof(T)), &dev,
                                              ctx, usm::alloc::shared));
}
inline void* malloc_shared(std::size_t num_bytes, const queue& q, const property_list& p = {}) {
  return malloc_shared(num_bytes, detail::queue_device(q), detail::queue_context(q), p);
}
template <typename T>
T* malloc_shared(std::size_t count, const queue& q, const property_list& p = {}) {
  return malloc_shared<T>(count, detail::queue_device(q), detail::queue_context(q), p);
}
inline void* aligned_alloc_shared(std::size_t alignment, std::size_t num_bytes, const device& dev,
                                  const context& ctx, const property_list& = {}) {
  return detail::usm_allocate(alignment, num_bytes, &dev, ctx, usm::alloc::shared);
}
template <typename T>
T* aligned_alloc_shared(std::size_t alignment, std::size_t count, const device& dev,
                        const context& ctx, const property_list& = {}) {
  return static_cast<T*>(detail::usm_allocate(alignment < alignof(T) ? alignof(T) : alignment,
                                              detail::usm_bytes(count, sizeof(T)), &dev, ctx,
                                              usm::alloc::shared));
}
inline void* aligned_alloc_shared(std::size_t alignment, std::size_t num_bytes, const queue& q,
                                  const property_list& p = {}) {
  return aligned_alloc_shared(alignment, num_bytes, detail::queue_device(q),
                              detail::queue_context(q), p);
}
template <typename T>
T* aligned_alloc_shared(std::size_t alignment, std::size_t count, const queue& q,
                        const property_list& p = {}) {
  return aligned_alloc_shared<T>(alignment, count, detail::queue_device(q),
                                 detail::queue_context(q), p);
}

// SYCL 2020 4.8.3.5. Parameterized allocation functions.
inline void* malloc(std::size_t num_bytes, const device& dev, const context& ctx, usm::alloc kind,
                    const property_list& = {}) {
  return detail::usm_allocate(0, num_bytes, kind == usm::alloc::host ? nullptr : &dev, ctx, kind);
}
template <typename T>
T* malloc(std::size_t count, const device& dev, const context& ctx, usm::alloc kind,
          const property_list& = {}) {
  return static_cast<T*>(detail::usm_allocate(alignof(T), detail::usm_bytes(count, sizeof(T)),
                                              kind == usm::alloc::host ? nullptr : &dev, ctx,
                                              kind));
}
inline void* malloc(std::size_t num_bytes, const queue& q, usm::alloc kind,
                    const property_list& p = {}) {
  return malloc(num_bytes, detail::queue_device(q), detail::queue_context(q), kind, p);
}
template <typename T>
T* malloc(std::size_t count, const queue& q, usm::alloc kind, const property_list& p = {}) {
  return malloc<T>(count, detail::queue_device(q), detail::queue_context(q), kind, p);
}
inline void* aligned_alloc(std::size_t alignment, std::size_t num_bytes, const device& dev,
                           const context& ctx, usm::alloc kind, const property_list& = {}) {
  return detail::usm_allocate(alignment, num_bytes, kind == usm::alloc::host ? nullptr : &dev, ctx,
                              kind);
}
template <typename T>
T* aligned_alloc(std::size_t alignment, std::size_t count, const device& dev, const context& ctx,
                 usm::alloc kind, const property_list& = {}) {
  return static_cast<T*>(detail::usm_allocate(
      alignment < alignof(T) ? alignof(T) : alignment, detail::usm_bytes(count, sizeof(T)),
      kind == usm::alloc::host ? nullptr : &dev, ctx, kind));
}
inline void* aligned_alloc(std::size_t alignment, std::size_t num_bytes, const queue& q,
                           usm::alloc kind, const property_list& p = {}) {
  return aligned_alloc(alignment, num_bytes, detail::queue_device(q), detail::queue_context(q),
                       kind, p);
}
template <typename T>
T* aligned_alloc(std::size_t alignment, std::size_t count, const queue& q, usm::alloc kind,
                 const property_list& p = {}) {
  return aligned_alloc<T>(alignment, count, detail::queue_device(q), detail::queue_context(q), kind,
                          p);
}

// SYCL 2020 4.8.3.6. Memory deallocation functions. A pointer this context did not allocate
// throws errc::invalid (the spec leaves it undefined; syclone reports it).
SYCLONE_EXPORT void free(void* ptr, const context& ctx);
SYCLONE_EXPORT void free(void* ptr, const queue& q);

// SYCL 2020 4.8.4. Unified shared memory pointer queries.
SYCLONE_EXPORT usm::alloc get_pointer_type(const void* ptr, const context& ctx);
SYCLONE_EXPORT device get_pointer_device(const void* ptr, const context& ctx);

// SYCL 2020 4.8.3.1. usm_allocator.
template <typename T, usm::alloc AllocKind, std::size_t Alignment = 0>
class usm_allocator {
  static_assert(AllocKind != usm::alloc::device,
                "usm_allocator cannot allocate device memory: the host cannot access it");

public:
  using value_type = T;
  using propagate_on_container_copy_assignment = std::true_type;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  template <typename U>
  struct rebind {
    using other = usm_allocator<U, AllocKind, Alignment>;
  };

  usm_allocator() = delete;
  usm_allocator(const context& ctx, const device& dev, const property_list& = {})
      : m_context(ctx), m_device(dev) {}
  usm_allocator(const queue& q, const property_list& = {})
      : m_context(detail::queue_context(q)), m_device(detail::queue_device(q)) {}
  usm_allocator(const usm_allocator&) = default;
  usm_allocator(usm_allocator&&) noexcept = default;
  usm_allocator& operator=(const usm_allocator&) = default;
  usm_allocator& operator=(usm_allocator&&) = default;
  template <class U>
  usm_allocator(const usm_allocator<U, AllocKind, Alignment>& other) noexcept
      : m_context(other.m_context), m_device(other.m_device) {}

  T* allocate(std::size_t count) {
    std::size_t align = Alignment > alignof(T) ? Alignment : alignof(T);
    void* p = detail::usm_allocate(align, detail::usm_bytes(count, sizeof(T)),
                                   AllocKind == usm::alloc::host ? nullptr : &m_device, m_context,
                                   AllocKind);
    if (!p && count) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* ptr, std::size_t) {
    if (ptr) sycl::free(ptr, m_context);
  }

  template <class U, usm::alloc K2, std::size_t A2>
  friend bool operator==(const usm_allocator& a, const usm_allocator<U, K2, A2>& b) {
    return K2 == AllocKind && A2 == Alignment && a.m_context == b.m_context &&
           a.m_device == b.m_device;
  }
  template <class U, usm::alloc K2, std::size_t A2>
  friend bool operator!=(const usm_allocator& a, const usm_allocator<U, K2, A2>& b) {
    return !(a == b);
  }

private:
  template <class, usm::alloc, std::size_t>
  friend class usm_allocator;
  context m_context;
  device m_device;
};

SYCLONE_END_NAMESPACE
