// SYCL 2020 4.13.1 error handling: asynchronous errors (an exception thrown by a host task)
// reach the queue's async_handler through wait_and_throw and throw_asynchronous, or the
// context's handler when the queue has none; the queue stays usable and later commands run.
// Synchronous errors thrown by a command group function propagate from submit.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

// Collects what an async_handler receives.
struct collector {
  std::vector<std::string> messages;
  std::vector<int> codes; // -1: not a sycl::exception
  int calls = 0;
  sycl::async_handler handler() {
    return [this](sycl::exception_list list) {
      ++calls;
      for (const std::exception_ptr& e : list) {
        try {
          std::rethrow_exception(e);
        } catch (const sycl::exception& ex) {
          messages.push_back(ex.what());
          codes.push_back(ex.code().value());
        } catch (const std::exception& ex) {
          messages.push_back(ex.what());
          codes.push_back(-1);
        }
      }
    };
  }
};

void fail_in_host_task(sycl::queue& q, const char* message) {
  q.submit([&](sycl::handler& h) {
    std::string m = message;
    h.host_task([m] { throw sycl::exception(sycl::make_error_code(sycl::errc::runtime), m); });
  });
}

// The queue still runs kernels and buffers still write back.
bool still_usable(sycl::queue& q) {
  int data[8] = {};
  {
    sycl::buffer<int> b(data, sycl::range<1>(8));
    q.submit([&](sycl::handler& h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]) + 1; });
    });
  }
  return data[0] == 1 && data[7] == 8;
}

void test_wait_and_throw() {
  collector c;
  sycl::queue q{c.handler()};
  fail_in_host_task(q, "host task failed on purpose");
  q.wait_and_throw();
  CHECK(c.calls == 1);
  CHECK(c.messages.size() == 1 && c.messages[0] == "host task failed on purpose");
  CHECK(c.codes.size() == 1 && c.codes[0] == static_cast<int>(sycl::errc::runtime));
  // Nothing left: a second wait_and_throw does not call the handler again.
  q.wait_and_throw();
  CHECK(c.calls == 1);
  CHECK(still_usable(q));
}

void test_throw_asynchronous() {
  collector c;
  sycl::queue q{c.handler()};
  fail_in_host_task(q, "first");
  q.wait();
  CHECK(c.calls == 0); // wait() alone never calls the handler
  fail_in_host_task(q, "second");
  // A non-SYCL exception is delivered as it was thrown.
  q.submit([&](sycl::handler& h) { h.host_task([] { throw std::runtime_error("plain error"); }); });
  q.wait();
  q.throw_asynchronous();
  CHECK(c.calls == 1);
  CHECK(c.messages.size() == 3);
  int sycl_errors = 0, plain_errors = 0;
  for (std::size_t i = 0; i < c.codes.size(); ++i) {
    if (c.codes[i] == -1) {
      ++plain_errors;
      CHECK(c.messages[i] == "plain error");
    } else {
      ++sycl_errors;
    }
  }
  CHECK(sycl_errors == 2 && plain_errors == 1);
  q.throw_asynchronous();
  CHECK(c.calls == 1);
  CHECK(still_usable(q));
}

void test_later_commands_run() {
  collector c;
  sycl::queue q{c.handler()};
  int* p = sycl::malloc_shared<int>(1, q);
  *p = 0;
  sycl::event failed = q.submit([&](sycl::handler& h) {
    h.host_task([] { throw sycl::exception(sycl::make_error_code(sycl::errc::kernel), "boom"); });
  });
  // A command that depends on the failed one still runs once it is done.
  sycl::event after = q.submit([&](sycl::handler& h) {
    h.depends_on(failed);
    h.single_task([=] { *p = 7; });
  });
  after.wait();
  CHECK(*p == 7);
  // event::wait_and_throw delivers the queue's errors too.
  failed.wait_and_throw();
  CHECK(c.calls == 1 && c.messages.size() == 1 && c.messages[0] == "boom");
  CHECK(c.codes[0] == static_cast<int>(sycl::errc::kernel));
  sycl::free(p, q);

  // In-order queues too.
  collector c2;
  sycl::queue in_order{c2.handler(), sycl::property::queue::in_order{}};
  int* r = sycl::malloc_shared<int>(1, in_order);
  *r = 0;
  fail_in_host_task(in_order, "in-order failure");
  in_order.single_task([=] { *r += 1; });
  in_order.single_task([=] { *r += 1; });
  in_order.wait_and_throw();
  CHECK(*r == 2);
  CHECK(c2.messages.size() == 1 && c2.messages[0] == "in-order failure");
  sycl::free(r, in_order);
}

void test_context_handler() {
  collector c;
  sycl::device dev;
  sycl::context ctx{dev, c.handler()};
  sycl::queue q{ctx, dev}; // no handler of its own: the context's handler is used
  fail_in_host_task(q, "reported to the context");
  q.wait_and_throw();
  CHECK(c.calls == 1 && c.messages.size() == 1 && c.messages[0] == "reported to the context");

  // A queue handler takes precedence over the context's.
  collector own;
  sycl::queue q2{ctx, dev, own.handler()};
  fail_in_host_task(q2, "reported to the queue");
  q2.wait_and_throw();
  CHECK(own.calls == 1 && c.calls == 1);
}

void test_synchronous_errors() {
  collector c;
  sycl::queue q{c.handler()};
  // An exception thrown by the command group function leaves submit; nothing is enqueued.
  bool caught = false;
  try {
    q.submit([&](sycl::handler&) { throw std::logic_error("from the command group"); });
  } catch (const std::logic_error& e) {
    caught = std::strcmp(e.what(), "from the command group") == 0;
  }
  CHECK(caught);
  // A SYCL error in the command group (two kernels) is synchronous as well.
  caught = false;
  try {
    q.submit([&](sycl::handler& h) {
      h.single_task([] {});
      h.single_task([] {});
    });
  } catch (const sycl::exception& e) {
    caught = e.code() == sycl::errc::invalid;
  }
  CHECK(caught);
  q.wait_and_throw();
  CHECK(c.calls == 0); // synchronous errors never reach the async handler
  CHECK(still_usable(q));
}
} // namespace

int main() {
  test_wait_and_throw();
  test_throw_asynchronous();
  test_later_commands_run();
  test_context_handler();
  test_synchronous_errors();
  if (g_failures) {
    std::printf("queue_async_errors: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("queue_async_errors: PASSED\n");
  return 0;
}
