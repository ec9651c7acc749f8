// Engine: opening the LevelDB store, schema changes persisted with their ids,
// applying mutations under the commit mode, snapshot views, sweeps.
#include "engine/engine.h"

#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/write_batch.h>
#include <sys/resource.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <utility>

#include "engine/store/internal/directory_env.h"
#include "engine/store/internal/engine_core.h"
#include "engine/store/internal/leveldb_status.h"
#include "engine/store/internal/mutation_batch.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/internal/sweeper.h"
#include "engine/store/internal/sweeper_thread.h"
#include "engine/store/internal/write_time_lease.h"

namespace cellfs {
namespace {

using storage::FromLevelDb;

constexpr std::string_view kFormatVersion = "1";

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

leveldb::Options LevelDbOptions(const EngineOptions& options, EngineCore* core) {
  leveldb::Options db_options;
  db_options.create_if_missing = options.create_if_missing && !options.read_only;
  db_options.env = core->guarded_env.get();
  db_options.block_cache = core->block_cache.get();
  db_options.filter_policy = core->filter_policy.get();
  db_options.write_buffer_size = options.write_buffer_bytes;
  db_options.max_file_size = 8u << 20;
  db_options.max_open_files = OpenTableBudget();
  return db_options;
}

}  // namespace

EngineCore::EngineCore() = default;
// Out of line: BatchPool is complete only here.
EngineCore::~EngineCore() = default;

Engine::Engine(std::unique_ptr<EngineCore> core) : core_(std::move(core)) {}

Result<std::unique_ptr<Engine>> Engine::Open(const std::string& path,
                                             const EngineOptions& options) {
  auto core = std::make_unique<EngineCore>();
  core->options = options;
  core->clock = options.clock != nullptr ? options.clock : SystemClock();
  core->write_times = std::make_unique<WriteTimeSource>(core->clock);
  core->batch_pool = std::make_unique<BatchPool>();
  core->block_cache.reset(leveldb::NewLRUCache(options.block_cache_bytes));
  core->filter_policy.reset(leveldb::NewBloomFilterPolicy(options.bloom_bits_per_key));
  leveldb::Env* env = options.env;
  if (env == nullptr) {
    std::unique_ptr<storage::DirectoryEnv> directory;
    leveldb::Status opened = storage::DirectoryEnv::Open(
        path, options.data_dir_fd, options.create_if_missing && !options.read_only, &directory);
    CELLFS_RETURN_IF_ERROR(FromLevelDb(opened, "opening " + path));
    env = directory.get();
    core->directory_env = std::move(directory);
  }
  core->guarded_env = std::make_unique<storage::GuardedEnv>(env);

  leveldb::DB* db = nullptr;
  leveldb::Status s = leveldb::DB::Open(LevelDbOptions(options, core.get()), path, &db);
  if (IsLockHeld(s)) {
    return Status::IOError("the data directory " + path + " is in use by another process (" +
                           s.ToString() + ")");
  }
  CELLFS_RETURN_IF_ERROR(FromLevelDb(s, "opening " + path));
  core->db.reset(db);

  std::unique_ptr<Engine> engine(new Engine(std::move(core)));
  CELLFS_RETURN_IF_ERROR(engine->Initialize());
  return engine;
}

Status Engine::Initialize() {
  leveldb::DB* db = core_->db.get();
  std::string version;
  leveldb::Status s =
      db->Get(leveldb::ReadOptions(), storage::MetaKey(storage::kFormatVersionName), &version);
  if (s.IsNotFound()) {
    if (core_->options.read_only) return Status::ReadOnly("cannot initialise a read-only store");
    leveldb::WriteOptions sync;
    sync.sync = true;
    s = db->Put(sync, storage::MetaKey(storage::kFormatVersionName), std::string(kFormatVersion));
    CELLFS_RETURN_IF_ERROR(FromLevelDb(s, "writing the format version"));
  } else {
    CELLFS_RETURN_IF_ERROR(FromLevelDb(s, "reading the format version"));
    if (version != kFormatVersion) {
      return Status::Corruption("unknown store format version '" + version + "'");
    }
  }

  // Every write time handed out before (a crash included) is below the
  // stored bound; new ones start above it.
  int64_t write_time_bound = INT64_MIN;
  CELLFS_RETURN_IF_ERROR(storage::LoadWriteTimeBound(db, &write_time_bound));
  core_->write_times->AdvancePast(write_time_bound);

  CELLFS_RETURN_IF_ERROR(storage::LoadSchema(db, &core_->schema));
  core_->write_fence.SetListener(core_->options.on_write_failure);
  if (!core_->options.read_only) {
    CELLFS_RETURN_IF_ERROR(core_->sequences.Open(db, &core_->write_fence));
    core_->write_times->SetLease(storage::kWriteTimeLeaseMicros,
                                 [db, fence = &core_->write_fence](int64_t bound) {
                                   return storage::StoreWriteTimeBound(db, fence, bound);
                                 });
  }
  core_->commit = std::make_unique<storage::CommitPolicy>(db, &core_->write_fence, core_->options);
  if (core_->options.background_sweeper && !core_->options.read_only) {
    sweeper_ =
        std::make_unique<storage::SweeperThread>(core_.get(), core_->options.sweep_interval_ms);
  }
  return Status::Ok();
}

Engine::~Engine() {
  sweeper_.reset();
  if (core_->db && !core_->options.read_only && core_->commit && core_->write_fence.Check().ok()) {
    // The least bound instead of the lease's end, so the next open starts at
    // the clock. Lowering the bound is safe only here, with no Next() to come;
    // if the write is lost, the larger bound stays.
    (void)storage::StoreWriteTimeBound(core_->db.get(), &core_->write_fence,
                                       core_->write_times->Bound());
  }
  core_->commit.reset();  // stops the syncer and syncs
  core_->db.reset();
}

Status Engine::Execute(const Statement& statement, std::string* current_keyspace,
                       SchemaChange* change) {
  std::lock_guard ddl(core_->ddl_mutex);
  std::shared_ptr<const storage::SchemaState> before = core_->CurrentSchema();
  auto next = std::make_shared<Catalog>(*before->catalog());
  SchemaChange local_change;
  CELLFS_RETURN_IF_ERROR(next->Apply(statement, current_keyspace, &local_change));
  if (change != nullptr) *change = local_change;
  if (local_change.kind == SchemaChange::Kind::kNone ||
      local_change.kind == SchemaChange::Kind::kUsed) {
    return Status::Ok();
  }
  if (core_->options.read_only) return Status::ReadOnly("the store is open read-only");

  std::vector<uint32_t> dropped;
  std::shared_ptr<const storage::SchemaState> after = storage::AssignIds(*before, next, &dropped);
  leveldb::WriteBatch batch;
  storage::WriteSchemaChange(*before, *after, dropped, &batch);
  leveldb::WriteOptions sync;
  sync.sync = true;
  CELLFS_RETURN_IF_ERROR(core_->write_fence.Check());
  CELLFS_RETURN_IF_ERROR(
      core_->write_fence.Record(FromLevelDb(core_->db->Write(sync, &batch), "storing the schema")));
  std::unique_lock lock(core_->schema_mutex);
  core_->schema = std::move(after);
  return Status::Ok();
}

std::shared_ptr<const Catalog> Engine::catalog() const { return core_->CurrentSchema()->catalog(); }

Result<TableHandle> Engine::FindTable(const std::string& keyspace, const std::string& table) const {
  std::shared_ptr<const storage::SchemaState> schema = core_->CurrentSchema();
  if (schema->catalog()->FindKeyspace(keyspace) == nullptr) {
    return Status::NotFound("keyspace " + keyspace + " does not exist");
  }
  TableHandle handle = schema->FindTable(keyspace, table);
  if (handle == nullptr)
    return Status::NotFound("table " + keyspace + "." + table + " does not exist");
  return handle;
}

Mutation Engine::NewMutation() {
  const int64_t now = core_->clock->NowMicros();
  int64_t write_time = now;
  // A failed lease write closed the write fence (StoreWriteTimeBound records
  // it there), so Apply refuses this mutation: its time is never stored.
  Status leased = core_->write_times->Next(&write_time);
  assert(leased.ok() || !core_->write_fence.Check().ok());
  (void)leased;  // every failure closes the fence (WriteFence::Record)
  return Mutation(core_.get(), write_time, now, core_->batch_pool->Take());
}

Status Engine::Apply(Mutation&& mutation) {
  Mutation consumed = std::move(mutation);
  if (consumed.empty()) return Status::Ok();
  if (core_->options.read_only) return Status::ReadOnly("the store is open read-only");
  uint64_t ticket = 0;
  {
    // Shared with other writers, and held across Write (in kBatch mode a
    // synced write): Execute's swap of the schema waits for every write that
    // passed this check, so none lands in a table once its DROP has returned
    // (engine_core.h). Not held across AwaitDurable.
    std::shared_lock lock(core_->schema_mutex);
    for (uint32_t id : consumed.batch_->table_ids) {
      if (core_->schema->FindTableById(id) == nullptr) {
        return Status::NotFound("the table was dropped before the write was applied");
      }
    }
    CELLFS_RETURN_IF_ERROR(core_->commit->Write(&consumed.batch_->batch, &ticket));
  }
  core_->batch_pool->Give(std::move(consumed.batch_));
  return core_->commit->AwaitDurable(ticket);
}

Status Engine::Sync() { return core_->commit->Sync(); }

Status Engine::WriteHealth() const { return core_->write_fence.Check(); }

ReadView Engine::NewReadView() const {
  return ReadView(std::make_shared<const ReadState>(core_.get(), core_->clock->NowMicros()));
}

Status Engine::Sweep(SweepStats* stats) {
  if (core_->options.read_only) return Status::ReadOnly("the store is open read-only");
  std::lock_guard lock(core_->sweep_mutex);
  SweepStats local;
  return storage::SweepOnce(core_.get(), core_->clock->NowMicros(),
                            stats != nullptr ? stats : &local);
}

const Clock& Engine::clock() const { return *core_->clock; }

}  // namespace cellfs
