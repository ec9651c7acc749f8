// Engine: opening the store (storage::OpenStorage), schema changes persisted with their ids,
// applying mutations under the commit mode, snapshot views, sweeps.
#include "engine/engine.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "engine/store/internal/build_runner.h"
#include "engine/store/internal/engine_core.h"
#include "engine/store/internal/index_entries.h"
#include "engine/store/internal/mutation_batch.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/internal/schema_follower.h"
#include "engine/store/internal/snapshot_store.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/internal/store_verify.h"
#include "engine/store/internal/sweeper.h"
#include "engine/store/internal/sweeper_thread.h"
#include "engine/store/internal/write_time_lease.h"
#include "engine/store/storage/open_storage.h"

namespace cellfs {
namespace {

// 2: the sweeper may bury dead rows (docs/FORMAT.md "Buried rows"), which a
// build that knows only 1 would not read; a store at 1 is moved to 2 when a
// build that buries opens it for writing.
constexpr std::string_view kFormatVersion = "2";
constexpr std::string_view kFormatVersionBeforeBuriedRows = "1";

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
  auto storage = storage::OpenStorage(path, options);
  if (!storage.ok()) return storage.status();
  core->storage = std::move(storage).value();
  core->batch_pool = std::make_unique<BatchPool>(core->storage.get());
  core->removal_runs = std::make_unique<storage::RemovalRuns>(
      int64_t{std::max(options.removal_run_quiet_seconds, 0)} * 1'000'000,
      int64_t{std::max(options.removal_run_max_seconds, 0)} * 1'000'000);

  std::unique_ptr<Engine> engine(new Engine(std::move(core)));
  CELLFS_RETURN_IF_ERROR(engine->Initialize());
  return engine;
}

Status Engine::Initialize() {
  storage::Storage* store = core_->storage.get();
  const std::string version_key = storage::MetaKey(storage::kFormatVersionName);
  std::optional<std::string> version;
  CELLFS_RETURN_IF_ERROR(store->Get(nullptr, storage::TaggedAddress(version_key), &version)
                             .WithContext("reading the format version"));
  const bool upgrade = version && *version == kFormatVersionBeforeBuriedRows;
  if (upgrade && core_->options.read_only) {
    // Opened read-only, the store stays as it was: nothing is buried.
  } else if (!version || upgrade) {
    if (core_->options.read_only) return Status::ReadOnly("cannot initialise a read-only store");
    std::unique_ptr<storage::Batch> batch = store->NewBatch();
    batch->Put(storage::TaggedAddress(version_key), kFormatVersion);
    CELLFS_RETURN_IF_ERROR(store->Commit(batch.get(), storage::Durability::kSynced)
                               .WithContext("writing the format version"));
  } else if (*version != kFormatVersion) {
    return Status::Corruption("unknown store format version '" + *version + "'");
  }

  // Every write time handed out before (a crash included) is below the
  // stored bound; new ones start above it.
  int64_t write_time_bound = INT64_MIN;
  CELLFS_RETURN_IF_ERROR(storage::LoadWriteTimeBound(store, &write_time_bound));
  core_->write_times->AdvancePast(write_time_bound);

  CELLFS_RETURN_IF_ERROR(storage::LoadSchema(store, &core_->schema));
  core_->write_fence.SetListener(core_->options.on_write_failure);
  core_->write_fence.SetLatching(!store->capabilities().commits_resume_after_failure);
  // Several mounts sweep a shared store at once, each a bucket of a table
  // at a time under its lease (expiry_index.h).
  core_->expiry.set_layout(store->capabilities().shared
                               ? storage::ExpiryIndex::Layout::kByTableAndBucket
                               : storage::ExpiryIndex::Layout::kByDue);
  if (!core_->options.read_only) {
    CELLFS_RETURN_IF_ERROR(core_->sequences.Open(&store->counter(), &core_->write_fence));
    core_->write_times->SetLease(storage::kWriteTimeLeaseMicros,
                                 [store, fence = &core_->write_fence](int64_t bound) {
                                   return storage::StoreWriteTimeBound(store, fence, bound);
                                 });
  }
  core_->commit =
      std::make_unique<storage::CommitPolicy>(store, &core_->write_fence, core_->options);
  if (store->capabilities().shared) {
    follower_ = std::make_unique<storage::SchemaFollower>(store, [this] { (void)FollowSchema(); });
    // A change another mount stored after LoadSchema, before the watch.
    SchemaReload missed;
    std::lock_guard ddl(core_->ddl_mutex);
    CELLFS_RETURN_IF_ERROR(ReloadSchema(&missed));
  }
  if (!core_->options.read_only) {
    // Builds a close or crash interrupted start again (docs/ENGINE.md
    // "Index builds"). A build marks itself built as a schema change does.
    builds_ = std::make_unique<storage::BuildRunner>(
        core_.get(), core_->options.background_builds,
        [this](const std::function<Status()>& write) { return InDdlSection(write); });
    const Status ran = InDdlSection([this] {
      RunBuilds(nullptr);
      return Status::Ok();
    });
    if (!ran.ok()) builds_->Wake();  // the builder thread tries again
  }
  if (core_->options.background_sweeper && !core_->options.read_only) {
    sweeper_ =
        std::make_unique<storage::SweeperThread>(core_.get(), core_->options.sweep_interval_ms);
  }
  return Status::Ok();
}

Engine::~Engine() {
  follower_.reset();  // no reload from here on
  builds_.reset();    // a build stops at its next partition; the next open starts it over
  sweeper_.reset();
  if (core_->storage && !core_->options.read_only && core_->commit &&
      core_->write_fence.Check().ok()) {
    // The least bound instead of the lease's end, so the next open starts at
    // the clock. Lowering the bound is safe only here, with no Next() to come;
    // if the write is lost, the larger bound stays.
    (void)storage::StoreWriteTimeBound(core_->storage.get(), &core_->write_fence,
                                       core_->write_times->Bound());
  }
  core_->commit.reset();  // stops the syncer and syncs
  core_->storage.reset();
}

bool Engine::WouldChangeSchema(const Statement& statement,
                               const std::string* current_keyspace) const {
  Catalog trial(*core_->CurrentSchema()->catalog());
  std::string keyspace = current_keyspace != nullptr ? *current_keyspace : std::string();
  SchemaChange trial_change;
  return trial.Apply(statement, &keyspace, &trial_change).ok() &&
         trial_change.kind != SchemaChange::Kind::kNone &&
         trial_change.kind != SchemaChange::Kind::kUsed;
}

Status Engine::Execute(const Statement& statement, std::string* current_keyspace,
                       SchemaChange* change) {
  // On a shared store a change runs under the ddl lease, taken before
  // ddl_mutex (so this mount's watch can still reload the schema while
  // waiting), over the schema as stored. Statements that change nothing
  // (USE, IF NOT EXISTS of what exists) take no lease; when the trial here
  // and the statement disagree (the schema changed between), it runs again
  // with the lease.
  const bool shared = core_->storage->capabilities().shared && !core_->options.read_only;
  bool leased = shared && WouldChangeSchema(statement, current_keyspace);
  while (true) {
    std::optional<storage::DdlLease> lease;
    if (leased) CELLFS_RETURN_IF_ERROR(TakeDdlLease(&lease));
    std::lock_guard ddl(core_->ddl_mutex);
    if (leased) CELLFS_RETURN_IF_ERROR(ReloadForChange());
    bool needs_lease = false;
    Status status = ExecuteLocked(statement, current_keyspace, change,
                                  /*unleased_changes=*/shared && !leased, &needs_lease);
    if (lease && status.code() == StatusCode::kIOError) lease->KeepUntilLapsed();
    if (!needs_lease) return status;
    leased = true;
  }
}

Status Engine::ExecuteLocked(const Statement& statement, std::string* current_keyspace,
                             SchemaChange* change, bool unleased_changes, bool* needs_lease) {
  const std::string keyspace_before = current_keyspace ? *current_keyspace : std::string();
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
  if (unleased_changes) {
    if (current_keyspace != nullptr) *current_keyspace = keyspace_before;
    *needs_lease = true;
    return Status::Ok();
  }

  std::vector<uint32_t> dropped;
  const std::pair<std::string, std::string> truncated{local_change.keyspace, local_change.object};
  std::shared_ptr<const storage::SchemaState> after = storage::AssignIds(
      *before, next, &dropped,
      local_change.kind == SchemaChange::Kind::kTruncated ? &truncated : nullptr);
  std::unique_ptr<storage::Batch> batch = core_->storage->NewBatch();
  if (core_->options.auto_snapshot && !dropped.empty()) {
    const char* reason =
        local_change.kind == SchemaChange::Kind::kTruncated ? "truncated" : "dropped";
    CELLFS_RETURN_IF_ERROR(storage::SnapshotDroppedTables(
        core_->storage.get(), *before, reason, core_->clock->NowMicros(), *core_->removal_runs,
        &dropped, batch.get()));
  }
  storage::WriteSchemaChange(*before, *after, dropped, batch.get());
  return CommitSchema(*before, std::move(after), batch.get());
}

void Engine::NoteFileRemoval(const TableSchema& table) {
  if (core_->options.read_only) return;
  core_->removal_runs->Note(table.id, core_->clock->NowMicros(), core_->sequences);
}

Status Engine::CommitSchema(const storage::SchemaState& before,
                            std::shared_ptr<const storage::SchemaState> after,
                            storage::Batch* batch) {
  // A new index or view: every write from now on adds its entries; the
  // build adds those of the rows written before (docs/ENGINE.md "Index
  // builds", "Materialized views"). The statement runs the inline part of
  // its own builds, reserved before the swap so the builder thread leaves
  // them to it.
  std::vector<storage::BuildTarget> fresh = storage::PendingBuilds(*after);
  const std::vector<storage::BuildTarget> older = storage::PendingBuilds(before);
  std::erase_if(fresh, [&](const storage::BuildTarget& target) {
    return std::find(older.begin(), older.end(), target) != older.end();
  });
  builds_->Reserve(fresh);
  Status stored = core_->write_fence.Check();
  if (stored.ok()) {
    stored = core_->write_fence.Record(core_->storage->Commit(batch, storage::Durability::kSynced)
                                           .WithContext("storing the schema"));
  }
  if (!stored.ok()) {
    builds_->Unreserve(fresh);
    return stored;
  }
  {
    std::unique_lock lock(core_->schema_mutex);
    core_->schema = std::move(after);
  }
  RunBuilds(&fresh);
  return Status::Ok();
}

bool Engine::views_are_snapshots() const {
  return core_->storage->capabilities().consistent_across_shards;
}

void Engine::SetSchemaListener(std::function<void(const SchemaReload&)> listener) {
  std::lock_guard lock(listener_mutex_);
  listener_ = std::move(listener);
}

void Engine::NotifySchemaListener(const SchemaReload& reload) {
  std::lock_guard lock(listener_mutex_);
  if (listener_) listener_(reload);
}

Status Engine::ReloadSchema(SchemaReload* reload) {
  std::shared_ptr<const storage::SchemaState> stored;
  CELLFS_RETURN_IF_ERROR(storage::LoadSchema(core_->storage.get(), &stored)
                             .WithContext("reloading the schema another mount changed"));
  std::shared_ptr<const storage::SchemaState> before = core_->CurrentSchema();
  if (storage::SameSchema(*before, *stored)) return Status::Ok();
  reload->before = before->catalog();
  reload->after = stored->catalog();
  for (const auto& [name, keyspace] : before->catalog()->keyspaces()) {
    for (const auto& [table_name, table] : keyspace.tables) {
      TableHandle handle = before->FindTable(name, table_name);
      if (handle != nullptr) reload->table_ids_before[{name, table_name}] = handle->id;
    }
  }
  {
    std::unique_lock lock(core_->schema_mutex);
    core_->schema = std::move(stored);
  }
  return Status::Ok();
}

Status Engine::TakeDdlLease(std::optional<storage::DdlLease>* lease) {
  if (!core_->storage->capabilities().shared || core_->options.read_only) return Status::Ok();
  lease->emplace(core_->storage.get(), &core_->ddl_lease_holders);
  return (*lease)->status();
}

Status Engine::ReloadForChange() {
  if (!core_->storage->capabilities().shared) return Status::Ok();
  SchemaReload reload;
  CELLFS_RETURN_IF_ERROR(ReloadSchema(&reload));
  if (reload.after != nullptr) NotifySchemaListener(reload);
  return Status::Ok();
}

Status Engine::InDdlSection(const std::function<Status()>& write) {
  std::optional<storage::DdlLease> lease;
  CELLFS_RETURN_IF_ERROR(TakeDdlLease(&lease));
  std::lock_guard ddl(core_->ddl_mutex);
  CELLFS_RETURN_IF_ERROR(ReloadForChange());
  Status written = write();
  if (lease && written.code() == StatusCode::kIOError) lease->KeepUntilLapsed();
  return written;
}

Status Engine::FollowSchema() {
  // Marked before the reload: a failure that races a success leaves the
  // next write one needless reload, never a stale schema unmarked.
  schema_stale_.store(true);
  SchemaReload reload;
  Status reloaded;
  {
    std::lock_guard ddl(core_->ddl_mutex);
    reloaded = ReloadSchema(&reload);
    if (reloaded.ok()) schema_stale_.store(false);
  }
  if (!reloaded.ok()) {
    std::fprintf(stderr, "cellfs: %s (tried again before the next write)\n",
                 reloaded.ToString().c_str());
    return reloaded;
  }
  if (reload.after != nullptr) NotifySchemaListener(reload);
  return Status::Ok();
}

Status Engine::CatchUpSchema() {
  const Status reloaded = FollowSchema();
  if (!schema_stale_.load()) return Status::Ok();
  return Status::IOError("the schema another mount changed could not be reloaded (" +
                         reloaded.message() + "); nothing was written");
}

void Engine::RunBuilds(const std::vector<storage::BuildTarget>* only) {
  // A build's failure is not the statement's: its change is stored. It is
  // logged and shown in BuildsInProgress, and the next DDL retries it.
  if (core_->options.inline_build_rows > 0) {
    (void)builds_->RunInline(core_->options.inline_build_rows, only);
  }
  // What the inline part did not reach goes to the builder thread, which
  // also retries builds that failed.
  if (only != nullptr) builds_->Unreserve(*only);
  builds_->Wake();
}

std::vector<BuildProgress> Engine::BuildsInProgress() const {
  if (builds_ != nullptr) return builds_->Progress();
  std::vector<BuildProgress> out;
  for (const storage::BuildTarget& target : storage::PendingBuilds(*core_->CurrentSchema())) {
    out.push_back({target.kind, target.keyspace, target.table, target.name, 0, 0, ""});
  }
  return out;
}

Status Engine::AwaitBuilds() {
  if (builds_ != nullptr) return builds_->AwaitAll();
  if (storage::PendingBuilds(*core_->CurrentSchema()).empty()) return Status::Ok();
  return Status::ReadOnly(
      "the store is open read-only: index or view builds wait for a writable open");
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
  // it there), or, where the fence does not latch (RADOS), is kept in the
  // mutation: either way Apply refuses it, so its time is never stored.
  Status leased = core_->write_times->Next(&write_time);
  Mutation mutation(core_.get(), write_time, now, core_->batch_pool->Take());
  mutation.lease_failure_ = std::move(leased);
  return mutation;
}

Status Engine::Apply(Mutation&& mutation) {
  Mutation consumed = std::move(mutation);
  if (consumed.empty()) return Status::Ok();
  if (core_->options.read_only) return Status::ReadOnly("the store is open read-only");
  CELLFS_RETURN_IF_ERROR(consumed.lease_failure_);
  // The mutation was built over the stale schema: once reloaded, the
  // fingerprint check below refuses it if its tables' indexes changed.
  if (schema_stale_.load(std::memory_order_acquire)) CELLFS_RETURN_IF_ERROR(CatchUpSchema());
  uint64_t ticket = 0;
  {
    // Shared with other writers, and held across Write (in kBatch mode a
    // synced write): Execute's swap of the schema waits for every write that
    // passed this check, so none lands in a table once its DROP has returned
    // (engine_core.h). Not held across AwaitDurable.
    std::shared_lock lock(core_->schema_mutex);
    const Mutation::Batch& batch = *consumed.batch_;
    for (size_t i = 0; i < batch.table_ids.size(); ++i) {
      TableHandle table = core_->schema->FindTableById(batch.table_ids[i]);
      if (table == nullptr) {
        return Status::NotFound("the table was dropped before the write was applied");
      }
      if (batch.mixed_index_sets ||
          storage::IndexFingerprint(*table) != batch.index_fingerprints[i]) {
        return Status::Aborted("the indexes or views of table " + table->def.name +
                               " changed while the write was prepared; nothing was written: "
                               "retry it");
      }
    }
    CELLFS_RETURN_IF_ERROR(core_->commit->Write(consumed.batch_->batch.get(), &ticket));
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

Status Engine::Verify(VerifyReport* report) const {
  // The walk reads whole tag spaces as one ordered key space (LevelDB's
  // layout); on a backend that keeps shards apart it would read nothing and
  // call the store sound.
  if (core_->storage->capabilities().shared) {
    return Status::NotSupported("verify reads a data directory; a RADOS pool is not verified yet");
  }
  return storage::VerifyStore(core_.get(), report);
}

const Clock& Engine::clock() const { return *core_->clock; }

}  // namespace cellfs
