// TableScan: every live row of a table, partition by partition in token
// order and in clustering order within each, streamed (COPY TO's order).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/store/read_view.h"

namespace cellfs {

// LevelDB-style iteration over (partition, row) pairs. A partition whose
// only live data is its static row yields one entry with has_row() false,
// as CQL's SELECT does. Costs one seek per partition plus the rows read.
// Not thread-safe; the view's snapshot stays alive with it.
class TableScan {
 public:
  TableScan(ReadView view, TableHandle table);

  bool Valid() const { return valid_; }
  void Next();  // REQUIRES: Valid()
  Status status() const;

  // The current partition (REQUIRES: Valid()).
  const PartitionIterator& partition() const { return *partitions_; }
  // False for a static-only entry; then row() must not be called.
  bool has_row() const { return rows_ != nullptr && rows_->Valid(); }
  // The current row (REQUIRES: has_row()).
  const RowIterator& row() const { return *rows_; }

 private:
  // Opens the rows of the current partition; moves on while it has none and
  // no static row.
  void EnterPartition();

  ReadView view_;
  TableHandle table_;
  std::unique_ptr<PartitionIterator> partitions_;
  std::unique_ptr<RowIterator> rows_;
  std::vector<std::string> partition_key_;
  Status status_;
  bool valid_ = false;
};

}  // namespace cellfs
