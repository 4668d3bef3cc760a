// A vector of trivially copyable elements whose first N live inside it (issue 16: a command's
// buffer requirements, most often one or two, then cost a submission no allocation). Beyond N
// all elements move to the heap. Only what its users need: push_back, iteration, size.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

namespace syclone::runtime {

template <typename T, std::size_t N>
class small_vector {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  void push_back(const T& value) {
    if (m_heap.empty()) {
      if (m_size < N) {
        m_inline[m_size++] = value;
        return;
      }
      m_heap.assign(m_inline, m_inline + m_size);
    }
    m_heap.push_back(value);
    ++m_size;
  }
  std::size_t size() const noexcept { return m_size; }
  bool empty() const noexcept { return m_size == 0; }
  T* begin() noexcept { return m_heap.empty() ? m_inline : m_heap.data(); }
  T* end() noexcept { return begin() + m_size; }
  const T* begin() const noexcept { return m_heap.empty() ? m_inline : m_heap.data(); }
  const T* end() const noexcept { return begin() + m_size; }

private:
  T m_inline[N];
  std::vector<T> m_heap; // all elements, once there are more than N
  std::size_t m_size = 0;
};

} // namespace syclone::runtime
