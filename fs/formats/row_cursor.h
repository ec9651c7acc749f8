// RowCursor: the rows a table, partition or slice shows as SELECT shows
// them, narrowed by a RowQuery (filters, a first N), one at a time from one
// read view. What @json, @csv, @count and the query listings walk.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/status.h"
#include "engine/store/read_view.h"
#include "engine/store/slice.h"
#include "fs/formats/indexed_partitions.h"
#include "fs/formats/row_query.h"

namespace cellfs::fs {

// What a stream covers: a whole table in token order, or one partition's
// rows that `slice` selects; `query` narrows either.
struct RowSource {
  TableHandle table;
  // Serialized key values; nullopt = the whole table.
  std::optional<std::vector<std::string>> partition_key;
  SliceSpec slice;        // partition streams only
  bool is_slice = false;  // a slice never shows a static-only row
  RowQuery query;
};

// Not thread-safe. Memory stays flat: one partition iterator and one row
// iterator at a time. A partition whose only live data is its static row
// is one entry with no clustering values (as SELECT shows it), except in a
// slice, or when `rows_only` (listings: such a partition has no row
// directory); the query's limit counts entries as they are yielded. Costs
// one seek per partition plus every row read, whether or not it matches;
// a table stream whose query names an index (RowQuery::index) reads only
// the partitions the index names.
class RowCursor {
 public:
  RowCursor(RowSource source, ReadView view, bool rows_only = false);
  ~RowCursor();
  RowCursor(const RowCursor&) = delete;
  RowCursor& operator=(const RowCursor&) = delete;

  // Moves to the next selected row (the first, on the first call); false
  // at the end or on error (status()).
  bool Next();
  Status status() const { return status_; }

  // The current entry (REQUIRES: the last Next() returned true). The spans
  // and references stay valid until the next call of Next().
  std::span<const std::string> partition_key() const { return partition_key_; }
  std::span<const std::string> clustering() const { return clustering_; }
  const RowFragment* static_row() const { return static_row_ ? &*static_row_ : nullptr; }
  const RowFragment& row() const;
  const TableSchema& table() const { return *source_.table; }

 private:
  bool StartPartition();  // positions rows_ on the next partition
  bool Step();            // the next entry, ignoring the query
  RowSource source_;
  ReadView view_;
  bool rows_only_;
  std::unique_ptr<PartitionIterator> partitions_;  // table streams only
  std::unique_ptr<IndexedPartitions> indexed_;     // table streams narrowed by an index
  std::vector<std::string> partition_key_;
  std::vector<std::string> clustering_;
  std::optional<RowFragment> static_row_;
  std::unique_ptr<RowIterator> rows_;
  bool on_row_ = false;       // the current entry is rows_'s row (advance it first)
  bool rows_seen_ = false;    // the current partition had a row
  bool single_done_ = false;  // a partition or slice stream has exactly one partition
  uint64_t yielded_ = 0;
  RowFragment no_row_;  // a static-only entry's regular cells: none
  Status status_;
};

}  // namespace cellfs::fs
