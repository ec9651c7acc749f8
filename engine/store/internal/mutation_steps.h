// The steps Mutation's operations share (mutation.cc, mutation_elements.cc):
// checks of write attributes and columns, the cell slots of the row and
// static-row builders, and the partition a write goes to.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/cell.h"
#include "engine/store/internal/mutation_batch.h"
#include "engine/store/mutation.h"

namespace cellfs::mutation_steps {

// The errors of the checks below, kept out of line so that the checks
// inline and a valid write builds no Status message (a bulk load makes
// several checks per row).
Status TimestampError();
Status TtlRangeError(int64_t seconds);
Status DataColumnError(const TableSchema& table, size_t index);

// InvalidArgument for USING TIMESTAMP INT64_MIN.
inline Status CheckTimestamp(const WriteAttributes& attributes) {
  if (attributes.timestamp && *attributes.timestamp == INT64_MIN) return TimestampError();
  return Status::Ok();
}
// InvalidArgument when a TTL is given to `what` (a deletion, counters).
Status CheckNoTtl(const WriteAttributes& attributes, std::string_view what);
// The TTL a write gets: USING TTL, else the table's default; checks range.
inline Status ResolveTtl(const TableSchema& table, const WriteAttributes& attributes,
                         uint32_t* ttl) {
  CELLFS_RETURN_IF_ERROR(CheckTimestamp(attributes));
  const int64_t seconds = attributes.ttl.value_or(table.def.options.default_time_to_live);
  if (seconds < 0 || seconds > int64_t{kMaxTtlSeconds}) return TtlRangeError(seconds);
  *ttl = static_cast<uint32_t>(seconds);
  return Status::Ok();
}
// InvalidArgument unless `index` is a static or regular column of `table`.
inline Status CheckDataColumn(const TableSchema& table, size_t index) {
  if (index < table.def.columns.size() && !table.column(index).is_primary_key()) {
    return Status::Ok();
  }
  return DataColumnError(table, index);
}

// The slot for a cell of column `index` (in the row or the static row),
// with its column id set and an empty path; the caller fills the cell.
RowCell& AddCell(const TableSchema& table, size_t index, FragmentBuilder* row,
                 FragmentBuilder* static_row);
// REQUIRES: `value` does not point into the slot.
void SetCell(RowCell* slot, CellKind kind, int64_t write_time, int64_t local_deletion_time,
             uint32_t ttl, std::string_view value);
// Sorts both builders; InvalidArgument for a column (or element) given twice.
Status FinishCells(const TableSchema& table, FragmentBuilder* row, FragmentBuilder* static_row);

// The element cells of `value`, a whole value of multi-cell column
// `column`, at `timestamp` with `ttl` (0: none); list elements take paths at
// `list_time` and `list_nudge` with orders from `*list_order` on, which
// advances (storage::ListElementPath).
Status AppendElementCells(const TableSchema& table, size_t column, std::string_view value,
                          int64_t timestamp, uint32_t ttl, int64_t now_s, int64_t list_time,
                          uint64_t* list_order, FragmentBuilder* row, FragmentBuilder* static_row,
                          int32_t list_nudge = 0);

// The partition prefix of `partition_key` (docs/FORMAT.md "Storage layout").
Status ResolvePartition(const TableSchema& table, std::span<const std::string> partition_key,
                        std::string* prefix);

}  // namespace cellfs::mutation_steps
