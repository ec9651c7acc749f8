// RowIterator: the live rows of one partition slice, streamed in clustering
// order (or its reverse) from a LevelDB iterator over a snapshot.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/store/row_fragment.h"

namespace cellfs {

// LevelDB-style iteration:
//   for (; it->Valid(); it->Next()) use(it->clustering_key(), it->row());
//   if (!it->status().ok()) ...
// Only live rows are returned (marker or cell live at the view's time, not
// shadowed by a row, range or partition deletion). Each costs the merge of
// its fragments; seeking to a bound costs one LevelDB seek, so a slice costs
// O(log n + rows returned) whatever the partition's width (dead rows in
// range are skipped, and cost their read).
//
// Not thread-safe; one iterator per thread. Keeps its snapshot alive.
class RowIterator {
 public:
  virtual ~RowIterator() = default;

  // True while positioned at a row; false at the end or after an error.
  virtual bool Valid() const = 0;
  // REQUIRES: Valid()
  virtual void Next() = 0;
  // Ok at the end; the error that ended the iteration otherwise.
  virtual Status status() const = 0;

  // The row's encoded clustering key (docs/FORMAT.md "Storage layout"),
  // valid until Next(). Usable as SliceSpec::resume_after. REQUIRES: Valid()
  virtual std::string_view clustering_key() const = 0;
  // The clustering values, decoded to canonical serialized bytes.
  // REQUIRES: Valid()
  virtual Status DecodeClustering(std::vector<std::string>* values) const = 0;
  // The row's live content at the view's time: the live marker if any and
  // the live cells (never tombstones, expired cells or a deletion), by
  // column id, with write times and TTLs. Valid until Next().
  // REQUIRES: Valid()
  virtual const RowFragment& row() const = 0;

  // The tombstones the walk has met so far, as Cassandra counts those a
  // read scans (its tombstone_warn_threshold): each deleted or expired cell
  // and each row deletion in the rows read, dead rows included, and, once
  // when the walk starts, the partition's deletion, its range deletions and
  // its static row's deleted or expired cells (whatever the slice). Rows
  // the sweeper buried count only with SliceSpec::count_buried_tombstones.
  // 0 for iterators that do not count them.
  virtual uint64_t tombstones_read() const { return 0; }
};

}  // namespace cellfs
