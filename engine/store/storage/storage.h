// Storage: the store's one way to durable bytes (docs/STORAGE_SEAM.md).
// Everything under engine/store reads and writes through it; only its
// backends (the LevelDB one: LevelDbStorage) know what holds the bytes.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/store/storage/address.h"
#include "engine/store/storage/batch.h"
#include "engine/store/storage/counter.h"
#include "engine/store/storage/cursor.h"
#include "engine/store/storage/lease.h"
#include "engine/store/storage/read_point.h"
#include "engine/store/storage/shard_cursor.h"
#include "engine/store/storage/watch.h"

namespace cellfs::storage {

// What a backend guarantees beyond the contract below.
struct StorageCapabilities {
  bool consistent_across_shards = false;  // a ReadPoint is one state of the whole store
  bool atomic_across_shards = false;      // Commit applies a whole batch or none of it
  // Other processes (mounts on other hosts) may write the same store at
  // once: schema changes take the "ddl" lease and every process follows
  // the catalog's watch.
  bool shared = false;
  // A failed commit leaves nothing torn behind, so later commits may succeed
  // once the cause is gone (no write fence is needed).
  bool commits_resume_after_failure = false;
};

struct CursorOptions {
  // False for scans that should not evict hot data from a backend's cache.
  bool fill_cache = true;
};

// Thread-safe: every call may come from any thread. Errors are IOError,
// NoSpace, ReadOnly (the device) or Corruption (the bytes). Read points,
// cursors, batches and watches must not outlive the Storage.
class Storage {
 public:
  virtual ~Storage() = default;

  virtual StorageCapabilities capabilities() const = 0;

  // ---- Reading ---------------------------------------------------------------
  virtual std::unique_ptr<ReadPoint> NewReadPoint() = 0;
  // `at` null: the latest state.
  virtual std::unique_ptr<Cursor> NewCursor(const ReadPoint* at, const ShardAddress& shard,
                                            const CursorOptions& options = {}) = 0;
  // The shards of `space` that hold entries; `split` finds where a shard
  // ends (see ShardSplitter). Positioned nowhere: Seek first.
  virtual std::unique_ptr<ShardCursor> NewShardCursor(const ReadPoint* at, std::string_view space,
                                                      ShardSplitter split,
                                                      const CursorOptions& options = {}) = 0;
  // The value at `at`; nullopt when absent.
  virtual Status Get(const ReadPoint* at, const Address& address,
                     std::optional<std::string>* value) = 0;

  // ---- Writing ---------------------------------------------------------------
  virtual std::unique_ptr<Batch> NewBatch() = 0;
  // Applies `batch` (see Batch for atomicity) as `durability` says. On error
  // nothing of the batch is applied. REQUIRES: `batch` came from NewBatch.
  virtual Status Commit(Batch* batch, Durability durability) = 0;
  // Makes every commit that returned before the call durable: the wait
  // behind the group and periodic commit modes (CommitPolicy).
  virtual Status SyncCommitted() = 0;

  // A hint that many entries of `shard` were just deleted: a backend that
  // keeps deletion markers until it compacts (LevelDB) may rewrite the
  // shard's range now, so that walks over it stop stepping over them. May
  // take long; changes nothing any read returns. Default: nothing.
  virtual void CompactShard(const ShardAddress& shard) { (void)shard; }

  // A hint that the shards of `space` below `end` (empty: all) that hold
  // no entry now will get none again (the sweeper's past expiry buckets, a
  // dropped table's emptied spaces): a backend that lists shards from an
  // index of its own (RADOS) stops listing them and removes what held them,
  // so that listings stop paying for them. A shard holding an entry is left
  // as it is. Looks at most `*budget` listed shards (when given), lowering
  // it by each, and stops at 0. Appends the shards forgotten to
  // `*forgotten`. Default: nothing (a backend that lists shards by their
  // entries, LevelDB, never lists an empty one).
  virtual Status ForgetEmptyShards(std::string_view space, std::string_view end, size_t* budget,
                                   std::vector<std::string>* forgotten) {
    (void)space;
    (void)end;
    (void)budget;
    (void)forgotten;
    return Status::Ok();
  }

  // Sets the value at `address` to `value` only when it is `expected`
  // (nullopt: absent), durably. FailedPrecondition, storing nothing, when
  // it is not.
  virtual Status CompareAndSet(const Address& address, const std::optional<std::string>& expected,
                               std::string_view value) = 0;

  virtual Counter& counter() = 0;
  virtual Lease& lease() = 0;

  // Calls `callback` after each commit that writes into `space`, until
  // Unwatch.
  virtual WatchId Watch(std::string_view space, WatchCallback callback) = 0;
  virtual void Unwatch(WatchId id) = 0;
};

}  // namespace cellfs::storage
