// The system clock and strictly increasing write times.
#include "engine/store/clock.h"

#include <time.h>

#include <algorithm>
#include <utility>

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

void WriteTimeSource::SetLease(int64_t window_micros, LeaseWriter write_lease) {
  window_ = window_micros;
  write_lease_ = std::move(write_lease);
  leased_.store(INT64_MIN, std::memory_order_release);  // the first Next() leases
}

Status WriteTimeSource::Next(int64_t* write_time) {
  const int64_t now = clock_->NowMicros();
  int64_t last = last_.load(std::memory_order_relaxed);
  int64_t next = 0;
  do {
    next = now > last ? now : last + 1;
  } while (!last_.compare_exchange_weak(last, next, std::memory_order_acq_rel));
  // A time at or past the lease is never handed out before a lease covers it;
  // if that fails, it is skipped (it stays in last_, so it is never reused).
  if (next >= leased_.load(std::memory_order_acquire)) CELLFS_RETURN_IF_ERROR(Extend(next));
  *write_time = next;
  return Status::Ok();
}

Status WriteTimeSource::Extend(int64_t write_time) {
  std::lock_guard lock(lease_mutex_);
  if (write_time < leased_.load(std::memory_order_relaxed)) return Status::Ok();  // done meanwhile
  if (!write_lease_) return Status::Ok();  // no lease: leased_ is INT64_MAX
  const int64_t base = std::max(clock_->NowMicros(), write_time);
  const int64_t bound = base > INT64_MAX - window_ ? INT64_MAX : base + window_;
  CELLFS_RETURN_IF_ERROR(write_lease_(bound));
  leased_.store(bound, std::memory_order_release);
  return Status::Ok();
}

void WriteTimeSource::AdvancePast(int64_t write_time) {
  int64_t last = last_.load(std::memory_order_relaxed);
  while (last < write_time &&
         !last_.compare_exchange_weak(last, write_time, std::memory_order_acq_rel)) {
  }
}

int64_t WriteTimeSource::Bound() const {
  const int64_t last = last_.load(std::memory_order_acquire);
  return last == INT64_MAX ? last : last + 1;
}

}  // namespace cellfs
