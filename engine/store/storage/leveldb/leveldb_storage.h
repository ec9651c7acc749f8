// LevelDbStorage: the storage::Storage of one local LevelDB store, opened
// over the store's directory with the engine's options (block cache, bloom
// filter, the guarded Env).
#pragma once

#include <memory>
#include <string>

#include "engine/engine_options.h"
#include "engine/store/storage/leveldb/leveldb_counter.h"
#include "engine/store/storage/storage.h"
#include "engine/store/storage/watch_list.h"

namespace leveldb {
class Cache;
class DB;
class Env;
class FilterPolicy;
}  // namespace leveldb

namespace cellfs::storage {

class GuardedEnv;

// Both capabilities hold: a read point is a LevelDB snapshot, a commit one
// WriteBatch. Only this process writes (LevelDB's LOCK file), so it always
// holds every lease and local notifications are every watch needs.
// Thread-safe, as storage::Storage says.
class LevelDbStorage final : public Storage, public Lease {
 public:
  // Opens (creating when options say so) the store at `path`, through
  // options.env or a DirectoryEnv over the directory. IOError naming the
  // holder's lock when another process has the store open.
  static Result<std::unique_ptr<LevelDbStorage>> Open(const std::string& path,
                                                      const EngineOptions& options);
  // Serves an already open `db`, which outlives the result (tests).
  static std::unique_ptr<LevelDbStorage> Wrap(leveldb::DB* db);

  ~LevelDbStorage() override;

  StorageCapabilities capabilities() const override { return {true, true, false, false}; }
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
  Status SyncCommitted() override;
  void CompactShard(const ShardAddress& shard) override;
  Status CompareAndSet(const Address& address, const std::optional<std::string>& expected,
                       std::string_view value) override;
  Counter& counter() override { return counter_; }
  Lease& lease() override { return *this; }
  WatchId Watch(std::string_view space, WatchCallback callback) override;
  void Unwatch(WatchId id) override;

  // Lease: always held.
  bool Acquire(std::string_view, int64_t) override { return true; }
  void Release(std::string_view) override {}

 private:
  LevelDbStorage();

  // Owned when opened here (declared first: destroyed after db_).
  std::unique_ptr<leveldb::Env> directory_env_;
  std::unique_ptr<GuardedEnv> guarded_env_;
  std::unique_ptr<leveldb::Cache> block_cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_policy_;
  std::unique_ptr<leveldb::DB> owned_db_;

  leveldb::DB* db_ = nullptr;  // owned_db_, or a wrapped one
  LevelDbCounter counter_{&db_};
  std::mutex cas_mutex_;  // serialises CompareAndSet's read and write
  WatchList watches_;
};

}  // namespace cellfs::storage
