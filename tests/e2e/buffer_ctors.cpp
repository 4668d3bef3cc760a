// SYCL 2020 4.7.2 buffer constructors and queries: 1-3 D ranges, host pointer with write-back
// on destruction, const host pointer (no write-back), shared_ptr host data, iterator and
// container constructors, allocators, use_host_ptr, get_range/size/byte_size, and a null
// host pointer with a non-zero range (errc::invalid).
#include <sycl/sycl.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <list>
#include <memory>
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

// Adds 1000 to every element of a 1-D buffer.
template <typename T, typename A>
void bump(sycl::queue& q, sycl::buffer<T, 1, A>& b) {
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h);
    h.parallel_for(b.get_range(), [=](sycl::id<1> i) { a[i] += 1000; });
  });
}

void test_ranges_and_sizes(sycl::queue& q) {
  sycl::buffer<int, 1> b1{sycl::range<1>(10)};
  sycl::buffer<double, 2> b2{sycl::range<2>(3, 4)};
  sycl::buffer<short, 3> b3{sycl::range<3>(2, 3, 5)};
  CHECK(b1.get_range() == sycl::range<1>(10) && b1.size() == 10 && b1.byte_size() == 40);
  CHECK(b2.get_range() == sycl::range<2>(3, 4) && b2.size() == 12 && b2.byte_size() == 96);
  CHECK(b3.get_range() == sycl::range<3>(2, 3, 5) && b3.size() == 30 && b3.byte_size() == 60);
  CHECK(!b1.is_sub_buffer());

  // Each dimensionality runs a kernel and reads back through a host accessor.
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b2, h, sycl::write_only);
    h.parallel_for(b2.get_range(), [=](sycl::id<2> i) { a[i] = i[0] * 10.0 + i[1]; });
  });
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b3, h, sycl::write_only);
    h.parallel_for(b3.get_range(), [=](sycl::id<3> i) {
      a[i] = static_cast<short>(i[0] * 100 + i[1] * 10 + i[2]);
    });
  });
  sycl::host_accessor h2(b2, sycl::read_only);
  sycl::host_accessor h3(b3, sycl::read_only);
  CHECK(h2[2][3] == 23.0 && h2[sycl::id<2>(1, 2)] == 12.0);
  CHECK(h3[1][2][4] == 124 && h3[sycl::id<3>(0, 1, 2)] == 12);

  // Reference semantics: copies share the data.
  sycl::buffer<int> copy = b1;
  CHECK(copy == b1);
  sycl::buffer<int> other{sycl::range<1>(10)};
  CHECK(copy != other);
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(copy, h, sycl::write_only);
    h.fill(a, 5);
  });
  CHECK(b1.get_host_access()[9] == 5);

  // Empty buffers are allowed.
  sycl::buffer<int> empty{sycl::range<1>(0)};
  CHECK(empty.size() == 0 && empty.byte_size() == 0);
  sycl::buffer<int> empty_null{static_cast<int*>(nullptr), sycl::range<1>(0)};
  CHECK(empty_null.size() == 0);
}

void test_host_pointer_write_back(sycl::queue& q) {
  int data[16];
  std::iota(data, data + 16, 0);
  {
    sycl::buffer<int> b(data, sycl::range<1>(16));
    bump(q, b);
    // Not written back before destruction (the buffer owns a copy).
  }
  CHECK(data[0] == 1000 && data[15] == 1015);

  // 2-D and 3-D host data.
  std::vector<float> m(6 * 7, 1.0f);
  {
    sycl::buffer<float, 2> b(m.data(), sycl::range<2>(6, 7));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(b.get_range(), [=](sycl::item<2> it) { a[it] += it.get_linear_id(); });
    });
  }
  CHECK(m[0] == 1.0f && m[41] == 42.0f && m[7 * 2 + 3] == 18.0f);
  std::vector<int> cube(2 * 3 * 4, 0);
  {
    sycl::buffer<int, 3> b(cube.data(), sycl::range<3>(2, 3, 4));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.parallel_for(b.get_range(),
                     [=](sycl::item<3> it) { a[it] = static_cast<int>(it.get_linear_id()); });
    });
  }
  bool ok = true;
  for (int i = 0; i < 24; ++i) ok = ok && cube[i] == i;
  CHECK(ok);
}

void test_const_host_pointer(sycl::queue& q) {
  int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  {
    // buffer<int> over const data: initialized from it, never written back.
    sycl::buffer<int> b(static_cast<const int*>(data), sycl::range<1>(8));
    bump(q, b);
    CHECK(b.get_host_access()[0] == 1001);
  }
  CHECK(data[0] == 1 && data[7] == 8);
  const int cdata[4] = {4, 3, 2, 1};
  {
    sycl::buffer<const int> b(cdata, sycl::range<1>(4));
    int sum = 0;
    {
      sycl::buffer<int> out(&sum, sycl::range<1>(1));
      q.submit([&](sycl::handler& h) {
        sycl::accessor in(b, h); // read-only: the element type is const
        static_assert(std::is_same_v<decltype(in)::value_type, const int>);
        sycl::accessor o(out, h, sycl::write_only);
        h.single_task([=] { o[0] = in[0] * 1000 + in[1] * 100 + in[2] * 10 + in[3]; });
      });
    }
    CHECK(sum == 4321);
  }
}

void test_shared_ptr(sycl::queue& q) {
  std::shared_ptr<int> sp(new int[8], std::default_delete<int[]>());
  for (int i = 0; i < 8; ++i) sp.get()[i] = i;
  {
    sycl::buffer<int> b(sp, sycl::range<1>(8));
    bump(q, b);
  }
  CHECK(sp.get()[0] == 1000 && sp.get()[7] == 1007);

  // The buffer keeps the shared data alive when the user lets go of it.
  std::weak_ptr<int> weak;
  {
    auto owned = std::shared_ptr<int>(new int[4], std::default_delete<int[]>());
    for (int i = 0; i < 4; ++i) owned.get()[i] = 1;
    weak = owned;
    sycl::buffer<int> b(owned, sycl::range<1>(4));
    owned.reset();
    bump(q, b);
    CHECK(b.get_host_access()[3] == 1001);
  }
  CHECK(weak.expired());

  // shared_ptr<T[]>.
  std::shared_ptr<int[]> arr(new int[5]{1, 2, 3, 4, 5});
  {
    sycl::buffer<int> b(arr, sycl::range<1>(5));
    bump(q, b);
  }
  CHECK(arr[0] == 1001 && arr[4] == 1005);
}

void test_iterator_and_container(sycl::queue& q) {
  // Iterator range: the data is copied in, nothing is written back (SYCL 2020 4.7.2.1).
  std::list<int> items{5, 6, 7};
  {
    sycl::buffer<int> b(items.begin(), items.end());
    CHECK(b.size() == 3);
    bump(q, b);
    sycl::host_accessor h(b, sycl::read_only);
    CHECK(h[0] == 1005 && h[2] == 1007);
  }
  CHECK(items.front() == 5);
  std::vector<int> v{1, 2, 3, 4};
  {
    sycl::buffer b(v.begin(), v.end());
    static_assert(std::is_same_v<decltype(b), sycl::buffer<int, 1>>);
    bump(q, b);
  }
  CHECK(v[0] == 1);

  // Contiguous container: the container's data is written back.
  {
    sycl::buffer b(v);
    static_assert(std::is_same_v<decltype(b), sycl::buffer<int, 1>>);
    CHECK(b.size() == 4);
    bump(q, b);
  }
  CHECK(v[0] == 1001 && v[3] == 1004);
  std::array<long, 3> arr{7, 8, 9};
  {
    sycl::buffer<long> b(arr);
    bump(q, b);
  }
  CHECK(arr[0] == 1007 && arr[2] == 1009);
}

// Counts what the buffer allocates through it.
template <typename T>
struct counting_allocator {
  using value_type = T;
  int* count;
  explicit counting_allocator(int* c) : count(c) {}
  template <typename U>
  counting_allocator(const counting_allocator<U>& o) : count(o.count) {}
  T* allocate(std::size_t n) {
    ++*count;
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) {
    --*count;
    std::allocator<T>().deallocate(p, n);
  }
  friend bool operator==(const counting_allocator& a, const counting_allocator& b) {
    return a.count == b.count;
  }
  friend bool operator!=(const counting_allocator& a, const counting_allocator& b) {
    return !(a == b);
  }
};

void test_allocator(sycl::queue& q) {
  int live = 0;
  std::vector<int> data(32, 1);
  {
    counting_allocator<int> alloc(&live);
    sycl::buffer<int, 1, counting_allocator<int>> b(data.data(), sycl::range<1>(32), alloc);
    CHECK(live >= 1);
    CHECK(b.get_allocator().count == &live);
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h);
      h.parallel_for(sycl::range<1>(32), [=](sycl::id<1> i) { a[i] += 1; });
    });
  }
  CHECK(live == 0);
  CHECK(data[31] == 2);

  // A contiguous container with an allocator: the container's memory is the buffer's, nothing
  // is allocated through the allocator (SYCL 2020 4.7.2.1); the deduction guide names it.
  std::vector<int> cont(8, 3);
  {
    counting_allocator<int> alloc(&live);
    sycl::buffer b(cont, alloc);
    static_assert(std::is_same_v<decltype(b), sycl::buffer<int, 1, counting_allocator<int>>>);
    CHECK(live == 0);
    bump(q, b);
    CHECK(live == 0);
  }
  CHECK(cont[0] == 1003 && cont[7] == 1003);
  // Deduction guides of the shared_ptr and allocator forms.
  auto sp = std::shared_ptr<float>(new float[4], std::default_delete<float[]>());
  sycl::buffer from_shared(sp, sycl::range<2>(2, 2));
  static_assert(std::is_same_v<decltype(from_shared), sycl::buffer<float, 2>>);
  std::shared_ptr<float[]> spa(new float[4]);
  sycl::buffer from_array(spa, sycl::range<1>(4), std::allocator<float>());
  static_assert(
      std::is_same_v<decltype(from_array), sycl::buffer<float, 1, std::allocator<float>>>);
  float raw[4] = {};
  sycl::buffer from_raw(raw, sycl::range<1>(4), std::allocator<float>());
  static_assert(std::is_same_v<decltype(from_raw), sycl::buffer<float, 1, std::allocator<float>>>);
  // std::hash: copies hash alike.
  sycl::buffer copy = from_raw;
  CHECK(std::hash<decltype(copy)>()(copy) == std::hash<decltype(from_raw)>()(from_raw));
}

void test_use_host_ptr(sycl::queue& q) {
  std::vector<int> data(16, 2);
  {
    sycl::buffer<int> b(data.data(), sycl::range<1>(16),
                        sycl::property_list{sycl::property::buffer::use_host_ptr{}});
    CHECK(b.has_property<sycl::property::buffer::use_host_ptr>());
    CHECK(!b.has_property<sycl::property::buffer::use_mutex>());
    (void)b.get_property<sycl::property::buffer::use_host_ptr>();
    bump(q, b);
    sycl::host_accessor h(b);
    CHECK(h.get_pointer() == data.data()); // the host memory is the user's
    CHECK(h[0] == 1002);
  }
  CHECK(data[15] == 1002);
  sycl::buffer<int> plain(data.data(), sycl::range<1>(16));
  CHECK(!plain.has_property<sycl::property::buffer::use_host_ptr>());
  EXPECT_ERRC(sycl::errc::invalid, nullptr,
              plain.get_property<sycl::property::buffer::use_host_ptr>());
}

void test_null_host_pointer(sycl::queue& q) {
  EXPECT_ERRC(sycl::errc::invalid, "host pointer is null",
              sycl::buffer<int>(static_cast<int*>(nullptr), sycl::range<1>(4)));
  EXPECT_ERRC(sycl::errc::invalid, "host pointer is null",
              sycl::buffer<int>(static_cast<const int*>(nullptr), sycl::range<1>(4)));
  EXPECT_ERRC(sycl::errc::invalid, "host pointer is null",
              (sycl::buffer<float, 2>(static_cast<float*>(nullptr), sycl::range<2>(2, 2))));
  EXPECT_ERRC(sycl::errc::invalid, "host pointer is null",
              sycl::buffer<int>(std::shared_ptr<int>(), sycl::range<1>(4)));
  // The failed constructions lost nothing: buffers and queue still work.
  std::vector<int> v(4, 0);
  {
    sycl::buffer<int> b(v.data(), sycl::range<1>(4));
    bump(q, b);
  }
  CHECK(v[0] == 1000 && v[3] == 1000);
}
} // namespace

int main() {
  sycl::queue q;
  test_ranges_and_sizes(q);
  test_host_pointer_write_back(q);
  test_const_host_pointer(q);
  test_shared_ptr(q);
  test_iterator_and_container(q);
  test_allocator(q);
  test_use_host_ptr(q);
  test_null_host_pointer(q);
  if (g_failures) {
    std::printf("buffer_ctors: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("buffer_ctors: PASSED\n");
  return 0;
}
