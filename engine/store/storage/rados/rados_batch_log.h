// RadosBatchLog: a mount's log of commits that span objects, so that such a
// commit lands whole, eventually, even when the mount dies half-way
// (Cassandra's logged batch; docs/SCALEOUT.md "Batch log").
#pragma once

#include <cstdint>
#include <mutex>
#include <rados/librados.hpp>
#include <set>
#include <string>
#include <vector>

#include "engine/status.h"
#include "engine/store/storage/rados/rados_batch.h"

namespace cellfs::storage {

// The log is one object per mount ("log.<mount id>"), listed in the pool's
// log registry and held by the mount under an exclusive lock it renews.
// Each logged commit is one omap value (its whole batch) written before the
// batch's objects and removed right after them, so a replay only ever
// applies a commit that never finished. A mount replays another mount's log
// once that mount's lock has lapsed (30 s; the ddl lease lapses after 60,
// so a dead mount's half schema change lands before anyone's next one), and
// then removes it. Replaying data twice is harmless: every entry the engine
// writes carries its write time and sequence.
//
// Thread-safe.
class RadosBatchLog {
 public:
  // How long a mount's hold on its log outlives its last renewal.
  static constexpr int kLockSeconds = 30;

  RadosBatchLog(librados::IoCtx* io, std::string mount_id);

  // Registers the log and takes its lock.
  Status Open();
  // Renews the lock (call well within kLockSeconds); when it lapsed, holds
  // and registers the log afresh.
  Status Renew();
  // Writes `batch` as a new entry; sets *entry to its number.
  Status Record(const RadosBatch& batch, uint64_t* entry);
  // `entry`'s batch is applied: removes its entry now, so that no replay
  // ever applies it again over newer writes (catalog records and metadata
  // are overwritten in place). When that fails, the removal is owed to the
  // next log write or Close.
  Status Done(uint64_t entry);
  // `entry`'s batch failed to apply, maybe half-way: ReplayFailed applies
  // it later (Cassandra's logged batch: all of it lands, eventually).
  void Failed(uint64_t entry);
  // Applies this mount's failed entries, oldest first, removing each once
  // applied; stops at the first that fails again. Adds the batches applied
  // to *replayed and the objects they wrote to *objects. Called before
  // each logged commit, so that a mount's commits land in their order.
  Status ReplayFailed(size_t* replayed, std::set<std::string>* objects);
  // Replays the log of every registered mount whose lock has lapsed (or
  // that was left unlocked), then removes those logs. Adds the number of
  // batches applied to *replayed and the objects they wrote to *objects.
  Status ReplayLapsed(size_t* replayed, std::set<std::string>* objects);
  // Drops the applied entries, then the log itself when it is empty, and
  // gives up the lock.
  Status Close();

  const std::string& object() const { return object_; }

 private:
  Status Replay(const std::string& log, size_t* replayed, std::set<std::string>* objects);

  librados::IoCtx* io_;
  std::string object_;
  std::string cookie_;
  std::mutex mutex_;  // guards next_entry_, done_ and failed_
  uint64_t next_entry_ = 1;
  std::vector<uint64_t> done_;
  std::set<uint64_t> failed_;
  std::mutex replay_mutex_;  // one ReplayFailed at a time
};

// The batch's writes as one value, and back (the log's entries).
std::string EncodeBatch(const RadosBatch& batch);
Status DecodeBatch(std::string_view bytes, RadosBatch* batch);

}  // namespace cellfs::storage
