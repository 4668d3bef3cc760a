// SYCL 2020 4.7.2.3 buffer write-back: set_final_data with a raw pointer, nullptr, shared_ptr,
// weak_ptr (alive and expired) and an output iterator; set_write_back(false/true); and
// destruction waiting for the commands that still use the buffer.
#include <sycl/sycl.hpp>

#include <chrono>
#include <cstdio>
#include <iterator>
#include <memory>
#include <thread>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

constexpr int N = 16;

// Writes i * 3 + 1 to every element.
void produce(sycl::queue& q, sycl::buffer<int>& b) {
  q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(N),
                   [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]) * 3 + 1; });
  });
}
bool produced(const int* p) {
  for (int i = 0; i < N; ++i)
    if (p[i] != i * 3 + 1) return false;
  return true;
}
bool all(const int* p, int v) {
  for (int i = 0; i < N; ++i)
    if (p[i] != v) return false;
  return true;
}
} // namespace

int main() {
  sycl::queue q;

  // Raw pointer: the contents go there instead of the original host data.
  {
    std::vector<int> original(N, 0), final_data(N, -1);
    {
      sycl::buffer<int> b(original.data(), sycl::range<1>(N));
      b.set_final_data(final_data.data());
      produce(q, b);
    }
    CHECK(all(original.data(), 0));
    CHECK(produced(final_data.data()));
  }
  // A buffer without host data gets a destination.
  {
    std::vector<int> final_data(N, -1);
    {
      sycl::buffer<int> b{sycl::range<1>(N)};
      b.set_final_data(final_data.data());
      produce(q, b);
    }
    CHECK(produced(final_data.data()));
  }
  // nullptr: no write-back at all.
  {
    std::vector<int> original(N, 5);
    {
      sycl::buffer<int> b(original.data(), sycl::range<1>(N));
      b.set_final_data(nullptr);
      produce(q, b);
    }
    CHECK(all(original.data(), 5));
  }
  // shared_ptr.
  {
    std::shared_ptr<int> dest(new int[N], std::default_delete<int[]>());
    std::fill(dest.get(), dest.get() + N, -1);
    {
      sycl::buffer<int> b{sycl::range<1>(N)};
      b.set_final_data(dest);
      produce(q, b);
    }
    CHECK(produced(dest.get()));
  }
  // weak_ptr still alive when the buffer dies: written.
  {
    std::shared_ptr<int> dest(new int[N], std::default_delete<int[]>());
    std::fill(dest.get(), dest.get() + N, -1);
    {
      sycl::buffer<int> b{sycl::range<1>(N)};
      b.set_final_data(std::weak_ptr<int>(dest));
      produce(q, b);
    }
    CHECK(produced(dest.get()));
  }
  // weak_ptr expired before the buffer dies: nothing is written, nothing crashes.
  {
    std::weak_ptr<int> weak;
    {
      sycl::buffer<int> b{sycl::range<1>(N)};
      {
        std::shared_ptr<int> dest(new int[N], std::default_delete<int[]>());
        weak = dest;
        b.set_final_data(weak);
      }
      produce(q, b);
    }
    CHECK(weak.expired());
  }
  // Output iterators: a back_inserter and a vector iterator.
  {
    std::vector<int> grown;
    std::vector<int> sized(N, -1);
    {
      sycl::buffer<int> b{sycl::range<1>(N)};
      b.set_final_data(std::back_inserter(grown));
      produce(q, b);
      sycl::buffer<int> c{sycl::range<1>(N)};
      c.set_final_data(sized.begin());
      produce(q, c);
    }
    CHECK(grown.size() == static_cast<std::size_t>(N) && produced(grown.data()));
    CHECK(produced(sized.data()));
  }
  // set_write_back(false), then true again.
  {
    std::vector<int> a(N, 7), b(N, 7);
    {
      sycl::buffer<int> ba(a.data(), sycl::range<1>(N));
      ba.set_write_back(false);
      produce(q, ba);
      sycl::buffer<int> bb(b.data(), sycl::range<1>(N));
      bb.set_write_back(false);
      bb.set_write_back(true);
      produce(q, bb);
    }
    CHECK(all(a.data(), 7));
    CHECK(produced(b.data()));
  }
  // The last copy of the buffer writes back, after the commands using it.
  {
    std::vector<int> data(N, 0);
    {
      sycl::buffer<int> outer{sycl::range<1>(N)};
      {
        sycl::buffer<int> b(data.data(), sycl::range<1>(N));
        outer = b;
        q.submit([&](sycl::handler& h) {
          sycl::accessor a(b, h, sycl::write_only);
          h.host_task([=] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            for (int i = 0; i < N; ++i) a[i] = 9;
          });
        });
      }
      CHECK(all(data.data(), 0)); // `outer` still holds the buffer
    }
    CHECK(all(data.data(), 9)); // destruction waited for the slow host task
  }

  if (g_failures) {
    std::printf("buffer_final_data: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("buffer_final_data: PASSED\n");
  return 0;
}
