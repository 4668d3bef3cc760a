// C math functions in a kernel: left undefined in the image for the JIT to take from libdevice.
#include "kernel_entry.hpp"

#include <cmath>

class math_kernel;

void run_math(float* f, double* d) {
  kernel_entry<math_kernel>([=] {
    f[0] = std::sin(f[0]) + std::erf(f[1]) + std::tgamma(f[2]) + std::fmod(f[3], 2.0f);
    d[0] = std::cbrt(d[0]) + std::atan2(d[1], d[2]) + std::lgamma(d[3]) + std::hypot(d[4], d[5]);
  });
}
