// CommitPolicy: commits batches to storage and makes them durable as the
// commit mode says (EngineOptions, after Cassandra's commitlog_sync), with
// the background syncer that periodic and group modes need.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "engine/engine_options.h"
#include "engine/status.h"
#include "engine/store/internal/write_fence.h"

namespace cellfs::storage {

class Batch;
class Storage;

// Thread-safe. Lock order: mutex_ is a leaf (never held across a storage call).
class CommitPolicy {
 public:
  // Starts the syncer thread for kPeriodic and kGroup. `storage` and
  // `fence` outlive this; every write and sync passes the fence and reports
  // to it.
  CommitPolicy(Storage* storage, WriteFence* fence, const EngineOptions& options);
  // Stops the syncer and syncs once more.
  ~CommitPolicy();
  CommitPolicy(const CommitPolicy&) = delete;
  CommitPolicy& operator=(const CommitPolicy&) = delete;

  // Writes `batch` (kBatch: and syncs it). `*ticket` receives what
  // AwaitDurable needs; callers release their locks between the two.
  // IOError, NoSpace or ReadOnly when storage fails (nothing of the batch
  // is applied), and the same for every write after that (WriteFence).
  Status Write(Batch* batch, uint64_t* ticket);

  // Returns once the write that got `ticket` is acknowledged under the mode:
  // kPeriodic and kBatch at once; kGroup after a sync that started after
  // the write. IOError when that sync failed.
  Status AwaitDurable(uint64_t ticket);

  // Makes every write acknowledged so far durable.
  Status Sync();

 private:
  void SyncerLoop();
  Status SyncLog();  // Storage::SyncCommitted through the fence

  Storage* storage_;
  WriteFence* fence_;
  const CommitMode mode_;
  const int interval_ms_;

  std::mutex mutex_;  // guards everything below
  std::condition_variable changed_;
  bool stopping_ = false;
  bool dirty_ = false;  // writes since the last sync started
  uint64_t syncs_started_ = 0;
  uint64_t syncs_done_ = 0;
  uint64_t waiters_ = 0;  // kGroup writers waiting for a sync
  // The first group sync that failed (0: none) and its error. Syncs after
  // it are refused by the fence, so a ticket below it was made durable by
  // an earlier sync and succeeds; one at or above it fails with the error.
  uint64_t first_failed_sync_ = 0;
  Status first_sync_error_;
  std::thread syncer_;
};

}  // namespace cellfs::storage
