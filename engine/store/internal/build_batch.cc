// BuildBatch and StoreBuiltSchema: the commits of index and view builds.
#include "engine/store/internal/build_batch.h"

#include <mutex>
#include <shared_mutex>
#include <utility>

#include "engine/store/internal/engine_core.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {

BuildBatch::BuildBatch(EngineCore* core, const char* what)
    : core_(core), what_(what), batch_(core->storage->NewBatch()) {}

Status BuildBatch::Put(const Address& address) {
  batch_->Put(address, {});
  if (++pending_ == kEntriesPerBatch) return Flush();
  return Status::Ok();
}

Status BuildBatch::Flush() {
  if (pending_ == 0) return Status::Ok();
  // Held across the commit, as Engine::Apply holds it: a DROP's swap of
  // the schema waits for this batch, and no batch passes the check after.
  std::shared_lock lock(core_->schema_mutex);
  if (wanted_ && !wanted_(*core_->schema)) return BuildNotWanted();
  CELLFS_RETURN_IF_ERROR(core_->write_fence.Check());
  CELLFS_RETURN_IF_ERROR(core_->write_fence.Record(
      core_->storage->Commit(batch_.get(), Durability::kNone).WithContext(what_)));
  batch_->Clear();
  pending_ = 0;
  return Status::Ok();
}

Status BuildNotWanted() {
  return Status::Aborted("the index or view was dropped, or its table truncated, during its build");
}

Status StoreBuiltSchema(EngineCore* core, const SchemaState& before,
                        std::shared_ptr<const SchemaState> after) {
  std::unique_ptr<Batch> batch = core->storage->NewBatch();
  WriteSchemaChange(before, *after, {}, batch.get());
  CELLFS_RETURN_IF_ERROR(core->write_fence.Check());
  CELLFS_RETURN_IF_ERROR(core->write_fence.Record(
      core->storage->Commit(batch.get(), Durability::kSynced).WithContext("storing the schema")));
  std::unique_lock lock(core->schema_mutex);
  core->schema = std::move(after);
  return Status::Ok();
}

}  // namespace cellfs::storage
