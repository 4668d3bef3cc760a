#include "host_executor.hpp"

#include "thread_pool.hpp"
#include "work_group.hpp"

#include <sycl/exception.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

namespace syclone::host {
namespace {

// Chunks: each thread should get several (load balance with uneven work), each big enough that
// claiming it (one atomic add) and the call through run_chunk do not show. A launch of a single
// chunk runs on the caller without touching the pool.
constexpr std::size_t chunks_per_thread = 8;
constexpr std::size_t range_grain = 1024; // indices of a range kernel
constexpr std::size_t nd_grain = 256;     // work-items of an nd_range kernel (whole work-groups)

std::size_t chunk_size(std::size_t count, std::size_t grain) {
  std::size_t threads = thread_pool::instance().concurrency();
  return std::max(count / (threads * chunks_per_thread), grain);
}

void range_body(const void* context, std::size_t begin, std::size_t end) {
  const auto& launch = *static_cast<const range_launch*>(context);
  launch.run_chunk(launch.kernel, begin, end);
}

struct nd_context {
  const nd_range_launch* launch;
  schedule_kind kind;
  std::uint64_t seed;
};

void nd_body(const void* context, std::size_t begin, std::size_t end) {
  const auto& c = *static_cast<const nd_context*>(context);
  thread_state& state = thread_state::get();
  work_group_scheduler& scheduler = state.enter();
  struct leave_on_exit {
    thread_state& state;
    ~leave_on_exit() { state.leave(); }
  } leave{state};
  scheduler.begin(*c.launch, c.kind, c.seed);
  scheduler.run_groups(begin, end);
}

// barrier() inside a range kernel is an error even when the launching thread is itself running a
// work-item: the range kernel must not see that work-item's work-group.
struct hide_work_group {
  work_group_scheduler* saved = work_group_scheduler::exchange_current(nullptr);
  ~hide_work_group() { work_group_scheduler::exchange_current(saved); }
};

} // namespace

void run(const range_launch& launch) {
  if (launch.count == 0) return;
  hide_work_group hide;
  if (launch.count <= range_grain) {
    launch.run_chunk(launch.kernel, 0, launch.count);
    return;
  }
  job j(&range_body, &launch, launch.count, chunk_size(launch.count, range_grain));
  thread_pool::instance().run(j);
}

void run(const nd_range_launch& launch) {
  std::size_t items = 1;
  std::size_t groups = 1;
  for (int d = 0; d < 3; ++d) {
    items *= launch.local_range[d];
    groups *= launch.group_range[d];
  }
  if (items == 0 || groups == 0) return;
  if (items > std::numeric_limits<std::uint32_t>::max()) {
    sycl::detail::throw_error(sycl::errc::nd_range,
                              "host device: work-group of " + std::to_string(items) +
                                  " work-items is too large; use at most 2^32-1");
  }
  nd_context context{&launch, schedule(), schedule_seed()};
  std::size_t min_groups = (nd_grain + items - 1) / items;
  if (groups <= min_groups) {
    nd_body(&context, 0, groups);
    return;
  }
  job j(&nd_body, &context, groups, chunk_size(groups, min_groups));
  thread_pool::instance().run(j);
}

std::size_t concurrency() noexcept {
  return thread_pool::instance().concurrency();
}

} // namespace syclone::host
