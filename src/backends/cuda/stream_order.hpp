// Numbering the operations of a CUDA stream in stream order without a lock (issue 16: no lock
// held across a driver call). The driver keeps a stream's operations in the order its calls
// returned; what the runtime needs is a number per operation that grows with that order, so
// that "operation n completed" answers for every lower number (runtime::native_event::
// stream_order). Each enqueue takes a ticket (`begun`) and counts itself in `finished` once its
// driver calls returned. An enqueue that found every earlier ticket finished when it began and
// no later one begun when it ended had the stream to itself: everything numbered before it
// precedes it in the stream and everything numbered after follows it, so it gets its ticket's
// number. One that overlapped another thread's enqueue gets 0 (not numbered): its event is then
// asked about on its own, never answered for by another.
#pragma once

#include <atomic>
#include <cstdint>

namespace syclone::cuda {

struct stream_tickets {
  std::atomic<std::uint64_t> begun{0}, finished{0};
};

class enqueue_window {
public:
  explicit enqueue_window(stream_tickets& t) noexcept
      : m_tickets(t), m_ticket(t.begun.fetch_add(1, std::memory_order_seq_cst)),
        m_alone(t.finished.load(std::memory_order_seq_cst) == m_ticket) {}
  ~enqueue_window() { m_tickets.finished.fetch_add(1, std::memory_order_seq_cst); }
  enqueue_window(const enqueue_window&) = delete;
  enqueue_window& operator=(const enqueue_window&) = delete;
  // Call after the operation's last driver call: its number (1, 2, ...), or 0.
  std::uint64_t order() const noexcept {
    return m_alone && m_tickets.begun.load(std::memory_order_seq_cst) == m_ticket + 1 ? m_ticket + 1
                                                                                      : 0;
  }

private:
  stream_tickets& m_tickets;
  std::uint64_t m_ticket;
  bool m_alone;
};

} // namespace syclone::cuda
