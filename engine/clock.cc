// The system clock and strictly increasing write times.
#include "engine/clock.h"

#include <time.h>

namespace cellfs {
namespace {

class RealClock final : public Clock {
 public:
  int64_t NowMicros() const override {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1'000'000 + ts.tv_nsec / 1000;
  }
};

}  // namespace

Clock* SystemClock() {
  static RealClock* clock = new RealClock();
  return clock;
}

int64_t WriteTimeSource::Next() {
  int64_t now = clock_->NowMicros();
  int64_t last = last_.load(std::memory_order_relaxed);
  for (;;) {
    int64_t next = now > last ? now : last + 1;
    if (last_.compare_exchange_weak(last, next, std::memory_order_acq_rel)) return next;
  }
}

void WriteTimeSource::AdvancePast(int64_t write_time) {
  int64_t last = last_.load(std::memory_order_relaxed);
  while (last < write_time &&
         !last_.compare_exchange_weak(last, write_time, std::memory_order_acq_rel)) {
  }
}

}  // namespace cellfs
