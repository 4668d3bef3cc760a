// SYCL 2020 4.7.2.3 buffer destruction: the contents go back to the host pointer when some access
// could have written them, and a buffer that nothing wrote leaves the host memory as it is (the
// CTS sets a result through the host pointer while such a buffer exists, e.g.
// spec_constants_via_kernel_bundle).
#include <sycl/sycl.hpp>

#include <cstdio>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)
} // namespace

int main() {
  sycl::queue q;

  // Never accessed: no write-back.
  int untouched = 1;
  {
    sycl::buffer<int> b(&untouched, sycl::range<1>(1));
    untouched = 5;
  }
  CHECK(untouched == 5);

  // Only read, by a kernel and by a host accessor: no write-back.
  int read_only = 1;
  int seen = 0;
  {
    sycl::buffer<int> b(&read_only, sycl::range<1>(1));
    sycl::buffer<int> out(&seen, sycl::range<1>(1));
    q.submit([&](sycl::handler& h) {
      sycl::accessor in(b, h, sycl::read_only);
      sycl::accessor o(out, h, sycl::write_only);
      h.single_task([=] { o[0] = in[0] + 1; });
    });
    {
      sycl::host_accessor h(b, sycl::read_only);
    }
    q.wait();
    read_only = 7;
  }
  CHECK(read_only == 7);
  CHECK(seen == 2);

  // Written by a kernel: the contents come back.
  int written = 1;
  {
    sycl::buffer<int> b(&written, sycl::range<1>(1));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::read_write);
      h.single_task([=] { a[0] = 9; });
    });
  }
  CHECK(written == 9);

  // Written through a host accessor: the contents come back.
  int host_written = 1;
  {
    sycl::buffer<int> b(&host_written, sycl::range<1>(1));
    sycl::host_accessor h(b);
    h[0] = 11;
  }
  CHECK(host_written == 11);

  if (g_failures) return 1;
  std::printf("buffer_write_back: ok\n");
  return 0;
}
