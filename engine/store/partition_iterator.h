// PartitionIterator: the live partitions of a table in token order, streamed
// from a LevelDB iterator over a snapshot.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/store/row_fragment.h"

namespace cellfs {

// LevelDB-style iteration, like RowIterator. A partition is live while its
// static row has a live cell or it has a live row; deciding that reads the
// partition's rows up to its first live one. Moving to the next partition is
// one seek. Not thread-safe; keeps its snapshot alive.
class PartitionIterator {
 public:
  virtual ~PartitionIterator() = default;

  virtual bool Valid() const = 0;
  virtual void Next() = 0;  // REQUIRES: Valid()
  virtual Status status() const = 0;

  // REQUIRES: Valid() for all below.
  virtual int64_t token() const = 0;
  // The partition's position: encoded token and key (docs/FORMAT.md
  // "Storage layout"), valid until Next(). Usable as a resume point.
  virtual std::string_view position() const = 0;
  // The partition key values, decoded to canonical serialized bytes.
  virtual Status DecodePartitionKey(std::vector<std::string>* values) const = 0;
  // The live static cells (empty when there are none).
  virtual const RowFragment& static_row() const = 0;
  // The partition's first live row in stored order (its live content, as
  // RowIterator::row()), read while deciding that the partition is live;
  // null when its live static cells decided it and no row was read. In a
  // table without clustering columns (which has no static columns) it is
  // never null: it is the partition's one row, so listing such a table
  // needs no second read per partition.
  virtual const RowFragment* first_row() const = 0;
};

}  // namespace cellfs
