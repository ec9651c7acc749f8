// RowMatches (fs/formats/row_query.h): equality filters and slice bounds
// checked against one row.
#include "fs/formats/row_query.h"

#include "engine/cql/key_codec.h"

namespace cellfs::fs {
namespace {

// The row's value of column `index`; null when absent or deleted.
const std::string* ValueOf(const TableSchema& table, size_t index,
                           std::span<const std::string> partition_key,
                           std::span<const std::string> clustering, const RowFragment* static_row,
                           const RowFragment& row) {
  const ColumnDef& column = table.column(index);
  const auto position = static_cast<size_t>(column.position);
  if (column.kind == ColumnKind::kPartitionKey) {
    return position < partition_key.size() ? &partition_key[position] : nullptr;
  }
  if (column.kind == ColumnKind::kClustering) {
    return position < clustering.size() ? &clustering[position] : nullptr;
  }
  const RowFragment* source = column.kind == ColumnKind::kStatic ? static_row : &row;
  const RowCell* cell = source != nullptr ? source->FindCell(table.column_ids[index]) : nullptr;
  return cell != nullptr && !cell->cell.is_tombstone() ? &cell->cell.value : nullptr;
}

// Whether `value` lies on the allowed side of `bound`, in the type's order
// (the order-preserving key encoding compares as the type does).
bool Within(const CqlType& type, const std::string& value, const RowQuery::Bound& bound) {
  using Op = RowQuery::Bound::Op;
  std::string encoded, limit;
  EncodeKeyComponent(type, value, SortOrder::kAsc, &encoded);
  EncodeKeyComponent(type, bound.value, SortOrder::kAsc, &limit);
  const int order = encoded.compare(limit);
  switch (bound.op) {
    case Op::kGe:
      return order >= 0;
    case Op::kGt:
      return order > 0;
    case Op::kLe:
      return order <= 0;
    case Op::kLt:
      return order < 0;
  }
  return false;
}

}  // namespace

bool RowMatches(const TableSchema& table, const RowQuery& query,
                std::span<const std::string> partition_key, std::span<const std::string> clustering,
                const RowFragment* static_row, const RowFragment& row) {
  for (const RowQuery::Equals& filter : query.filters) {
    const std::string* value =
        ValueOf(table, filter.column, partition_key, clustering, static_row, row);
    if (value == nullptr || *value != filter.value) return false;
  }
  for (const RowQuery::Bound& bound : query.bounds) {
    const std::string* value =
        ValueOf(table, bound.column, partition_key, clustering, static_row, row);
    if (value == nullptr || !Within(*table.column(bound.column).type, *value, bound)) return false;
  }
  return true;
}

}  // namespace cellfs::fs
