// Where BabelStream's sycl2020-acc Dot spends its time at small sizes (issue 14: 0.95-0.97x
// CUDA at 2^25 doubles, 1.00x with USM): the same command group (two read_only accessors, a
// buffer reduction with initialize_to_identity, then a host_accessor to read the sum), timed
// by phase on the host clock, against the USM form (malloc_shared sum, wait, read).
// Usage: cuda_dot_phases [log2 n = 25] [reps = 50]
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using clk = std::chrono::steady_clock;
static double us(clk::time_point a, clk::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

struct phases {
  std::vector<double> submit, read, total;
  void add(double s, double r) {
    submit.push_back(s);
    read.push_back(r);
    total.push_back(s + r);
  }
  static double med(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
  static double min(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }
  void print(const char* name) const {
    std::printf("%-34s total min %8.1f med %8.1f us | submit med %6.1f | read med %8.1f\n", name,
                min(total), med(total), med(submit), med(read));
  }
};

int main(int argc, char** argv) {
  int lg = argc > 1 ? std::atoi(argv[1]) : 25;
  int reps = argc > 2 ? std::atoi(argv[2]) : 50;
  std::size_t n = std::size_t(1) << lg;
  sycl::queue q{sycl::gpu_selector_v};
  std::printf("device: %s, n = 2^%d doubles\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), lg);
  sycl::buffer<double> a{n}, b{n}, sum{1};
  q.submit([&](sycl::handler& h) {
    sycl::accessor ka{a, h, sycl::write_only, sycl::no_init};
    sycl::accessor kb{b, h, sycl::write_only, sycl::no_init};
    h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) {
      ka[i] = 0.1;
      kb[i] = 0.2;
    });
  });
  double expect = 0.02 * double(n);
  int status = 0;
  auto acc_dot = [&](bool wait_first, phases& p) {
    auto t0 = clk::now();
    q.submit([&](sycl::handler& h) {
      sycl::accessor ka{a, h, sycl::read_only};
      sycl::accessor kb{b, h, sycl::read_only};
      h.parallel_for(sycl::range<1>{n},
                     sycl::reduction(sum, h, sycl::plus<double>(),
                                     sycl::property::reduction::initialize_to_identity{}),
                     [=](sycl::id<1> i, auto& s) { s += ka[i] * kb[i]; });
    });
    auto t1 = clk::now();
    if (wait_first) q.wait();
    double v;
    {
      sycl::host_accessor r{sum, sycl::read_only};
      v = r[0];
    }
    auto t2 = clk::now();
    if (std::abs(v - expect) > 1e-8 * expect) status = 1;
    p.add(us(t0, t1), us(t1, t2));
  };
  phases acc, acc_wait, usm;
  for (int r = 0; r < reps; ++r) acc_dot(false, acc);
  for (int r = 0; r < reps; ++r) acc_dot(true, acc_wait);
  double* da = sycl::malloc_device<double>(n, q);
  double* db = sycl::malloc_device<double>(n, q);
  double* s = sycl::malloc_shared<double>(1, q);
  q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) {
     da[i] = 0.1;
     db[i] = 0.2;
   }).wait();
  for (int r = 0; r < reps; ++r) {
    auto t0 = clk::now();
    auto e = q.parallel_for(sycl::range<1>{n},
                            sycl::reduction(s, sycl::plus<double>(),
                                            sycl::property::reduction::initialize_to_identity{}),
                            [=](sycl::id<1> i, auto& x) { x += da[i] * db[i]; });
    auto t1 = clk::now();
    e.wait();
    double v = *s;
    auto t2 = clk::now();
    if (std::abs(v - expect) > 1e-8 * expect) status = 1;
    usm.add(us(t0, t1), us(t1, t2));
  }
  // BabelStream's sycl2020-usm exactly: shared arrays, queue::wait.
  phases usm_shared;
  double* sa = sycl::malloc_shared<double>(n, q);
  double* sb = sycl::malloc_shared<double>(n, q);
  q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) {
     sa[i] = 0.1;
     sb[i] = 0.2;
   }).wait();
  // One Dot as BabelStream's sycl2020-usm times it; returns the sum.
  auto shared_dot = [&](phases& p) {
    auto t0 = clk::now();
    q.submit([&](sycl::handler& h) {
      h.parallel_for(sycl::range<1>{n},
                     sycl::reduction(s, sycl::plus<double>(),
                                     sycl::property::reduction::initialize_to_identity{}),
                     [=](sycl::id<1> i, auto& x) { x += sa[i] * sb[i]; });
    });
    auto t1 = clk::now();
    q.wait();
    double v = *s;
    auto t2 = clk::now();
    p.add(us(t0, t1), us(t1, t2));
    return v;
  };
  for (int r = 0; r < reps; ++r)
    if (std::abs(shared_dot(usm_shared) - expect) > 1e-8 * expect) status = 1;
  // The same Dot after BabelStream's other four kernels, each waited for, as its main loop runs
  // them (Copy, Mul, Add, Triad, Dot).
  phases usm_loop;
  double* sc = sycl::malloc_shared<double>(n, q);
  for (int r = 0; r < reps; ++r) {
    const double k = 0.4;
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { sc[i] = sa[i]; });
    q.wait();
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { sb[i] = k * sc[i]; });
    q.wait();
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { sc[i] = sa[i] + sb[i]; });
    q.wait();
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { sa[i] = sb[i] + k * sc[i]; });
    q.wait();
    shared_dot(usm_loop); // the arrays change every round: no value to check
  }
  sycl::free(sc, q);
  sycl::free(sa, q);
  sycl::free(sb, q);
  acc.print("acc (BabelStream sycl2020-acc)");
  acc_wait.print("acc, queue::wait before reading");
  usm.print("usm, device arrays, event::wait");
  usm_shared.print("usm (BabelStream sycl2020-usm)");
  usm_loop.print("usm, after Copy/Mul/Add/Triad");
  if (status) std::printf("WRONG SUM\n");
  sycl::free(da, q);
  sycl::free(db, q);
  sycl::free(s, q);
  return status;
}
