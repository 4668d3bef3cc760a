#pragma once

#include "stream.hpp"

#include <sycl/sycl.hpp>

#include <memory>

inline constexpr double start_scalar = 0.4;

template <typename T>
class SYCLStream : public Stream<T> {
public:
  SYCLStream(std::size_t array_size, sycl::queue queue);
  ~SYCLStream() override;
  void copy() override;
  void mul() override;
  void add() override;
  void triad() override;
  T dot() override;
  void init_arrays(T a, T b, T c) override;
  void read_arrays(std::vector<T>& a, std::vector<T>& b, std::vector<T>& c) override;
  std::string describe() const override;

private:
  std::size_t m_size;
  std::unique_ptr<sycl::queue> m_queue;
  T* m_a;
  T* m_b;
  T* m_c;
  T* m_partials;
  std::size_t m_groups;
};
