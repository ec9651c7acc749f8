// BuildRunner: runs the builds of new indexes and views over the rows
// written before them. A bounded part runs inside the statement that
// created them (and inside Open), so a small table's index is built when
// CREATE INDEX returns; the rest runs on a background thread of its own,
// partition by partition, while reads through the index or view are
// refused as "not yet available" (docs/ENGINE.md "Index builds").
//
// Where a build is lives in memory only: a build the close or a crash
// interrupted starts over at the next open.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/status.h"
#include "engine/store/build_progress.h"
#include "engine/store/internal/build_scan.h"
#include "engine/store/internal/pending_builds.h"

namespace cellfs {

struct EngineCore;

namespace storage {

// Thread-safe. Lock order: core->ddl_mutex, then this object's lock, then
// core->schema_mutex.
class BuildRunner {
 public:
  // Rows a part of an unbounded run reads at one snapshot.
  static constexpr uint64_t kPartRows = 50'000;

  // Runs `write` as a schema change runs: holding core->ddl_mutex and, on
  // a shared store, the store's "ddl" lease, over the schema as stored
  // (another mount may have changed it since this one last looked).
  using DdlSection = std::function<Status(const std::function<Status()>& write)>;

  // Starts the builder thread when `background` (it waits for Wake()). A
  // finished build is marked built inside `section`, unless the caller
  // already holds what it takes (RunInline).
  BuildRunner(EngineCore* core, bool background, DdlSection section);
  // Stops the thread: a build it runs stops at the next partition.
  ~BuildRunner();
  BuildRunner(const BuildRunner&) = delete;
  BuildRunner& operator=(const BuildRunner&) = delete;

  // Runs pending builds (those in `only`, when given) on the calling
  // thread, one after the other, until about `rows` rows were read in all
  // (a build stops at a partition boundary), skipping any the builder
  // thread is running; marks each one finished built. The first failure,
  // after the rest were tried (each failure is also logged and kept for
  // Progress). REQUIRES: the caller is inside the DdlSection (holds
  // core->ddl_mutex, and on a shared store the lease); rows > 0.
  Status RunInline(uint64_t rows, const std::vector<BuildTarget>* only);

  // Keeps `targets` (builds a statement is about to make pending) from the
  // builder thread until RunInline runs them or Unreserve gives them up, so
  // the statement that creates a build runs its inline part itself.
  void Reserve(const std::vector<BuildTarget>& targets);
  void Unreserve(const std::vector<BuildTarget>& targets);

  // Tells the builder thread to run what is pending. A build that failed
  // is tried again.
  void Wake();

  // Returns once no index or view of the current schema is pending: Ok, or
  // the failure of a build that stopped. Without the thread, runs the
  // builds here (inside the DdlSection). Must not overlap the
  // destructor.
  Status AwaitAll();

  // The pending builds of the current schema and how far each has got.
  std::vector<BuildProgress> Progress() const;

 private:
  struct State {
    BuildCursor cursor;
    bool running = false;   // claimed by a thread
    bool reserved = false;  // claimed for a statement's inline part (Reserve)
    Status error;           // why it stopped; Ok when it may run
  };

  void Loop();
  // Runs claimable builds (of `only`, when given) until none is left,
  // `rows` rows were read (0: no bound, in parts of kPartRows) or the
  // thread stops. `ddl_held`: the caller holds ddl_mutex.
  Status RunClaimable(uint64_t rows, bool ddl_held, const std::vector<BuildTarget>* only);
  // A pending target (of `only`, when given) no thread runs and no failure
  // stopped, claimed; with `only`, also one reserved for the caller.
  bool Claim(const std::vector<BuildTarget>* only, BuildTarget* target, BuildCursor* cursor);
  // Gives the claim back with the build's outcome.
  void Release(const BuildTarget& target, const BuildCursor& cursor, const Status& status);

  EngineCore* core_;
  const DdlSection section_;
  mutable std::mutex mutex_;  // guards everything below
  std::condition_variable changed_;
  std::map<BuildTarget, State> states_;
  bool woken_ = false;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace storage
}  // namespace cellfs
