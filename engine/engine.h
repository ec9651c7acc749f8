// Engine: the embedded store. Cassandra's write and read semantics on one
// node over LevelDB: the schema (CQL DDL, persisted with stable ids),
// mutations, snapshot reads, the TTL sweeper and durability. The on-disk
// layout is docs/FORMAT.md "Storage layout".
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/catalog.h"
#include "engine/cql/cql_statement.h"
#include "engine/cql/table_schema.h"
#include "engine/engine_options.h"
#include "engine/status.h"
#include "engine/store/build_progress.h"
#include "engine/store/mutation.h"
#include "engine/store/read_view.h"
#include "engine/store/verify_report.h"

namespace cellfs {

namespace storage {
class Batch;
class SchemaState;
struct BuildTarget;
class BuildRunner;
class SweeperThread;
class SchemaFollower;
class DdlLease;
}  // namespace storage

// What one sweep did; the counts show that a sweep's work follows what
// expired, not the size of the store.
struct SweepStats {
  uint64_t index_entries = 0;    // expiry-index entries that fell due and were handled
  uint64_t rows_rewritten = 0;   // rows (or static rows) folded into one fragment
  uint64_t rows_removed = 0;     // rows whose every fragment was purged
  uint64_t rows_buried = 0;      // dead rows moved to their table's buried space
  uint64_t entries_read = 0;     // data entries read to do it
  uint64_t entries_deleted = 0;  // data entries deleted
  uint64_t tables_cleaned = 0;   // dropped tables whose data is now gone
};

// The schema as another mount of a shared store (RADOS) changed it, once
// this engine reloaded it: the catalog before and after, and each table's
// id before, by (keyspace, table) (a table dropped and made again has a new
// id under the same name).
struct SchemaReload {
  std::shared_ptr<const Catalog> before;
  std::shared_ptr<const Catalog> after;
  std::map<std::pair<std::string, std::string>, uint32_t> table_ids_before;
};

// A snapshot DROP or TRUNCATE kept (EngineOptions::auto_snapshot).
struct SnapshotInfo {
  std::string name;  // <reason>-<milliseconds since the epoch>-<keyspace>.<table>
  std::string keyspace;
  std::string table;
  std::string reason;  // "dropped" or "truncated"
  int64_t created_ms = 0;
  // A snapshot taken during a removal run (NoteFileRemoval) keeps the
  // table as of the run's start: that time; created_ms otherwise.
  int64_t as_of_ms = 0;
};

// Thread-safe: any number of threads may write, read and run DDL at once.
// Schema changes are serialised; writes and reads never wait on each other
// (except as CommitMode says).
class Engine {
 public:
  // Opens (creating when options.create_if_missing) the store in directory
  // `path`. IOError when LevelDB cannot open it (another process holds its
  // lock: the message says so); Corruption when its catalog does not load.
  static Result<std::unique_ptr<Engine>> Open(const std::string& path,
                                              const EngineOptions& options);

  // Stops the sweeper, syncs, closes. REQUIRES: no Mutation, ReadView or
  // iterator of this engine is still alive.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // ---- Schema.

  // Validates and applies a DDL statement (Catalog::Apply) and persists the
  // result durably before returning. Dropping a table makes its data
  // unreachable at once; with EngineOptions::auto_snapshot the data is kept
  // as a snapshot (below), else reclaimed in the background. TRUNCATE gives
  // the table a fresh table id (an empty data space) in the same synced
  // catalog write and reclaims the old space the same way: readers see all
  // of the table or none of it, and handles taken before it (TableHandle,
  // PartitionRef) name the old id, as after a drop (docs/ENGINE.md
  // "Truncation"). DESCRIBE is not applied here (kNone). On error nothing
  // changes.
  Status Execute(const Statement& statement, std::string* current_keyspace,
                 SchemaChange* change = nullptr);

  // A new index or view is built over the rows written before it: the
  // first EngineOptions::inline_build_rows rows inside this call, the rest
  // in the background (BuildsInProgress); until it is built, reads through
  // it fail with "not yet available".

  // The current schema, as an immutable snapshot.
  std::shared_ptr<const Catalog> catalog() const;

  // NotFound naming the keyspace or table when absent.
  Result<TableHandle> FindTable(const std::string& keyspace, const std::string& table) const;

  // ---- Writes.

  // A new, empty batch carrying a fresh server write time (strictly greater
  // than any before it, also across a crash and a clock step back:
  // docs/RELIABILITY.md "Write times across crashes") and the current clock
  // for TTLs. Never fails itself: about once per second of writing it first
  // stores a new write-time lease (one synced write); if that write fails,
  // the write fence closes, and Apply of this mutation, like every later
  // write, returns that storage failure.
  Mutation NewMutation();

  // Stores every operation of `mutation` atomically, then waits as the
  // commit mode says. NotFound when a table it writes was dropped since;
  // IOError, NoSpace or ReadOnly when storage fails. Aborted, with nothing
  // written, when an index of a table it writes was created or dropped
  // after the mutation wrote to it (its entries would be wrong): the
  // caller may build it again and retry. When the log write
  // itself fails nothing of the batch is applied. In group mode the batch
  // is written first and its shared sync may fail afterwards: then the
  // write is not acknowledged, readers of this engine may see it until it
  // is reopened, and whether it survives the reopen depends on whether its
  // log record reached the disk (the outcome of a Cassandra write that
  // timed out). After any such failure every later write (Apply, Sync,
  // Execute, sweeps) is refused with it until the engine is reopened, so
  // nothing is acknowledged behind a torn log record. The mutation is
  // consumed either way.
  Status Apply(Mutation&& mutation);

  // The file face is about to write a removal (`rm` of a cell, `rmdir` of a
  // row or partition, a slice's range) in `table`: begins or extends the
  // table's removal run, so that a snapshot a DROP or TRUNCATE takes within
  // EngineOptions::removal_run_quiet_seconds of the run's latest removal
  // keeps the table as it was before the run (docs/ENGINE.md "Removal
  // runs"). Call it before the removal's mutation is built: a Mutation
  // takes its sequences as it is built. A no-op on a read-only store.
  void NoteFileRemoval(const TableSchema& table);

  // Ok while writes are accepted; otherwise the storage failure that stopped
  // them (see Apply). Cheap: callers may check it before every write.
  Status WriteHealth() const;

  // Makes every write acknowledged so far durable (fsync of the log).
  Status Sync();

  // ---- Reads.

  // A snapshot of everything applied so far, judged at the clock's now
  // (see views_are_snapshots).
  ReadView NewReadView() const;
  // True when a ReadView is one state of the whole store, kept while it
  // lives (LevelDB). False on RADOS: a view reads each partition as it is
  // when read (one read of a partition is one state of it), as Cassandra
  // at consistency ONE would.
  bool views_are_snapshots() const;

  // ---- Snapshots (docs/ENGINE.md "Snapshots").

  // Every snapshot DROP or TRUNCATE kept, by name. A record that does not
  // decode is left out and described in `*unreadable` (when given).
  Status Snapshots(std::vector<SnapshotInfo>* out,
                   std::vector<std::string>* unreadable = nullptr) const;

  // Makes the table of snapshot `name` again, over its kept data, as table
  // `as_table` of its keyspace (its own name when empty), and forgets the
  // snapshot: the keyspace and the user types it needs are made when
  // missing; its indexes whose names are free in the keyspace are made and
  // built again (`*skipped`, cleared first, gets the names of the others);
  // materialized views are not restored. One synced catalog write. NotFound
  // when there is no such snapshot; InvalidArgument when the table exists
  // ("drop it first, or restore with another name") or a type of the same
  // name differs from the snapshot's; Corruption when the record does not
  // decode or its table id is live. The indexes' builds run as after
  // CREATE INDEX (AwaitBuilds waits for them).
  Status RestoreSnapshot(const std::string& name, const std::string& as_table,
                         std::vector<std::string>* skipped);

  // Forgets snapshot `name` and hands its data to the sweeper (the next
  // sweep of a writable open reclaims it), also when the record no longer
  // decodes. NotFound when absent.
  Status ClearSnapshot(const std::string& name);

  // ---- Several mounts of one store.

  // Calls `listener` (on a thread of the engine's) after each reload of a
  // schema another mount changed, so the file face can drop what the kernel
  // cached of it. Only a shared store (StorageCapabilities::shared) reloads.
  // `listener` must not call Execute, RestoreSnapshot or ClearSnapshot;
  // replaced by a later call; null: none.
  void SetSchemaListener(std::function<void(const SchemaReload&)> listener);

  // ---- Maintenance.

  // The indexes and views still being built over the rows written before
  // them, and how far each has got. Cheap: no storage read.
  std::vector<BuildProgress> BuildsInProgress() const;

  // Returns once no index or view is being built: Ok, or the failure that
  // stopped a build (a storage failure). Without background builds, runs
  // them on the calling thread. ReadOnly on a read-only store with builds
  // pending (they run at the next writable open).
  Status AwaitBuilds();

  // One sweep at the clock's now: purges what the expiry index says is due
  // (expired cells, tombstones past gc_grace_seconds), folds rows that
  // reads found fragmented, and reclaims dropped tables. The background
  // sweeper calls this; tests call it with a ManualClock.
  Status Sweep(SweepStats* stats = nullptr);

  // Reads every stored entry once (data, index, view and expiry-index
  // entries) and decodes it against the schema: `cellfs verify`. Faults go
  // into `*report`; the Status is a failure to read. Memory flat in the
  // store's size; a whole-store read, so meant for an offline store.
  // NotSupported on a shared store (RADOS), which it cannot walk yet.
  Status Verify(VerifyReport* report) const;

  const Clock& clock() const;

 private:
  explicit Engine(std::unique_ptr<EngineCore> core);
  Status Initialize();  // the part of Open after LevelDB opened
  // Commits `batch` (a schema change from `before` to `after`) synced,
  // swaps `after` in and runs the builds it starts. REQUIRES: ddl_mutex
  // held; `before` is the current schema.
  Status CommitSchema(const storage::SchemaState& before,
                      std::shared_ptr<const storage::SchemaState> after, storage::Batch* batch);
  // Runs pending builds (those in `only`, when given) inline up to the
  // options' bound, then hands the rest to the builder thread. REQUIRES:
  // ddl_mutex held.
  void RunBuilds(const std::vector<storage::BuildTarget>* only);
  // On a shared store: loads the schema as stored and swaps it in when it
  // differs, filling *reload (when given). REQUIRES: ddl_mutex held.
  Status ReloadSchema(SchemaReload* reload);
  // On a shared, writable store: takes the "ddl" lease into *lease, so that
  // mounts change the schema one at a time. A no-op on a store only this
  // process writes. REQUIRES: ddl_mutex not held.
  Status TakeDdlLease(std::optional<storage::DdlLease>* lease);
  // On a shared store: reloads the schema as stored (telling the listener),
  // so that a change under the lease is made over it. REQUIRES: ddl_mutex
  // held, after TakeDdlLease.
  Status ReloadForChange();
  // Whether `statement` would change the schema as this mount has it.
  bool WouldChangeSchema(const Statement& statement, const std::string* current_keyspace) const;
  // Execute's work under ddl_mutex. With `unleased_changes`, a statement
  // that changes the schema changes nothing and sets *needs_lease instead.
  Status ExecuteLocked(const Statement& statement, std::string* current_keyspace,
                       SchemaChange* change, bool unleased_changes, bool* needs_lease);
  // Runs `write` as a schema change runs: TakeDdlLease, ddl_mutex,
  // ReloadForChange, then `write` (the build runner's DdlSection).
  // REQUIRES: ddl_mutex not held.
  Status InDdlSection(const std::function<Status()>& write);
  // The follower's call: ReloadSchema, then the listener. A reload that
  // fails marks the schema stale (schema_stale_) and is returned.
  Status FollowSchema();
  // Before a write while the schema is stale: FollowSchema's reload again;
  // IOError when it still fails, so that no write goes out without the
  // indexes and views another mount added. REQUIRES: ddl_mutex not held.
  Status CatchUpSchema();
  void NotifySchemaListener(const SchemaReload& reload);

  std::unique_ptr<EngineCore> core_;
  std::unique_ptr<storage::BuildRunner> builds_;     // null on a read-only store
  std::unique_ptr<storage::SweeperThread> sweeper_;  // null when not running
  std::mutex listener_mutex_;                        // guards listener_
  std::function<void(const SchemaReload&)> listener_;
  // Another mount changed the schema and reloading it failed: the next
  // write reloads first (CatchUpSchema).
  std::atomic<bool> schema_stale_{false};
  // Last: stopped first, before what its reloads use.
  std::unique_ptr<storage::SchemaFollower> follower_;  // null unless shared
};

}  // namespace cellfs
