// SYCL 2020 4.13. sycl::exception, the SYCL error category and the runtime's throw helper.
#include <sycl/context.hpp>
#include <sycl/exception.hpp>

#include <string>

SYCLONE_BEGIN_NAMESPACE

namespace {
class sycl_error_category final : public std::error_category {
public:
  const char* name() const noexcept override { return "sycl"; }
  std::string message(int ev) const override {
    switch (static_cast<errc>(ev)) {
    case errc::success:
      return "success";
    case errc::runtime:
      return "runtime error";
    case errc::kernel:
      return "kernel error";
    case errc::accessor:
      return "accessor error";
    case errc::nd_range:
      return "invalid nd_range";
    case errc::event:
      return "event error";
    case errc::kernel_argument:
      return "invalid kernel argument";
    case errc::build:
      return "build error";
    case errc::invalid:
      return "invalid argument or state";
    case errc::memory_allocation:
      return "memory allocation failure";
    case errc::platform:
      return "platform error";
    case errc::profiling:
      return "profiling error";
    case errc::feature_not_supported:
      return "feature not supported";
    case errc::kernel_not_supported:
      return "kernel not supported";
    case errc::backend_mismatch:
      return "backend mismatch";
    }
    return "unknown SYCL error " + std::to_string(ev);
  }
};
} // namespace

const std::error_category& sycl_category() noexcept {
  static const sycl_error_category category;
  return category;
}

exception::exception(std::error_code ec, const std::string& what_arg)
    : m_code(ec), m_what(std::make_shared<std::string>(what_arg)) {}
exception::exception(std::error_code ec, const char* what_arg)
    : exception(ec, std::string(what_arg)) {}
exception::exception(std::error_code ec) : exception(ec, ec.message()) {}
exception::exception(int ev, const std::error_category& ecat, const std::string& what_arg)
    : exception(std::error_code(ev, ecat), what_arg) {}
exception::exception(int ev, const std::error_category& ecat, const char* what_arg)
    : exception(std::error_code(ev, ecat), what_arg) {}
exception::exception(int ev, const std::error_category& ecat)
    : exception(std::error_code(ev, ecat)) {}
exception::exception(context ctx, std::error_code ec, const std::string& what_arg)
    : exception(ec, what_arg) {
  m_context = std::make_shared<context>(std::move(ctx));
}
exception::exception(context ctx, std::error_code ec, const char* what_arg)
    : exception(std::move(ctx), ec, std::string(what_arg)) {}
exception::exception(context ctx, std::error_code ec)
    : exception(std::move(ctx), ec, ec.message()) {}
exception::exception(context ctx, int ev, const std::error_category& ecat,
                     const std::string& what_arg)
    : exception(std::move(ctx), std::error_code(ev, ecat), what_arg) {}
exception::exception(context ctx, int ev, const std::error_category& ecat, const char* what_arg)
    : exception(std::move(ctx), std::error_code(ev, ecat), what_arg) {}
exception::exception(context ctx, int ev, const std::error_category& ecat)
    : exception(std::move(ctx), std::error_code(ev, ecat)) {}
exception::~exception() = default;

const char* exception::what() const noexcept {
  return m_what ? m_what->c_str() : "";
}
bool exception::has_context() const noexcept {
  return m_context != nullptr;
}
context exception::get_context() const {
  if (!m_context)
    throw exception(make_error_code(errc::invalid),
                    "exception::get_context: this exception has no context; check has_context()");
  return *m_context;
}

namespace detail {
void throw_error(errc code, const std::string& message) {
  throw exception(make_error_code(code), message);
}
} // namespace detail

SYCLONE_END_NAMESPACE
