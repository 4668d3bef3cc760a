// sycl::ext::oneapi::experimental::printf from kernels, its output captured and compared: the
// program points its standard output (file descriptor 1) at a temporary file, runs kernels that
// print values they computed, waits, and reads the file back. Every conversion the OpenCL C
// format allows and CUDA's printf knows (%d %i %u %x %X %o %c %s %f %e %E %g %%, lengths h and l,
// width, precision, flags), formats declared as DPC++ programs do (static const __SYCL_CONSTANT_AS
// char arrays, also in the kernel) and as string literals. The host prints at once: a kernel's
// lines come between what the host printed before and after it. On a GPU the lines of a kernel
// are there once its wait returned, in an order among work-items that CUDA leaves open (sorted
// before comparing).
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

// What DPC++'s own tests do: define the macro themselves, token for token as <sycl/sycl.hpp>
// does, which must not clash with syclone's definition.
#ifdef __SYCL_DEVICE_ONLY__
#define __SYCL_CONSTANT_AS __attribute__((opencl_constant))
#else
#define __SYCL_CONSTANT_AS
#endif

namespace syclex = sycl::ext::oneapi::experimental;

static const __SYCL_CONSTANT_AS char item_format[] =
    "item %d: square %u, hex %x/%X, octal %o, %s\n";
static const __SYCL_CONSTANT_AS char wide_format[] =
    "wide %ld %ld %lu %hd %c%c [%5d] [%-4d|] [%+d] [%05.1f] %%\n";
static const __SYCL_CONSTANT_AS char float_format[] = "float %f %.3f %e %.2E %g\n";

// Output of the commands `run` submits, as lines (fd 1 goes to a temporary file meanwhile).
template <typename Run>
std::vector<std::string> captured(Run run) {
  std::fflush(stdout);
  char path[] = "/tmp/syclone-printf-XXXXXX";
  int file = mkstemp(path);
  if (file < 0) {
    std::perror("mkstemp");
    std::exit(2);
  }
  int saved = dup(1);
  dup2(file, 1);
  run();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::vector<std::string> lines;
  if (FILE* in = std::fopen(path, "r")) {
    char buffer[1024];
    while (std::fgets(buffer, sizeof buffer, in)) {
      std::string line = buffer;
      if (!line.empty() && line.back() == '\n') line.pop_back();
      lines.push_back(line);
    }
    std::fclose(in);
  }
  close(file);
  unlink(path);
  return lines;
}

void show(const char* what, const std::vector<std::string>& lines) {
  std::printf("%s (%zu lines):\n", what, lines.size());
  for (const auto& l : lines) std::printf("  |%s|\n", l.c_str());
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

void test_on(sycl::queue& q) {
  std::printf("%s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  // Room for the output: CUDA's printf buffer (1 MiB by default), unbounded on the host.
  EXPECT(q.get_device().get_info<sycl::info::device::printf_buffer_size>() >= (1u << 20));
  constexpr int n = 6;
  int* results = sycl::malloc_shared<int>(n, q);

  // Values computed in the kernel, printed with the integer conversions.
  auto lines = captured([&] {
    std::printf("host before\n");
    std::fflush(stdout); // the driver may write to the file descriptor past stdout's buffer
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
       int k = static_cast<int>(i[0]);
       unsigned square = static_cast<unsigned>(k * k);
       results[k] = syclex::printf(item_format, k, square, 250u + square, 250u + square,
                                   8u + square, k % 2 ? "odd" : "even");
     }).wait();
    std::printf("host after\n");
  });
  std::vector<std::string> expected;
  for (int k = 0; k < n; ++k) {
    char line[256];
    unsigned square = static_cast<unsigned>(k * k);
    std::snprintf(line, sizeof line, "item %d: square %u, hex %x/%X, octal %o, %s", k, square,
                  250u + square, 250u + square, 8u + square, k % 2 ? "odd" : "even");
    expected.push_back(line);
  }
  EXPECT(lines.size() == n + 2);
  if (lines.size() == n + 2) {
    EXPECT(lines.front() == "host before" && lines.back() == "host after");
    std::vector<std::string> kernel(lines.begin() + 1, lines.end() - 1);
    // Work-items print in any order (the host device shares a range with its threads too).
    EXPECT(sorted(kernel) == sorted(expected));
  } else {
    show("integers", lines);
  }
  for (int k = 0; k < n; ++k) EXPECT(results[k] >= 0); // no error from printf

  // Lengths, flags and widths; a format declared in the kernel; a literal.
  lines = captured([&] {
    q.single_task([=] {
       long big = 1l << 40;
       long neg = -(1l << 50);
       unsigned long count = 12345;
       short mid = -300;
       syclex::printf(wide_format, big, neg, count, mid, 'o', 'k', 42, 7, 5, 3.25);
       static const __SYCL_CONSTANT_AS char local_format[] = "local %d %s\n";
       syclex::printf(local_format, 99, "done");
       syclex::printf("literal %i\n", -12);
     }).wait();
  });
  char wide[256];
  std::snprintf(wide, sizeof wide, "wide %ld %ld %lu %hd %c%c [%5d] [%-4d|] [%+d] [%05.1f] %%",
                1l << 40, -(1l << 50), 12345ul, (short)-300, 'o', 'k', 42, 7, 5, 3.25);
  std::vector<std::string> want = {wide, "local 99 done", "literal -12"};
  EXPECT(lines == want);
  if (lines != want) show("lengths and flags", lines);

  // Floating point: a float argument is promoted to double, as in C.
  lines = captured([&] {
    q.single_task([=] {
       float third = 1.0f / 3.0f;
       double e = 2.718281828459045;
       syclex::printf(float_format, third, e, 6.02214076e23, -1.5e-7, 0.0001);
     }).wait();
  });
  char floats[256];
  std::snprintf(floats, sizeof floats, "float %f %.3f %e %.2E %g", double(1.0f / 3.0f),
                2.718281828459045, 6.02214076e23, -1.5e-7, 0.0001);
  EXPECT(lines.size() == 1 && lines[0] == floats);
  if (lines.size() != 1 || lines[0] != floats) show("floating point", lines);

  // Two kernels in order, each waited for: the first one's lines come first.
  lines = captured([&] {
    q.single_task([=] { syclex::printf("first\n"); }).wait();
    q.single_task([=] { syclex::printf("second\n"); }).wait();
  });
  EXPECT((lines == std::vector<std::string>{"first", "second"}));
  sycl::free(results, q);
}

int main() {
  for (const sycl::device& d : sycl::device::get_devices()) {
    sycl::queue q(d);
    test_on(q);
  }
  if (failures == 0) std::printf("ok\n");
  return failures;
}
