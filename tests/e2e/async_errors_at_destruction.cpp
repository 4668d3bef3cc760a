// SYCL 2020 4.13.1 (issue 11): asynchronous errors that nobody consumed with wait_and_throw or
// throw_asynchronous are not lost: they reach the queue's async_handler (else the context's) when
// the queue is destroyed, and without any handler they are printed and the program terminates
// (4.13.1.2's default handler).
#include <sycl/sycl.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
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

std::vector<std::string> g_seen;
void collect(sycl::exception_list list) {
  for (const std::exception_ptr& e : list) {
    try {
      std::rethrow_exception(e);
    } catch (const sycl::exception& ex) {
      g_seen.push_back(ex.what());
    }
  }
}

sycl::event fail_in_host_task(sycl::queue& q, const std::string& message) {
  return q.submit([&](sycl::handler& h) {
    h.host_task(
        [message] { throw sycl::exception(sycl::make_error_code(sycl::errc::runtime), message); });
  });
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--without-handler") {
    {
      sycl::queue q;
      fail_in_host_task(q, "nobody handles this").wait();
    }
    std::printf("reached the end\n"); // not reached: the default handler terminates
    return 0;
  }
  // The queue's handler, called when the queue goes (event::wait does not consume errors).
  {
    sycl::queue q{sycl::default_selector_v, collect};
    fail_in_host_task(q, "first unconsumed").wait();
    fail_in_host_task(q, "second unconsumed");
    q.wait();
    CHECK(g_seen.empty());
  }
  CHECK(g_seen.size() == 2);
  CHECK(g_seen.size() == 2 && g_seen[0].find("first unconsumed") != std::string::npos);

  // Errors already consumed are not delivered twice.
  g_seen.clear();
  {
    sycl::queue q{sycl::default_selector_v, collect};
    fail_in_host_task(q, "consumed");
    q.wait_and_throw();
    CHECK(g_seen.size() == 1);
  }
  CHECK(g_seen.size() == 1);

  // The context's handler where the queue has none.
  g_seen.clear();
  {
    sycl::device dev{sycl::default_selector_v};
    sycl::context ctx{dev, collect};
    sycl::queue q{ctx, dev};
    fail_in_host_task(q, "through the context").wait();
  }
  CHECK(g_seen.size() == 1 && g_seen.front().find("through the context") != std::string::npos);

  // No handler at all: printed, then the program terminates (in a child process: this program
  // again, started fresh).
  char self[4096] = {};
  CHECK(readlink("/proc/self/exe", self, sizeof self - 1) > 0);
  std::string command = "'" + std::string(self) + "' --without-handler 2>&1";
  FILE* child = popen(command.c_str(), "r");
  CHECK(child != nullptr);
  std::string output;
  char chunk[1024];
  while (child && !std::feof(child))
    if (std::size_t n = std::fread(chunk, 1, sizeof chunk, child)) output.append(chunk, n);
  int status = child ? pclose(child) : 0;
  const bool aborted = (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT) ||
                       (WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGABRT);
  CHECK(aborted);
  CHECK(output.find("nobody handles this") != std::string::npos);
  CHECK(output.find("reached the end") == std::string::npos);
  if (g_failures) {
    std::printf("child's output:\n%s\n", output.c_str());
    return 1;
  }
  std::printf("async_errors_at_destruction: ok\n");
  return 0;
}
