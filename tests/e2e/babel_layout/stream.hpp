// BabelStream's layout (issue 11): an abstract base whose virtual members the benchmark calls.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

template <typename T>
class Stream {
public:
  virtual ~Stream() = default;
  virtual void copy() = 0;
  virtual void mul() = 0;
  virtual void add() = 0;
  virtual void triad() = 0;
  virtual T dot() = 0;
  virtual void init_arrays(T a, T b, T c) = 0;
  virtual void read_arrays(std::vector<T>& a, std::vector<T>& b, std::vector<T>& c) = 0;
  virtual std::string describe() const = 0;
};

// Host-only inline code in a header every unit includes: never device code.
inline std::string device_summary() {
  std::string text;
  for (const auto& name : {"copy", "mul", "add", "triad", "dot"}) text += std::string(name) + " ";
  return text;
}
