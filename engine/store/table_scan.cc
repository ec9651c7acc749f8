// TableScan: a partition iterator with a row iterator opened per partition.
#include "engine/store/table_scan.h"

#include <utility>

namespace cellfs {

TableScan::TableScan(ReadView view, TableHandle table)
    : view_(std::move(view)),
      table_(std::move(table)),
      partitions_(view_.NewPartitionIterator(table_)) {
  EnterPartition();
}

Status TableScan::status() const {
  if (!status_.ok()) return status_;
  if (rows_ != nullptr && !rows_->status().ok()) return rows_->status();
  return partitions_->status();
}

void TableScan::EnterPartition() {
  valid_ = false;
  rows_.reset();
  for (; partitions_->Valid(); partitions_->Next()) {
    status_ = partitions_->DecodePartitionKey(&partition_key_);
    if (!status_.ok()) return;
    auto rows = view_.NewRowIterator(table_, partition_key_);
    if (!rows.ok()) {
      status_ = rows.status();
      return;
    }
    rows_ = std::move(rows).value();
    if (!rows_->status().ok()) return;
    // A live partition has a live row or a live static row.
    if (rows_->Valid() || !partitions_->static_row().cells.empty()) {
      valid_ = true;
      return;
    }
  }
}

void TableScan::Next() {
  if (has_row()) {
    rows_->Next();
    if (rows_->Valid()) return;
    if (!rows_->status().ok()) {
      valid_ = false;
      return;
    }
  }
  partitions_->Next();
  EnterPartition();
}

}  // namespace cellfs
