// IndexedPartitions: consecutive matches of one partition folded into one.
#include "fs/formats/indexed_partitions.h"

#include <algorithm>

namespace cellfs::fs {

Result<std::unique_ptr<IndexedPartitions>> IndexedPartitions::Open(const ReadView& view,
                                                                   const TableHandle& table,
                                                                   size_t index,
                                                                   const std::string& value) {
  Result<std::unique_ptr<IndexIterator>> matches =
      view.NewIndexIterator(table, index, IndexBounds::Equal(value));
  if (!matches.ok()) return matches.status();
  return std::unique_ptr<IndexedPartitions>(new IndexedPartitions(std::move(matches).value()));
}

bool IndexedPartitions::Next() {
  if (started_) {
    while (matches_->Valid() &&
           std::equal(key_.begin(), key_.end(), matches_->partition_key().begin(),
                      matches_->partition_key().end())) {
      matches_->Next();
    }
  }
  started_ = true;
  if (!matches_->Valid()) return false;
  key_.assign(matches_->partition_key().begin(), matches_->partition_key().end());
  return true;
}

bool IndexUnusable(const Status& status) {
  return status.code() == StatusCode::kFailedPrecondition || status.code() == StatusCode::kNotFound;
}

std::optional<size_t> WholeValueIndex(const TableSchema& table, size_t column) {
  std::optional<size_t> found;
  for (size_t i = 0; i < table.def.indexes.size(); ++i) {
    const IndexDef& index = table.def.indexes[i];
    if (index.column != table.column(column).name) continue;
    if (index.target != IndexTargetKind::kSimple && index.target != IndexTargetKind::kFull)
      continue;
    if (i < table.indexes.size() && table.indexes[i].built) return i;
    if (!found) found = i;
  }
  return found;
}

}  // namespace cellfs::fs
