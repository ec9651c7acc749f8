// Index builds: the entries of the rows a build scan reads.
#include "engine/store/internal/index_build.h"

#include <memory>
#include <string>
#include <vector>

#include "engine/store/internal/build_batch.h"
#include "engine/store/internal/build_scan.h"
#include "engine/store/internal/element_cells.h"
#include "engine/store/internal/engine_core.h"
#include "engine/store/internal/index_entries.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/read_view.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {
namespace {

// A live row as the store held it: multi-cell columns split back into
// element cells, as IndexValuesOf expects them.
void SplitMultiCellColumns(const TableSchema& table, const RowFragment& live, RowFragment* out) {
  out->marker = live.marker;
  out->deletion.reset();
  out->cells.clear();
  for (const RowCell& cell : live.cells) {
    auto column = table.ColumnIndexById(cell.column_id);
    if (!column || !table.column(*column).type->is_multi_cell() || !cell.path.empty()) {
      out->cells.push_back(cell);
      continue;
    }
    std::vector<ElementValue> elements;
    if (!SplitIntoElements(*table.column(*column).type, cell.cell.value, 0, 0, &elements).ok()) {
      continue;
    }
    for (ElementValue& element : elements) {
      RowCell split = cell;
      split.path = std::move(element.path);
      split.cell.value = std::move(element.value);
      out->cells.push_back(std::move(split));
    }
  }
}

class IndexBuild {
 public:
  IndexBuild(EngineCore* core, TableHandle table, const IndexSchema& index)
      : core_(core),
        handle_(std::move(table)),
        table_(*handle_),
        index_(index),
        batch_(core, "building an index") {}

  Status Run(const BuildLimits& limits, BuildCursor* cursor) {
    return ScanForBuild(core_, handle_, &batch_, limits, cursor,
                        [this](const ReadView& view, const PartitionIterator& partition,
                               uint64_t* rows) { return AddPartition(view, partition, rows); });
  }

 private:
  Status AddPartition(const ReadView& view, const PartitionIterator& partition, uint64_t* rows) {
    prefix_.clear();
    AppendTablePrefix(table_.id, &prefix_);
    prefix_.append(partition.position());
    if (!partition.static_row().empty()) {
      group_.assign(prefix_);
      AppendEntryKind(EntryKind::kStaticRow, &group_);
      CELLFS_RETURN_IF_ERROR(Add(partition.static_row()));
      ++*rows;
    }
    if (table_.clustering_count() == 0) {
      if (const RowFragment* row = partition.first_row(); row != nullptr) {
        group_.assign(prefix_);
        AppendEntryKind(EntryKind::kRow, &group_);
        CELLFS_RETURN_IF_ERROR(Add(*row));
        ++*rows;
      }
      return Status::Ok();
    }
    CELLFS_RETURN_IF_ERROR(partition.DecodePartitionKey(&key_));
    auto found = view.NewRowIterator(handle_, key_);
    if (!found.ok()) return found.status();
    for (RowIterator& it = *found.value(); it.Valid(); it.Next()) {
      group_.assign(prefix_);
      AppendEntryKind(EntryKind::kRow, &group_);
      group_.append(it.clustering_key());
      CELLFS_RETURN_IF_ERROR(Add(it.row()));
      ++*rows;
    }
    return found.value()->status();
  }

  Status Add(const RowFragment& live) {
    SplitMultiCellColumns(table_, live, &split_);
    values_.clear();
    CELLFS_RETURN_IF_ERROR(IndexValuesOf(table_, index_, group_, prefix_.size(), split_, &values_));
    for (const std::string& value : values_) {
      const size_t value_end =
          MakeIndexEntryKey(table_, index_, value, group_, prefix_.size(), &entry_);
      CELLFS_RETURN_IF_ERROR(batch_.Put(IndexAddress(entry_, value_end)));
    }
    return Status::Ok();
  }

  EngineCore* core_;
  TableHandle handle_;
  const TableSchema& table_;
  const IndexSchema& index_;
  BuildBatch batch_;
  std::string prefix_;
  std::string group_;
  std::string entry_;
  std::vector<std::string> key_;
  RowFragment split_;
  std::vector<std::string> values_;
};

}  // namespace

Status RunIndexBuild(EngineCore* core, const TableHandle& table, const IndexSchema& index,
                     const BuildLimits& limits, BuildCursor* cursor) {
  return IndexBuild(core, table, index).Run(limits, cursor);
}

}  // namespace cellfs::storage
