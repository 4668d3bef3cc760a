// SYCLONE_E2E_ARGS: -DSYCL_SIMPLE_SWIZZLES
// SYCL 2020 4.14.2 sycl::vec inside kernels on the host device: construction from scalars and
// other vecs, element-wise arithmetic with vecs and scalars, comparisons (-1 / 0 masks),
// swizzles (named, simple xyzw ones via SYCL_SIMPLE_SWIZZLES, and swizzle<>), lo/hi, convert<> and
// as<>, load/store, and vecs as buffer elements.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

void test_buffer_of_vecs(sycl::queue& q) {
  constexpr std::size_t n = 256;
  std::vector<sycl::float4> a(n), b(n), out(n);
  for (std::size_t i = 0; i < n; ++i) {
    float f = static_cast<float>(i);
    a[i] = sycl::float4(f, f + 1, f + 2, f + 3);
    b[i] = sycl::float4(2.0f);
  }
  {
    sycl::buffer<sycl::float4> ba(a.data(), sycl::range<1>(n));
    sycl::buffer<sycl::float4> bb(b.data(), sycl::range<1>(n));
    sycl::buffer<sycl::float4> bo(out.data(), sycl::range<1>(n));
    q.submit([&](sycl::handler& h) {
      sycl::accessor x(ba, h, sycl::read_only);
      sycl::accessor y(bb, h, sycl::read_only);
      sycl::accessor o(bo, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        sycl::float4 v = x[i] * y[i] + 1.0f; // (2f+1, 2f+3, 2f+5, 2f+7)
        v -= sycl::float4(0.5f, 0.5f, 0.5f, 0.5f);
        v = v / 2.0f;
        o[i] = v;
      });
    });
  }
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) {
    float f = static_cast<float>(i);
    ok = ok && out[i][0] == (2 * f + 0.5f) / 2 && out[i][1] == (2 * f + 2.5f) / 2 &&
         out[i][2] == (2 * f + 4.5f) / 2 && out[i][3] == (2 * f + 6.5f) / 2;
  }
  CHECK(ok);
}

struct vec_results {
  int int_ops[8];
  int masks[4];
  float swizzled[8];
  int converted[4];
  unsigned bits[4];
  float loaded[8];
  int three[3];
  float lohi[4];
};

void test_in_kernel(sycl::queue& q) {
  vec_results* r = sycl::malloc_shared<vec_results>(1, q);
  std::memset(r, 0, sizeof *r);
  float* mem = sycl::malloc_shared<float>(16, q);
  for (int i = 0; i < 16; ++i) mem[i] = static_cast<float>(i) * 0.5f;
  q.single_task([=] {
     // Integer arithmetic, bitwise and shifts.
     sycl::int4 a(1, 2, 3, 4), b(10);
     sycl::int4 c = (a + b) * 2 - a;    // (21, 22, 23, 24)
     sycl::int4 d = (c % 5) | (a << 4); // (1|16, 2|32, 3|48, 4|64)
     r->int_ops[0] = c[0];
     r->int_ops[1] = c[3];
     r->int_ops[2] = d[0];
     r->int_ops[3] = d[3];
     sycl::int4 e = b;
     e += a;
     e *= 3;
     r->int_ops[4] = e[1];        // 36
     r->int_ops[5] = (e >> 1)[2]; // 39 >> 1 = 19
     r->int_ops[6] = (~a)[0];     // -2
     r->int_ops[7] = (-a)[3];     // -4
     // Comparisons produce -1 (true) / 0 (false) per element.
     sycl::int4 m = a > sycl::int4(2);
     for (int i = 0; i < 4; ++i) r->masks[i] = m[i];
     // Swizzles: named, swizzle<>, and writes through swizzles.
     sycl::float4 f(1.0f, 2.0f, 3.0f, 4.0f);
     sycl::float4 rev = f.wzyx();
     sycl::float2 pair = f.swizzle<3, 0>();
     r->swizzled[0] = rev[0];
     r->swizzled[1] = rev[3];
     r->swizzled[2] = pair[0];
     r->swizzled[3] = pair[1];
     f.xy() = sycl::float2(9.0f, 8.0f);
     r->swizzled[4] = f[0];
     r->swizzled[5] = f[1];
     r->swizzled[6] = f.z();
     sycl::float3 fx = f.xyz() * 2.0f;
     r->swizzled[7] = fx[2];
     // convert<> and as<>.
     sycl::float4 g(1.5f, -2.5f, 3.7f, -0.2f);
     sycl::int4 gi = g.convert<int, sycl::rounding_mode::rtz>();
     for (int i = 0; i < 4; ++i) r->converted[i] = gi[i];
     sycl::uint4 bits = sycl::float4(1.0f, -2.0f, 0.0f, 0.5f).as<sycl::uint4>();
     for (int i = 0; i < 4; ++i) r->bits[i] = bits[i];
     // load/store.
     sycl::float8 v8;
     v8.load(1, mem); // elements 8..15
     v8 = v8 + 100.0f;
     v8.store(0, mem);
     for (int i = 0; i < 8; ++i) r->loaded[i] = v8[i];
     // vec<T, 3>.
     sycl::int3 t(1, 2, 3);
     t = t * t + sycl::int3(1);
     for (int i = 0; i < 3; ++i) r->three[i] = t[i];
     // lo / hi.
     sycl::float4 lh(5.0f, 6.0f, 7.0f, 8.0f);
     sycl::float2 lo = lh.lo(), hi = lh.hi();
     r->lohi[0] = lo[0];
     r->lohi[1] = lo[1];
     r->lohi[2] = hi[0];
     r->lohi[3] = hi[1];
   }).wait();
  CHECK(r->int_ops[0] == 21 && r->int_ops[1] == 24);
  CHECK(r->int_ops[2] == (1 | 16) && r->int_ops[3] == (4 | 64));
  CHECK(r->int_ops[4] == 36 && r->int_ops[5] == 19 && r->int_ops[6] == -2 && r->int_ops[7] == -4);
  CHECK(r->masks[0] == 0 && r->masks[1] == 0 && r->masks[2] == -1 && r->masks[3] == -1);
  CHECK(r->swizzled[0] == 4.0f && r->swizzled[1] == 1.0f);
  CHECK(r->swizzled[2] == 4.0f && r->swizzled[3] == 1.0f);
  CHECK(r->swizzled[4] == 9.0f && r->swizzled[5] == 8.0f && r->swizzled[6] == 3.0f);
  CHECK(r->swizzled[7] == 6.0f);
  CHECK(r->converted[0] == 1 && r->converted[1] == -2 && r->converted[2] == 3 &&
        r->converted[3] == 0);
  CHECK(r->bits[0] == 0x3f800000u && r->bits[1] == 0xc0000000u && r->bits[2] == 0u &&
        r->bits[3] == 0x3f000000u);
  bool ok = true;
  for (int i = 0; i < 8; ++i)
    ok = ok && r->loaded[i] == (8 + i) * 0.5f + 100.0f && mem[i] == r->loaded[i];
  CHECK(ok);
  CHECK(mem[8] == 4.0f); // store wrote elements 0..7 only
  CHECK(r->three[0] == 2 && r->three[1] == 5 && r->three[2] == 10);
  CHECK(r->lohi[0] == 5.0f && r->lohi[1] == 6.0f && r->lohi[2] == 7.0f && r->lohi[3] == 8.0f);
  static_assert(sizeof(sycl::int3) == 4 * sizeof(int));
  static_assert(sycl::float8::size() == 8 && sycl::double2::byte_size() == 16);
  sycl::free(mem, q);
  sycl::free(r, q);
}

void test_parallel_vec_kernel(sycl::queue& q) {
  // A vectorized saxpy over USM, 4 floats per work-item.
  constexpr std::size_t n = 4096;
  float* x = sycl::malloc_shared<float>(n, q);
  float* y = sycl::malloc_shared<float>(n, q);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  q.parallel_for(sycl::range<1>(n / 4), [=](sycl::id<1> i) {
     sycl::float4 vx, vy;
     vx.load(i[0], x);
     vy.load(i[0], y);
     vy = 3.0f * vx + vy;
     vy.store(i[0], y);
   }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok = ok && y[i] == 3.0f * static_cast<float>(i) + 1.0f;
  CHECK(ok);
  sycl::free(x, q);
  sycl::free(y, q);
}
} // namespace

int main() {
  sycl::queue q;
  test_buffer_of_vecs(q);
  test_in_kernel(q);
  test_parallel_vec_kernel(q);
  if (g_failures) {
    std::printf("vec_arithmetic: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("vec_arithmetic: PASSED\n");
  return 0;
}
