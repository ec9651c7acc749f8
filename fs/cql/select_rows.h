// SelectRowReader: the rows of a SelectQuery, read one at a time from one
// snapshot, never more than one row and one partition's iterators held:
// partitions by key (kKeys) or in token order (a scan), each partition's
// slices in order, filters, PER PARTITION LIMIT and LIMIT, DISTINCT, and
// Cassandra's row for a partition holding only static cells. Internal to
// fs/cql.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "fs/cql/select_query.h"
#include "fs/formats/indexed_partitions.h"

namespace cellfs::fs {

// One result row: a serialized value per output column, nullopt for null.
using SelectRow = std::vector<std::optional<std::string>>;

// Not thread-safe; one per statement. Keeps its snapshot alive.
class SelectRowReader {
 public:
  // `query.outputs` must not hold kCount or kAggregate (the caller
  // aggregates: select_aggregation.h).
  SelectRowReader(ReadView view, SelectQuery query);
  ~SelectRowReader();

  // The next row into *row, true; false at the end or on an error (then
  // status() says which).
  bool Next(SelectRow* row);
  const Status& status() const { return status_; }

 private:
  // Moves to the next partition that may hold rows; false at the end.
  bool NextPartition();
  // NextPartition for a query an index answers.
  bool NextIndexedPartition();
  // The next row of the current partition; false when it has no more.
  bool NextRowInPartition(SelectRow* row);
  bool OpenSlice();
  bool Keep(const std::vector<std::string>& clustering, const RowFragment* row) const;
  // The row's output values; false after Fail when a function fails.
  bool Emit(const std::vector<std::string>& clustering, const RowFragment* row, SelectRow* out);
  Status Evaluate(const OutputColumn& output, const std::vector<std::string>& clustering,
                  const RowFragment* row, std::optional<std::string>* out) const;
  bool Fail(Status status);

  ReadView view_;
  SelectQuery query_;
  Status status_;
  uint64_t emitted_ = 0;
  bool done_ = false;

  // Partition source: query_.keys (next_key_) or a scan.
  size_t next_key_ = 0;
  std::unique_ptr<PartitionIterator> scan_;
  std::unique_ptr<IndexedPartitions> indexed_;  // a scan narrowed by query_.index
  bool scan_started_ = false;

  // The current partition.
  bool in_partition_ = false;
  std::vector<std::string> partition_key_;
  int64_t token_ = 0;
  std::optional<RowFragment> static_row_;
  size_t slice_ = 0;
  std::unique_ptr<RowIterator> rows_;
  uint64_t partition_rows_ = 0;     // rows emitted from this partition
  bool partition_had_row_ = false;  // a live row was read (before filters)
};

}  // namespace cellfs::fs
