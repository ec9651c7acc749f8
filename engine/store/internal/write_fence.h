// WriteFence: once a write to storage fails, every later write is refused
// with that failure until the engine is reopened.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <utility>

#include "engine/status.h"

namespace cellfs::storage {

// Why: after a failed append (a full or read-only device) LevelDB's log may
// end in a torn record. Writes acknowledged after it would sit behind that
// record, and recovery drops the rest of a damaged log block, so they could
// be lost. Refusing everything after the first failure keeps "acknowledged"
// meaning "survives" (Cassandra's disk_failure_policy: stop, for writes).
// Reads are unaffected. Reopening the engine (remounting) recovers: LevelDB
// replays the log up to the torn record, which held nothing acknowledged.
// A backend without such a log does not latch (SetLatching).
//
// Thread-safe.
class WriteFence {
 public:
  // `on_failure` (may be empty) runs once, outside the fence's lock, when
  // the first failure closes it. Call before any write.
  void SetListener(std::function<void(const Status&)> on_failure) {
    on_failure_ = std::move(on_failure);
  }

  // Ok while no write has failed; otherwise the first failure, its message
  // prefixed with "writes are refused after a storage failure".
  Status Check() const {
    if (!failed_.load(std::memory_order_acquire)) return Status::Ok();
    std::lock_guard lock(mutex_);
    return failure_;
  }

  // For a backend where a failed commit leaves nothing torn (RADOS: each
  // object's operation applies whole or not at all, and what spans objects
  // is logged first), so that later writes may succeed once the cause is
  // gone: failures are returned but close nothing. Call before any write.
  void SetLatching(bool latching) { latching_ = latching; }

  // Returns `result` unchanged; a failed write closes the fence for good
  // (unless SetLatching(false)).
  // Every failure counts, NotFound too: a LevelDB write reports it only when
  // a store file vanished under it (the data directory removed).
  Status Record(Status result) {
    if (result.ok() || !latching_) return result;
    bool first = false;
    {
      std::lock_guard lock(mutex_);
      if (!failed_.load(std::memory_order_relaxed)) {
        first = true;
        failure_ = Status(result.code(),
                          "writes are refused after a storage failure (remount "
                          "to recover once the cause is fixed): " +
                              result.message());
        failed_.store(true, std::memory_order_release);
      }
    }
    if (first && on_failure_) on_failure_(Check());
    return result;
  }

 private:
  std::atomic<bool> failed_{false};
  bool latching_ = true;                           // set before any write
  std::function<void(const Status&)> on_failure_;  // set before any write
  mutable std::mutex mutex_;                       // guards failure_ (a leaf lock)
  Status failure_;
};

}  // namespace cellfs::storage
