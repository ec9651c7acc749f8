// EngineCore: the state an Engine shares with its mutations, read views,
// iterators and sweeper. Internal: only engine/ includes it.
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>

#include "engine/store/clock.h"
#include "engine/engine_options.h"
#include "engine/store/internal/catalog_store.h"
#include "engine/store/internal/commit_policy.h"
#include "engine/store/internal/fold_queue.h"
#include "engine/store/internal/guarded_env.h"
#include "engine/store/internal/sequence_allocator.h"
#include "engine/store/internal/storage_keys.h"

namespace leveldb {
class Cache;
class DB;
class FilterPolicy;
}  // namespace leveldb

namespace cellfs {

class BatchPool;

// Thread-safety: the members are thread-safe themselves, except `schema`,
// which schema_mutex guards. Lock order: ddl_mutex, then schema_mutex; both
// before any lock inside a member. Neither is held across a sync wait.
struct EngineCore {
  EngineOptions options;
  const Clock* clock = nullptr;
  std::unique_ptr<leveldb::Env> directory_env;  // the default env (DirectoryEnv); may be null
  std::unique_ptr<storage::GuardedEnv> guarded_env;  // what `db` writes through
  std::unique_ptr<leveldb::Cache> block_cache;
  std::unique_ptr<const leveldb::FilterPolicy> filter_policy;
  std::unique_ptr<leveldb::DB> db;
  storage::WriteFence write_fence;  // every write to `db` passes it
  std::unique_ptr<storage::CommitPolicy> commit;
  storage::SequenceAllocator sequences;
  storage::FoldQueue fold_queue;
  std::unique_ptr<BatchPool> batch_pool;
  std::unique_ptr<WriteTimeSource> write_times;

  std::mutex ddl_mutex;                    // serialises schema changes
  std::mutex sweep_mutex;                  // serialises sweeps (a leaf lock)
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
