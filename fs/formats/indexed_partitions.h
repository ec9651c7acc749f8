// IndexedPartitions: the partitions a secondary index names for one value,
// each once, in the index's order (token order for one value): what a
// table-wide read narrowed by an indexed restriction visits instead of
// every partition (SELECT ... WHERE v = x, the @where and @by paths).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/status.h"
#include "engine/store/read_view.h"

namespace cellfs::fs {

// Not thread-safe. Every partition holding a row (or static row) with the
// value is visited; the caller reads it and checks its rows, so the rows
// it keeps are exactly a scan's.
class IndexedPartitions {
 public:
  // Errors as ReadView::NewIndexIterator (an index still being built, or
  // dropped since `table` was looked up: see IndexUnusable).
  static Result<std::unique_ptr<IndexedPartitions>> Open(const ReadView& view,
                                                         const TableHandle& table, size_t index,
                                                         const std::string& value);

  // Moves to the next partition (the first, on the first call); false at
  // the end or on an error (status()).
  bool Next();
  Status status() const { return matches_->status(); }
  // REQUIRES: the last Next() returned true.
  const std::vector<std::string>& partition_key() const { return key_; }

 private:
  explicit IndexedPartitions(std::unique_ptr<IndexIterator> matches)
      : matches_(std::move(matches)) {}

  std::unique_ptr<IndexIterator> matches_;
  bool started_ = false;
  std::vector<std::string> key_;
};

// Whether `status` from Open says only that the index cannot serve this
// read (still being built, or dropped meanwhile): the reader then scans
// the table, which gives the same rows.
bool IndexUnusable(const Status& status);

// The index of `table` that answers `column = value` for a whole value (a
// plain or FULL index on that column, a built one first); nullopt when
// none does.
std::optional<size_t> WholeValueIndex(const TableSchema& table, size_t column);

}  // namespace cellfs::fs
