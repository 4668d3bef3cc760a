// SYCL 2020 4.6.6 events: wait, wait on a list, command_execution_status before and after
// completion, get_wait_list of a command with pending dependencies, default-constructed
// events, and wait_and_throw without errors.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
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

using namespace std::chrono_literals;
using status = sycl::info::event_command_status;

status status_of(const sycl::event& e) {
  return e.get_info<sycl::info::event::command_execution_status>();
}

bool contains(const std::vector<sycl::event>& list, const sycl::event& e) {
  return std::find(list.begin(), list.end(), e) != list.end();
}
} // namespace

int main() {
  sycl::queue q;

  // A default-constructed event is complete and has nothing to wait for.
  sycl::event none;
  none.wait();
  CHECK(status_of(none) == status::complete);
  CHECK(none.get_wait_list().empty());
  none.wait_and_throw();
  // SYCL 2020 4.6.6: as if made by a default-constructed queue, so of the default device's
  // backend (cuda where the GPU is the default; the CTS's event category checks it).
  CHECK(none.get_backend() == q.get_backend());

  // Status after wait().
  int* p = sycl::malloc_shared<int>(4, q);
  sycl::event k = q.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { p[i] = 1; });
  k.wait();
  CHECK(status_of(k) == status::complete);
  CHECK(p[3] == 1);
  CHECK(k.get_backend() == q.get_backend());

  // A blocked command: submitted or running until released, complete after.
  std::atomic<bool> release{false}, started{false};
  sycl::event blocked = q.submit([&](sycl::handler& h) {
    h.host_task([&] {
      started = true;
      while (!release) std::this_thread::sleep_for(1ms);
    });
  });
  while (!started) std::this_thread::sleep_for(1ms);
  CHECK(status_of(blocked) == status::running);

  // A command waiting for it lists it; it has not started.
  sycl::event waiting = q.submit([&](sycl::handler& h) {
    h.depends_on(blocked);
    h.single_task([=] { p[0] = 2; });
  });
  sycl::event other = q.single_task([=] { p[1] = 3; });
  sycl::event waiting2 = q.submit([&](sycl::handler& h) {
    h.depends_on({blocked, other});
    h.single_task([=] { p[2] = 4; });
  });
  std::this_thread::sleep_for(10ms);
  CHECK(status_of(waiting) == status::submitted);
  std::vector<sycl::event> deps = waiting.get_wait_list();
  CHECK(deps.size() == 1 && deps[0] == blocked);
  CHECK(contains(waiting2.get_wait_list(), blocked));
  CHECK(p[0] == 1);

  release = true;
  sycl::event::wait({waiting, waiting2});
  CHECK(status_of(blocked) == status::complete && status_of(waiting) == status::complete);
  CHECK(p[0] == 2 && p[1] == 3 && p[2] == 4);
  // Complete events keep no history.
  CHECK(waiting.get_wait_list().empty());

  // Buffer dependencies show up in the wait list as well.
  std::atomic<bool> release2{false};
  sycl::buffer<int> b{sycl::range<1>(1)};
  sycl::event writer = q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::write_only_host_task);
    h.host_task([&release2, a] {
      while (!release2) std::this_thread::sleep_for(1ms);
      a[0] = 8;
    });
  });
  sycl::event reader = q.submit([&](sycl::handler& h) {
    sycl::accessor a(b, h, sycl::read_only);
    h.single_task([=] { p[3] = a[0]; });
  });
  CHECK(contains(reader.get_wait_list(), writer));
  release2 = true;
  reader.wait_and_throw();
  CHECK(p[3] == 8);

  // A kernel another kernel depended on is complete once the dependent one was waited for,
  // without waiting for it itself (the CTS's event category; on a GPU its status must come from
  // the device, not from what the runtime saw last).
  {
    sycl::event first = q.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { p[i] = 9; });
    sycl::event second = q.submit([&](sycl::handler& h) {
      h.depends_on(first);
      h.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { p[i] += 1; });
    });
    second.wait();
    CHECK(status_of(first) == status::complete);
    CHECK(p[0] == 10);
  }

  // Many events at once.
  std::vector<sycl::event> many;
  for (int i = 0; i < 50; ++i) many.push_back(q.single_task([] {}));
  sycl::event::wait_and_throw(many);
  CHECK(std::all_of(many.begin(), many.end(),
                    [](const sycl::event& e) { return status_of(e) == status::complete; }));
  q.wait();
  sycl::free(p, q);

  if (g_failures) {
    std::printf("events: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("events: PASSED\n");
  return 0;
}
