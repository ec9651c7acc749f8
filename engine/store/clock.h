// Clocks: where the engine learns the time. Everything that reads the time
// (write times, TTL expiry, the sweeper) goes through a Clock, so tests run
// on a ManualClock and never sleep.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>

#include "engine/status.h"

namespace cellfs {

// A source of wall-clock time in microseconds since the epoch.
// Implementations are thread-safe.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t NowMicros() const = 0;
};

// The real clock (CLOCK_REALTIME). A process-wide instance; never deleted.
Clock* SystemClock();

// A clock that moves only when told to. Thread-safe.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t now_micros = 1'700'000'000'000'000) : now_(now_micros) {}
  int64_t NowMicros() const override { return now_.load(std::memory_order_acquire); }
  void Set(int64_t now_micros) { now_.store(now_micros, std::memory_order_release); }
  void AdvanceMicros(int64_t delta) { now_.fetch_add(delta, std::memory_order_acq_rel); }
  void AdvanceSeconds(int64_t seconds) { AdvanceMicros(seconds * 1'000'000); }

 private:
  std::atomic<int64_t> now_;
};

// Server-assigned write times: the clock's microseconds, but strictly
// greater than every time handed out before, even when the clock stands
// still or steps back. With a lease (SetLease) also across a crash: every
// time handed out is below a bound stored durably ahead of the clock, from
// which the next process starts.
//
// Thread-safe. Next() is one compare-and-swap and one atomic load, plus one
// lease write per lease window (lease writes are serialised by lease_mutex_,
// held across the lease writer: with the engine's writer a synced LevelDB
// write, inside which only the write fence's lock is taken).
class WriteTimeSource {
 public:
  // Durably records that every write time handed out from now on is below
  // `bound`; the failure of that write otherwise.
  using LeaseWriter = std::function<Status(int64_t bound)>;

  explicit WriteTimeSource(const Clock* clock) : clock_(clock) {}

  // From now on Next() hands out only times below a bound `write_lease`
  // stored: when a time would reach it, Next() first stores
  // max(clock, time) + `window_micros`. REQUIRES: window_micros > 0; called
  // at most once, before Next().
  void SetLease(int64_t window_micros, LeaseWriter write_lease);

  // A write time greater than every earlier result of this object. With a
  // lease, the failure of a lease write it needed (no time is then handed
  // out, and *write_time is unchanged).
  [[nodiscard]] Status Next(int64_t* write_time);

  // Makes every later Next() exceed `write_time` (used at open, so write
  // times also increase across restarts on a clock that stepped back).
  void AdvancePast(int64_t write_time);

  // The least bound above every time handed out so far: what a clean close
  // stores, so that the next open starts at the clock, not at the lease's end.
  int64_t Bound() const;

 private:
  Status Extend(int64_t write_time);  // a lease covering `write_time`

  const Clock* clock_;
  std::atomic<int64_t> last_{INT64_MIN};
  std::atomic<int64_t> leased_{INT64_MAX};  // times below this are covered
  int64_t window_ = 0;
  LeaseWriter write_lease_;  // set before any Next()
  std::mutex lease_mutex_;   // serialises Extend
};

}  // namespace cellfs
