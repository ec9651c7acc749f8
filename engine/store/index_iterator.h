// IndexIterator: the rows a secondary index finds for a value or a range of
// values, each checked against the row itself at the read's snapshot, so
// it answers exactly what a scan with the same filter would (docs/ENGINE.md
// "Secondary indexes").
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/cql_type.h"
#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/row_fragment.h"

namespace cellfs {

// Bounds on the indexed value, as serialized values of IndexedValueType:
// equality is lower == upper, both inclusive; nullopt is unbounded.
struct IndexBounds {
  std::optional<std::string> lower;
  bool lower_inclusive = true;
  std::optional<std::string> upper;
  bool upper_inclusive = true;
  // When set, a further test of each value within the bounds (serialized):
  // the entries of a value it refuses are skipped without reading their
  // rows (a LIKE '%abc%', an analysed comparison). Not for ENTRIES indexes.
  std::function<bool(std::string_view value)> accept;

  static IndexBounds Equal(std::string value) { return {value, true, value, true, nullptr}; }
};

// What values of an index are: the column's type (a simple or FULL
// index), a collection's element type (VALUES of a list or set, a map's
// values), its key type (KEYS), or for ENTRIES a frozen map<key, value>
// holding one entry.
TypePtr IndexedValueType(const TableSchema& table, const IndexSchema& index);

// LevelDB-style iteration over the matches, ordered by indexed value, then
// token, partition key, and (for row matches) clustering order. A match is
// a row (a regular or clustering column's index) or a whole partition (a
// static or partition key column's index: every row of it matches, and its
// static row when it has no row). Entries whose row no longer holds the
// value (overwritten, deleted, expired) are skipped. Not thread-safe.
class IndexIterator {
 public:
  virtual ~IndexIterator() = default;
  virtual bool Valid() const = 0;
  virtual void Next() = 0;  // REQUIRES: Valid()
  virtual Status status() const = 0;

  // REQUIRES: Valid() for all below; valid until Next().
  virtual std::span<const std::string> partition_key() const = 0;
  // Whether the match is the whole partition (then clustering() is empty).
  virtual bool partition_match() const = 0;
  virtual std::span<const std::string> clustering() const = 0;
  // A row match's live content (as ReadView::GetRow); a partition match's
  // live static row (empty when it has none).
  virtual const RowFragment& row() const = 0;
  // The match's indexed value as its ascending key component (docs/FORMAT.md
  // "Index entries"): equal for matches of one value, in value order.
  virtual std::string_view value() const = 0;
};

}  // namespace cellfs
