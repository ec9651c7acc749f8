// EngineOptions: how an Engine opens its store, keeps time, and makes writes
// durable. Few knobs, each one a user needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "engine/status.h"
#include "engine/store/clock.h"

namespace leveldb {
class Env;
}

namespace cellfs {

// When an acknowledged write becomes durable against an OS crash, after
// Cassandra's commitlog_sync. In every mode an acknowledged write is in the
// OS (the LevelDB log is written through on every write), so a crash of the
// process alone loses nothing.
enum class CommitMode : uint8_t {
  kPeriodic,  // acknowledge at once; the log is synced every period_ms
  kGroup,     // acknowledge after the next group sync (one every window_ms)
  kBatch,     // acknowledge after a sync of the write itself
};

struct EngineOptions {
  // File system access; nullptr = the store's directory reached only
  // through a descriptor (storage::DirectoryEnv: every file opened relative
  // to it, never following a symbolic link). Tests pass leveldb::NewMemEnv
  // or a fault-injecting Env. Not owned.
  leveldb::Env* env = nullptr;
  // With env == nullptr: a directory descriptor the store is reached
  // through, so that the directory checked is the one written, whatever
  // later happens to its path. The engine dups it; the caller keeps its
  // own. -1 = open `path` (O_DIRECTORY | O_NOFOLLOW) at Engine::Open,
  // creating it when create_if_missing.
  int data_dir_fd = -1;
  // The time; nullptr = SystemClock(). Not owned.
  const Clock* clock = nullptr;

  CommitMode commit_mode = CommitMode::kPeriodic;
  int commit_period_ms = 10'000;  // kPeriodic: Cassandra's default 10 s
  int group_window_ms = 15;       // kGroup: Cassandra's default 15 ms

  bool create_if_missing = true;
  bool read_only = false;

  size_t block_cache_bytes = 64u << 20;
  size_t write_buffer_bytes = 32u << 20;
  int bloom_bits_per_key = 10;

  // Runs the TTL sweeper on a background thread every sweep_interval_ms.
  // Tests turn it off and call Engine::Sweep with a ManualClock.
  bool background_sweeper = true;
  int sweep_interval_ms = 1'000;

  // Builds of new indexes and views over the rows written before them
  // (docs/ENGINE.md "Index builds"): up to about inline_build_rows rows
  // inside the CREATE statement (and inside Open, for builds a close or
  // crash interrupted), the rest on a background thread, or, when
  // background_builds is off, in Engine::AwaitBuilds. 0: nothing inline.
  uint64_t inline_build_rows = 50'000;
  bool background_builds = true;

  // Cassandra's auto_snapshot: DROP TABLE, DROP KEYSPACE and TRUNCATE keep
  // each table they remove as a snapshot (Engine::Snapshots) instead of
  // reclaiming its data; a clear hands it to the sweeper.
  bool auto_snapshot = true;

  // The file face's removal runs (docs/ENGINE.md "Removal runs"): a
  // snapshot taken within this many seconds of a removal through the file
  // face (`rm`, `rmdir`) keeps the table as it was before the first
  // removal of the run, so `rm -r TABLE` keeps the rows it deleted.
  int removal_run_quiet_seconds = 60;
  // A run that goes on longer than this (a steady stream of removals, not
  // an `rm -r`) no longer holds the sweeper off, and a DROP after that
  // keeps the table as it is then.
  int removal_run_max_seconds = 3600;

  // Called once, on the thread whose write failed, when a storage failure
  // stops all writes (Engine::Apply); the daemon logs it. May be empty.
  std::function<void(const Status&)> on_write_failure;
};

}  // namespace cellfs
