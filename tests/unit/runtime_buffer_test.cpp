// Unit tests of the runtime's buffers (src/runtime/buffer.cpp) through the public API, built by
// a plain C++ compiler: write-back rules, sub-buffer addressing, dependency tracking shared by
// sub-buffers and their parent, host accessors holding later commands back, and destruction
// waiting for pending commands.
#include <sycl/sycl.hpp>

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;

void add_one(sycl::queue& q, sycl::buffer<int>& b) {
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h);
    h.parallel_for(b.get_range(), [=](sycl::id<1> i) { a[i] += 1; });
  });
}

TEST(RuntimeBuffer, HostDataIsCopiedInAndWrittenBackOnDestruction) {
  sycl::queue q;
  std::vector<int> v(100, 5);
  {
    sycl::buffer<int> b(v.data(), sycl::range<1>(100));
    add_one(q, b);
    q.wait();
    EXPECT_EQ(v[0], 5); // the buffer works on its own copy until it dies
  }
  EXPECT_EQ(v[0], 6);
  EXPECT_EQ(v[99], 6);
}

TEST(RuntimeBuffer, LastHandleWritesBack) {
  sycl::queue q;
  std::vector<int> v(10, 0);
  auto outer = std::make_unique<sycl::buffer<int>>(sycl::range<1>(1));
  {
    sycl::buffer<int> b(v.data(), sycl::range<1>(10));
    *outer = b;
    add_one(q, b);
  }
  q.wait();
  EXPECT_EQ(v[0], 0);
  outer.reset();
  EXPECT_EQ(v[0], 1);
}

TEST(RuntimeBuffer, DestructionWaitsForPendingCommands) {
  sycl::queue q;
  std::vector<int> v(4, 0);
  std::atomic<bool> finished{false};
  {
    sycl::buffer<int> b(v.data(), sycl::range<1>(4));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only_host_task);
      h.host_task([a, &finished] {
        std::this_thread::sleep_for(20ms);
        a[0] = 42;
        finished = true;
      });
    });
  }
  EXPECT_TRUE(finished);
  EXPECT_EQ(v[0], 42);
}

TEST(RuntimeBuffer, WriteBackDisabledOrRedirected) {
  sycl::queue q;
  std::vector<int> a(4, 0), b(4, 0), c(4, -1);
  {
    sycl::buffer<int> ba(a.data(), sycl::range<1>(4));
    ba.set_write_back(false);
    add_one(q, ba);
    sycl::buffer<int> bb(b.data(), sycl::range<1>(4));
    bb.set_final_data(c.data());
    add_one(q, bb);
  }
  EXPECT_EQ(a[0], 0);
  EXPECT_EQ(b[0], 0);
  EXPECT_EQ(c[0], 1);
}

TEST(RuntimeBuffer, SubBufferAddressesItsRegionOfTheParent) {
  std::vector<int> v(64);
  std::iota(v.begin(), v.end(), 0);
  sycl::buffer<int> parent(v.data(), sycl::range<1>(64));
  sycl::buffer<int> sub(parent, sycl::id<1>(10), sycl::range<1>(5));
  EXPECT_TRUE(sub.is_sub_buffer());
  EXPECT_FALSE(parent.is_sub_buffer());
  sycl::host_accessor h(sub, sycl::read_only);
  sycl::host_accessor p(parent, sycl::read_only);
  EXPECT_EQ(h[0], 10);
  EXPECT_EQ(h[4], 14);
  EXPECT_EQ(h.get_pointer() - p.get_pointer(), 10); // one storage, no copy
  // 2-D: rows 2..3 of an 8x4 parent start at element 8.
  sycl::buffer<int, 2> grid(v.data(), sycl::range<2>(8, 4));
  sycl::buffer<int, 2> rows(grid, sycl::id<2>(2, 0), sycl::range<2>(2, 4));
  sycl::host_accessor g(rows, sycl::read_only);
  EXPECT_EQ((g[sycl::id<2>(0, 0)]), 8);
  EXPECT_EQ((g[sycl::id<2>(1, 3)]), 15);
}

TEST(RuntimeBuffer, SubBufferAndParentShareDependencies) {
  sycl::queue q;
  std::vector<int> v(32, 0);
  {
    sycl::buffer<int> parent(v.data(), sycl::range<1>(32));
    sycl::buffer<int> sub(parent, sycl::id<1>(16), sycl::range<1>(16));
    // A slow writer of the parent, then a kernel on the sub-buffer: must run after it.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(parent, h, sycl::write_only_host_task);
      h.host_task([a] {
        std::this_thread::sleep_for(10ms);
        for (int i = 0; i < 32; ++i) a[i] = 100;
      });
    });
    add_one(q, sub);
    // And a parent reader after the sub-buffer writer.
    std::vector<int> out(32, 0);
    q.submit([&](sycl::handler& h) {
       sycl::accessor a(parent, h, sycl::read_only);
       h.copy(a, out.data());
     }).wait();
    EXPECT_EQ(out[15], 100);
    EXPECT_EQ(out[16], 101);
    EXPECT_EQ(out[31], 101);
  }
  EXPECT_EQ(v[0], 100);
  EXPECT_EQ(v[31], 101);
}

TEST(RuntimeBuffer, HostAccessorHoldsLaterCommandsBack) {
  sycl::queue q;
  sycl::buffer<int> b{sycl::range<1>(8)};
  sycl::event e;
  {
    sycl::host_accessor h(b, sycl::write_only);
    for (int i = 0; i < 8; ++i) h[i] = 1;
    e = q.submit([&](sycl::handler& cgh) {
      sycl::accessor a(b, cgh);
      cgh.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { a[i] *= 10; });
    });
    std::this_thread::sleep_for(5ms);
    EXPECT_NE(e.get_info<sycl::info::event::command_execution_status>(),
              sycl::info::event_command_status::complete);
    h[0] = 2;
  }
  e.wait();
  sycl::host_accessor r(b, sycl::read_only);
  EXPECT_EQ(r[0], 20);
  EXPECT_EQ(r[7], 10);
}

TEST(RuntimeBuffer, ReadersDoNotWaitForEachOther) {
  sycl::queue q;
  sycl::buffer<int> b{sycl::range<1>(1)};
  {
    sycl::host_accessor w(b, sycl::write_only);
    w[0] = 3;
  }
  sycl::host_accessor r1(b, sycl::read_only);
  sycl::host_accessor r2(b, sycl::read_only); // would deadlock if reads serialized
  int out = 0;
  {
    sycl::buffer<int> o(&out, sycl::range<1>(1));
    q.submit([&](sycl::handler& h) {
      sycl::accessor in(b, h, sycl::read_only);
      sycl::accessor res(o, h, sycl::write_only);
      h.single_task([=] { res[0] = in[0] * 2; });
    });
  }
  EXPECT_EQ(out, 6);
  EXPECT_EQ(r1[0] + r2[0], 6);
}

// SYCL 2020 4.7.2.1: a buffer owns the host pointer it was given for its lifetime, so it reads
// the contents when a command or host accessor needs them. The CTS's buffer_api builds buffers
// larger than the host data behind them and only asks for their size and a reinterpretation:
// a copy at construction read past the data (SIGSEGV). Here the data ends at a page that may
// not be read.
TEST(RuntimeBuffer, HostDataIsReadWhenFirstNeeded) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* region =
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(region, MAP_FAILED);
  ASSERT_EQ(mprotect(static_cast<char*>(region) + page, page, PROT_NONE), 0);
  auto* data = reinterpret_cast<unsigned char*>(static_cast<char*>(region) + page - 64);
  for (int i = 0; i < 64; ++i) data[i] = static_cast<unsigned char>(i);
  {
    sycl::buffer<unsigned char, 3> big(data, sycl::range<3>(32, 32, 32));
    auto as_int = big.reinterpret<int, 1>();
    EXPECT_EQ(as_int.size(), 32u * 32u * 32u / 4u);
    EXPECT_EQ(big.byte_size(), 32u * 32u * 32u);
    const unsigned char* c = data;
    sycl::buffer<unsigned char, 3> big_const(c, sycl::range<3>(32, 32, 32));
    EXPECT_EQ(big_const.size(), 32u * 32u * 32u);
  }
  {
    // A buffer that fits its data still sees it, in kernels and host accessors.
    sycl::queue q;
    sycl::buffer<unsigned char> fits(data, sycl::range<1>(64));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(fits, h);
      h.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { a[i] += 1; });
    });
    sycl::host_accessor r(fits, sycl::read_only);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[i], i + 1);
  }
  EXPECT_EQ(data[5], 6); // written back on destruction
  munmap(region, 2 * page);
}

TEST(RuntimeBuffer, UseHostPtrStorageIsTheUsersMemory) {
  sycl::queue q;
  std::vector<int> v(16, 0);
  {
    sycl::buffer<int> b(v.data(), sycl::range<1>(16),
                        sycl::property_list{sycl::property::buffer::use_host_ptr{}});
    add_one(q, b);
    sycl::host_accessor h(b, sycl::read_only);
    EXPECT_EQ(h.get_pointer(), v.data());
    EXPECT_EQ(v[3], 1);
  }
  EXPECT_EQ(v[3], 1);
}

TEST(RuntimeBuffer, ErrorsLeaveBuffersIntact) {
  sycl::queue q;
  std::vector<int> v(8, 1);
  {
    sycl::buffer<int> b(v.data(), sycl::range<1>(8));
    EXPECT_THROW(q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(sycl::nd_range<1>(sycl::range<1>(8), sycl::range<1>(3)),
                     [=](sycl::nd_item<1> it) { a[it.get_global_id()] = 0; });
    }),
                 sycl::exception);
    EXPECT_THROW(sycl::buffer<int>(b, sycl::id<1>(4), sycl::range<1>(5)), sycl::exception);
    add_one(q, b);
  }
  EXPECT_EQ(v[0], 2);
  EXPECT_EQ(v[7], 2);
}

} // namespace
