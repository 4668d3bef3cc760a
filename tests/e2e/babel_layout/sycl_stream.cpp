// The kernels live in member functions of a class template with virtual members, explicitly
// instantiated at the end of this unit, as in BabelStream's SYCL 2020 versions: the device
// compile emits the vtables and through them every member, host-only ones included.
#include "sycl_stream.hpp"

#include <cstring>
#include <numeric>
#include <stdexcept>

namespace {
constexpr std::size_t dot_work_group = 256;
// A static initializer: host-only.
const std::string g_banner = "syclone " + device_summary();
} // namespace

template <typename T>
SYCLStream<T>::SYCLStream(std::size_t array_size, sycl::queue queue)
    : m_size(array_size), m_queue(std::make_unique<sycl::queue>(queue)) {
  m_groups = (m_size + dot_work_group - 1) / dot_work_group;
  m_a = sycl::malloc_device<T>(m_size, *m_queue);
  m_b = sycl::malloc_device<T>(m_size, *m_queue);
  m_c = sycl::malloc_device<T>(m_size, *m_queue);
  m_partials = sycl::malloc_device<T>(m_groups, *m_queue);
  if (!m_a || !m_b || !m_c || !m_partials) throw std::runtime_error("allocation failed");
}

template <typename T>
SYCLStream<T>::~SYCLStream() {
  for (T* p : {m_a, m_b, m_c, m_partials}) sycl::free(p, *m_queue);
}

template <typename T>
void SYCLStream<T>::init_arrays(T a, T b, T c) {
  T* pa = m_a;
  T* pb = m_b;
  T* pc = m_c;
  m_queue->submit([&](sycl::handler& h) {
    h.parallel_for(sycl::range<1>(m_size), [=](sycl::id<1> i) {
      pa[i] = a;
      pb[i] = b;
      pc[i] = c;
    });
  });
  m_queue->wait();
}

template <typename T>
void SYCLStream<T>::copy() {
  const T* a = m_a;
  T* c = m_c;
  m_queue->parallel_for(sycl::range<1>(m_size), [=](sycl::id<1> i) { c[i] = a[i]; });
  m_queue->wait();
}

template <typename T>
void SYCLStream<T>::mul() {
  T* b = m_b;
  const T* c = m_c;
  const T scalar = static_cast<T>(start_scalar);
  m_queue->parallel_for(sycl::range<1>(m_size), [=](sycl::id<1> i) { b[i] = scalar * c[i]; });
  m_queue->wait();
}

template <typename T>
void SYCLStream<T>::add() {
  const T* a = m_a;
  const T* b = m_b;
  T* c = m_c;
  m_queue->parallel_for(sycl::range<1>(m_size), [=](sycl::id<1> i) { c[i] = a[i] + b[i]; });
  m_queue->wait();
}

template <typename T>
void SYCLStream<T>::triad() {
  T* a = m_a;
  const T* b = m_b;
  const T* c = m_c;
  const T scalar = static_cast<T>(start_scalar);
  m_queue->parallel_for(sycl::range<1>(m_size),
                        [=](sycl::id<1> i) { a[i] = b[i] + scalar * c[i]; });
  m_queue->wait();
}

// A work-group sum per group on the device, the groups' sums on the host (std::accumulate:
// host-only code in the same member).
template <typename T>
T SYCLStream<T>::dot() {
  const T* a = m_a;
  const T* b = m_b;
  T* partials = m_partials;
  const std::size_t n = m_size;
  m_queue
      ->parallel_for(sycl::nd_range<1>(m_groups * dot_work_group, dot_work_group),
                     [=](sycl::nd_item<1> it) {
                       std::size_t i = it.get_global_id(0);
                       T x = i < n ? a[i] * b[i] : T(0);
                       T sum = sycl::reduce_over_group(it.get_group(), x, sycl::plus<T>());
                       if (it.get_local_id(0) == 0) partials[it.get_group(0)] = sum;
                     })
      .wait(); // the queue is out of order: the copy below must not overtake the kernel
  std::vector<T> host(m_groups);
  m_queue->memcpy(host.data(), partials, m_groups * sizeof(T)).wait();
  return std::accumulate(host.begin(), host.end(), T(0));
}

template <typename T>
void SYCLStream<T>::read_arrays(std::vector<T>& a, std::vector<T>& b, std::vector<T>& c) {
  a.resize(m_size);
  b.resize(m_size);
  c.resize(m_size);
  m_queue->memcpy(a.data(), m_a, m_size * sizeof(T));
  m_queue->memcpy(b.data(), m_b, m_size * sizeof(T));
  m_queue->memcpy(c.data(), m_c, m_size * sizeof(T));
  m_queue->wait();
}

template <typename T>
std::string SYCLStream<T>::describe() const {
  std::string name = m_queue->get_device().get_info<sycl::info::device::name>();
  char* copy = new char[name.size() + 1];
  std::strcpy(copy, name.c_str());
  std::string text = std::strcmp(copy, "") == 0 ? "unnamed device" : copy;
  delete[] copy;
  return g_banner + "on " + text + " (" + std::to_string(sizeof(T) * 8) + "-bit)";
}

template class SYCLStream<float>;
template class SYCLStream<double>;
