// Clocks: where the engine learns the time. Everything that reads the time
// (write times, TTL expiry, the sweeper) goes through a Clock, so tests run
// on a ManualClock and never sleep.
#pragma once

#include <atomic>
#include <cstdint>

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
// still or steps back. Thread-safe (one atomic).
class WriteTimeSource {
 public:
  explicit WriteTimeSource(const Clock* clock) : clock_(clock) {}

  // A write time greater than every earlier result of this object.
  int64_t Next();

  // Makes every later Next() exceed `write_time` (used at open, so write
  // times also increase across restarts on a clock that stepped back).
  void AdvancePast(int64_t write_time);

 private:
  const Clock* clock_;
  std::atomic<int64_t> last_{INT64_MIN};
};

}  // namespace cellfs
