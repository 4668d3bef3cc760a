// SYCL 2020 4.7.6.10 host_accessor: several host accessors of one buffer may live at once in
// one thread (they all address host memory), a kernel submitted meanwhile waits for them, and a
// buffer destroyed while a host accessor lives writes back when the accessor goes.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <optional>
#include <vector>

static int failures = 0;
#define CHECK(c)                                                                                   \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      std::printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #c);                                   \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

int main() {
  sycl::queue q;
  std::vector<int> data(16, 1);
  {
    sycl::buffer<int> buf(data.data(), sycl::range<1>(16));
    {
      sycl::host_accessor a(buf, sycl::read_write);
      sycl::host_accessor b(buf, sycl::read_only); // must not wait for `a`
      a[0] = 5;
      CHECK(b[0] == 5);
      sycl::host_accessor c(buf, sycl::write_only);
      c[1] = 6;
      CHECK(a[1] == 6);
    }
    // A kernel submitted while a host accessor lives runs after the accessor goes.
    std::optional<sycl::host_accessor<int, 1, sycl::access_mode::read_write>> h(buf);
    (*h)[2] = 40;
    auto e = q.submit([&](sycl::handler& cgh) {
      sycl::accessor acc(buf, cgh, sycl::read_write);
      cgh.single_task([=] { acc[2] += 2; });
    });
    CHECK(e.get_info<sycl::info::event::command_execution_status>() !=
          sycl::info::event_command_status::complete);
    h.reset();
    e.wait();
    sycl::host_accessor r(buf, sycl::read_only);
    CHECK(r[2] == 42);
  }
  CHECK(data[0] == 5 && data[1] == 6 && data[2] == 42);

  // The buffer's last handle goes first; the host accessor still works and writes back last.
  std::vector<int> out(4, 0);
  {
    std::optional<sycl::host_accessor<int, 1, sycl::access_mode::read_write>> h;
    {
      sycl::buffer<int> buf(out.data(), sycl::range<1>(4));
      h.emplace(buf);
    }
    (*h)[3] = 9;
    CHECK(out[3] == 0); // not yet written back: the accessor holds the buffer
  }
  CHECK(out[3] == 9);

  if (failures) return 1;
  std::printf("host_accessor_nesting: OK\n");
}
