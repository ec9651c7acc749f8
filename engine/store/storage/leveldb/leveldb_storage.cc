// LevelDbStorage: opening the LevelDB store and serving the storage calls
// over it.
#include "engine/store/storage/leveldb/leveldb_storage.h"

#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <sys/resource.h>

#include <algorithm>
#include <utility>

#include "engine/store/storage/leveldb/directory_env.h"
#include "engine/store/storage/leveldb/guarded_env.h"
#include "engine/store/storage/leveldb/leveldb_batch.h"
#include "engine/store/storage/leveldb/leveldb_cursor.h"
#include "engine/store/storage/leveldb/leveldb_key.h"
#include "engine/store/storage/leveldb/leveldb_shard_cursor.h"
#include "engine/store/storage/leveldb/leveldb_status.h"

namespace cellfs::storage {
namespace {

// LevelDB reports a held lock as "IO error: lock DIR/LOCK: <strerror>"; any
// other failure to open LOCK (a read-only device, say) lacks the "lock "
// prefix and is reported as itself.
bool IsLockHeld(const leveldb::Status& s) {
  return s.IsIOError() && s.ToString().find("IO error: lock ") != std::string::npos;
}

// How many table files LevelDB may keep open. Each holds a descriptor
// (DirectoryEnv reads by pread, no mmap), so half the process's descriptor
// limit at most, within LevelDB's own bounds (74 to its default 1000):
// past the limit compactions would fail with EMFILE and fence all writes.
int OpenTableBudget() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 1000;
  return static_cast<int>(std::clamp<rlim_t>(limit.rlim_cur / 2, 74, 1000));
}

// A LevelDB snapshot, released with the read point.
class LevelDbReadPoint final : public ReadPoint {
 public:
  explicit LevelDbReadPoint(leveldb::DB* db) : db_(db), snapshot_(db->GetSnapshot()) {}
  ~LevelDbReadPoint() override { db_->ReleaseSnapshot(snapshot_); }
  const leveldb::Snapshot* snapshot() const { return snapshot_; }

 private:
  leveldb::DB* const db_;
  const leveldb::Snapshot* const snapshot_;
};

leveldb::ReadOptions ReadAt(const ReadPoint* at, bool fill_cache = true) {
  leveldb::ReadOptions options;
  options.fill_cache = fill_cache;
  if (at != nullptr) options.snapshot = static_cast<const LevelDbReadPoint*>(at)->snapshot();
  return options;
}

}  // namespace

LevelDbStorage::LevelDbStorage() = default;
LevelDbStorage::~LevelDbStorage() = default;

Result<std::unique_ptr<LevelDbStorage>> LevelDbStorage::Open(const std::string& path,
                                                             const EngineOptions& options) {
  std::unique_ptr<LevelDbStorage> storage(new LevelDbStorage());
  const bool create = options.create_if_missing && !options.read_only;
  leveldb::Env* env = options.env;
  if (env == nullptr) {
    std::unique_ptr<DirectoryEnv> directory;
    leveldb::Status opened = DirectoryEnv::Open(path, options.data_dir_fd, create, &directory);
    CELLFS_RETURN_IF_ERROR(FromLevelDb(opened, "opening " + path));
    env = directory.get();
    storage->directory_env_ = std::move(directory);
  }
  storage->guarded_env_ = std::make_unique<GuardedEnv>(env);
  storage->block_cache_.reset(leveldb::NewLRUCache(options.block_cache_bytes));
  storage->filter_policy_.reset(leveldb::NewBloomFilterPolicy(options.bloom_bits_per_key));

  leveldb::Options db_options;
  db_options.create_if_missing = create;
  db_options.env = storage->guarded_env_.get();
  db_options.block_cache = storage->block_cache_.get();
  db_options.filter_policy = storage->filter_policy_.get();
  db_options.write_buffer_size = options.write_buffer_bytes;
  db_options.max_file_size = 8u << 20;
  db_options.max_open_files = OpenTableBudget();
  leveldb::DB* db = nullptr;
  leveldb::Status s = leveldb::DB::Open(db_options, path, &db);
  if (IsLockHeld(s)) {
    return Status::IOError("the data directory " + path + " is in use by another process (" +
                           s.ToString() + ")");
  }
  CELLFS_RETURN_IF_ERROR(FromLevelDb(s, "opening " + path));
  storage->owned_db_.reset(db);
  storage->db_ = db;
  return storage;
}

std::unique_ptr<LevelDbStorage> LevelDbStorage::Wrap(leveldb::DB* db) {
  std::unique_ptr<LevelDbStorage> storage(new LevelDbStorage());
  storage->db_ = db;
  return storage;
}

std::unique_ptr<ReadPoint> LevelDbStorage::NewReadPoint() {
  return std::make_unique<LevelDbReadPoint>(db_);
}

std::unique_ptr<Cursor> LevelDbStorage::NewCursor(const ReadPoint* at, const ShardAddress& shard,
                                                  const CursorOptions& options) {
  std::string prefix;
  AppendLevelDbKey({shard.space, shard.shard, {}}, &prefix);
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(ReadAt(at, options.fill_cache)));
  return std::make_unique<LevelDbCursor>(std::move(it), std::move(prefix));
}

std::unique_ptr<ShardCursor> LevelDbStorage::NewShardCursor(const ReadPoint* at,
                                                            std::string_view space,
                                                            ShardSplitter split,
                                                            const CursorOptions& options) {
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(ReadAt(at, options.fill_cache)));
  return std::make_unique<LevelDbShardCursor>(std::move(it), space, std::move(split));
}

Status LevelDbStorage::Get(const ReadPoint* at, const Address& address,
                           std::optional<std::string>* value) {
  std::string key;
  AppendLevelDbKey(address, &key);
  std::string stored;
  leveldb::Status s = db_->Get(ReadAt(at), key, &stored);
  if (s.IsNotFound()) {
    value->reset();
    return Status::Ok();
  }
  CELLFS_RETURN_IF_ERROR(FromLevelDb(s));
  *value = std::move(stored);
  return Status::Ok();
}

std::unique_ptr<Batch> LevelDbStorage::NewBatch() { return std::make_unique<LevelDbBatch>(); }

Status LevelDbStorage::Commit(Batch* batch, Durability durability) {
  auto* leveldb_batch = static_cast<LevelDbBatch*>(batch);
  leveldb::WriteOptions options;
  options.sync = durability == Durability::kSynced;
  CELLFS_RETURN_IF_ERROR(FromLevelDb(db_->Write(options, leveldb_batch->rep())));
  watches_.Notify(leveldb_batch->spaces());
  return Status::Ok();
}

Status LevelDbStorage::SyncCommitted() {
  // LevelDB syncs its log on a synced write; an empty one syncs what the
  // writes before it appended.
  leveldb::WriteOptions options;
  options.sync = true;
  leveldb::WriteBatch empty;
  return FromLevelDb(db_->Write(options, &empty));
}

void LevelDbStorage::CompactShard(const ShardAddress& shard) {
  std::string begin;
  AppendLevelDbKey({shard.space, shard.shard, {}}, &begin);
  const std::optional<std::string> end = PrefixSuccessor(begin);
  const leveldb::Slice begin_slice = ToSlice(begin);
  leveldb::Slice end_slice;
  if (end) end_slice = ToSlice(*end);
  db_->CompactRange(&begin_slice, end ? &end_slice : nullptr);
}

Status LevelDbStorage::CompareAndSet(const Address& address,
                                     const std::optional<std::string>& expected,
                                     std::string_view value) {
  std::lock_guard lock(cas_mutex_);
  std::optional<std::string> stored;
  CELLFS_RETURN_IF_ERROR(Get(nullptr, address, &stored));
  if (stored != expected) return Status::FailedPrecondition("compare-and-set: the value changed");
  LevelDbBatch batch;
  batch.Put(address, value);
  return Commit(&batch, Durability::kSynced);
}

WatchId LevelDbStorage::Watch(std::string_view space, WatchCallback callback) {
  return watches_.Add(space, std::move(callback));
}

void LevelDbStorage::Unwatch(WatchId id) { watches_.Remove(id); }

}  // namespace cellfs::storage
