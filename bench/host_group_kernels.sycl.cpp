// GPU-style kernels on the host device (issue 29): work-group barriers, local memory and group
// algorithms, each against its barrier-free form and the OpenMP loop doing the same work
// (host_group_kernels_omp.cpp). Times are the best of `reps` runs, submit to wait.
// Usage: host_group_kernels [log2 n] [reps]   (SYCLONE_HOST_KERNELS=fibers for the reference)
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

constexpr std::size_t wg = 256;
constexpr std::size_t tile = 16;

template <typename Launch>
double best_ms(sycl::queue& q, int reps, Launch launch) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    launch();
    q.wait();
    best = std::min(
        best,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

int failures = 0;
void check(const char* what, bool ok) {
  if (!ok) {
    std::printf("WRONG RESULT: %s\n", what);
    ++failures;
  }
}

int main(int argc, char** argv) {
  int log2n = argc > 1 ? std::atoi(argv[1]) : 20;
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::size_t n = std::size_t(1) << log2n;
  const std::size_t side = std::size_t(1) << (log2n / 2); // transpose/stencil: side x side
  sycl::queue q;
  const char* mode = std::getenv("SYCLONE_HOST_KERNELS");
  std::printf("device: %s, n = 2^%d floats, work-groups of %zu (16x16 tiles), mode %s\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), log2n, wg,
              mode ? mode : "loops");
  float* in = sycl::malloc_shared<float>(n, q);
  float* out = sycl::malloc_shared<float>(n, q);
  float* sums = sycl::malloc_shared<float>(n / wg, q);
  for (std::size_t i = 0; i < n; ++i) in[i] = float(i % 7);
  auto sums_ok = [&] {
    for (std::size_t g = 0; g < n / wg; ++g) {
      float ref = 0;
      for (std::size_t i = 0; i < wg; ++i) ref += in[g * wg + i];
      if (sums[g] != ref) return false;
    }
    return true;
  };
  auto report = [](const char* name, double ms) { std::printf("%-44s %9.3f ms\n", name, ms); };

  report("copy, parallel_for(range)", best_ms(q, reps, [&] {
           q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = in[i]; });
         }));
  report("copy, nd_range", best_ms(q, reps, [&] {
           q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
             out[it.get_global_id(0)] = in[it.get_global_id(0)];
           });
         }));
  // A CUDA-style grid-stride loop over a fixed grid (16 groups of 256 work-items, each walking the
  // array with the grid's stride): the loop compiler runs one iteration of every work-item at a
  // time.
  std::fill(out, out + n, -1.0f);
  report("copy, grid-stride nd_range (16 x 256)", best_ms(q, reps, [&] {
           q.parallel_for(sycl::nd_range<1>(16 * wg, wg), [=](sycl::nd_item<1> it) {
             for (std::size_t i = it.get_global_id(0); i < n; i += it.get_global_range(0))
               out[i] = in[i];
           });
         }));
  check("grid-stride copy", std::equal(in, in + n, out));
  double barrier_free = best_ms(q, reps, [&] {
    q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
      std::size_t i = it.get_global_id(0);
      out[i] = in[i] + 1.0f;
    });
  });
  double one_barrier = best_ms(q, reps, [&] {
    q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
      std::size_t i = it.get_global_id(0);
      float v = in[i];
      sycl::group_barrier(it.get_group());
      out[i] = v + 1.0f;
    });
  });
  std::printf("%-44s %9.3f ns per work-item\n", "work-group barrier cost",
              (one_barrier - barrier_free) * 1e6 / double(n));

  std::fill(sums, sums + n / wg, -1.0f);
  report("per-group sum, reduce_over_group", best_ms(q, reps, [&] {
           q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
             float s =
                 sycl::reduce_over_group(it.get_group(), in[it.get_global_id(0)], sycl::plus<>());
             if (it.get_local_id(0) == 0) sums[it.get_group(0)] = s;
           });
         }));
  check("reduce_over_group", sums_ok());

  std::fill(sums, sums + n / wg, -1.0f);
  report("per-group sum, local-memory tree", best_ms(q, reps, [&] {
           q.submit([&](sycl::handler& h) {
             sycl::local_accessor<float> t(wg, h);
             h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
               std::size_t l = it.get_local_id(0);
               t[l] = in[it.get_global_id(0)];
               for (std::size_t s = wg / 2; s > 0; s /= 2) {
                 sycl::group_barrier(it.get_group());
                 if (l < s) t[l] += t[l + s];
               }
               if (l == 0) sums[it.get_group(0)] = t[0];
             });
           });
         }));
  check("local-memory tree", sums_ok());

  std::fill(sums, sums + n / wg, -1.0f);
  report("per-group sum, sub-group shifts", best_ms(q, reps, [&] {
           q.submit([&](sycl::handler& h) {
             sycl::local_accessor<float> partial(wg, h);
             h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
               sycl::sub_group sg = it.get_sub_group();
               float v = in[it.get_global_id(0)];
               for (std::uint32_t d = sg.get_max_local_range()[0] / 2; d > 0; d /= 2)
                 v += sycl::shift_group_left(sg, v, d);
               if (sg.leader()) partial[sg.get_group_linear_id()] = v;
               sycl::group_barrier(it.get_group());
               if (it.get_local_id(0) == 0) {
                 float s = 0;
                 for (std::uint32_t k = 0; k < sg.get_group_linear_range(); ++k) s += partial[k];
                 sums[it.get_group(0)] = s;
               }
             });
           });
         }));
  check("sub-group shifts", sums_ok());

  sycl::range<2> grid(side, side), block(tile, tile);
  double naive = best_ms(q, reps, [&] {
    q.parallel_for(sycl::nd_range<2>(grid, block), [=](sycl::nd_item<2> it) {
      std::size_t y = it.get_global_id(0), x = it.get_global_id(1);
      out[x * side + y] = in[y * side + x];
    });
  });
  report("transpose, naive (nd_range 16x16)", naive);
  double tiled = best_ms(q, reps, [&] {
    q.submit([&](sycl::handler& h) {
      sycl::local_accessor<float, 2> t(sycl::range<2>(tile, tile + 1), h);
      h.parallel_for(sycl::nd_range<2>(grid, block), [=](sycl::nd_item<2> it) {
        std::size_t ly = it.get_local_id(0), lx = it.get_local_id(1);
        t[ly][lx] = in[it.get_global_id(0) * side + it.get_global_id(1)];
        sycl::group_barrier(it.get_group());
        std::size_t oy = it.get_group(1) * tile + ly, ox = it.get_group(0) * tile + lx;
        out[oy * side + ox] = t[lx][ly];
      });
    });
  });
  report("transpose, 16x16 local tile + barrier", tiled);
  bool transposed = true;
  for (std::size_t y = 0; y < side && transposed; y += 7)
    for (std::size_t x = 0; x < side; x += 5) transposed &= out[x * side + y] == in[y * side + x];
  check("tiled transpose", transposed);

  double stencil = best_ms(q, reps, [&] {
    q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
      std::size_t i = it.get_global_id(0);
      float left = i > 0 ? in[i - 1] : 0.0f, right = i + 1 < n ? in[i + 1] : 0.0f;
      out[i] = 0.25f * left + 0.5f * in[i] + 0.25f * right;
    });
  });
  report("3-point stencil, naive", stencil);
  double stencil_local = best_ms(q, reps, [&] {
    q.submit([&](sycl::handler& h) {
      sycl::local_accessor<float> t(wg + 2, h);
      h.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
        std::size_t i = it.get_global_id(0), l = it.get_local_id(0);
        t[l + 1] = in[i];
        if (l == 0) t[0] = i > 0 ? in[i - 1] : 0.0f;
        if (l == wg - 1) t[wg + 1] = i + 1 < n ? in[i + 1] : 0.0f;
        sycl::group_barrier(it.get_group());
        out[i] = 0.25f * t[l] + 0.5f * t[l + 1] + 0.25f * t[l + 2];
      });
    });
  });
  report("3-point stencil, local memory + barrier", stencil_local);
  bool smooth = true;
  for (std::size_t i = 1; i + 1 < n; i += 101)
    smooth &= std::fabs(out[i] - (0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1])) < 1e-5f;
  check("local-memory stencil", smooth);

  std::printf("ratios: tiled/naive transpose %.2f, local/naive stencil %.2f\n", tiled / naive,
              stencil_local / stencil);
  sycl::free(in, q);
  sycl::free(out, q);
  sycl::free(sums, q);
  return failures != 0;
}
