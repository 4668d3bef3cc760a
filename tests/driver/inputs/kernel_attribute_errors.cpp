// SYCL 2020 5.8.1 kernel attributes the plugin rejects, after a lambda's parameter list (a
// function-type position the plugin handles itself) and on a functor (sub_group_sizes_test.sh,
// case per BAD).
#include <sycl/sycl.hpp>

#if BAD == 1
// Not a plugin attribute: stays clang's error in that position.
auto not_ours = [](int) [[nodiscard]] { return 1; };
#elif BAD == 2
auto zero_size = [](sycl::nd_item<1>) [[sycl::reqd_work_group_size(0)]] {};
#elif BAD == 3
struct not_an_aspect {
  [[sycl::device_has(5)]] void operator()() const {}
};
#elif BAD == 4
auto four_dimensions = [](sycl::nd_item<3>) [[sycl::reqd_work_group_size(1, 2, 3, 4)]] {};
#elif BAD == 5
struct not_a_vector {};
auto bad_hint = [](sycl::id<1>) [[sycl::vec_type_hint(not_a_vector)]] {};
#elif BAD == 6
struct expression_hint {
  [[sycl::vec_type_hint(4)]] void operator()() const {}
};
#else
// Valid [[sycl::vec_type_hint(T)]] in every position, compiled with -Werror (clang's "unknown
// attribute ignored" warning for it would fail the compile).
template <typename T>
struct hinted {
  [[sycl::vec_type_hint(T)]] void operator()(sycl::id<1>) const {}
};
template <typename T>
auto hinted_lambda() {
  return [](sycl::id<1>) [[sycl::vec_type_hint(T)]] {};
}
struct scalar_hint {
  [[sycl::vec_type_hint(float)]] void operator()() const {}
};
void submit_hinted(sycl::queue& q) {
  q.parallel_for(sycl::range<1>(4), hinted<sycl::float4>{});
  q.parallel_for(sycl::range<1>(4), hinted_lambda<sycl::vec<int, 8>>());
  q.parallel_for(sycl::range<1>(4), [](sycl::id<1>) [[sycl::vec_type_hint(sycl::double2)]] {});
  q.single_task(scalar_hint{});
}
#endif
