// RowMatches (fs/formats/row_query.h): equality filters checked against one row.
#include "fs/formats/row_query.h"

namespace cellfs::fs {

bool RowMatches(const TableSchema& table, const RowQuery& query,
                std::span<const std::string> partition_key, std::span<const std::string> clustering,
                const RowFragment* static_row, const RowFragment& row) {
  for (const RowQuery::Equals& filter : query.filters) {
    const ColumnDef& column = table.column(filter.column);
    const auto position = static_cast<size_t>(column.position);
    const std::string* value = nullptr;
    if (column.kind == ColumnKind::kPartitionKey) {
      if (position < partition_key.size()) value = &partition_key[position];
    } else if (column.kind == ColumnKind::kClustering) {
      if (position < clustering.size()) value = &clustering[position];
    } else {
      const RowFragment* source = column.kind == ColumnKind::kStatic ? static_row : &row;
      const RowCell* cell =
          source != nullptr ? source->FindCell(table.column_ids[filter.column]) : nullptr;
      if (cell != nullptr && !cell->cell.is_tombstone()) value = &cell->cell.value;
    }
    if (value == nullptr || *value != filter.value) return false;
  }
  return true;
}

}  // namespace cellfs::fs
