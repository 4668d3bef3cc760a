// SYCL 2020 4.13 error handling: sycl::exception constructors, code()/category()/what(),
// the "sycl" error category and its messages for every errc, errc as a std::error_code enum,
// contexts attached to exceptions, and exception_list iteration in an async handler.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

namespace {
int g_failures = 0;
void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::printf("FAILED line %d: %s\n", line, what);
  ++g_failures;
}
#define CHECK(c) check((c), #c, __LINE__)

void test_category() {
  const std::error_category& cat = sycl::sycl_category();
  CHECK(std::strcmp(cat.name(), "sycl") == 0);
  CHECK(&cat == &sycl::sycl_category());
  static_assert(std::is_error_code_enum_v<sycl::errc>);
  std::error_code ec = sycl::errc::nd_range; // implicit, through make_error_code
  CHECK(ec.category() == cat && ec.value() == static_cast<int>(sycl::errc::nd_range));
  CHECK(ec == sycl::errc::nd_range && ec != sycl::errc::invalid);
  CHECK(sycl::make_error_code(sycl::errc::success).value() == 0);
  CHECK(!sycl::make_error_code(sycl::errc::success) == true);

  // Every code has its own non-empty message.
  const sycl::errc all[] = {sycl::errc::success,
                            sycl::errc::runtime,
                            sycl::errc::kernel,
                            sycl::errc::accessor,
                            sycl::errc::nd_range,
                            sycl::errc::event,
                            sycl::errc::kernel_argument,
                            sycl::errc::build,
                            sycl::errc::invalid,
                            sycl::errc::memory_allocation,
                            sycl::errc::platform,
                            sycl::errc::profiling,
                            sycl::errc::feature_not_supported,
                            sycl::errc::kernel_not_supported,
                            sycl::errc::backend_mismatch};
  std::set<std::string> messages;
  for (sycl::errc e : all) {
    std::string m = sycl::make_error_code(e).message();
    CHECK(!m.empty());
    messages.insert(m);
  }
  CHECK(messages.size() == sizeof(all) / sizeof(all[0]));
  CHECK(!cat.message(9999).empty());
}

void test_exception_object() {
  sycl::exception e1(sycl::make_error_code(sycl::errc::invalid), "bad argument");
  CHECK(e1.code() == sycl::errc::invalid);
  CHECK(e1.category() == sycl::sycl_category());
  CHECK(std::strcmp(e1.what(), "bad argument") == 0);
  CHECK(!e1.has_context());

  sycl::exception e2(sycl::errc::runtime, std::string("from a string"));
  CHECK(e2.code() == sycl::errc::runtime && std::string(e2.what()) == "from a string");
  sycl::exception e3(sycl::errc::kernel);
  CHECK(e3.code() == sycl::errc::kernel);
  CHECK(std::string(e3.what()) == sycl::make_error_code(sycl::errc::kernel).message());
  sycl::exception e4(static_cast<int>(sycl::errc::build), sycl::sycl_category(), "build failed");
  CHECK(e4.code() == sycl::errc::build && std::string(e4.what()) == "build failed");
  sycl::exception e5(static_cast<int>(sycl::errc::event), sycl::sycl_category());
  CHECK(e5.code() == sycl::errc::event);
  // A code of another category.
  sycl::exception e6(std::make_error_code(std::errc::invalid_argument), "posix");
  CHECK(e6.code() == std::errc::invalid_argument && e6.category() != sycl::sycl_category());

  // Copies share the message; an exception is a std::exception.
  sycl::exception copy = e1;
  CHECK(copy.code() == e1.code() && std::strcmp(copy.what(), e1.what()) == 0);
  static_assert(std::is_base_of_v<std::exception, sycl::exception>);
  try {
    throw e1;
  } catch (const std::exception& e) {
    CHECK(std::strcmp(e.what(), "bad argument") == 0);
  }

  // Contexts.
  sycl::context ctx;
  sycl::exception with_ctx(ctx, sycl::make_error_code(sycl::errc::platform), "platform");
  CHECK(with_ctx.has_context() && with_ctx.get_context() == ctx);
  CHECK(with_ctx.code() == sycl::errc::platform);
  sycl::exception ctx2(ctx, static_cast<int>(sycl::errc::accessor), sycl::sycl_category());
  CHECK(ctx2.has_context() && ctx2.code() == sycl::errc::accessor);
  try {
    (void)e1.get_context();
    CHECK(!"get_context without a context did not throw");
  } catch (const sycl::exception& e) {
    CHECK(e.code() == sycl::errc::invalid);
  }
}

void test_runtime_errors_carry_codes() {
  // Errors thrown by the runtime are sycl::exceptions with codes and explanatory messages.
  sycl::queue q;
  try {
    q.parallel_for(sycl::nd_range<1>(sycl::range<1>(10), sycl::range<1>(3)),
                   [](sycl::nd_item<1>) {});
    CHECK(!"no exception");
  } catch (const sycl::exception& e) {
    CHECK(e.code() == sycl::errc::nd_range);
    CHECK(e.category() == sycl::sycl_category());
    CHECK(std::strstr(e.what(), "10") && std::strstr(e.what(), "3"));
  }
}

void test_exception_list() {
  std::vector<std::string> seen;
  std::size_t reported_size = 0;
  sycl::queue q{[&](sycl::exception_list list) {
    reported_size = list.size();
    for (sycl::exception_list::const_iterator it = list.begin(); it != list.end(); ++it) {
      try {
        std::rethrow_exception(*it);
      } catch (const sycl::exception& e) {
        seen.push_back(std::string("sycl:") + e.what());
      } catch (const std::exception& e) {
        seen.push_back(std::string("std:") + e.what());
      }
    }
  }};
  sycl::event a = q.submit([&](sycl::handler& h) {
    h.host_task([] { throw sycl::exception(sycl::errc::kernel, "first"); });
  });
  sycl::event b =
      q.submit([&](sycl::handler& h) { h.host_task([] { throw std::out_of_range("second"); }); });
  sycl::event::wait({a, b});
  q.throw_asynchronous();
  CHECK(reported_size == 2);
  std::set<std::string> got(seen.begin(), seen.end());
  CHECK((got == std::set<std::string>{"sycl:first", "std:second"}));
  // An empty list.
  sycl::exception_list empty;
  CHECK(empty.size() == 0 && empty.begin() == empty.end());
}
} // namespace

int main() {
  test_category();
  test_exception_object();
  test_runtime_errors_carry_codes();
  test_exception_list();
  if (g_failures) {
    std::printf("exceptions: %d failure(s)\n", g_failures);
    return 1;
  }
  std::printf("exceptions: PASSED\n");
  return 0;
}
