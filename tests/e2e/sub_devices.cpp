// SYCLONE_E2E_ARGS: -fsycl-targets=host
// SYCLONE_E2E_HOST_ONLY: partitions the host CPU device (kernels read std::this_thread).
// SYCL 2020 4.6.4.2 sub-devices of the host CPU device: create_sub_devices by count and
// equally, their descriptors (parent_device, partition_type_property, max_compute_units),
// partitioning again, kernels (range, nd_range with barriers, buffers, USM) on sub-device queues
// computing correct results on at most that many threads, contexts of sub-devices, and the errc
// of each bad request.
#include <sycl/sycl.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
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

using pp = sycl::info::partition_property;
namespace di = sycl::info::device;

// Runs f, which must throw sycl::exception with `code` and a message containing `text`.
template <typename F>
void expect_error(F f, sycl::errc code, const std::string& text, int line) {
  try {
    f();
    std::printf("FAILED line %d: no exception\n", line);
    ++g_failures;
  } catch (const sycl::exception& e) {
    if (e.code() != code || std::string(e.what()).find(text) == std::string::npos) {
      std::printf("FAILED line %d: errc %d, \"%s\"\n", line, e.code().value(), e.what());
      ++g_failures;
    }
  }
}

void test_descriptors(const sycl::device& root) {
  const std::uint32_t units = root.get_info<di::max_compute_units>();
  CHECK(root.get_info<di::partition_max_sub_devices>() == units);
  CHECK(root.get_info<di::partition_type_property>() == pp::no_partition);

  std::vector<sycl::device> subs = root.create_sub_devices<pp::partition_equally>(2);
  CHECK(subs.size() == units / 2); // the odd compute unit, if any, goes unused
  for (const sycl::device& s : subs) {
    CHECK(s.get_info<di::max_compute_units>() == 2);
    CHECK(s.get_info<di::parent_device>() == root);
    CHECK(s.get_info<di::partition_type_property>() == pp::partition_equally);
    CHECK(s.get_info<di::partition_type_affinity_domain>() ==
          sycl::info::partition_affinity_domain::not_applicable);
    CHECK(s.get_platform() == root.get_platform());
    CHECK(s.is_cpu() && s.get_backend() == root.get_backend());
    CHECK(s != root);
    CHECK(s.get_info<di::name>() == root.get_info<di::name>());
    CHECK(s.get_info<di::partition_max_sub_devices>() == 2);
  }
  if (subs.size() >= 2) CHECK(subs[0] != subs[1]);
  // Each call makes new sub-devices; copies of one are equal and hash alike.
  std::vector<sycl::device> again = root.create_sub_devices<pp::partition_equally>(2);
  if (!subs.empty()) {
    CHECK(again[0] != subs[0]);
    sycl::device copy = subs[0];
    CHECK(copy == subs[0] && std::hash<sycl::device>()(copy) == std::hash<sycl::device>()(subs[0]));
  }
  // Sub-devices are not root devices: the platform lists only the root.
  for (const sycl::device& d : root.get_platform().get_devices())
    for (const sycl::device& s : subs) CHECK(d != s);

  std::vector<sycl::device> by_counts =
      root.create_sub_devices<pp::partition_by_counts>(std::vector<std::size_t>{1, units - 1});
  CHECK(by_counts.size() == 2);
  CHECK(by_counts[0].get_info<di::max_compute_units>() == 1);
  CHECK(by_counts[1].get_info<di::max_compute_units>() == units - 1);
  CHECK(by_counts[1].get_info<di::partition_type_property>() == pp::partition_by_counts);

  // Partitioning again: a sub-device of 2 splits into 2 of 1, whose parent is that sub-device.
  if (!subs.empty()) {
    std::vector<sycl::device> inner = subs[0].create_sub_devices<pp::partition_equally>(1);
    CHECK(inner.size() == 2);
    for (const sycl::device& s : inner) {
      CHECK(s.get_info<di::parent_device>() == subs[0]);
      CHECK(s.get_info<di::parent_device>().get_info<di::parent_device>() == root);
      CHECK(s.get_info<di::max_compute_units>() == 1);
    }
  }
}

void test_errors(const sycl::device& root) {
  const std::uint32_t units = root.get_info<di::max_compute_units>();
  const std::string many = std::to_string(units + 1);
  expect_error([&] { root.create_sub_devices<pp::partition_equally>(0); }, sycl::errc::invalid,
               "partition_equally>(0)", __LINE__);
  expect_error([&] { root.create_sub_devices<pp::partition_equally>(units + 1); },
               sycl::errc::invalid, "(" + many + "): ", __LINE__);
  expect_error(
      [&] { root.create_sub_devices<pp::partition_by_counts>(std::vector<std::size_t>{}); },
      sycl::errc::invalid, "counts are empty", __LINE__);
  expect_error(
      [&] { root.create_sub_devices<pp::partition_by_counts>(std::vector<std::size_t>{1, 0}); },
      sycl::errc::invalid, "count 1 is 0", __LINE__);
  expect_error(
      [&] { root.create_sub_devices<pp::partition_by_counts>(std::vector<std::size_t>{units, 1}); },
      sycl::errc::invalid, "add up to more than the " + std::to_string(units), __LINE__);
  expect_error(
      [&] {
        root.create_sub_devices<pp::partition_by_counts>(std::vector<std::size_t>(units + 1, 1));
      },
      sycl::errc::invalid, "partition_max_sub_devices", __LINE__);
  expect_error(
      [&] {
        root.create_sub_devices<pp::partition_by_affinity_domain>(
            sycl::info::partition_affinity_domain::numa);
      },
      sycl::errc::feature_not_supported, "by_affinity_domain>(numa)", __LINE__);
  expect_error([&] { (void)root.get_info<di::parent_device>(); }, sycl::errc::invalid,
               "root device", __LINE__);
  // A sub-device of one compute unit cannot give two.
  sycl::device one =
      root.create_sub_devices<pp::partition_by_counts>(std::vector<std::size_t>{1}).front();
  expect_error([&] { one.create_sub_devices<pp::partition_equally>(2); }, sycl::errc::invalid,
               "has only 1 compute units", __LINE__);
}

void test_kernels(const sycl::device& sub) {
  sycl::queue q(sub);
  CHECK(q.get_device() == sub);
  // A queue without a context gets one holding the sub-device.
  CHECK(q.get_context().get_devices() == std::vector<sycl::device>{sub});

  constexpr std::size_t n = 4096;
  int* squares = sycl::malloc_shared<int>(n, q);
  CHECK(sycl::get_pointer_device(squares, q.get_context()) == sub);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { squares[i] = int(i[0] * 3 + 1); }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok = ok && squares[i] == int(i * 3 + 1);
  CHECK(ok);
  sycl::free(squares, q);

  // A buffer written by an nd_range kernel with local memory and barriers: per-group sums.
  constexpr std::size_t groups = 16, local = 64;
  std::vector<long> in(groups * local), sums(groups, -1);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = long(i % 97);
  {
    sycl::buffer<long> bin(in.data(), sycl::range<1>(in.size()));
    sycl::buffer<long> bsum(sums.data(), sycl::range<1>(groups));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(bin, h, sycl::read_only);
      sycl::accessor s(bsum, h, sycl::write_only, sycl::no_init);
      sycl::local_accessor<long> tmp(sycl::range<1>(local), h);
      h.parallel_for(sycl::nd_range<1>(groups * local, local), [=](sycl::nd_item<1> it) {
        std::size_t l = it.get_local_id(0);
        tmp[l] = a[it.get_global_id(0)];
        for (std::size_t stride = local / 2; stride > 0; stride /= 2) {
          sycl::group_barrier(it.get_group());
          if (l < stride) tmp[l] += tmp[l + stride];
        }
        if (l == 0) s[it.get_group(0)] = tmp[0];
      });
    });
  }
  for (std::size_t g = 0; g < groups; ++g) {
    long want = 0;
    for (std::size_t l = 0; l < local; ++l) want += in[g * local + l];
    CHECK(sums[g] == want);
  }

  // A reduction, sized by the sub-device's compute units.
  long* total = sycl::malloc_shared<long>(1, q);
  *total = 0;
  q.parallel_for(sycl::range<1>(10000), sycl::reduction(total, sycl::plus<long>()),
                 [=](sycl::id<1> i, auto& sum) { sum += long(i[0]); })
      .wait();
  CHECK(*total == 10000L * 9999L / 2);
  sycl::free(total, q);
}

// Distinct threads that ran a kernel: each work-item enters its thread's id into a small set,
// then waits (up to 10 ms) for more threads than the device has compute units to show up. With
// the limit they never do; without it the pool's other threads join and the set grows.
std::size_t threads_used(sycl::queue& q, std::size_t limit, bool nd) {
  constexpr std::size_t slots = 64, items = 24;
  auto* table = sycl::malloc_shared<std::uint64_t>(slots, q);
  for (std::size_t i = 0; i < slots; ++i) table[i] = 0;
  auto body = [=]() {
    std::uint64_t me = std::hash<std::thread::id>()(std::this_thread::get_id()) | 1;
    for (std::size_t k = 0; k < slots; ++k) {
      sycl::atomic_ref<std::uint64_t, sycl::memory_order::relaxed, sycl::memory_scope::system> slot(
          table[(me + k) % slots]);
      std::uint64_t seen = 0;
      if (slot.compare_exchange_strong(seen, me) || seen == me) break;
    }
    auto start = std::chrono::steady_clock::now();
    for (;;) {
      std::size_t distinct = 0;
      for (std::size_t k = 0; k < slots; ++k)
        distinct += sycl::atomic_ref<std::uint64_t, sycl::memory_order::relaxed,
                                     sycl::memory_scope::system>(table[k])
                        .load() != 0;
      if (distinct > limit ||
          std::chrono::steady_clock::now() - start > std::chrono::milliseconds(10))
        break;
      std::this_thread::yield();
    }
  };
  if (nd)
    q.parallel_for(sycl::nd_range<1>(items * 2, 2), [=](sycl::nd_item<1>) { body(); }).wait();
  else
    q.parallel_for(sycl::range<1>(items), [=](sycl::id<1>) { body(); }).wait();
  std::size_t distinct = 0;
  for (std::size_t k = 0; k < slots; ++k) distinct += table[k] != 0;
  sycl::free(table, q);
  return distinct;
}

void test_thread_limit(const sycl::device& root) {
  const std::uint32_t units = root.get_info<di::max_compute_units>();
  for (std::size_t count : {std::size_t(1), std::size_t(2)}) {
    if (count >= units) continue;
    sycl::device sub =
        root.create_sub_devices<pp::partition_by_counts>(std::vector<std::size_t>{count}).front();
    sycl::queue q(sub);
    for (bool nd : {false, true}) {
      std::size_t used = threads_used(q, count, nd);
      std::printf("sub-device of %zu compute units (%s): %zu threads\n", count,
                  nd ? "nd_range" : "range", used);
      CHECK(used >= 1 && used <= count);
    }
  }
  sycl::queue q(root);
  std::printf("root device of %u compute units: %zu threads\n", units,
              threads_used(q, units, false));
}

void test_contexts(const sycl::device& root) {
  std::vector<sycl::device> subs =
      root.create_sub_devices<pp::partition_by_counts>(std::vector<std::size_t>{1, 1});
  sycl::context ctx(subs);
  CHECK(ctx.get_devices() == subs);
  CHECK(ctx.get_platform() == root.get_platform());
  sycl::queue q0(ctx, subs[0]), q1(ctx, subs[1]);
  int* data = sycl::malloc_device<int>(256, subs[1], ctx);
  CHECK(data != nullptr);
  CHECK(sycl::get_pointer_device(data, ctx) == subs[1]);
  q1.parallel_for(sycl::range<1>(256), [=](sycl::id<1> i) { data[i] = int(i[0]); }).wait();
  // Sub-devices share the host's memory: a kernel on the other sub-device reads it.
  int* doubled = sycl::malloc_shared<int>(256, subs[0], ctx);
  q0.parallel_for(sycl::range<1>(256), [=](sycl::id<1> i) { doubled[i] = 2 * data[i]; }).wait();
  bool ok = true;
  for (int i = 0; i < 256; ++i) ok = ok && doubled[i] == 2 * i;
  CHECK(ok);
  sycl::free(data, ctx);
  sycl::free(doubled, ctx);

  // A context of the root device serves its sub-devices too (SYCL 2020 4.8.3: descendants).
  sycl::context root_ctx(root);
  sycl::queue qs(root_ctx, subs[0]);
  int* v = sycl::malloc_shared<int>(1, subs[0], root_ctx);
  CHECK(v != nullptr);
  qs.single_task([=] { *v = 42; }).wait();
  CHECK(*v == 42);
  sycl::free(v, root_ctx);
  // A context of one sub-device does not serve its sibling.
  sycl::context only0(subs[0]);
  expect_error([&] { sycl::queue bad(only0, subs[1]); }, sycl::errc::invalid,
               "not part of the given context", __LINE__);

  // The sub-devices may outlive the vector that held them: the context keeps what it needs.
  int* kept;
  {
    sycl::device tmp =
        root.create_sub_devices<pp::partition_by_counts>(std::vector<std::size_t>{1}).front();
    kept = sycl::malloc_shared<int>(4, tmp, root_ctx);
  }
  CHECK(kept != nullptr);
  sycl::free(kept, root_ctx);
}
} // namespace

int main() {
  // Six threads, whatever the machine, so that a sub-device's limit shows against the pool.
  setenv("SYCLONE_HOST_THREADS", "6", 0);
  sycl::device root(sycl::cpu_selector_v);
  const std::uint32_t units = root.get_info<di::max_compute_units>();
  std::printf("host device: %u compute units\n", units);
  if (units < 2) {
    std::printf("FAILED: the host device needs 2 compute units for this test\n");
    return 1;
  }
  test_descriptors(root);
  test_errors(root);
  std::vector<sycl::device> halves = root.create_sub_devices<pp::partition_equally>(units / 2);
  test_kernels(halves.front());
  test_kernels(halves.front().create_sub_devices<pp::partition_equally>(1).front());
  test_thread_limit(root);
  test_contexts(root);
  if (g_failures) {
    std::printf("%d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("sub_devices: all passed\n");
  return 0;
}
