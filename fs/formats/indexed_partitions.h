// IndexedPartitions: the partitions a secondary index names for one value
// or a slice of values, each once, in token order: what a table-wide read
// narrowed by an indexed restriction visits instead of every partition
// (SELECT ... WHERE v = x, the @where and @by paths, @by slices).
#pragma once

#include <map>
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
  static constexpr size_t kMaxGatheredPartitions = 100'000;

  // Errors as ReadView::NewIndexIterator (an index still being built, or
  // dropped since `table` was looked up: see IndexUnusable). One value's
  // matches are in token order already and stream; a slice's come in value
  // order, so Open reads them all first and keeps each partition's key once
  // (memory: the distinct partitions matched), then hands them out in
  // token order. Past kMaxGatheredPartitions it gives up with
  // FailedPrecondition (IndexUnusable: the reader scans, with the same
  // rows), so memory stays bounded.
  static Result<std::unique_ptr<IndexedPartitions>> Open(const ReadView& view,
                                                         const TableHandle& table, size_t index,
                                                         const IndexBounds& bounds);

  // Moves to the next partition (the first, on the first call); false at
  // the end or on an error (status()).
  bool Next();
  Status status() const { return status_; }
  // REQUIRES: the last Next() returned true.
  const std::vector<std::string>& partition_key() const { return key_; }

 private:
  explicit IndexedPartitions(std::unique_ptr<IndexIterator> matches)
      : matches_(std::move(matches)) {}
  IndexedPartitions() = default;

  std::unique_ptr<IndexIterator> matches_;  // one value's, streamed; null for a slice
  // A slice's partitions by position (token, then key): their keys.
  std::map<std::string, std::vector<std::string>> gathered_;
  std::map<std::string, std::vector<std::string>>::iterator next_;
  bool started_ = false;
  std::vector<std::string> key_;
  Status status_;
};

// Narrows `bounds` (on values of `type`) by one more bound: a lower one
// (`lower`) or an upper one, inclusive or not, at serialized `value`; the
// tighter of it and the bound already there stays.
void NarrowIndexBounds(const CqlType& type, bool lower, bool inclusive, const std::string& value,
                       IndexBounds* bounds);

// Whether `status` from Open says only that the index cannot serve this
// read (still being built, or dropped meanwhile): the reader then scans
// the table, which gives the same rows.
bool IndexUnusable(const Status& status);

// The index of `table` that answers `column = value` for a whole value (a
// plain or FULL index on that column, a built one first); nullopt when
// none does.
std::optional<size_t> WholeValueIndex(const TableSchema& table, size_t column);

}  // namespace cellfs::fs
