// View builds: the view entries of the base rows a build scan reads.
#include "engine/store/internal/view_build.h"

#include <memory>
#include <string>
#include <vector>

#include "engine/store/internal/build_batch.h"
#include "engine/store/internal/build_scan.h"
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

  Status Run(const BuildLimits& limits, BuildCursor* cursor) {
    return ScanForBuild(core_, base_, &batch_, limits, cursor,
                        [this](const ReadView& reader, const PartitionIterator& partition,
                               uint64_t* rows) { return AddPartition(reader, partition, rows); });
  }

 private:
  Status AddPartition(const ReadView& reader, const PartitionIterator& partition, uint64_t* rows) {
    CELLFS_RETURN_IF_ERROR(partition.DecodePartitionKey(&partition_key_));
    if (base_->clustering_count() == 0) {
      if (const RowFragment* row = partition.first_row(); row != nullptr) {
        ++*rows;
        return Add({}, *row);
      }
      return Status::Ok();
    }
    auto found = reader.NewRowIterator(base_, partition_key_);
    if (!found.ok()) return found.status();
    for (RowIterator& it = *found.value(); it.Valid(); it.Next()) {
      CELLFS_RETURN_IF_ERROR(it.DecodeClustering(&clustering_));
      CELLFS_RETURN_IF_ERROR(Add(clustering_, it.row()));
      ++*rows;
    }
    return found.value()->status();
  }

  Status Add(const std::vector<std::string>& clustering, const RowFragment& row) {
    std::string_view regular_value;
    if (view_->view->regular_key) {
      const RowCell* cell = row.FindCell(view_->view->regular_key_column_id);
      if (cell == nullptr) return Status::Ok();  // null in the view's key: no view row
      regular_value = cell->cell.value;
    }
    base_key_ = partition_key_;
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
  std::vector<std::string> partition_key_;
  std::vector<std::string> clustering_;
  std::vector<std::string> base_key_;
  std::vector<std::string> view_key_;
  std::string entry_;
};

}  // namespace

Status RunViewBuild(EngineCore* core, const TableHandle& base, const TableHandle& view,
                    const BuildLimits& limits, BuildCursor* cursor) {
  return ViewBuild(core, base, view).Run(limits, cursor);
}

}  // namespace cellfs::storage
