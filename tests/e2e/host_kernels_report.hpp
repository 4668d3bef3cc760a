// The host device's report of kernels that run on fibers (SYCLONE_HOST_KERNELS=report, written to
// stderr), captured in a temporary file, for e2e programs that check which of their kernels the
// work-item loop compiler could not compile (issue 29).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

class host_kernels_report {
public:
  // capture: the program runs in the default mode; then it runs in report mode and stderr goes
  // to the file until text().
  explicit host_kernels_report(bool capture) {
    if (!capture) return;
    setenv("SYCLONE_HOST_KERNELS", "report", 1);
    m_fd = mkstemp(m_path);
    m_redirected = m_fd >= 0 && std::freopen(m_path, "w", stderr) != nullptr;
  }
  host_kernels_report(const host_kernels_report&) = delete;
  host_kernels_report& operator=(const host_kernels_report&) = delete;
  ~host_kernels_report() {
    if (m_fd >= 0) {
      close(m_fd);
      std::remove(m_path);
    }
  }

  bool capturing() const { return m_fd >= 0; }
  // Whether stderr went to the file (false where the capture could not start).
  bool redirected() const { return m_redirected; }
  // After the program's kernels ran in report mode: whether none ran on fibers (true where the
  // report was not captured, and in sanitized builds, whose instrumented host code can keep a
  // kernel on fibers: their results are checked all the same). Prints the report when it is not,
  // or when `failed` (the program's other checks failed).
  bool none_on_fibers(bool failed) const {
    if (!capturing()) return true;
    std::string all = text();
    bool none = true;
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    none = all.find("as fibers") == std::string::npos;
#endif
    if (failed || !none) std::printf("report was:\n%s\n", all.c_str());
    return none;
  }

  // Everything reported so far.
  std::string text() const {
    std::fflush(stderr);
    std::string text;
    std::FILE* f = std::fopen(m_path, "r");
    for (int c; f && (c = std::fgetc(f)) != EOF;) text += char(c);
    if (f) std::fclose(f);
    return text;
  }

private:
  char m_path[40] = "/tmp/syclone-host-kernels-report-XXXXXX";
  int m_fd = -1;
  bool m_redirected = false;
};
