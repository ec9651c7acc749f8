// EngineCore: the state an Engine shares with its mutations, read views,
// iterators and sweeper. Internal: only engine/ includes it.
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>

#include "engine/engine_options.h"
#include "engine/store/clock.h"
#include "engine/store/internal/buried_tables.h"
#include "engine/store/internal/catalog_store.h"
#include "engine/store/internal/commit_policy.h"
#include "engine/store/internal/expiry_index.h"
#include "engine/store/internal/fold_queue.h"
#include "engine/store/internal/removal_runs.h"
#include "engine/store/internal/sequence_allocator.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/storage/storage.h"

namespace cellfs {

class BatchPool;

// Thread-safety: the members are thread-safe themselves, except `schema`,
// which schema_mutex guards. Lock order: ddl_mutex, then the build
// runner's lock (storage::BuildRunner, owned by the Engine), then
// schema_mutex (or sweep_mutex, then schema_mutex); all before any lock
// inside a member. Each of the three may be held across storage writes, syncs too:
//  - ddl_mutex, by Engine::Execute, across the schema change's synced write
//    (one fsync of the log) and the swap of `schema` after it: a change is
//    durable before anyone sees it, and each change starts from the last.
//    Only DDL takes it, so only DDL waits.
//  - schema_mutex shared, by Engine::Apply, across CommitPolicy::Write: a
//    log append, which in kBatch mode is a synced write (an fsync). The
//    exclusive side (Execute's swap, no I/O) thus waits for the writes in
//    flight, so once a DROP TABLE returns no write into the table can still
//    land. It is released before AwaitDurable: no one holds it across
//    kGroup's wait for the syncer, nor across Engine::Sync.
//  - sweep_mutex, across a whole sweep: storage reads and unsynced writes,
//    and the synced write of a sequence lease when a fold's new entry needs
//    one (SequenceAllocator, once per 2^20 sequences).
// The removal runs' lock (storage::RemovalRuns) comes after all three: the
// sweeper holds it across each rewrite's commit (an unsynced write), DDL
// takes it briefly under ddl_mutex, a file-face removal with no engine
// lock held; nothing but storage's own locks is taken inside it.
// docs/FILESYSTEM.md "Locks" has the order across the fs and the engine.
struct EngineCore {
  EngineOptions options;
  const Clock* clock = nullptr;
  std::unique_ptr<storage::Storage> storage;  // the bytes (engine/store/storage/)
  storage::WriteFence write_fence;            // every write to `storage` passes it
  std::unique_ptr<storage::CommitPolicy> commit;
  storage::SequenceAllocator sequences;
  storage::FoldQueue fold_queue;
  storage::FoldQueue bury_queue;  // partition prefixes with dead rows to bury
  storage::BuriedTables buried_tables;
  storage::ExpiryIndex expiry;  // its layout is set at open, from the storage's capabilities
  std::unique_ptr<storage::RemovalRuns> removal_runs;  // made at open, from the options
  std::unique_ptr<BatchPool> batch_pool;
  std::unique_ptr<WriteTimeSource> write_times;

  std::mutex ddl_mutex;  // serialises schema changes
  // Taken before the store's "ddl" lease on a shared store (DdlLease), and
  // before ddl_mutex: one thread of this process holds the lease at a time.
  std::mutex ddl_lease_holders;
  std::mutex sweep_mutex;                  // serialises sweeps
  mutable std::shared_mutex schema_mutex;  // guards `schema` (the pointer)
  std::shared_ptr<const storage::SchemaState> schema;

  std::shared_ptr<const storage::SchemaState> CurrentSchema() const {
    std::shared_lock lock(schema_mutex);
    return schema;
  }

  EngineCore();
  ~EngineCore();
};

}  // namespace cellfs
