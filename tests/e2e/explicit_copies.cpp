// SYCL 2020 4.9.4.3 explicit memory operations on buffers: copy accessor -> pointer,
// pointer -> accessor, accessor -> accessor, accessor -> shared_ptr, shared_ptr -> accessor,
// update_host and fill; ranged accessors (offset + range) in 1-D and 2-D copies; and one
// command per command group (a second one throws errc::invalid and loses nothing).
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

template <typename F>
void expect_errc(sycl::errc code, const char* needle, F f, int line) {
  try {
    f();
    std::printf("FAILED line %d: no exception thrown\n", line);
    ++g_failures;
  } catch (const sycl::exception& e) {
    if (e.code() != code || (needle && !std::strstr(e.what(), needle))) {
      std::printf("FAILED line %d: errc %d \"%s\"\n", line, e.code().value(), e.what());
      ++g_failures;
    }
  }
}
#define EXPECT_ERRC(code, needle, ...) expect_errc(code, needle, [&] { __VA_ARGS__; }, __LINE__)

constexpr int N = 100;

void test_whole_buffer_copies(sycl::queue& q) {
  std::vector<int> src(N), dst(N, 0);
  std::iota(src.begin(), src.end(), 1);
  sycl::buffer<int> a{sycl::range<1>(N)}, b{sycl::range<1>(N)};

  // pointer -> accessor
  q.submit([&](sycl::handler& h) {
    sycl::accessor acc(a, h, sycl::write_only, sycl::no_init);
    h.copy(src.data(), acc);
  });
  // accessor -> accessor
  q.submit([&](sycl::handler& h) {
    sycl::accessor from(a, h, sycl::read_only);
    sycl::accessor to(b, h, sycl::write_only);
    h.copy(from, to);
  });
  // kernel on the copy, then accessor -> pointer
  q.submit([&](sycl::handler& h) {
    sycl::accessor acc(b, h);
    h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { acc[i] *= 2; });
  });
  q.submit([&](sycl::handler& h) {
     sycl::accessor acc(b, h, sycl::read_only);
     h.copy(acc, dst.data());
   }).wait();
  bool ok = true;
  for (int i = 0; i < N; ++i) ok = ok && dst[i] == 2 * (i + 1);
  CHECK(ok);

  // accessor -> shared_ptr and shared_ptr -> accessor
  std::shared_ptr<int> sp(new int[N], std::default_delete<int[]>());
  q.submit([&](sycl::handler& h) {
     sycl::accessor acc(a, h, sycl::read_only);
     h.copy(acc, sp);
   }).wait();
  CHECK(sp.get()[0] == 1 && sp.get()[N - 1] == N);
  std::shared_ptr<int> sp2(new int[N], std::default_delete<int[]>());
  for (int i = 0; i < N; ++i) sp2.get()[i] = -i;
  std::weak_ptr<int> watch = sp2;
  q.submit([&](sycl::handler& h) {
    sycl::accessor acc(a, h, sycl::write_only);
    h.copy(sp2, acc);
  });
  sp2.reset(); // the runtime keeps the source alive until the copy is done
  {
    sycl::host_accessor h(a, sycl::read_only);
    CHECK(h[0] == 0 && h[N - 1] == -(N - 1));
  }
  q.wait();
  CHECK(watch.expired());

  // fill(accessor)
  q.submit([&](sycl::handler& h) {
    sycl::accessor acc(a, h, sycl::write_only);
    h.fill(acc, 77);
  });
  sycl::host_accessor h(a, sycl::read_only);
  CHECK(std::all_of(h.begin(), h.end(), [](int v) { return v == 77; }));
}

void test_ranged_1d(sycl::queue& q) {
  std::vector<int> host(N);
  std::iota(host.begin(), host.end(), 0);
  {
    sycl::buffer<int> buf(host.data(), sycl::range<1>(N));
    // Read elements [10, 30) into a pointer.
    std::vector<int> part(20, -1);
    q.submit([&](sycl::handler& h) {
       sycl::accessor acc(buf, h, sycl::range<1>(20), sycl::id<1>(10), sycl::read_only);
       CHECK(acc.get_offset() == sycl::id<1>(10) && acc.get_range() == sycl::range<1>(20));
       h.copy(acc, part.data());
     }).wait();
    CHECK(part[0] == 10 && part[19] == 29);
    // Write [50, 55) from a pointer; fill [90, 100).
    int five[5] = {-1, -2, -3, -4, -5};
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(buf, h, sycl::range<1>(5), sycl::id<1>(50), sycl::write_only);
      h.copy(five, acc);
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(buf, h, sycl::range<1>(10), sycl::id<1>(90), sycl::write_only);
      h.fill(acc, 9);
    });
    // Copy [0, 10) onto [60, 70) of the same buffer through two ranged accessors.
    sycl::buffer<int> other(host.data(), sycl::range<1>(N));
    q.submit([&](sycl::handler& h) {
      sycl::accessor from(other, h, sycl::range<1>(10), sycl::id<1>(0), sycl::read_only);
      sycl::accessor to(buf, h, sycl::range<1>(10), sycl::id<1>(60), sycl::write_only);
      h.copy(from, to);
    });
  }
  bool ok = true;
  for (int i = 0; i < N; ++i) {
    int expect = i;
    if (i >= 50 && i < 55) expect = -(i - 49);
    if (i >= 60 && i < 70) expect = i - 60;
    if (i >= 90) expect = 9;
    ok = ok && host[i] == expect;
  }
  CHECK(ok);
}

void test_ranged_2d(sycl::queue& q) {
  constexpr int R = 8, C = 10;
  std::vector<int> host(R * C);
  std::iota(host.begin(), host.end(), 0); // value = r * C + c
  std::vector<int> ones(6, -7);
  {
    sycl::buffer<int, 2> buf(host.data(), sycl::range<2>(R, C));
    // A 3x4 block at (2, 5), read row by row into a pointer.
    std::vector<int> block(12, -1);
    q.submit([&](sycl::handler& h) {
       sycl::accessor acc(buf, h, sycl::range<2>(3, 4), sycl::id<2>(2, 5), sycl::read_only);
       h.copy(acc, block.data());
     }).wait();
    bool ok = true;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) ok = ok && block[r * 4 + c] == (2 + r) * C + (5 + c);
    CHECK(ok);

    // Write that block, negated, to (5, 1) of another 2-D buffer through accessor -> accessor.
    sycl::buffer<int, 2> dst{sycl::range<2>(R, C)};
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(dst, h, sycl::write_only);
      h.fill(acc, 0);
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor from(buf, h, sycl::range<2>(3, 4), sycl::id<2>(2, 5), sycl::read_only);
      sycl::accessor to(dst, h, sycl::range<2>(3, 4), sycl::id<2>(5, 1), sycl::write_only);
      h.copy(from, to);
    });
    sycl::host_accessor d(dst, sycl::read_only);
    ok = true;
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) {
        bool inside = r >= 5 && r < 8 && c >= 1 && c < 5;
        int expect = inside ? (2 + r - 5) * C + (5 + c - 1) : 0;
        ok = ok && d[r][c] == expect;
      }
    CHECK(ok);

    // pointer -> ranged 2-D accessor (the block lands row by row) and a ranged 2-D fill. The
    // source outlives the buffer: the copy may run any time before the buffer's destructor.
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(buf, h, sycl::range<2>(2, 3), sycl::id<2>(0, 0), sycl::write_only);
      h.copy(ones.data(), acc);
    });
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(buf, h, sycl::range<2>(R, 1), sycl::id<2>(0, C - 1), sycl::write_only);
      h.fill(acc, 1000);
    });
  }
  bool ok = true;
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      int expect = r * C + c;
      if (r < 2 && c < 3) expect = -7;
      if (c == C - 1) expect = 1000;
      ok = ok && host[r * C + c] == expect;
    }
  CHECK(ok);
}

void test_update_host(sycl::queue& q) {
  // With use_host_ptr the buffer's host memory is the user's: update_host makes it current.
  std::vector<int> host(N, 0);
  sycl::buffer<int> buf(host.data(), sycl::range<1>(N),
                        sycl::property_list{sycl::property::buffer::use_host_ptr{}});
  q.submit([&](sycl::handler& h) {
    sycl::accessor acc(buf, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { acc[i] = static_cast<int>(i[0]) + 5; });
  });
  q.submit([&](sycl::handler& h) {
     sycl::accessor acc(buf, h, sycl::read_only);
     h.update_host(acc);
   }).wait();
  CHECK(host[0] == 5 && host[N - 1] == N + 4);
  // update_host with a placeholder accessor, required by the command group.
  sycl::accessor<int, 1, sycl::access_mode::read, sycl::target::device,
                 sycl::access::placeholder::true_t>
      ph(buf);
  q.submit([&](sycl::handler& h) {
    sycl::accessor acc(buf, h);
    h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { acc[i] *= 2; });
  });
  q.submit([&](sycl::handler& h) {
     h.require(ph);
     h.update_host(ph);
   }).wait();
  CHECK(host[1] == 12);
}

// Without use_host_ptr the buffer computes in its own copy: update_host writes the device
// results back to the host memory it was built with (raw pointer, shared_ptr under a use_mutex,
// set_final_data), only the accessed region, while the buffer lives.
void test_update_host_copied_storage(sycl::queue& q) {
  std::vector<int> host(N, -1);
  sycl::buffer<int> buf(host.data(), sycl::range<1>(N));
  q.submit([&](sycl::handler& h) {
    sycl::accessor acc(buf, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { acc[i] = static_cast<int>(i[0]) * 3; });
  });
  q.submit([&](sycl::handler& h) {
     sycl::accessor acc(buf, h, sycl::read_only);
     h.update_host(acc);
   }).wait();
  CHECK(host[0] == 0 && host[7] == 21 && host[N - 1] == 3 * (N - 1));

  // 2-D, shared_ptr host memory guarded by a use_mutex, ranged accessor: only the region moves.
  constexpr std::size_t R = 6, C = 5;
  std::mutex m;
  std::shared_ptr<int> sp(new int[R * C], std::default_delete<int[]>());
  std::fill_n(sp.get(), R * C, -7);
  {
    sycl::buffer<int, 2> b2(sp, sycl::range<2>(R, C),
                            sycl::property_list{sycl::property::buffer::use_mutex{m}});
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(b2, h, sycl::write_only);
      h.parallel_for(sycl::range<2>(R, C),
                     [=](sycl::item<2> it) { acc[it] = static_cast<int>(it.get_linear_id()); });
    });
    q.submit([&](sycl::handler& h) {
       sycl::accessor acc(b2, h, sycl::range<2>(2, 3), sycl::id<2>(1, 2), sycl::read_only);
       h.update_host(acc);
     }).wait();
    std::lock_guard lock(m);
    bool ok = true;
    for (std::size_t r = 0; r < R; ++r)
      for (std::size_t c = 0; c < C; ++c) {
        bool inside = r >= 1 && r < 3 && c >= 2 && c < 5;
        int expect = inside ? static_cast<int>(r * C + c) : -7;
        ok = ok && sp.get()[r * C + c] == expect;
      }
    CHECK(ok);
  }
  CHECK(sp.get()[0] == 0); // the destruction wrote everything back

  // A sub-buffer's accessor updates its part of the parent's host memory.
  std::vector<int> parent(N, 0), final_data(N, 0);
  {
    sycl::buffer<int> whole(parent.data(), sycl::range<1>(N));
    whole.set_final_data(final_data.begin());
    sycl::buffer<int> part(whole, sycl::id<1>(10), sycl::range<1>(20));
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(whole, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(N),
                     [=](sycl::id<1> i) { acc[i] = 100 + static_cast<int>(i[0]); });
    });
    q.submit([&](sycl::handler& h) {
       sycl::accessor acc(part, h, sycl::read_only);
       h.update_host(acc);
     }).wait();
    CHECK(final_data[9] == 0 && final_data[10] == 110 && final_data[29] == 129 &&
          final_data[30] == 0);
    CHECK(parent[10] == 0); // set_final_data moved the host memory away from the original
  }
}

void test_one_command_per_group(sycl::queue& q) {
  std::vector<int> host(N, 3);
  {
    sycl::buffer<int> buf(host.data(), sycl::range<1>(N));
    std::vector<int> out(N, 0);
    EXPECT_ERRC(sycl::errc::invalid, "at most one command", q.submit([&](sycl::handler& h) {
      sycl::accessor acc(buf, h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { acc[i] = -1; });
      h.copy(acc, out.data());
    }));
    EXPECT_ERRC(sycl::errc::invalid, "at most one command", q.submit([&](sycl::handler& h) {
      sycl::accessor acc(buf, h);
      h.fill(acc, -2);
      h.single_task([=] { acc[0] = -3; });
    }));
    int* usm = sycl::malloc_shared<int>(N, q);
    EXPECT_ERRC(sycl::errc::invalid, "at most one command", q.submit([&](sycl::handler& h) {
      h.memset(usm, 0, N * sizeof(int));
      h.host_task([] {});
    }));
    // prefetch and mem_advise are commands too.
    EXPECT_ERRC(sycl::errc::invalid, "at most one command", q.submit([&](sycl::handler& h) {
      h.prefetch(usm, N * sizeof(int));
      h.single_task([=] { usm[0] = -4; });
    }));
    EXPECT_ERRC(sycl::errc::invalid, "at most one command", q.submit([&](sycl::handler& h) {
      h.mem_advise(usm, N * sizeof(int), 0);
      h.fill(usm, -5, N);
    }));
    q.prefetch(usm, N * sizeof(int)).wait();
    q.mem_advise(usm, N * sizeof(int), 0).wait();
    sycl::free(usm, q);
    // The source accessor is larger than the destination.
    sycl::buffer<int> small{sycl::range<1>(10)};
    EXPECT_ERRC(sycl::errc::invalid, "more elements", q.submit([&](sycl::handler& h) {
      sycl::accessor from(buf, h, sycl::read_only);
      sycl::accessor to(small, h, sycl::write_only);
      h.copy(from, to);
    }));
    // Nothing ran: the buffer still holds its data; the queue still copies.
    q.submit([&](sycl::handler& h) {
       sycl::accessor acc(buf, h, sycl::read_only);
       h.copy(acc, out.data());
     }).wait();
    CHECK(std::all_of(out.begin(), out.end(), [](int v) { return v == 3; }));
    q.submit([&](sycl::handler& h) {
      sycl::accessor acc(buf, h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::id<1> i) { acc[i] += 1; });
    });
  }
  CHECK(std::all_of(host.begin(), host.end(), [](int v) { return v == 4; }));
}
} // namespace

int main() {
  sycl::queue q;
  test_whole_buffer_copies(q);
  test_ranged_1d(q);
  test_ranged_2d(q);
  test_update_host(q);
  test_update_host_copied_storage(q);
  test_one_command_per_group(q);
  if (g_failures) {
    std::printf("explicit_copies: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("explicit_copies: PASSED\n");
  return 0;
}
