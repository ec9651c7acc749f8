// RowQuery: what a query path asks of a stream of rows beyond the key:
// equality filters on any column (checked by scan), a stream-wide first N
// and a projection for exports (docs/FILESYSTEM.md "Queries past the key").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/store/index_iterator.h"
#include "engine/store/row_fragment.h"

namespace cellfs::fs {

// A plain value type; the empty query selects everything.
struct RowQuery {
  struct Equals {
    size_t column = 0;  // index in def.columns; never a non-frozen collection or UDT
    std::string value;  // serialized, compared byte for byte
  };
  std::vector<Equals> filters;  // all must hold (AND)
  // A slice of one column's values (an index lookup's @ge=/@gt=/@le=/@lt=):
  // the value must sort after `value` (kGe, kGt) or before it (kLe, kLt)
  // in the column type's order.
  struct Bound {
    enum class Op { kGe, kGt, kLe, kLt };
    size_t column = 0;  // index in def.columns; an orderable type
    Op op = Op::kGe;
    std::string value;  // serialized
  };
  std::vector<Bound> bounds;  // all must hold (AND)
  uint64_t limit = 0;         // 0: no limit; else the first N rows that pass
  // Exports only: the columns shown, in this order (indexes in def.columns);
  // empty: SELECT *'s columns.
  std::vector<size_t> columns;
  // Table-wide streams only: a whole-value index of one filtered column
  // (position in def.indexes) and the values the filters allow (one, or a
  // slice); the stream then reads the partitions the index names instead
  // of every partition.
  std::optional<size_t> index;
  IndexBounds index_bounds;

  bool empty() const { return filters.empty() && bounds.empty() && limit == 0 && columns.empty(); }
};

// Whether the row given by its keys, the partition's static row (may be
// null) and its regular cells passes every filter and bound. A clustering column
// missing from `clustering` (a partition holding only static cells) and an
// absent or deleted cell are null, which no filter matches, as in CQL.
// Pure; thread-safe.
bool RowMatches(const TableSchema& table, const RowQuery& query,
                std::span<const std::string> partition_key, std::span<const std::string> clustering,
                const RowFragment* static_row, const RowFragment& row);

}  // namespace cellfs::fs
