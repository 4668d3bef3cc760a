// SYCL 2020 4.16: each work-item of a kernel has its own sycl::stream formatting state and its
// own statements. A manipulator (hex, showbase, setw) one work-item applies must not reach the
// next work-item that runs on the same thread, and a statement a work-item leaves unfinished must
// not take in the next one's output (which would then be cut at the first one's
// workItemBufferSize). Checked for range, nd_range (also across a barrier, where work-items of a
// group interleave on one host thread) and hierarchical kernels, also with a flexible range
// larger than the group (a GPU thread then runs several logical work-items), and range
// reductions (a GPU thread strides over several work-items); stdout is captured in a file.
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
  char path[] = "/tmp/syclone_stream_items_XXXXXX";
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

static std::vector<std::string> sorted_lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string line;
  while (std::getline(ss, line)) out.push_back(line);
  std::sort(out.begin(), out.end());
  return out;
}

// Even work-items print in hex with a base; odd ones in decimal, "odd " padded to odd_width.
static std::vector<std::string> expected_formats(std::size_t n, std::size_t odd_width = 0) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) {
    std::stringstream ss;
    if (i % 2 == 0)
      ss << "even 0x" << std::hex << (i + 16);
    else
      ss << std::string(odd_width > 4 ? odd_width - 4 : 0, ' ') << "odd " << (i + 16) << '|';
    out.push_back(ss.str());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Even work-items write "AAAAAA" without ending the statement; odd ones "BBBBBB" and a newline.
// With 8-byte statements, an odd one continuing an even one's statement is cut to "AAAAAAB".
static void check_statements(const std::string& out, std::size_t n, const char* what) {
  std::size_t as = std::count(out.begin(), out.end(), 'A');
  std::size_t bs = std::count(out.begin(), out.end(), 'B');
  if (as != 6 * (n / 2) || bs != 6 * (n / 2)) {
    std::fprintf(stderr, "%s: %zu A and %zu B, expected %zu each:\n%s\n", what, as, bs, 6 * (n / 2),
                 out.c_str());
    ++failures;
  }
}

int main() {
  sycl::queue q;
  std::fprintf(stderr, "device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  constexpr std::size_t n = 64;
  const auto expected = expected_formats(n);

  auto format_item = [](const sycl::stream& os, std::size_t i) {
    if (i % 2 == 0)
      os << sycl::hex << sycl::showbase << "even " << (i + 16) << sycl::setw(12) << sycl::endl;
    else
      os << "odd " << (i + 16) << '|' << sycl::endl;
  };
  auto statement_item = [](const sycl::stream& os, std::size_t i) {
    if (i % 2 == 0)
      os << "AAAAAA";
    else
      os << "BBBBBB" << sycl::endl;
  };

  // range kernels: work-items of a chunk run one after the other on a thread.
  std::string range_formats = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(n * 64, 48, h);
       h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { format_item(os, i[0]); });
     }).wait();
  });
  CHECK(sorted_lines(range_formats) == expected);
  std::string range_statements = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(n * 16, 8, h);
       h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { statement_item(os, i[0]); });
     }).wait();
  });
  check_statements(range_statements, n, "range");

  // nd_range kernels, with a barrier between setting the format and printing: the work-items of
  // a group interleave there, each keeping its own state.
  std::string nd_formats = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(n * 64, 48, h);
       h.parallel_for(sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(16)),
                      [=](sycl::nd_item<1> it) {
                        std::size_t i = it.get_global_id(0);
                        if (i % 2 == 0)
                          os << sycl::hex << sycl::showbase;
                        else
                          os << sycl::setw(12);
                        sycl::group_barrier(it.get_group());
                        if (i % 2 == 0)
                          os << "even " << (i + 16) << sycl::endl;
                        else
                          os << "odd " << (i + 16) << '|' << sycl::endl;
                      });
     }).wait();
  });
  CHECK(sorted_lines(nd_formats) == expected_formats(n, 12));
  std::string nd_statements = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(n * 16, 8, h);
       h.parallel_for(sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(16)),
                      [=](sycl::nd_item<1> it) { statement_item(os, it.get_global_id(0)); });
     }).wait();
  });
  check_statements(nd_statements, n, "nd_range");

  // Hierarchical kernels: the logical work-items of parallel_for_work_item.
  std::string hier_formats = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(n * 64, 48, h);
       h.parallel_for_work_group(sycl::range<1>(n / 16), sycl::range<1>(16), [=](sycl::group<1> g) {
         g.parallel_for_work_item(
             [&](sycl::h_item<1> it) { format_item(os, it.get_global_id(0)); });
       });
     }).wait();
  });
  CHECK(sorted_lines(hier_formats) == expected);
  std::string hier_statements = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(n * 16, 8, h);
       h.parallel_for_work_group(sycl::range<1>(n / 16), sycl::range<1>(16), [=](sycl::group<1> g) {
         g.parallel_for_work_item(
             [&](sycl::h_item<1> it) { statement_item(os, it.get_global_id(0)); });
       });
     }).wait();
  });
  check_statements(hier_statements, n, "hierarchical");

  // A flexible range larger than the group: each physical work-item (a GPU thread) runs several
  // logical work-items. Each starts with the formatting of the work-group scope (hex with a
  // base), logical work-items 0-15, 32-47 of a group switch to decimal, which must not reach
  // the next logical work-item of the same physical one; after them the work-group scope goes on
  // with its own state.
  constexpr std::size_t flex = 48, groups = 2;
  std::string flex_formats = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(groups * (flex + 1) * 64, 48, h);
       h.parallel_for_work_group(sycl::range<1>(groups), sycl::range<1>(16), [=](sycl::group<1> g) {
         os << sycl::showbase << sycl::hex;
         g.parallel_for_work_item(sycl::range<1>(flex), [&](sycl::h_item<1> it) {
           std::size_t l = it.get_logical_local_id(0);
           std::size_t i = g.get_group_id(0) * flex + l;
           if (l / 16 % 2 == 0) os << sycl::dec << sycl::noshowbase;
           os << "item " << i << sycl::endl;
         });
         os << "group " << (g.get_group_id(0) + 16) << sycl::endl;
       });
     }).wait();
  });
  std::vector<std::string> flex_expected;
  for (std::size_t i = 0; i < groups * flex; ++i) {
    std::stringstream ss;
    if (i % flex / 16 % 2 == 0)
      ss << "item " << i;
    else
      ss << "item 0x" << std::hex << i;
    flex_expected.push_back(ss.str());
  }
  flex_expected.push_back("group 0x10");
  flex_expected.push_back("group 0x11");
  std::sort(flex_expected.begin(), flex_expected.end());
  CHECK(sorted_lines(flex_formats) == flex_expected);
  // Statements: a logical work-item's unfinished statement is not continued by the next one of
  // the same physical work-item.
  std::string flex_statements = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(n * 16, 8, h);
       h.parallel_for_work_group(sycl::range<1>(n / 32), sycl::range<1>(16), [=](sycl::group<1> g) {
         g.parallel_for_work_item(sycl::range<1>(32), [&](sycl::h_item<1> it) {
           statement_item(os, it.get_logical_local_id(0) / 16);
         });
       });
     }).wait();
  });
  check_statements(flex_statements, n, "hierarchical, flexible range");

  // A range reduction: on a GPU a thread strides over several work-items (more items than the
  // launch's threads), each with its own state. Work-items of even thousands switch to hex, the
  // others print in decimal, also after a hex one on the same thread.
  constexpr std::size_t many = 1 << 20;
  long* total = sycl::malloc_shared<long>(1, q);
  *total = 0;
  std::string reduction_formats = capture([&] {
    q.submit([&](sycl::handler& h) {
       sycl::stream os(1 << 17, 32, h);
       h.parallel_for(sycl::range<1>(many), sycl::reduction(total, sycl::plus<long>()),
                      [=](sycl::id<1> i, auto& sum) {
                        std::size_t k = i[0];
                        sum += 1;
                        if (k / 1000 % 2 == 0) os << sycl::hex << sycl::showbase;
                        if (k % 2003 == 0) os << "r " << k << sycl::endl;
                      });
     }).wait();
  });
  CHECK(*total == static_cast<long>(many));
  sycl::free(total, q);
  std::vector<std::string> reduction_expected;
  for (std::size_t k = 0; k < many; k += 2003) {
    std::stringstream ss;
    if (k / 1000 % 2 == 0)
      ss << "r 0x" << std::hex << k;
    else
      ss << "r " << k;
    reduction_expected.push_back(ss.str());
  }
  std::sort(reduction_expected.begin(), reduction_expected.end());
  CHECK(sorted_lines(reduction_formats) == reduction_expected);

  if (failures) {
    std::fprintf(
        stderr, "--- range:\n%s--- nd_range:\n%s--- hierarchical:\n%s--- flexible:\n%s---\n",
        range_formats.c_str(), nd_formats.c_str(), hier_formats.c_str(), flex_formats.c_str());
    std::fprintf(stderr, "%d failures\n", failures);
    return 1;
  }
  std::fprintf(stderr, "stream_work_items: all passed\n");
  return 0;
}
