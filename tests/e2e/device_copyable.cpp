// SYCL 2020 3.13.1 device copyable types: sycl::is_device_copyable(_v) holds for trivially copyable
// types, for std::pair/tuple/array/optional/variant of device-copyable members (which libstdc++
// does not make trivially copyable) and for user specializations; buffers and kernel arguments
// accept them, and their values cross to the device and back intact.
#include <sycl/sycl.hpp>

#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <variant>

// SYCL 2020 5.6: an implementation honoring is_device_copyable specializations says so.
#if !defined(SYCL_DEVICE_COPYABLE) || SYCL_DEVICE_COPYABLE != 1
#error "SYCL_DEVICE_COPYABLE must be defined to 1 (SYCL 2020 5.6)"
#endif

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// Not trivially copyable (user-provided copy constructor), declared device copyable below.
struct tracked {
  int value = 0;
  float weight = 0;
  tracked() = default;
  tracked(int v, float w) : value(v), weight(w) {}
  tracked(const tracked& other) : value(other.value), weight(other.weight) {}
  tracked& operator=(const tracked& other) {
    value = other.value;
    weight = other.weight;
    return *this;
  }
};
} // namespace

template <>
struct sycl::is_device_copyable<tracked> : std::true_type {};

static_assert(!std::is_trivially_copyable_v<std::pair<int, float>>,
              "this test needs a pair that is not trivially copyable");
static_assert(sycl::is_device_copyable_v<int>);
static_assert(sycl::is_device_copyable_v<const int>);
static_assert(sycl::is_device_copyable_v<std::pair<int, float>>);
static_assert(sycl::is_device_copyable_v<std::tuple<int, double, char>>);
static_assert(sycl::is_device_copyable_v<std::tuple<>>);
static_assert(sycl::is_device_copyable_v<std::array<std::pair<int, int>, 3>>);
static_assert(sycl::is_device_copyable_v<std::array<std::string, 0>>);
static_assert(sycl::is_device_copyable_v<std::optional<std::pair<int, int>>>);
static_assert(sycl::is_device_copyable_v<std::variant<int, float>>);
static_assert(sycl::is_device_copyable_v<tracked>);
static_assert(sycl::is_device_copyable_v<std::pair<tracked, int>>);
static_assert(!sycl::is_device_copyable_v<std::string>);
static_assert(!sycl::is_device_copyable_v<std::pair<int, std::string>>);
static_assert(!sycl::is_device_copyable_v<std::optional<std::string>>);
static_assert(sycl::is_device_copyable<int>::value &&
              std::is_base_of_v<std::true_type, sycl::is_device_copyable<tracked>>);

int main() {
  sycl::queue q;

  // Buffers of device-copyable, not trivially copyable, element types.
  std::pair<int, float> pairs[4] = {{1, 1.5f}, {2, 2.5f}, {3, 3.5f}, {4, 4.5f}};
  std::tuple<int, double> tuples[2] = {{10, 0.5}, {20, 0.25}};
  tracked objects[3] = {{1, 0.5f}, {2, 1.0f}, {3, 2.0f}};
  {
    sycl::buffer<std::pair<int, float>> bp(pairs, sycl::range<1>(4));
    sycl::buffer<std::tuple<int, double>> bt(tuples, sycl::range<1>(2));
    sycl::buffer<tracked> bo(objects, sycl::range<1>(3));
    q.submit([&](sycl::handler& h) {
      sycl::accessor p(bp, h, sycl::read_write);
      sycl::accessor t(bt, h, sycl::read_write);
      sycl::accessor o(bo, h, sycl::read_write);
      h.single_task([=] {
        for (int i = 0; i < 4; ++i) {
          p[i].first *= 10;
          p[i].second += 1.0f;
        }
        for (int i = 0; i < 2; ++i) std::get<0>(t[i]) += static_cast<int>(std::get<1>(t[i]) * 8);
        for (int i = 0; i < 3; ++i) o[i].value += static_cast<int>(o[i].weight * 10);
      });
    });
  }
  for (int i = 0; i < 4; ++i) {
    CHECK(pairs[i].first == (i + 1) * 10);
    CHECK(pairs[i].second == i + 2.5f);
  }
  CHECK(std::get<0>(tuples[0]) == 14);
  CHECK(std::get<0>(tuples[1]) == 22);
  CHECK(objects[0].value == 6 && objects[1].value == 12 && objects[2].value == 23);

  // Kernel arguments: captured std::pair, std::tuple, std::array, std::optional and the user type.
  std::pair<int, int> cp{3, 4};
  std::tuple<int, float> ct{5, 0.5f};
  std::array<std::pair<int, int>, 2> ca{{{6, 7}, {8, 9}}};
  std::optional<int> co = 11;
  std::optional<int> none;
  tracked cobj{12, 2.0f};
  int* out = sycl::malloc_shared<int>(8, q);
  q.single_task([=] {
     out[0] = cp.first * cp.second;
     out[1] = std::get<0>(ct) + static_cast<int>(std::get<1>(ct) * 2);
     out[2] = ca[0].first + ca[1].second;
     out[3] = co ? *co : -1;
     out[4] = none.has_value() ? 1 : 0;
     out[5] = cobj.value * static_cast<int>(cobj.weight);
   }).wait();
  CHECK(out[0] == 12);
  CHECK(out[1] == 6);
  CHECK(out[2] == 15);
  CHECK(out[3] == 11);
  CHECK(out[4] == 0);
  CHECK(out[5] == 24);
  sycl::free(out, q);

  if (g_failures) return 1;
  std::printf("device_copyable: ok\n");
  return 0;
}
