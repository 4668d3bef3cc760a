// Submission throughput of real programs on the GPU (issue 16), against
// bench/cuda_native_submission.cu (the same kernels, native CUDA launches):
//   usm_inorder      USM, in-order queue, back-to-back parallel_for of a 2^16-element kernel
//   buffer_chain     one buffer, accessor read_write, a chain of kernels on an out-of-order queue
//   two_buffers      two independent buffers interleaved on an out-of-order queue (the kernels
//                    may overlap)
//   empty            back-to-back empty single_task on an in-order queue; `roundtrip`: submit
//                    then wait, one kernel at a time
//   graph            1000 small kernels over 4 buffers, kernel i reading what kernel i-2 wrote
//                    (two interleaved chains), submitted and then waited once
// and a differential profile of one submission (`profile` lines: issue cost of an empty command
// group, an empty kernel, a USM kernel, a kernel with one or two accessors).
// Each line: `result pattern=<p> impl=syclone variant=<v> us=<best us per kernel>`, the best of
// `reps` runs; bench/run_submission.sh turns the lines of both programs into a table.
// Usage: cuda_submission [kernels per run = 5000] [reps = 5] [only this pattern]
// With SYCLONE_SUBMIT_PROFILE=1 the runtime prints where the submitting thread's time went.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
using clk = std::chrono::steady_clock;
constexpr std::size_t N = std::size_t(1) << 16;
int g_failures = 0;

double us_since(clk::time_point t0) {
  return std::chrono::duration<double, std::micro>(clk::now() - t0).count();
}

void result(const char* pattern, const char* variant, double us) {
  std::printf("result pattern=%s impl=syclone variant=%s us=%.3f\n", pattern, variant, us);
}

// Best of `reps` runs of `run` (which returns microseconds for `count` kernels), per kernel.
template <typename Run>
double best(int reps, int count, Run run) {
  run(); // warm-up: JIT, allocations, pools
  double b = 1e30;
  for (int r = 0; r < reps; ++r) b = std::min(b, run());
  return b / count;
}

void expect(bool ok, const char* what) {
  if (ok) return;
  std::printf("FAILED: %s\n", what);
  ++g_failures;
}

void usm_inorder(const sycl::device& dev, int kernels, int reps) {
  sycl::queue q{dev, sycl::property::queue::in_order{}};
  float* a = sycl::malloc_device<float>(N, q);
  q.fill(a, 0.0f, N).wait();
  double issue = 1e30;
  double us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k)
      q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] = a[i] * 0.5f + 1.0f; });
    issue = std::min(issue, us_since(t0));
    q.wait();
    return us_since(t0);
  });
  result("usm_inorder", "total", us);
  result("usm_inorder", "issue", issue / kernels);
  float v = 0;
  q.memcpy(&v, a, sizeof v).wait();
  expect(std::fabs(v - 2.0f) < 1e-3f, "usm_inorder: a[0] converges to 2");
  sycl::free(a, q);
}

void buffer_chain(const sycl::device& dev, int kernels, int reps) {
  sycl::queue q{dev};
  std::vector<float> host(N, 0.0f);
  {
    sycl::buffer<float> buf{host.data(), sycl::range<1>(N)};
    double issue = 1e30;
    double us = best(reps, kernels, [&] {
      auto t0 = clk::now();
      for (int k = 0; k < kernels; ++k)
        q.submit([&](sycl::handler& h) {
          sycl::accessor acc{buf, h, sycl::read_write};
          h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { acc[i] = acc[i] * 0.5f + 1.0f; });
        });
      issue = std::min(issue, us_since(t0));
      q.wait();
      return us_since(t0);
    });
    result("buffer_chain", "total", us);
    result("buffer_chain", "issue", issue / kernels);
  }
  expect(std::fabs(host[0] - 2.0f) < 1e-3f, "buffer_chain: the buffer converges to 2");
}

void two_buffers(const sycl::device& dev, int kernels, int reps) {
  sycl::queue q{dev};
  std::vector<float> ha(N, 0.0f), hb(N, 4.0f);
  {
    sycl::buffer<float> a{ha.data(), sycl::range<1>(N)}, b{hb.data(), sycl::range<1>(N)};
    double issue = 1e30;
    double us = best(reps, kernels, [&] {
      auto t0 = clk::now();
      for (int k = 0; k < kernels; ++k)
        q.submit([&](sycl::handler& h) {
          sycl::accessor acc{k % 2 ? b : a, h, sycl::read_write};
          h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { acc[i] = acc[i] * 0.5f + 1.0f; });
        });
      issue = std::min(issue, us_since(t0));
      q.wait();
      return us_since(t0);
    });
    result("two_buffers", "total", us);
    result("two_buffers", "issue", issue / kernels);
  }
  expect(std::fabs(ha[0] - 2.0f) < 1e-3f && std::fabs(hb[0] - 2.0f) < 1e-3f,
         "two_buffers: both buffers converge to 2");
}

// Submit then wait, one empty kernel at a time (also the pattern `roundtrip` alone:
// bench/run_pairs.sh alternates the two programs, one process each).
void roundtrip(const sycl::device& dev, int kernels, int reps) {
  sycl::queue q{dev, sycl::property::queue::in_order{}};
  auto nothing = [] {};
  q.single_task<class roundtrip_kernel>(nothing).wait();
  double us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) q.single_task<class roundtrip_kernel>(nothing).wait();
    return us_since(t0);
  });
  result("roundtrip", "total", us);
}

void empty(const sycl::device& dev, int kernels, int reps) {
  sycl::queue q{dev, sycl::property::queue::in_order{}};
  double issue = 1e30;
  double us = best(reps, kernels, [&] {
    auto t0 = clk::now();
    for (int k = 0; k < kernels; ++k) q.single_task<class empty_kernel>([] {});
    issue = std::min(issue, us_since(t0));
    q.wait();
    return us_since(t0);
  });
  result("empty", "total", us);
  result("empty", "issue", issue / kernels);
  roundtrip(dev, kernels, reps);
}

void graph(const sycl::device& dev, int reps) {
  constexpr int kernels = 1000;
  sycl::queue q{dev};
  std::vector<std::vector<float>> host(4, std::vector<float>(N, 1.0f));
  {
    std::vector<sycl::buffer<float>> bufs;
    for (auto& h : host) bufs.emplace_back(h.data(), sycl::range<1>(N));
    double us = best(reps, kernels, [&] {
      auto t0 = clk::now();
      for (int k = 0; k < kernels; ++k)
        q.submit([&](sycl::handler& h) {
          sycl::accessor in{bufs[(k + 2) % 4], h, sycl::read_only};
          sycl::accessor out{bufs[k % 4], h, sycl::write_only};
          h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { out[i] = in[i] * 0.5f + 1.0f; });
        });
      q.wait();
      return us_since(t0);
    });
    result("graph", "total", us);
  }
  for (auto& h : host) expect(std::fabs(h[0] - 2.0f) < 1e-3f, "graph: every buffer reaches 2");
}

// Issue cost of one submission by what it carries; differences between lines are what each
// part costs (handler + command + event; kernel launch; accessors with their dependencies).
void profile(const sycl::device& dev, int kernels, int reps) {
  sycl::queue q{dev};
  float* a = sycl::malloc_device<float>(N, q);
  std::vector<float> h1(N, 0.0f), h2(N, 0.0f);
  sycl::buffer<float> b1{h1.data(), sycl::range<1>(N)}, b2{h2.data(), sycl::range<1>(N)};
  auto issue = [&](const char* what, auto submit) {
    double us = best(reps, kernels, [&] {
      auto t0 = clk::now();
      for (int k = 0; k < kernels; ++k) submit();
      double t = us_since(t0);
      q.wait();
      return t;
    });
    result("profile", what, us);
  };
  issue("empty_command_group", [&] { q.submit([](sycl::handler&) {}); });
  issue("empty_kernel", [&] { q.single_task<class profile_empty>([] {}); });
  issue("usm_kernel", [&] {
    q.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { a[i] = a[i] * 0.5f + 1.0f; });
  });
  issue("one_accessor", [&] {
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc{b1, h, sycl::read_write};
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { acc[i] = acc[i] * 0.5f + 1.0f; });
    });
  });
  issue("two_accessors", [&] {
    q.submit([&](sycl::handler& h) {
      sycl::accessor in{b1, h, sycl::read_only};
      sycl::accessor out{b2, h, sycl::read_write};
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { out[i] = in[i] * 0.5f + out[i]; });
    });
  });
  q.wait();
  sycl::free(a, q);
}
} // namespace

int main(int argc, char** argv) {
  int kernels = argc > 1 ? std::atoi(argv[1]) : 5000;
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  sycl::device dev{sycl::default_selector_v}; // the GPU under SYCLONE_DEVICE_SELECTOR=cuda:gpu
  std::printf("device: %s, %zu-element kernels, %d per run, best of %d runs\n",
              dev.get_info<sycl::info::device::name>().c_str(), N, kernels, reps);
  std::string only = argc > 3 ? argv[3] : "";
  auto run = [&](const char* name) { return only.empty() || only == name; };
  if (run("usm_inorder")) usm_inorder(dev, kernels, reps);
  if (run("buffer_chain")) buffer_chain(dev, kernels, reps);
  if (run("two_buffers")) two_buffers(dev, kernels, reps);
  if (run("empty")) empty(dev, kernels, reps);
  if (only == "roundtrip") roundtrip(dev, kernels, reps);
  if (run("graph")) graph(dev, reps);
  if (run("profile")) profile(dev, kernels, reps);
  return g_failures ? 1 : 0;
}
