// SYCLONE_E2E_ARGS: -Wno-deprecated-declarations
// SYCL 2020 4.7.6 accessor forms beyond the basics (issue 15): 0-dimensional accessor,
// host_accessor and local_accessor (one element, converting to and assigned from it);
// placeholder constructors with range / offset / tag and their deduction guides; const and
// reverse iterators (cbegin/cend/crbegin/crend) on every accessor; implicit conversions to
// read-only and const accessors; has_property / get_property; the deprecated targets
// target::host_buffer and target::local; buffer::get_access in every form.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <numeric>
#include <type_traits>
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

constexpr int N = 16;
using sycl::access_mode;
using sycl::target;

void test_zero_dim(sycl::queue& q) {
  std::vector<int> data(N);
  std::iota(data.begin(), data.end(), 10);
  std::vector<int> out(4, 0);
  {
    sycl::buffer<int> buf(data.data(), sycl::range<1>(N));
    sycl::buffer<int> res(out.data(), sycl::range<1>(4));
    q.submit([&](sycl::handler& h) {
      sycl::accessor<int, 0> first(buf, h); // read_write, element 0
      sycl::accessor<int, 0, access_mode::read> ro(buf, h);
      sycl::accessor<int, 1> r(res, h);
      sycl::local_accessor<int, 0> scratch(h);
      static_assert(std::is_same_v<decltype(first)::value_type, int>);
      CHECK(first.size() == 1 && first.byte_size() == sizeof(int) && !first.empty());
      h.parallel_for(sycl::nd_range<1>(1, 1), [=](sycl::nd_item<1>) {
        int v = first;   // converts to the element
        double d = ro;   // and on to other arithmetic types
        scratch = v * 2; // a 0-dim local accessor is assigned like the element
        first = static_cast<int>(d) + 100;
        r[0] = v;
        r[1] = scratch;
        int& ref = first;
        ref += 1;
        r[2] = static_cast<int>(first.end() - first.begin());
      });
    });
  }
  CHECK(out[0] == 10 && out[1] == 20 && out[2] == 1);
  CHECK(data[0] == 111 && data[1] == 11);

  // An accessor of 0 dimensions on an empty buffer reaches nothing.
  sycl::buffer<int> empty{sycl::range<1>(0)};
  sycl::accessor<int, 0> placeholder(empty);
  CHECK(placeholder.empty() && placeholder.size() == 0 && placeholder.is_placeholder());

  // host_accessor of 0 dimensions.
  sycl::buffer<float> fb{sycl::range<1>(3)};
  {
    sycl::host_accessor<float, 0> h0(fb);
    h0 = 2.5f;
    float f = h0;
    CHECK(f == 2.5f);
  }
  sycl::host_accessor<float> all(fb, sycl::read_only);
  CHECK(all[0] == 2.5f);
}

void test_placeholders_and_guides(sycl::queue& q) {
  std::vector<int> data(N, 0);
  {
    sycl::buffer<int> buf(data.data(), sycl::range<1>(N));
    sycl::accessor whole(buf);
    sycl::accessor tail(buf, sycl::range<1>(4), sycl::id<1>(N - 4), sycl::write_only);
    sycl::accessor head(buf, sycl::range<1>(4), sycl::read_only);
    sycl::accessor mid(buf, sycl::range<1>(2), sycl::id<1>(6));
    sycl::accessor task_acc(buf, sycl::read_write_host_task);
    static_assert(std::is_same_v<decltype(whole),
                                 sycl::accessor<int, 1, access_mode::read_write, target::device,
                                                sycl::access::placeholder::true_t>>);
    static_assert(
        std::is_same_v<decltype(tail), sycl::accessor<int, 1, access_mode::write, target::device,
                                                      sycl::access::placeholder::true_t>>);
    static_assert(std::is_same_v<decltype(head)::value_type, const int>);
    static_assert(std::is_same_v<decltype(task_acc),
                                 sycl::accessor<int, 1, access_mode::read_write, target::host_task,
                                                sycl::access::placeholder::true_t>>);
    CHECK(tail.is_placeholder() && tail.get_offset() == sycl::id<1>(N - 4) &&
          tail.get_range() == sycl::range<1>(4));
    q.submit([&](sycl::handler& h) {
      h.require(tail);
      h.parallel_for(sycl::range<1>(4),
                     [=](sycl::id<1> i) { tail[i] = 7 + static_cast<int>(i[0]); });
    });
    // acc[item]: item<1> converts to id<1> and to size_t; the id form is chosen.
    q.submit([&](sycl::handler& h) {
      sycl::accessor<int, 1, access_mode::read_write, target::device> acc(buf, h);
      h.parallel_for(sycl::range<1>(N), [=](sycl::item<1> it) { acc[it] = acc[it] + 0; });
    });
    q.submit([&](sycl::handler& h) {
      h.require(mid);
      h.single_task([=] { mid[1] = 99; }); // element 7
    });
    q.submit([&](sycl::handler& h) {
      h.require(task_acc);
      h.host_task([=] { task_acc[0] = -1; });
    });
    // Handler forms with a host_task tag and a range.
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(buf, h, sycl::range<1>(1), sycl::id<1>(1), sycl::write_only_host_task);
      static_assert(std::is_same_v<decltype(a),
                                   sycl::accessor<int, 1, access_mode::write, target::host_task>>);
      h.host_task([=] { a[0] = -2; });
    });
    EXPECT_ERRC(sycl::errc::invalid, "exceeds the buffer's range",
                sycl::accessor(buf, sycl::range<1>(4), sycl::id<1>(N - 2), sycl::read_only));
  }
  CHECK(data[0] == -1 && data[1] == -2 && data[7] == 99 && data[N - 4] == 7 && data[N - 1] == 10);
}

void test_iterators_and_conversions(sycl::queue& q) {
  std::vector<int> data(N);
  std::iota(data.begin(), data.end(), 0);
  std::vector<int> out(3, 0);
  {
    sycl::buffer<int> buf(data.data(), sycl::range<1>(N));
    sycl::buffer<int> res(out.data(), sycl::range<1>(3));
    q.submit([&](sycl::handler& h) {
      sycl::accessor<int, 1, access_mode::read_write> rw(buf, h, sycl::range<1>(4), sycl::id<1>(2));
      sycl::accessor<const int, 1, access_mode::read> ro = rw; // read_write -> read-only
      sycl::accessor<int, 1, access_mode::read> ro2 = ro;      // const T -> T (read-only)
      sycl::accessor r(res, h, sycl::write_only);
      sycl::local_accessor<int, 1> local(sycl::range<1>(4), h);
      sycl::local_accessor<const int, 1> local_ro = local;
      h.parallel_for(sycl::nd_range<1>(1, 1), [=](sycl::nd_item<1>) {
        int sum = 0, weighted = 0, i = 1;
        for (auto it = ro.cbegin(); it != ro.cend(); ++it) sum += *it;                // 2+3+4+5
        for (auto it = ro2.crbegin(); it != ro2.crend(); ++it) weighted += *it * i++; // 5,4,3,2
        std::size_t k = 0;
        for (auto it = local.rbegin(); it != local.rend(); ++it) *it = static_cast<int>(k++);
        r[0] = sum;
        r[1] = weighted;
        r[2] = *local_ro.cbegin() * 10 + *(local_ro.crbegin()); // 3 * 10 + 0
      });
    });
  }
  CHECK(out[0] == 14 && out[1] == 5 + 8 + 9 + 8 && out[2] == 30);

  sycl::buffer<int> buf(data.data(), sycl::range<1>(N));
  sycl::host_accessor<int> h(buf);
  int back = 0;
  for (auto it = h.crbegin(); it != h.crend(); ++it) back = back * 0 + *it;
  CHECK(back == data[0]);
  sycl::host_accessor<const int, 1, access_mode::read> hro = h;
  CHECK(*hro.rbegin() == data[N - 1]);
}

// A local accessor in a hierarchical kernel: the work-group's work-items share it (on the host
// such a kernel runs as whole work-groups per thread; it threw errc::kernel_argument).
void test_local_in_hierarchical(sycl::queue& q) {
  constexpr int groups = 4, items = 8;
  std::vector<int> out(groups, 0);
  {
    sycl::buffer<int> res(out.data(), sycl::range<1>(groups));
    q.submit([&](sycl::handler& h) {
      sycl::local_accessor<int, 1> scratch(sycl::range<1>(items), h);
      sycl::local_accessor<int, 0> total(h);
      sycl::accessor r(res, h, sycl::write_only);
      h.parallel_for_work_group(
          sycl::range<1>(groups), sycl::range<1>(items), [=](sycl::group<1> g) {
            g.parallel_for_work_item([&](sycl::h_item<1> it) {
              scratch[it.get_local_id(0)] =
                  static_cast<int>(g.get_group_id(0) * 100 + it.get_local_id(0));
            });
            int t = 0;
            for (int i = 0; i < items; ++i) t += scratch[i];
            total = t;
            r[g.get_group_id(0)] = total;
          });
    });
  }
  for (int gi = 0; gi < groups; ++gi) CHECK(out[gi] == gi * 100 * items + items * (items - 1) / 2);
}

void test_properties(sycl::queue& q) {
  sycl::buffer<int> buf{sycl::range<1>(N)};
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(buf, h, sycl::write_only, sycl::no_init);
    sycl::accessor b(buf, h, sycl::read_only);
    CHECK(a.has_property<sycl::property::no_init>());
    CHECK(!b.has_property<sycl::property::no_init>());
    (void)a.get_property<sycl::property::no_init>();
    EXPECT_ERRC(sycl::errc::invalid, "has_property", b.get_property<sycl::property::no_init>());
    h.single_task([=] { a[0] = b[0]; });
  });
  sycl::host_accessor h(buf, sycl::write_only, sycl::property_list{sycl::no_init});
  CHECK(h.has_property<sycl::property::no_init>());
}

void test_deprecated_targets(sycl::queue& q) {
  std::vector<int> data(N, 1);
  {
    sycl::buffer<int> buf(data.data(), sycl::range<1>(N));
    {
      sycl::accessor<int, 1, access_mode::read_write, target::host_buffer> hb(buf);
      hb[3] = 33;
      auto viaget = buf.get_access<access_mode::read>(sycl::range<1>(2), sycl::id<1>(3));
      static_assert(std::is_same_v<decltype(viaget),
                                   sycl::accessor<int, 1, access_mode::read, target::host_buffer>>);
    }
    sycl::buffer<int> sum{sycl::range<1>(1)};
    q.submit([&](sycl::handler& h) {
      auto in = buf.get_access<access_mode::read>(h);
      sycl::accessor<int, 1, access_mode::read_write, target::local> tmp(sycl::range<1>(N), h);
      auto s = sum.get_access(h, sycl::write_only, sycl::no_init);
      static_assert(std::is_same_v<decltype(s), sycl::accessor<int, 1, access_mode::write>>);
      h.parallel_for(sycl::nd_range<1>(N, N), [=](sycl::nd_item<1> it) {
        tmp[it.get_local_id(0)] = in[it.get_global_id(0)];
        sycl::group_barrier(it.get_group());
        if (it.get_local_id(0) == 0) {
          int t = 0;
          for (int i = 0; i < N; ++i) t += tmp[i];
          s[0] = t;
        }
      });
    });
    auto h = sum.get_host_access(sycl::read_only);
    CHECK(h[0] == N - 1 + 33);
  }
  CHECK(data[3] == 33);
}
} // namespace

// SYCL 2020 4.5.2: equal accessors hash alike; distinct ones (two local accessors of one command
// group, ranged accessors of one buffer at different offsets) should not.
void test_hashes(sycl::queue& q) {
  bool local_distinct = false, local_copy_same = false;
  q.submit([&](sycl::handler& h) {
     sycl::local_accessor<int, 0> a(h), b(h);
     sycl::local_accessor<int, 0> a2 = a;
     std::hash<sycl::local_accessor<int, 0>> hash;
     local_distinct = a != b && hash(a) != hash(b);
     local_copy_same = a == a2 && hash(a) == hash(a2);
     h.single_task([] {});
   }).wait();
  CHECK(local_distinct);
  CHECK(local_copy_same);
  sycl::buffer<int> buf{sycl::range<1>(16)};
  std::size_t h0 = 0, h8 = 0, h0_again = 0;
  {
    sycl::host_accessor x(buf, sycl::range<1>(8), sycl::id<1>(0), sycl::read_only);
    sycl::host_accessor y(buf, sycl::range<1>(8), sycl::id<1>(8), sycl::read_only);
    sycl::host_accessor x2 = x;
    std::hash<decltype(x)> hash;
    h0 = hash(x), h8 = hash(y), h0_again = hash(x2);
  }
  CHECK(h0 != h8);
  CHECK(h0 == h0_again);
  q.submit([&](sycl::handler& h) {
    sycl::accessor x(buf, h, sycl::range<1>(8), sycl::id<1>(0), sycl::read_only);
    sycl::accessor y(buf, h, sycl::range<1>(8), sycl::id<1>(8), sycl::read_only);
    std::hash<decltype(x)> hash;
    CHECK(x != y && hash(x) != hash(y));
    h.single_task([=] { (void)x, (void)y; });
  });
  // Placeholders of two buffers (no data address before they are bound).
  sycl::buffer<int> other{sycl::range<1>(16)};
  sycl::accessor<int, 1, sycl::access_mode::read_write, sycl::target::host_task> p0{buf}, p1{other};
  std::hash<decltype(p0)> phash;
  CHECK(p0 != p1 && phash(p0) != phash(p1));
}

int main() {
  sycl::queue q;
  test_zero_dim(q);
  test_placeholders_and_guides(q);
  test_iterators_and_conversions(q);
  test_local_in_hierarchical(q);
  test_properties(q);
  test_deprecated_targets(q);
  test_hashes(q);
  if (g_failures) {
    std::printf("accessor_forms: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("accessor_forms: PASSED\n");
  return 0;
}
