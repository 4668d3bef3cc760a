// Hierarchical parallelism on the GPU against the same kernel written with nd_range (issue 14),
// timed with profiling events, best of N, 2^26 floats, work-groups of 256:
// - scale: y[i] = 2 x[i] in one parallel_for_work_item (the cost of the work-group scope and
//   its barriers over a plain streaming kernel);
// - neighbour: a work-group-scope array filled by one parallel_for_work_item and read at the
//   neighbour's index by the next (nd_range: a local_accessor and a group_barrier);
// - flexible: a logical range of 4x the group (each work-item runs 4 logical ids) against an
//   nd_range kernel whose work-items loop 4 times.
// Usage: cuda_hierarchical [reps] [log2 n]
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

template <typename F>
double best_ms(int reps, F submit) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    sycl::event e = submit();
    e.wait();
    double ns = double(e.get_profiling_info<sycl::info::event_profiling::command_end>() -
                       e.get_profiling_info<sycl::info::event_profiling::command_start>());
    best = std::min(best, ns * 1e-6);
  }
  return best;
}

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  std::size_t n = std::size_t(1) << (argc > 2 ? std::atoi(argv[2]) : 26);
  constexpr std::size_t local = 256;
  sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::enable_profiling{}};
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  float* x = sycl::malloc_device<float>(n, q);
  float* y = sycl::malloc_device<float>(n, q);
  float* check = sycl::malloc_host<float>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { x[i] = float(i % 1000); }).wait();
  int status = 0;
  auto verify = [&](const char* what, auto expect) {
    q.memcpy(check, y, n * sizeof(float)).wait();
    for (std::size_t i = 0; i < n; ++i)
      if (check[i] != expect(i)) {
        std::printf("%s wrong at %zu: %g, want %g\n", what, i, check[i], expect(i));
        status = 1;
        return;
      }
  };
  auto report = [&](const char* what, double hier, double nd, double bytes) {
    std::printf("%-10s hierarchical %.4f ms (%.1f GB/s), nd_range %.4f ms (%.1f GB/s), "
                "hierarchical/nd_range time %.3f\n",
                what, hier, bytes / (hier * 1e-3) / 1e9, nd, bytes / (nd * 1e-3) / 1e9, hier / nd);
  };
  sycl::range<1> groups(n / local);

  double h = best_ms(reps, [&] {
    return q.submit([&](sycl::handler& cgh) {
      cgh.parallel_for_work_group(groups, sycl::range<1>(local), [=](sycl::group<1> g) {
        g.parallel_for_work_item(
            [&](sycl::h_item<1> it) { y[it.get_global_id(0)] = 2.0f * x[it.get_global_id(0)]; });
      });
    });
  });
  verify("scale (hierarchical)", [](std::size_t i) { return 2.0f * float(i % 1000); });
  double d = best_ms(reps, [&] {
    return q.parallel_for(sycl::nd_range<1>(n, local), [=](sycl::nd_item<1> it) {
      y[it.get_global_id(0)] = 2.0f * x[it.get_global_id(0)];
    });
  });
  verify("scale (nd_range)", [](std::size_t i) { return 2.0f * float(i % 1000); });
  report("scale", h, d, 2.0 * n * sizeof(float));

  auto neighbour = [](std::size_t i) {
    std::size_t base = i / local * local, l = i % local;
    return float((base + (l + 1) % local) % 1000) + float(i % 1000);
  };
  h = best_ms(reps, [&] {
    return q.submit([&](sycl::handler& cgh) {
      cgh.parallel_for_work_group(groups, sycl::range<1>(local), [=](sycl::group<1> g) {
        float tile[local];
        g.parallel_for_work_item(
            [&](sycl::h_item<1> it) { tile[it.get_local_id(0)] = x[it.get_global_id(0)]; });
        g.parallel_for_work_item([&](sycl::h_item<1> it) {
          std::size_t l = it.get_local_id(0);
          y[it.get_global_id(0)] = tile[(l + 1) % local] + tile[l];
        });
      });
    });
  });
  verify("neighbour (hierarchical)", neighbour);
  d = best_ms(reps, [&] {
    return q.submit([&](sycl::handler& cgh) {
      sycl::local_accessor<float, 1> tile(sycl::range<1>(local), cgh);
      cgh.parallel_for(sycl::nd_range<1>(n, local), [=](sycl::nd_item<1> it) {
        std::size_t l = it.get_local_id(0);
        tile[l] = x[it.get_global_id(0)];
        sycl::group_barrier(it.get_group());
        y[it.get_global_id(0)] = tile[(l + 1) % local] + tile[l];
      });
    });
  });
  verify("neighbour (nd_range)", neighbour);
  report("neighbour", h, d, 2.0 * n * sizeof(float));

  // Flexible range: groups of 256 work-items each run a logical range of 1024 ids.
  sycl::range<1> flex_groups(n / (4 * local));
  h = best_ms(reps, [&] {
    return q.submit([&](sycl::handler& cgh) {
      cgh.parallel_for_work_group(flex_groups, sycl::range<1>(local), [=](sycl::group<1> g) {
        g.parallel_for_work_item(sycl::range<1>(4 * local), [&](sycl::h_item<1> it) {
          std::size_t i = g.get_group_id(0) * 4 * local + it.get_logical_local_id(0);
          y[i] = 2.0f * x[i];
        });
      });
    });
  });
  verify("flexible (hierarchical)", [](std::size_t i) { return 2.0f * float(i % 1000); });
  d = best_ms(reps, [&] {
    return q.parallel_for(sycl::nd_range<1>(n / 4, local), [=](sycl::nd_item<1> it) {
      for (std::size_t k = 0; k < 4; ++k) {
        std::size_t i = it.get_group(0) * 4 * local + k * local + it.get_local_id(0);
        y[i] = 2.0f * x[i];
      }
    });
  });
  verify("flexible (nd_range)", [](std::size_t i) { return 2.0f * float(i % 1000); });
  report("flexible", h, d, 2.0 * n * sizeof(float));

  sycl::free(x, q);
  sycl::free(y, q);
  sycl::free(check, q);
  return status;
}
