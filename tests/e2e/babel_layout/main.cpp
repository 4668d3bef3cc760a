// Issue 11: BabelStream's layout (kernels in virtual members of an explicitly instantiated class
// template in another unit, host-only code beside them) gives correct results by value on the
// default device. The device image holds only the kernels (tests/driver: host_only_code).
#include "sycl_stream.hpp"

#include <cmath>
#include <cstdio>
#include <memory>

namespace {

template <typename T>
int run(sycl::queue& q, std::size_t size, int iterations) {
  std::unique_ptr<Stream<T>> stream = std::make_unique<SYCLStream<T>>(size, q);
  std::printf("%s\n", stream->describe().c_str());
  const T init_a = T(0.1), init_b = T(0.2), init_c = T(0.0);
  stream->init_arrays(init_a, init_b, init_c);
  T gold_a = init_a, gold_b = init_b, gold_c = init_c;
  const T scalar = static_cast<T>(start_scalar);
  T sum = 0;
  for (int k = 0; k < iterations; ++k) {
    stream->copy();
    gold_c = gold_a;
    stream->mul();
    gold_b = scalar * gold_c;
    stream->add();
    gold_c = gold_a + gold_b;
    stream->triad();
    gold_a = gold_b + scalar * gold_c;
    sum = stream->dot();
  }
  const T gold_sum = gold_a * gold_b * static_cast<T>(size);
  std::vector<T> a, b, c;
  stream->read_arrays(a, b, c);
  int failures = 0;
  const double epsilon = sizeof(T) == 4 ? 1e-5 : 1e-12;
  for (std::size_t i = 0; i < size; ++i) {
    if (std::fabs(a[i] - gold_a) > epsilon * std::fabs(gold_a) ||
        std::fabs(b[i] - gold_b) > epsilon * std::fabs(gold_b) ||
        std::fabs(c[i] - gold_c) > epsilon * std::fabs(gold_c)) {
      if (++failures <= 5)
        std::printf("FAILED %zu-bit element %zu: a=%g b=%g c=%g, expected %g %g %g\n",
                    sizeof(T) * 8, i, double(a[i]), double(b[i]), double(c[i]), double(gold_a),
                    double(gold_b), double(gold_c));
    }
  }
  const double dot_tolerance = sizeof(T) == 4 ? 1e-3 : 1e-8;
  if (std::fabs(sum - gold_sum) > dot_tolerance * std::fabs(gold_sum)) {
    std::printf("FAILED %zu-bit dot: %.10g, expected %.10g\n", sizeof(T) * 8, double(sum),
                double(gold_sum));
    ++failures;
  }
  return failures;
}

} // namespace

int main() {
  sycl::queue q;
  // Not a multiple of the work-group size of dot().
  constexpr std::size_t size = (1 << 16) + 37;
  int failures = run<float>(q, size, 3) + run<double>(q, size, 3);
  if (failures) return 1;
  std::printf("babel_layout: ok on %s\n",
              q.get_device().get_info<sycl::info::device::name>().c_str());
  return 0;
}
