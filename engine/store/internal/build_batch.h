// What index and view builds share: their entries committed in batches,
// unsynced, and the schema that marks a build done stored synced and
// swapped in.
#pragma once

#include <functional>
#include <memory>
#include <utility>

#include "engine/status.h"
#include "engine/store/internal/catalog_store.h"
#include "engine/store/storage/address.h"
#include "engine/store/storage/batch.h"

namespace cellfs {

struct EngineCore;

namespace storage {

// Entries of a build, committed every kEntriesPerBatch puts and by Flush.
// Unsynced: the synced catalog write that marks the build done comes after
// every batch in the same log, so it makes them durable with it (LevelDB
// syncs a log before it switches to a new one: guarded_env.h). A crash
// before that leaves the build undone, to run again at open. Failures pass
// the write fence, as any write's do.
class BuildBatch {
 public:
  static constexpr size_t kEntriesPerBatch = 4096;

  // `what` names the build in errors ("building an index").
  BuildBatch(EngineCore* core, const char* what);

  // From now on, Flush commits only while `wanted` says yes of the current
  // schema (asked under the schema lock, as Engine::Apply checks its
  // tables), and returns BuildNotWanted() otherwise. Empty: always.
  void SetWanted(std::function<bool(const SchemaState&)> wanted) { wanted_ = std::move(wanted); }

  // An empty-valued entry at `address`.
  Status Put(const Address& address);
  Status Flush();

 private:
  EngineCore* core_;
  const char* what_;
  std::unique_ptr<Batch> batch_;
  size_t pending_ = 0;
  std::function<bool(const SchemaState&)> wanted_;
};

// Aborted: the index or view a build was for is gone.
Status BuildNotWanted();

// Stores the catalog of `after` (`before` with a build marked done) with a
// synced write, then makes it the current schema. REQUIRES: the caller
// holds core->ddl_mutex and `before` is the current schema.
Status StoreBuiltSchema(EngineCore* core, const SchemaState& before,
                        std::shared_ptr<const SchemaState> after);

}  // namespace storage
}  // namespace cellfs
