// IndexedPartitions: consecutive matches of one partition folded into one.
#include "fs/formats/indexed_partitions.h"

#include <algorithm>

#include "engine/cql/key_codec.h"
#include "engine/store/partition_ref.h"

namespace cellfs::fs {

Result<std::unique_ptr<IndexedPartitions>> IndexedPartitions::Open(const ReadView& view,
                                                                   const TableHandle& table,
                                                                   size_t index,
                                                                   const IndexBounds& bounds) {
  Result<std::unique_ptr<IndexIterator>> matches = view.NewIndexIterator(table, index, bounds);
  if (!matches.ok()) return matches.status();
  const bool one_value = bounds.lower && bounds.upper && bounds.lower_inclusive &&
                         bounds.upper_inclusive && *bounds.lower == *bounds.upper;
  if (one_value) {
    return std::unique_ptr<IndexedPartitions>(new IndexedPartitions(std::move(matches).value()));
  }
  std::unique_ptr<IndexedPartitions> out(new IndexedPartitions());
  for (IndexIterator& it = *matches.value(); it.Valid(); it.Next()) {
    if (out->gathered_.size() >= kMaxGatheredPartitions) {
      // A slice this wide is cheaper as a scan, which gives the same rows.
      return Status::FailedPrecondition("the index slice names more than " +
                                        std::to_string(kMaxGatheredPartitions) +
                                        " partitions: scanning instead");
    }
    Result<PartitionRef> partition = PartitionRef::Make(*table, it.partition_key());
    if (!partition.ok()) return partition.status();
    auto [at, added] = out->gathered_.try_emplace(std::string(partition->position()));
    if (added) at->second.assign(it.partition_key().begin(), it.partition_key().end());
  }
  CELLFS_RETURN_IF_ERROR(matches.value()->status());
  out->next_ = out->gathered_.begin();
  return out;
}

bool IndexedPartitions::Next() {
  if (matches_ == nullptr) {
    if (next_ == gathered_.end()) return false;
    key_ = std::move(next_->second);
    ++next_;
    return true;
  }
  if (started_) {
    while (matches_->Valid() &&
           std::equal(key_.begin(), key_.end(), matches_->partition_key().begin(),
                      matches_->partition_key().end())) {
      matches_->Next();
    }
  }
  started_ = true;
  if (!matches_->Valid()) {
    status_ = matches_->status();
    return false;
  }
  key_.assign(matches_->partition_key().begin(), matches_->partition_key().end());
  return true;
}

void NarrowIndexBounds(const CqlType& type, bool lower, bool inclusive, const std::string& value,
                       IndexBounds* bounds) {
  std::optional<std::string>& limit = lower ? bounds->lower : bounds->upper;
  bool& limit_inclusive = lower ? bounds->lower_inclusive : bounds->upper_inclusive;
  if (limit) {
    std::string had, wants;
    EncodeKeyComponent(type, *limit, SortOrder::kAsc, &had);
    EncodeKeyComponent(type, value, SortOrder::kAsc, &wants);
    const int order = wants.compare(had);
    const bool tighter = lower ? order > 0 : order < 0;
    if (!tighter && !(order == 0 && !inclusive)) return;
  }
  limit = value;
  limit_inclusive = inclusive;
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
