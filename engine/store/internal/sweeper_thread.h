// SweeperThread: the background thread that runs the sweeper on a timer.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine/store/internal/engine_core.h"

namespace cellfs::storage {

// Runs SweepOnce every interval on a thread of its own until destroyed.
class SweeperThread {
 public:
  // Sweeps under core->sweep_mutex, at core->clock's now.
  SweeperThread(EngineCore* core, int interval_ms);
  ~SweeperThread();  // stops and joins
  SweeperThread(const SweeperThread&) = delete;
  SweeperThread& operator=(const SweeperThread&) = delete;

 private:
  void Loop();

  EngineCore* core_;
  const int interval_ms_;
  std::mutex mutex_;  // guards stopping_
  std::condition_variable stop_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cellfs::storage
