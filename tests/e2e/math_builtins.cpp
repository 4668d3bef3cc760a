// SYCL 2020 4.17 math builtins inside kernels on the host device, checked against the C++
// standard library within the ulp bounds SYCL allows: sqrt, rsqrt, cbrt, exp, exp2, log, log2,
// sin, cos, tan, atan2, pow, hypot, fma, fmin, fmax, floor, ceil, fabs (float and double),
// min, max and clamp (float, int, and vec with scalar bounds), integer builtins and geometric
// functions.
#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// Distance in units in the last place between two finite floats of the same sign region.
template <typename F>
double ulps(F got, F want) {
  if (std::isnan(got) && std::isnan(want)) return 0;
  if (got == want) return 0;
  if (std::isinf(got) || std::isinf(want) || std::isnan(got) || std::isnan(want)) return 1e30;
  F spacing = std::nextafter(std::fabs(want), std::numeric_limits<F>::infinity()) - std::fabs(want);
  return std::fabs(static_cast<double>(got) - static_cast<double>(want)) / spacing;
}

enum fn {
  f_sqrt,
  f_rsqrt,
  f_cbrt,
  f_exp,
  f_exp2,
  f_log,
  f_log2,
  f_sin,
  f_cos,
  f_tan,
  f_atan2,
  f_pow,
  f_hypot,
  f_fma,
  f_fmin,
  f_fmax,
  f_floor,
  f_ceil,
  f_fabs,
  f_count
};
const char* names[f_count] = {"sqrt", "rsqrt", "cbrt",  "exp",   "exp2", "log",   "log2",
                              "sin",  "cos",   "tan",   "atan2", "pow",  "hypot", "fma",
                              "fmin", "fmax",  "floor", "ceil",  "fabs"};
// SYCL 2020 Table 4.113-style float bounds (ulp), generous where the spec allows.
const double float_bound[f_count] = {3, 4, 2, 3, 3, 3, 3, 4, 4, 5, 6, 16, 4, 0, 0, 0, 0, 0, 0};

template <typename F>
F reference(int f, F x, F y, F z) {
  switch (f) {
  case f_sqrt:
    return std::sqrt(x);
  case f_rsqrt:
    return F(1) / std::sqrt(x);
  case f_cbrt:
    return std::cbrt(x);
  case f_exp:
    return std::exp(x);
  case f_exp2:
    return std::exp2(x);
  case f_log:
    return std::log(x);
  case f_log2:
    return std::log2(x);
  case f_sin:
    return std::sin(x);
  case f_cos:
    return std::cos(x);
  case f_tan:
    return std::tan(x);
  case f_atan2:
    return std::atan2(x, y);
  case f_pow:
    return std::pow(x, y);
  case f_hypot:
    return std::hypot(x, y);
  case f_fma:
    return std::fma(x, y, z);
  case f_fmin:
    return std::fmin(x, y);
  case f_fmax:
    return std::fmax(x, y);
  case f_floor:
    return std::floor(x);
  case f_ceil:
    return std::ceil(x);
  default:
    return std::fabs(x);
  }
}

template <typename F>
void test_scalar(sycl::queue& q, const char* type, double bound_scale) {
  constexpr std::size_t n = 512;
  F* in = sycl::malloc_shared<F>(3 * n, q);
  F* out = sycl::malloc_shared<F>(f_count * n, q);
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = static_cast<F>(0.01 + 0.37 * static_cast<double>(i));      // x in (0, 190)
    in[n + i] = static_cast<F>(-3.0 + 0.013 * static_cast<double>(i)); // y in (-3, 3.7)
    in[2 * n + i] = static_cast<F>(0.5 * static_cast<double>(i % 17) - 4.0);
  }
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> id) {
     std::size_t i = id[0];
     F x = in[i], y = in[n + i], z = in[2 * n + i];
     F small = x / F(20); // keeps exp/pow finite
     out[f_sqrt * n + i] = sycl::sqrt(x);
     out[f_rsqrt * n + i] = sycl::rsqrt(x);
     out[f_cbrt * n + i] = sycl::cbrt(y);
     out[f_exp * n + i] = sycl::exp(small);
     out[f_exp2 * n + i] = sycl::exp2(y);
     out[f_log * n + i] = sycl::log(x);
     out[f_log2 * n + i] = sycl::log2(x);
     out[f_sin * n + i] = sycl::sin(y);
     out[f_cos * n + i] = sycl::cos(y);
     out[f_tan * n + i] = sycl::tan(y / F(2));
     out[f_atan2 * n + i] = sycl::atan2(y, z);
     out[f_pow * n + i] = sycl::pow(small, y);
     out[f_hypot * n + i] = sycl::hypot(y, z);
     out[f_fma * n + i] = sycl::fma(x, y, z);
     out[f_fmin * n + i] = sycl::fmin(y, z);
     out[f_fmax * n + i] = sycl::fmax(y, z);
     out[f_floor * n + i] = sycl::floor(y);
     out[f_ceil * n + i] = sycl::ceil(y);
     out[f_fabs * n + i] = sycl::fabs(y);
   }).wait();
  for (int f = 0; f < f_count; ++f) {
    double worst = 0;
    std::size_t worst_i = 0;
    for (std::size_t i = 0; i < n; ++i) {
      F x = in[i], y = in[n + i], z = in[2 * n + i], small = x / F(20);
      F want;
      switch (f) {
      case f_cbrt:
      case f_exp2:
      case f_sin:
      case f_cos:
      case f_floor:
      case f_ceil:
      case f_fabs:
        want = reference<F>(f, y, 0, 0);
        break;
      case f_exp:
        want = reference<F>(f, small, 0, 0);
        break;
      case f_tan:
        want = reference<F>(f, y / F(2), 0, 0);
        break;
      case f_atan2:
      case f_hypot:
      case f_fmin:
      case f_fmax:
        want = reference<F>(f, y, z, 0);
        break;
      case f_pow:
        want = reference<F>(f, small, y, 0);
        break;
      default:
        want = reference<F>(f, x, y, z);
        break;
      }
      double u = ulps(out[f * n + i], want);
      if (u > worst) {
        worst = u;
        worst_i = i;
      }
    }
    if (worst > float_bound[f] * bound_scale + 0.5) {
      std::printf("FAILED: %s %s: %.1f ulp at input %zu (bound %.0f)\n", type, names[f], worst,
                  worst_i, float_bound[f] * bound_scale);
      ++g_failures;
    }
  }
  sycl::free(in, q);
  sycl::free(out, q);
}

void test_common_integer_geometric(sycl::queue& q) {
  struct results {
    float fmin_, fmax_, fclamp[3];
    int imin, imax, iclamp[3];
    sycl::float4 vclamp, vmax, vsqrt;
    int iabs, ipop, iclz, isat;
    unsigned uabs;
    float dot, len, dist;
    sycl::float3 cross;
    sycl::float4 norm;
  };
  results* r = sycl::malloc_shared<results>(1, q);
  std::memset(static_cast<void*>(r), 0, sizeof *r);
  q.single_task([=] {
     r->fmin_ = sycl::min(2.5f, -1.0f);
     r->fmax_ = sycl::max(2.5f, -1.0f);
     r->fclamp[0] = sycl::clamp(5.0f, 0.0f, 1.0f);
     r->fclamp[1] = sycl::clamp(-5.0f, 0.0f, 1.0f);
     r->fclamp[2] = sycl::clamp(0.25f, 0.0f, 1.0f);
     r->imin = sycl::min(7, -3);
     r->imax = sycl::max(7, -3);
     r->iclamp[0] = sycl::clamp(100, -10, 10);
     r->iclamp[1] = sycl::clamp(-100, -10, 10);
     r->iclamp[2] = sycl::clamp(4, -10, 10);
     sycl::float4 v(-2.0f, 0.5f, 3.0f, 9.0f);
     r->vclamp = sycl::clamp(v, 0.0f, 4.0f);
     r->vmax = sycl::max(v, sycl::float4(1.0f, 1.0f, 1.0f, 10.0f));
     r->vsqrt = sycl::sqrt(sycl::float4(4.0f, 9.0f, 16.0f, 0.25f));
     r->iabs = static_cast<int>(sycl::abs(-12));
     r->uabs = sycl::abs(-12);
     r->ipop = sycl::popcount(0x0f0f);
     r->iclz = sycl::clz(1);
     r->isat = sycl::mad_sat(1 << 20, 1 << 20, 5); // saturates at INT_MAX
     sycl::float3 a(1.0f, 2.0f, 3.0f), b(4.0f, 5.0f, 6.0f);
     r->dot = sycl::dot(a, b);
     r->cross = sycl::cross(a, b);
     r->len = sycl::length(sycl::float2(3.0f, 4.0f));
     r->dist = sycl::distance(sycl::float2(1.0f, 1.0f), sycl::float2(4.0f, 5.0f));
     r->norm = sycl::normalize(sycl::float4(0.0f, 3.0f, 0.0f, 4.0f));
   }).wait();
  CHECK(r->fmin_ == -1.0f && r->fmax_ == 2.5f);
  CHECK(r->fclamp[0] == 1.0f && r->fclamp[1] == 0.0f && r->fclamp[2] == 0.25f);
  CHECK(r->imin == -3 && r->imax == 7);
  CHECK(r->iclamp[0] == 10 && r->iclamp[1] == -10 && r->iclamp[2] == 4);
  CHECK(r->vclamp[0] == 0.0f && r->vclamp[1] == 0.5f && r->vclamp[2] == 3.0f &&
        r->vclamp[3] == 4.0f);
  CHECK(r->vmax[0] == 1.0f && r->vmax[1] == 1.0f && r->vmax[2] == 3.0f && r->vmax[3] == 10.0f);
  CHECK(r->vsqrt[0] == 2.0f && r->vsqrt[1] == 3.0f && r->vsqrt[2] == 4.0f && r->vsqrt[3] == 0.5f);
  CHECK(r->iabs == 12 && r->uabs == 12u);
  CHECK(r->ipop == 8 && r->iclz == 31);
  CHECK(r->isat == 2147483647);
  CHECK(r->dot == 32.0f);
  CHECK(r->cross[0] == -3.0f && r->cross[1] == 6.0f && r->cross[2] == -3.0f);
  CHECK(std::fabs(r->len - 5.0f) < 1e-6f && std::fabs(r->dist - 5.0f) < 1e-6f);
  CHECK(std::fabs(r->norm[1] - 0.6f) < 1e-6f && std::fabs(r->norm[3] - 0.8f) < 1e-6f);
  sycl::free(r, q);
}

void test_buffer_kernel(sycl::queue& q) {
  // A typical use: a buffer kernel normalizing angles with sin/cos/sqrt.
  constexpr std::size_t n = 1000;
  std::vector<float> angle(n), out(n);
  for (std::size_t i = 0; i < n; ++i) angle[i] = static_cast<float>(i) * 0.01f;
  {
    sycl::buffer<float> a(angle.data(), sycl::range<1>(n));
    sycl::buffer<float> o(out.data(), sycl::range<1>(n));
    q.submit([&](sycl::handler& h) {
      sycl::accessor in(a, h, sycl::read_only);
      sycl::accessor res(o, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        float s = sycl::sin(in[i]), c = sycl::cos(in[i]);
        res[i] = sycl::sqrt(s * s + c * c);
      });
    });
  }
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok = ok && std::fabs(out[i] - 1.0f) < 1e-5f;
  CHECK(ok);
}
} // namespace

int main() {
  sycl::queue q;
  test_scalar<float>(q, "float", 1.0);
  test_scalar<double>(q, "double", 1.0);
  test_common_integer_geometric(q);
  test_buffer_kernel(q);
  if (g_failures) {
    std::printf("math_builtins: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("math_builtins: PASSED\n");
  return 0;
}
