// The sweeper's thread: a sweep every interval, errors logged once each.
#include "engine/store/internal/sweeper_thread.h"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>

#include "engine/store/internal/sweeper.h"

namespace cellfs::storage {
namespace {

// Bounds the memory spent remembering which errors were already logged.
constexpr size_t kMaxReportedErrors = 64;
// Entries a sweep read or deleted after which the heap is trimmed.
constexpr uint64_t kTrimAfterEntries = 10000;

}  // namespace

SweeperThread::SweeperThread(EngineCore* core, int interval_ms)
    : core_(core), interval_ms_(std::max(interval_ms, 1)), thread_([this] { Loop(); }) {}

SweeperThread::~SweeperThread() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_all();
  thread_.join();
}

void SweeperThread::Loop() {
  std::set<std::string> reported;  // each distinct error is logged once
  std::unique_lock lock(mutex_);
  while (!stop_.wait_for(lock, std::chrono::milliseconds(interval_ms_),
                         [this] { return stopping_; })) {
    lock.unlock();
    Status status;
    SweepStats stats;
    // Several mounts of a shared store sweep at once, each what it holds
    // the leases of (sweeper.h).
    {
      std::lock_guard sweep(core_->sweep_mutex);
      status = SweepOnce(core_, core_->clock->NowMicros(), &stats);
    }
    // A big sweep (a mass expiry, a bury pass, a dropped table's reclaim)
    // and the load before it leave glibc's heap holding what they freed:
    // give it back, or the daemon keeps its peak (141 MB after 1M rows
    // expired, 43 MB after the trim).
    if (stats.entries_read + stats.entries_deleted >= kTrimAfterEntries) malloc_trim(0);
    if (!status.ok() && reported.size() < kMaxReportedErrors &&
        reported.insert(status.ToString()).second) {
      std::fprintf(stderr, "cellfs: sweeper: %s\n", status.ToString().c_str());
    }
    lock.lock();
  }
}

}  // namespace cellfs::storage
