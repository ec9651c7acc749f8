// The sweeper's thread: a sweep every interval, errors logged once each.
#include "engine/store/internal/sweeper_thread.h"

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
    {
      std::lock_guard sweep(core_->sweep_mutex);
      status = SweepOnce(core_, core_->clock->NowMicros(), nullptr);
    }
    if (!status.ok() && reported.size() < kMaxReportedErrors &&
        reported.insert(status.ToString()).second) {
      std::fprintf(stderr, "cellfs: sweeper: %s\n", status.ToString().c_str());
    }
    lock.lock();
  }
}

}  // namespace cellfs::storage
