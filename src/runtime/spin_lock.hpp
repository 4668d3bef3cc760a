// A lock for critical sections of a few instructions that never block (a free list's push or
// pop): uncontended it costs one atomic exchange where std::mutex costs a library call each way
// (issue 16: the submit path takes several). A waiter spins briefly, then yields its core, so a
// holder preempted mid-section costs the waiter time, never a hang.
#pragma once

#include <atomic>
#include <thread>

namespace syclone::runtime {

class spin_lock {
public:
  void lock() noexcept {
    for (int spins = 0; m_locked.exchange(true, std::memory_order_acquire);) {
      while (m_locked.load(std::memory_order_relaxed)) {
        if (++spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
          __builtin_ia32_pause();
#endif
        } else {
          std::this_thread::yield();
        }
      }
    }
  }
  bool try_lock() noexcept { return !m_locked.exchange(true, std::memory_order_acquire); }
  void unlock() noexcept { m_locked.store(false, std::memory_order_release); }

private:
  std::atomic<bool> m_locked{false};
};

} // namespace syclone::runtime
