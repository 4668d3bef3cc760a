// SYCL 2020 4.13. Error handling.
#pragma once

#include <sycl/detail/config.hpp>

#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

SYCLONE_BEGIN_NAMESPACE

class context;

// SYCL 2020 4.13.2. Exception class interface.
enum class errc {
  success = 0,
  runtime,
  kernel,
  accessor,
  nd_range,
  event,
  kernel_argument,
  build,
  invalid,
  memory_allocation,
  platform,
  profiling,
  feature_not_supported,
  kernel_not_supported,
  backend_mismatch,
};

SYCLONE_EXPORT const std::error_category& sycl_category() noexcept;

inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), sycl_category()};
}

class SYCLONE_EXPORT exception : public virtual std::exception {
public:
  exception(std::error_code ec, const std::string& what_arg);
  exception(std::error_code ec, const char* what_arg);
  exception(std::error_code ec);
  exception(int ev, const std::error_category& ecat, const std::string& what_arg);
  exception(int ev, const std::error_category& ecat, const char* what_arg);
  exception(int ev, const std::error_category& ecat);

  exception(context ctx, std::error_code ec, const std::string& what_arg);
  exception(context ctx, std::error_code ec, const char* what_arg);
  exception(context ctx, std::error_code ec);
  exception(context ctx, int ev, const std::error_category& ecat, const std::string& what_arg);
  exception(context ctx, int ev, const std::error_category& ecat, const char* what_arg);
  exception(context ctx, int ev, const std::error_category& ecat);

  exception(const exception&) = default;
  exception& operator=(const exception&) = default;
  ~exception() override;

  const std::error_code& code() const noexcept { return m_code; }
  const std::error_category& category() const noexcept { return m_code.category(); }
  const char* what() const noexcept override;
  bool has_context() const noexcept;
  context get_context() const;

private:
  std::error_code m_code;
  std::shared_ptr<std::string> m_what;
  std::shared_ptr<context> m_context;
};

// SYCL 2020 4.13.2. exception_list: what an async_handler receives.
class SYCLONE_EXPORT exception_list {
public:
  using value_type = std::exception_ptr;
  using reference = value_type&;
  using const_reference = const value_type&;
  using size_type = std::size_t;
  using iterator = std::vector<std::exception_ptr>::const_iterator;
  using const_iterator = std::vector<std::exception_ptr>::const_iterator;

  exception_list() = default;
  explicit exception_list(std::vector<std::exception_ptr> list) : m_list(std::move(list)) {}

  size_type size() const { return m_list.size(); }
  iterator begin() const { return m_list.begin(); }
  iterator end() const { return m_list.end(); }

private:
  std::vector<std::exception_ptr> m_list;
};

using async_handler = std::function<void(sycl::exception_list)>;

namespace detail {
// Throws sycl::exception(errc, message); out of line so headers stay small.
[[noreturn]] SYCLONE_EXPORT void throw_error(errc code, const std::string& message);
} // namespace detail

SYCLONE_END_NAMESPACE

namespace std {
template <>
struct is_error_code_enum<sycl::errc> : true_type {};
} // namespace std
