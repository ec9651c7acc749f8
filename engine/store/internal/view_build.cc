// View builds over a snapshot of the base table's live rows.
#include "engine/store/internal/view_build.h"

#include <memory>
#include <string>
#include <vector>

#include "engine/store/internal/build_batch.h"
#include "engine/store/internal/catalog_store.h"
#include "engine/store/internal/engine_core.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/internal/view_entries.h"
#include "engine/store/read_view.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {
namespace {

class ViewBuild {
 public:
  ViewBuild(EngineCore* core, TableHandle base, TableHandle view)
      : core_(core),
        base_(std::move(base)),
        view_(std::move(view)),
        batch_(core, "building a view") {}

  Status Run() {
    ReadView reader =
        ReadView(std::make_shared<const ReadState>(core_, core_->clock->NowMicros())).ForScan();
    std::unique_ptr<PartitionIterator> partitions = reader.NewPartitionIterator(base_);
    std::vector<std::string> partition_key;
    std::vector<std::string> clustering;
    for (; partitions->Valid(); partitions->Next()) {
      CELLFS_RETURN_IF_ERROR(partitions->DecodePartitionKey(&partition_key));
      if (base_->clustering_count() == 0) {
        if (const RowFragment* row = partitions->first_row(); row != nullptr) {
          CELLFS_RETURN_IF_ERROR(Add(partition_key, {}, *row));
        }
        continue;
      }
      auto rows = reader.NewRowIterator(base_, partition_key);
      if (!rows.ok()) return rows.status();
      for (RowIterator& it = *rows.value(); it.Valid(); it.Next()) {
        CELLFS_RETURN_IF_ERROR(it.DecodeClustering(&clustering));
        CELLFS_RETURN_IF_ERROR(Add(partition_key, clustering, it.row()));
      }
      CELLFS_RETURN_IF_ERROR(rows.value()->status());
    }
    CELLFS_RETURN_IF_ERROR(partitions->status());
    return batch_.Flush();
  }

 private:
  Status Add(const std::vector<std::string>& partition_key,
             const std::vector<std::string>& clustering, const RowFragment& row) {
    std::string_view regular_value;
    if (view_->view->regular_key) {
      const RowCell* cell = row.FindCell(view_->view->regular_key_column_id);
      if (cell == nullptr) return Status::Ok();  // null in the view's key: no view row
      regular_value = cell->cell.value;
    }
    base_key_ = partition_key;
    base_key_.insert(base_key_.end(), clustering.begin(), clustering.end());
    ViewKeyOf(*view_, base_key_, regular_value, &view_key_);
    size_t prefix_size = 0;
    if (!MakeViewEntryKey(*view_, view_key_, &entry_, &prefix_size).ok()) return Status::Ok();
    return batch_.Put(DataAddress(entry_, prefix_size));
  }

  EngineCore* core_;
  TableHandle base_;
  TableHandle view_;
  BuildBatch batch_;
  std::vector<std::string> base_key_;
  std::vector<std::string> view_key_;
  std::string entry_;
};

}  // namespace

Status BuildPendingViews(EngineCore* core) {
  while (true) {
    std::shared_ptr<const SchemaState> before = core->CurrentSchema();
    TableHandle view;
    TableHandle base;
    for (const auto& [name, ids] : before->ids()) {
      if (ids.built) continue;
      view = before->FindTable(name.first, name.second);
      base = view != nullptr && view->view ? before->FindTableById(view->view->base_table_id)
                                           : nullptr;
      if (base != nullptr) break;
    }
    if (base == nullptr) return Status::Ok();
    CELLFS_RETURN_IF_ERROR(ViewBuild(core, base, view).Run());
    CELLFS_RETURN_IF_ERROR(StoreBuiltSchema(
        core, *before, WithViewBuilt(*before, {view->def.keyspace, view->def.name})));
  }
}

}  // namespace cellfs::storage
