// sycl_ext_oneapi_enqueue_barrier (issue 30): a barrier holds back every command submitted to
// its queue after it until the commands before it (or its wait list) completed, and its event
// completes with them. A host task that waits for the host stands for a long command: while it
// is held, a barrier over the queue and what follows it must not complete, while commands the
// barrier does not cover (submitted before it; on other queues; after a barrier with an empty
// wait list) do. Once it is released, the commands after the barrier see what it wrote. On
// out-of-order queues (where the barrier adds the ordering) and in-order ones, through
// handler::ext_oneapi_barrier and queue::ext_oneapi_submit_barrier.
#include "expect.hpp"

#include <sycl/sycl.hpp>

#include <chrono>
#include <future>
#include <thread>

#ifndef SYCL_EXT_ONEAPI_ENQUEUE_BARRIER
#error "SYCL_EXT_ONEAPI_ENQUEUE_BARRIER is not defined"
#endif

namespace {

bool complete(const sycl::event& e) {
  return e.get_info<sycl::info::event::command_execution_status>() ==
         sycl::info::event_command_status::complete;
}

// A host task on `q` that runs until release() and then writes `value` to `*out`.
struct held_command {
  std::promise<void> promise;
  sycl::event event;
  held_command(sycl::queue& q, int* out, int value) {
    std::shared_future<void> released = promise.get_future().share();
    event = q.submit([&](sycl::handler& h) {
      h.host_task([=] {
        released.wait();
        *out = value;
      });
    });
  }
  void release() { promise.set_value(); }
};

// Time for a command that is free to run to run (the checks that something did not run wait
// this long first, so a barrier that holds nothing back is seen).
void settle() {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

// A barrier over the whole queue: `with_handler` through a command group, else the queue's.
void whole_queue(bool in_order, bool with_handler) {
  sycl::queue q = in_order ? sycl::queue{sycl::property::queue::in_order()} : sycl::queue{};
  int* data = sycl::malloc_shared<int>(4, q);
  for (int i = 0; i < 4; ++i) data[i] = 0;
  held_command held(q, &data[0], 11);
  sycl::event before = q.single_task([=] { data[1] = 22; });
  if (!in_order) { // nothing orders it after the held command
    before.wait();
    EXPECT(data[1] == 22);
  }
  sycl::event barrier = with_handler ? q.submit([](sycl::handler& h) { h.ext_oneapi_barrier(); })
                                     : q.ext_oneapi_submit_barrier();
  // Reads what the held command wrote: it must run after it.
  sycl::event after = q.single_task([=] { data[2] = data[0] + 1; });
  settle();
  EXPECT(!complete(barrier));
  EXPECT(!complete(after));
  EXPECT(data[2] == 0);
  held.release();
  barrier.wait();
  EXPECT(data[0] == 11);
  after.wait();
  EXPECT(data[2] == 12);
  EXPECT(data[1] == 22);
  // A second barrier once everything completed holds nothing back.
  sycl::event again = q.ext_oneapi_submit_barrier();
  q.single_task([=] { data[3] = 33; }).wait();
  again.wait();
  EXPECT(data[3] == 33);
  q.wait();
  EXPECT(q.khr_empty());
  sycl::free(data, q);
}

// A barrier over a wait list of events of other queues (of the same context).
void wait_list(bool with_handler) {
  sycl::queue q1;
  sycl::queue q2(q1.get_context(), q1.get_device());
  sycl::queue q3(q1.get_context(), q1.get_device());
  int* data = sycl::malloc_shared<int>(4, q1);
  for (int i = 0; i < 4; ++i) data[i] = 0;
  held_command held1(q1, &data[0], 5);
  sycl::event e2 = q2.single_task([=] { data[1] = 7; });
  // Submitted to q3 before the barrier: not held back.
  sycl::event earlier = q3.single_task([=] { data[3] = 9; });
  std::vector<sycl::event> waits{held1.event, e2};
  sycl::event barrier = with_handler
                            ? q3.submit([&](sycl::handler& h) { h.ext_oneapi_barrier(waits); })
                            : q3.ext_oneapi_submit_barrier(waits);
  sycl::event after = q3.single_task([=] { data[2] = data[0] * 100 + data[1]; });
  earlier.wait();
  EXPECT(data[3] == 9);
  e2.wait();
  settle();
  EXPECT(!complete(barrier));
  EXPECT(!complete(after));
  EXPECT(data[2] == 0);
  // Commands of the other queues are not held back by q3's barrier.
  q1.single_task([=] { data[3] = 10; }).wait();
  EXPECT(data[3] == 10);
  held1.release();
  after.wait();
  EXPECT(complete(barrier));
  EXPECT(data[2] == 507);
  q3.wait();
  sycl::free(data, q1);
}

// An empty wait list has no effect: what follows runs while older commands are held.
void empty_wait_list() {
  sycl::queue q;
  int* data = sycl::malloc_shared<int>(2, q);
  data[0] = data[1] = 0;
  held_command held(q, &data[0], 1);
  sycl::event barrier = q.ext_oneapi_submit_barrier({});
  sycl::event after = q.single_task([=] { data[1] = 2; });
  after.wait();
  barrier.wait();
  EXPECT(data[1] == 2);
  EXPECT(!complete(held.event));
  held.release();
  q.wait();
  EXPECT(data[0] == 1);
  sycl::free(data, q);
}

// Barriers one after another: each waits for the one before it, so a chain of commands with a
// barrier between each pair runs in order on an out-of-order queue.
void chained() {
  sycl::queue q;
  constexpr int n = 20;
  int* data = sycl::malloc_shared<int>(n + 1, q);
  data[0] = 1;
  for (int i = 1; i <= n; ++i) {
    q.single_task([=] { data[i] = data[i - 1] * 2 % 1000003; });
    q.ext_oneapi_submit_barrier();
  }
  q.wait();
  int expected = 1;
  for (int i = 1; i <= n; ++i) expected = expected * 2 % 1000003;
  EXPECT(data[n] == expected);
  sycl::free(data, q);
}

// A barrier is a command: a command group holds at most one.
void one_command() {
  sycl::queue q;
  try {
    q.submit([](sycl::handler& h) {
      h.ext_oneapi_barrier();
      h.single_task([] {});
    });
    EXPECT(false);
  } catch (const sycl::exception& e) {
    EXPECT(e.code() == sycl::errc::invalid);
  }
  q.ext_oneapi_submit_barrier().wait(); // the queue stays usable
}

} // namespace

int main() {
  for (bool in_order : {false, true})
    for (bool with_handler : {false, true}) whole_queue(in_order, with_handler);
  wait_list(false);
  wait_list(true);
  empty_wait_list();
  chained();
  one_command();
  if (failures == 0) std::printf("enqueue_barrier: all checks passed\n");
  return failures;
}
