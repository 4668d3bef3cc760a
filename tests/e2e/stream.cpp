// SYCL 2020 4.16 sycl::stream, by value: the program captures its own stdout in a file and
// compares what the kernels printed: every operator<< kind, the manipulators, lines of several
// work-items never interleaved, get_size / get_work_item_buffer_size, and a buffer too small
// (the output is truncated, nothing crashes).
// SYCLONE_E2E_HOST_ONLY is not set: the GPU run prints through a device buffer.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

static int failures = 0;
#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                         \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

// Runs f with stdout redirected to a file; returns what was printed.
template <typename F>
std::string capture(F f) {
  char path[] = "/tmp/syclone_stream_XXXXXX";
  int fd = mkstemp(path);
  std::fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  f();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  unlink(path);
  return ss.str();
}

static std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string line;
  while (std::getline(ss, line)) out.push_back(line);
  return out;
}

int main() {
  sycl::queue q;
  std::fprintf(stderr, "device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());

  // Formatting, one work-item.
  std::string one = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(4096, 512, h);
       h.single_task([=] {
         os << "int " << -42 << ' ' << 7u << " long " << -1234567890123LL << sycl::endl;
         os << sycl::hex << 255 << ' ' << sycl::showbase << 255 << ' ' << sycl::oct << 8
            << sycl::dec << sycl::noshowbase << ' ' << sycl::showpos << 5 << sycl::noshowpos
            << sycl::endl;
         os << "float " << 1.5f << ' ' << 0.1 << ' ' << 1e20 << ' ' << 1.0 / 3.0 << ' ' << -2.0
            << ' ' << 100.0 << ' ' << 1e-5 << sycl::endl;
         os << sycl::fixed << sycl::setprecision(3) << 3.14159 << ' ' << sycl::scientific
            << 12345.678 << ' ' << sycl::hexfloat << 1.0 << ' ' << sycl::defaultfloat
            << sycl::setprecision(6) << 2.5 << sycl::endl;
         os << '[' << sycl::setw(5) << 42 << ']' << " bool " << true << ' ' << false << sycl::endl;
         os << sycl::id<2>(1, 2) << ' ' << sycl::range<3>(3, 4, 5) << ' '
            << sycl::vec<int, 3>(1, -2, 3) << sycl::endl;
       });
     }).wait();
  });
  std::fprintf(stderr, "--- captured:\n%s---\n", one.c_str());
  auto l = lines(one);
  CHECK(l.size() == 6);
  if (l.size() == 6) {
    CHECK(l[0] == "int -42 7 long -1234567890123");
    CHECK(l[1] == "ff 0xff 010 +5");
    CHECK(l[2] == "float 1.5 0.1 1e+20 0.333333 -2 100 1e-05");
    CHECK(l[3] == "3.142 1.235e+04 0x1p+0 2.5");
    CHECK(l[4] == "[   42] bool true false");
    CHECK(l[5] == "{1, 2} {3, 4, 5} {1, -2, 3}");
  }

  // Many work-items, one line each built from several <<: no line is interleaved.
  constexpr std::size_t n = 512;
  std::string many = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(n * 80, 64, h); // a segment is 4 + 64 bytes
       h.parallel_for(sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(64)),
                      [=](sycl::nd_item<1> it) {
                        os << "item " << it.get_global_id(0) << " of " << n << " group "
                           << it.get_group(0) << sycl::endl;
                      });
     }).wait();
  });
  auto ml = lines(many);
  CHECK(ml.size() == n);
  std::vector<int> seen(n, 0);
  for (const auto& line : ml) {
    unsigned long i = 0, total = 0, g = 0;
    if (std::sscanf(line.c_str(), "item %lu of %lu group %lu", &i, &total, &g) == 3 && i < n &&
        total == n && g == i / 64)
      ++seen[i];
    else
      CHECK(!"malformed line");
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));

  // Sizes, and a buffer too small for everything: whole statements only, no crash.
  std::string small = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(100, 20, h);
       CHECK(os.get_size() == 100);
       CHECK(os.get_work_item_buffer_size() == 20);
       h.parallel_for(sycl::range<1>(50), [=](sycl::id<1> i) {
         os << "x" << i[0] << "-this statement is longer than twenty bytes" << sycl::endl;
       });
     }).wait();
  });
  auto sl = lines(small);
  CHECK(sl.size() == 5); // 100 bytes hold five statements cut to 20 bytes (the newline last)
  for (const auto& line : sl) CHECK(line.size() == 19 && line[0] == 'x');

  // totalBufferSize counts characters (issue 30): a total equal to the statement size holds that
  // statement, and many short statements print in full while their characters fit the total.
  std::string exact = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(128, 128, h);
       h.single_task([=] { os << "hello " << 42 << sycl::endl; });
     }).wait();
  });
  CHECK(exact == "hello 42\n");
  constexpr std::size_t shorts = 300;
  std::size_t characters = 0;
  for (std::size_t i = 0; i < shorts; ++i) characters += 4 + std::to_string(i).size();
  std::string short_lines = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(characters, 64, h);
       h.parallel_for(sycl::range<1>(shorts),
                      [=](sycl::id<1> i) { os << "wi " << i[0] << sycl::endl; });
     }).wait();
  });
  CHECK(short_lines.size() == characters);
  auto shl = lines(short_lines);
  CHECK(shl.size() == shorts);
  std::vector<int> printed(shorts, 0);
  for (const auto& line : shl) {
    unsigned long i = 0;
    if (std::sscanf(line.c_str(), "wi %lu", &i) == 1 && i < shorts) ++printed[i];
  }
  CHECK(std::all_of(printed.begin(), printed.end(), [](int c) { return c == 1; }));

  // The output is there when queue::wait returns, also when a later command of the in-order
  // queue completed on the device first, and when the kernel's own event is waited for.
  sycl::queue in_order{q.get_device(), sycl::property::queue::in_order{}};
  int* dummy = sycl::malloc_device<int>(1, in_order);
  for (int round = 0; round < 20; ++round) {
    std::string waited = capture([&] {
      in_order.submit([&](sycl::handler& h) {
        sycl::stream os(1024, 64, h);
        h.single_task([=] { os << "round " << round << sycl::endl; });
      });
      in_order.memset(dummy, 0, sizeof(int));
      in_order.wait();
    });
    CHECK(waited == "round " + std::to_string(round) + "\n");
    std::string evented = capture([&] {
      sycl::event e = in_order.submit([&](sycl::handler& h) {
        sycl::stream os(1024, 64, h);
        h.single_task([=] { os << "event " << round << sycl::endl; });
      });
      e.wait();
    });
    CHECK(evented == "event " + std::to_string(round) + "\n");
  }
  sycl::free(dummy, in_order);

  if (failures) {
    std::fprintf(stderr, "%d failures\n", failures);
    return 1;
  }
  std::fprintf(stderr, "stream: all passed\n");
  return 0;
}
