// Engine's snapshots: listing, restoring and clearing what DROP and TRUNCATE
// kept (engine/store/internal/snapshot_store.h).
#include <set>

#include "engine/cql/describe.h"
#include "engine/engine.h"
#include "engine/store/internal/catalog_store.h"
#include "engine/store/internal/engine_core.h"
#include "engine/store/internal/schema_follower.h"
#include "engine/store/internal/snapshot_store.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/storage/storage.h"

namespace cellfs {
namespace {

// The user types `type` refers to, dependencies first, each once.
void CollectTypes(const CqlType& type, std::vector<std::string>* names) {
  for (const TypePtr& param : type.params()) CollectTypes(*param, names);
  if (type.kind() == TypeKind::kUdt &&
      std::find(names->begin(), names->end(), type.udt_name()) == names->end()) {
    names->push_back(type.udt_name());
  }
}

bool IndexNameTaken(const KeyspaceDef& keyspace, const std::string& name) {
  for (const auto& [table_name, table] : keyspace.tables) {
    if (table.FindIndex(name) != nullptr) return true;
  }
  return false;
}

}  // namespace

Status Engine::Snapshots(std::vector<SnapshotInfo>* out,
                         std::vector<std::string>* unreadable) const {
  std::vector<storage::SnapshotRecord> records;
  CELLFS_RETURN_IF_ERROR(storage::ReadSnapshots(core_->storage.get(), &records, unreadable));
  out->clear();
  for (storage::SnapshotRecord& record : records) {
    out->push_back({std::move(record.name), std::move(record.keyspace), std::move(record.table),
                    std::move(record.reason), record.created_ms, record.as_of_ms});
  }
  return Status::Ok();
}

Status Engine::RestoreSnapshot(const std::string& name, const std::string& as_table,
                               std::vector<std::string>* skipped) {
  if (core_->options.read_only) return Status::ReadOnly("the store is open read-only");
  std::optional<storage::DdlLease> lease;
  CELLFS_RETURN_IF_ERROR(TakeDdlLease(&lease));
  std::lock_guard ddl(core_->ddl_mutex);
  CELLFS_RETURN_IF_ERROR(ReloadForChange());
  storage::SnapshotRecord record;
  CELLFS_RETURN_IF_ERROR(storage::ReadSnapshot(core_->storage.get(), name, &record));
  skipped->clear();
  TableDef table = record.table_def();
  table.name = as_table.empty() ? record.table : as_table;
  const std::string qualified = record.keyspace + "." + table.name;

  std::shared_ptr<const storage::SchemaState> before = core_->CurrentSchema();
  if (before->IsLiveId(record.table_ids().table_id)) {
    return Status::Corruption("snapshot " + name + " keeps table id " +
                              std::to_string(record.table_ids().table_id) +
                              ", which a live table or index has");
  }
  auto next = std::make_shared<Catalog>(*before->catalog());
  const KeyspaceDef* live = next->FindKeyspace(record.keyspace);
  std::string cql;
  if (live == nullptr) {
    cql += DescribeKeyspaceStatement(record.keyspace_def) + "\n";
  } else if (live->tables.contains(table.name)) {
    return Status::InvalidArgument("table " + qualified +
                                   " exists: drop it first (DROP keeps its own snapshot), or "
                                   "restore under another name");
  }
  std::vector<std::string> types;
  for (const ColumnDef& column : table.columns) CollectTypes(*column.type, &types);
  for (const std::string& type : types) {
    const std::string wanted = DescribeType(record.keyspace_def.types.at(type));
    const auto found = live == nullptr ? std::map<std::string, UserTypeDef>::const_iterator{}
                                       : live->types.find(type);
    if (live != nullptr && found != live->types.end()) {
      if (DescribeType(found->second) != wanted) {
        return Status::InvalidArgument("type " + record.keyspace + "." + type +
                                       " is not the snapshot's: the table cannot be restored "
                                       "over it");
      }
      continue;
    }
    cql += wanted + "\n";
  }
  std::erase_if(table.indexes, [&](const IndexDef& index) {
    if (live == nullptr || !IndexNameTaken(*live, index.name)) return false;
    skipped->push_back(index.name);
    return true;
  });
  cql += DescribeTable(table);
  // The snapshot's own definition, stored text: applied as a catalog
  // record is loaded.
  std::string session = record.keyspace;
  next->set_applying_stored_text(true);
  CELLFS_RETURN_IF_ERROR(
      next->ApplyScript(cql, &session).WithContext("restoring snapshot " + name));
  next->set_applying_stored_text(false);

  // The table comes back under its old ids, over its kept data; its
  // indexes get fresh ids and are built again.
  std::vector<uint32_t> dropped;
  std::shared_ptr<const storage::SchemaState> assigned =
      storage::AssignIds(*before, next, &dropped);
  auto ids = assigned->ids();
  storage::TableIds& restored = ids.at({record.keyspace, table.name});
  const storage::TableIds& kept = record.table_ids();
  restored.table_id = kept.table_id;
  restored.column_ids = kept.column_ids;
  restored.next_column_id = kept.next_column_id;
  for (auto& [index_name, index] : restored.indexes) index.built = false;
  auto after =
      std::make_shared<const storage::SchemaState>(next, std::move(ids), assigned->next_table_id());

  if (record.as_of_sequence) {
    // Taken during a removal run: what the run wrote goes first, so the
    // table reads as it was when the run began. Cut short, the record stays
    // and the next restore deletes the rest.
    CELLFS_RETURN_IF_ERROR(storage::DeleteEntriesFrom(core_->storage.get(), &core_->write_fence,
                                                      kept.table_id, *record.as_of_sequence));
  }
  std::unique_ptr<storage::Batch> batch = core_->storage->NewBatch();
  storage::WriteSchemaChange(*before, *after, dropped, batch.get());
  const std::string key = storage::SnapshotKey(name);
  batch->Delete(storage::TaggedAddress(key));
  CELLFS_RETURN_IF_ERROR(CommitSchema(*before, std::move(after), batch.get()));
  core_->removal_runs->Forget(kept.table_id);  // its writes are gone: what follows begins anew
  return Status::Ok();
}

Status Engine::ClearSnapshot(const std::string& name) {
  if (core_->options.read_only) return Status::ReadOnly("the store is open read-only");
  std::optional<storage::DdlLease> lease;
  CELLFS_RETURN_IF_ERROR(TakeDdlLease(&lease));
  std::lock_guard ddl(core_->ddl_mutex);
  CELLFS_RETURN_IF_ERROR(ReloadForChange());
  // Read without decoding the keyspace: a record whose CQL no longer
  // loads can still be cleared.
  std::string value;
  CELLFS_RETURN_IF_ERROR(storage::ReadSnapshotValue(core_->storage.get(), name, &value));
  std::unique_ptr<storage::Batch> batch = core_->storage->NewBatch();
  const std::string key = storage::SnapshotKey(name);
  batch->Delete(storage::TaggedAddress(key));
  const std::optional<uint32_t> id = storage::SnapshotTableIdOf(value);
  const std::string dropped = id ? storage::DroppedTableKey(*id) : std::string();
  if (id && !core_->CurrentSchema()->IsLiveId(*id)) {
    batch->Put(storage::TaggedAddress(dropped), {});
  }
  CELLFS_RETURN_IF_ERROR(core_->write_fence.Check());
  return core_->write_fence.Record(core_->storage->Commit(batch.get(), storage::Durability::kSynced)
                                       .WithContext("clearing snapshot " + name));
}

}  // namespace cellfs
