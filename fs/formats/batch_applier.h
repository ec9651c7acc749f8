// BatchApplier: applies mutations to the engine on one long-lived thread of
// its own, one at a time, so that a bulk load parses its next batch while
// the last one is stored, without starting a thread per batch.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "engine/engine.h"
#include "engine/status.h"

namespace cellfs::fs {

// At most one batch in flight. Thread-compatible: one caller drives it
// (Start, Wait); the applying thread is internal. The thread starts with
// the first batch and ends with the applier.
class BatchApplier {
 public:
  // `engine` must outlive the applier.
  explicit BatchApplier(Engine* engine);
  // Waits for the batch in flight, then stops the thread.
  ~BatchApplier();
  BatchApplier(const BatchApplier&) = delete;
  BatchApplier& operator=(const BatchApplier&) = delete;

  // Starts applying `batch` (Engine::Apply) and returns at once.
  // REQUIRES: !busy() (Wait() was called since the last Start).
  void Start(Mutation&& batch);

  // Waits for the batch in flight and returns what Apply returned; Ok when
  // none is in flight. Afterwards !busy().
  Status Wait();

  // Whether a batch was started and not yet waited for.
  bool busy() const { return started_; }

  // The applying thread's name (/proc/PID/task/TID/comm, top -H, gdb).
  static constexpr const char* kThreadName = "cellfs-apply";

 private:
  void Run();  // the thread: applies each batch handed over

  Engine* const engine_;
  bool started_ = false;  // caller's side: Start without its Wait yet
  std::thread thread_;

  std::mutex mutex_;  // guards everything below
  std::condition_variable changed_;
  std::optional<Mutation> batch_;  // handed over, not yet taken
  bool applying_ = false;          // taken and being applied
  Status result_;                  // of the last batch applied
  bool stopping_ = false;
};

}  // namespace cellfs::fs
