// RadosStorage: the storage::Storage of a pool of a Ceph cluster, through
// librados (docs/SCALEOUT.md): a partition is an object, its entries that
// object's omap keys; what spans objects goes through a batch log.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <rados/librados.hpp>
#include <string>
#include <thread>
#include <unordered_set>

#include "engine/engine_options.h"
#include "engine/store/storage/rados/rados_batch_log.h"
#include "engine/store/storage/rados/rados_counter.h"
#include "engine/store/storage/rados/rados_watches.h"
#include "engine/store/storage/storage.h"
#include "engine/store/storage/store_location.h"

namespace cellfs::storage {

// Neither capability holds: a read point is "the latest" (one object read
// is one state of that partition), and a commit is atomic per object; a
// commit that touches several objects is logged first (RadosBatchLog), so
// that it lands whole even if this process dies half-way, but readers may
// see part of it before the rest. Every acknowledged write is on the
// replicas the pool requires: kNone and kSynced are the same, and
// SyncCommitted has nothing to wait for. Leases are exclusive locks with a
// duration; watches of a space are told of this process's commits at once
// and of other mounts' commits through watch/notify (a commit into a space
// this process watches returns once every other mount's watches ran). Several processes on
// several hosts may open one pool at once. Thread-safe.
class RadosStorage final : public Storage, public Lease {
 public:
  // Connects to the cluster (`location.conf`, or librados's default
  // search), as `location.id` (default "admin"), and opens the pool. Every
  // request fails with IOError after the client's operation timeout (set
  // to 30 s when the configuration gives none) instead of hanging. Replays
  // the batch logs of mounts that died. IOError when the cluster cannot be
  // reached or the pool does not exist.
  static Result<std::unique_ptr<RadosStorage>> Open(const StoreLocation& location,
                                                    const EngineOptions& options);

  ~RadosStorage() override;

  StorageCapabilities capabilities() const override { return {false, false, true, true}; }
  std::unique_ptr<ReadPoint> NewReadPoint() override;
  std::unique_ptr<Cursor> NewCursor(const ReadPoint* at, const ShardAddress& shard,
                                    const CursorOptions& options) override;
  std::unique_ptr<ShardCursor> NewShardCursor(const ReadPoint* at, std::string_view space,
                                              ShardSplitter split,
                                              const CursorOptions& options) override;
  Status Get(const ReadPoint* at, const Address& address,
             std::optional<std::string>* value) override;
  std::unique_ptr<Batch> NewBatch() override;
  Status Commit(Batch* batch, Durability durability) override;
  Status SyncCommitted() override { return Status::Ok(); }
  Status CompareAndSet(const Address& address, const std::optional<std::string>& expected,
                       std::string_view value) override;
  // Also drops the forgotten shards from what this mount remembers it
  // indexed, so that its next write into one lists it again.
  Status ForgetEmptyShards(std::string_view space, std::string_view end, size_t* budget,
                           std::vector<std::string>* forgotten) override;
  Counter& counter() override { return *counter_; }
  Lease& lease() override { return *this; }
  WatchId Watch(std::string_view space, WatchCallback callback) override;
  void Unwatch(WatchId id) override;

  // Lease: an exclusive lock on the lease's object with a duration.
  bool Acquire(std::string_view name, int64_t ttl_ms) override;
  void Release(std::string_view name) override;
  // Releases, then removes the lease's object. Another mount that took the
  // lease between the two loses it with the object: harmless for what is
  // retired (no work is left under it).
  void Retire(std::string_view name) override;

  // This mount's id in the pool (its batch log, lock cookies): the
  // cluster connection's instance id, unique among live clients.
  const std::string& mount_id() const { return mount_id_; }

  // The batch log's upkeep, also run every few seconds in the background:
  // renews this mount's hold on its log, finishes this mount's commits
  // that failed half-way, and replays the logs of mounts whose hold
  // lapsed, announcing what the replays changed to every mount's watches
  // (this one's too). Sets *replayed to the batches replayed.
  Status Maintain(size_t* replayed);

 private:
  RadosStorage() = default;
  void MaintainLoop();
  // Adds the index keys of the shards `batch` puts into that this process
  // has not indexed yet; returns them, to be remembered once committed.
  std::vector<std::string> AddIndexKeys(RadosBatch* batch);

  librados::Rados rados_;
  librados::IoCtx io_;
  bool connected_ = false;
  std::string mount_id_;
  std::unique_ptr<RadosCounter> counter_;
  std::unique_ptr<RadosBatchLog> log_;
  std::unique_ptr<RadosWatches> watches_;

  std::mutex indexed_mutex_;                 // guards indexed_
  std::unordered_set<std::string> indexed_;  // space and shard, length-prefixed

  std::mutex maintain_mutex_;  // guards stopping_
  std::condition_variable maintain_wake_;
  bool stopping_ = false;
  std::thread maintainer_;
};

}  // namespace cellfs::storage
