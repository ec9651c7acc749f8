// Index entries from the cells and keys of a stored fragment.
#include "engine/store/internal/index_entries.h"

#include "engine/cql/cql_identifier.h"
#include "engine/cql/key_codec.h"
#include "engine/store/internal/storage_keys.h"

namespace cellfs::storage {
namespace {

constexpr size_t kTokenBytes = 8;

// The ascending component of key column `column` found in `group`.
Status KeyColumnValue(const TableSchema& table, const ColumnDef& column, std::string_view group,
                      size_t prefix_size, std::string* out) {
  const bool in_partition = column.kind == ColumnKind::kPartitionKey;
  std::string_view in = in_partition ? group.substr(kTablePrefixBytes + kTokenBytes,
                                                    prefix_size - kTablePrefixBytes - kTokenBytes)
                                     : group.substr(prefix_size + 1);
  std::string value;
  for (const ColumnDef& key : table.def.columns) {
    if (key.kind != column.kind) continue;
    const SortOrder order = in_partition ? SortOrder::kAsc : key.order;
    if (key.position != column.position) {
      CELLFS_RETURN_IF_ERROR(DecodeKeyComponent(*key.type, order, &in, &value));
      continue;
    }
    if (order == SortOrder::kAsc) {
      std::string_view start = in;
      CELLFS_RETURN_IF_ERROR(DecodeKeyComponent(*key.type, order, &in, &value));
      out->append(start.substr(0, start.size() - in.size()));
    } else {
      CELLFS_RETURN_IF_ERROR(DecodeKeyComponent(*key.type, order, &in, &value));
      EncodeKeyComponent(*key.type, value, SortOrder::kAsc, out);
    }
    return Status::Ok();
  }
  return Status::Corruption("key column " + column.name + " not found");
}

}  // namespace

void AppendIndexValue(const TableSchema& table, const IndexSchema& index, const RowCell& cell,
                      std::string* out) {
  const CqlType& type = *table.column(index.column).type;
  if (cell.path.empty()) {  // a simple cell: a whole (frozen) value
    EncodeKeyComponent(type, cell.cell.value, SortOrder::kAsc, out);
    return;
  }
  switch (type.kind()) {
    case TypeKind::kSet:  // the element is the path, already a component
      out->append(cell.path);
      return;
    case TypeKind::kList:
      EncodeKeyComponent(*type.params()[0], cell.cell.value, SortOrder::kAsc, out);
      return;
    case TypeKind::kMap:
      if (index.target == IndexTargetKind::kKeys || index.target == IndexTargetKind::kEntries) {
        out->append(cell.path);
      }
      if (index.target != IndexTargetKind::kKeys) {
        EncodeKeyComponent(*type.params()[1], cell.cell.value, SortOrder::kAsc, out);
      }
      return;
    default:
      return;
  }
}

namespace {

// FBUtilities.MAX_UNSIGNED_SHORT: Cassandra refuses an indexed value this
// long or longer.
constexpr size_t kMaxIndexedValueBytes = 0xFFFF;

// The serialized length of a collection element kept as a key component
// (a set's element, a map's key, in the cell's path).
size_t ElementSize(const CqlType& type, std::string_view component) {
  std::string value;
  if (!DecodeKeyComponent(type, SortOrder::kAsc, &component, &value).ok()) return 0;
  return value.size();
}

// The size Cassandra gives the value `index` takes from `cell`.
size_t IndexedValueSize(const CqlType& type, const IndexSchema& index, const RowCell& cell) {
  if (cell.path.empty()) return cell.cell.value.size();
  switch (type.kind()) {
    case TypeKind::kSet:
      return ElementSize(*type.params()[0], cell.path);
    case TypeKind::kList:
      return cell.cell.value.size();
    case TypeKind::kMap: {
      const size_t key = ElementSize(*type.params()[0], cell.path);
      if (index.target == IndexTargetKind::kKeys) return key;
      if (index.target == IndexTargetKind::kEntries) {
        return 2 + key + 1 + 2 + cell.cell.value.size() + 1;  // CompositeType(key, value)
      }
      return cell.cell.value.size();
    }
    default:
      return cell.cell.value.size();
  }
}

}  // namespace

Status CheckIndexedValues(const TableSchema& table, const RowFragment& fragment) {
  for (size_t i = 0; i < table.indexes.size(); ++i) {
    const IndexSchema& index = table.indexes[i];
    const ColumnDef& column = table.column(index.column);
    if (column.is_primary_key()) continue;
    const uint32_t id = table.column_ids[index.column];
    for (const RowCell& cell : fragment.cells) {
      if (cell.column_id != id || cell.cell.kind != CellKind::kRegular) continue;
      const size_t size = IndexedValueSize(*column.type, index, cell);
      if (size < kMaxIndexedValueBytes) continue;
      const std::string name = i < table.def.indexes.size() ? table.def.indexes[i].name : "";
      return Status::InvalidArgument(
          "Cannot index value of size " + std::to_string(size) + " for index " + name + " on " +
          QuoteIdentifier(table.def.keyspace) + "." + QuoteIdentifier(table.def.name) + "(" +
          column.name + ") (maximum allowed size=" + std::to_string(kMaxIndexedValueBytes) + ")");
    }
  }
  return Status::Ok();
}

Status IndexValuesOf(const TableSchema& table, const IndexSchema& index, std::string_view group,
                     size_t prefix_size, const RowFragment& fragment,
                     std::vector<std::string>* values) {
  const ColumnDef& column = table.column(index.column);
  if (column.is_primary_key()) {
    const bool is_row =
        group.size() > prefix_size && group[prefix_size] == static_cast<char>(EntryKind::kRow);
    if (column.kind == ColumnKind::kClustering && !is_row) return Status::Ok();
    if (fragment.cells.empty() && !fragment.marker) return Status::Ok();  // a deletion only
    values->emplace_back();
    return KeyColumnValue(table, column, group, prefix_size, &values->back());
  }
  const uint32_t column_id = table.column_ids[index.column];
  const bool multi_cell = column.type->is_multi_cell();
  for (const RowCell& cell : fragment.cells) {
    if (cell.column_id < column_id) continue;
    if (cell.column_id > column_id) break;
    if (cell.cell.kind != CellKind::kRegular) continue;
    // A multi-cell column's head holding a whole value predates element
    // cells (docs/FORMAT.md "Element cells"); index builds see it split.
    if (multi_cell && cell.path.empty()) continue;
    values->emplace_back();
    AppendIndexValue(table, index, cell, &values->back());
  }
  return Status::Ok();
}

size_t MakeIndexEntryKey(const TableSchema& table, const IndexSchema& index, std::string_view value,
                         std::string_view group, size_t prefix_size, std::string* key) {
  key->clear();
  AppendIndexPrefix(index.id, key);
  key->append(value);
  const size_t value_end = key->size();
  if (table.column(index.column).kind == ColumnKind::kPartitionKey) {
    key->append(group.substr(kTablePrefixBytes, prefix_size - kTablePrefixBytes));
    AppendEntryKind(EntryKind::kStaticRow, key);
  } else {
    key->append(group.substr(kTablePrefixBytes));
  }
  return value_end;
}

void PutIndexEntries(const TableSchema& table, std::string_view group, size_t prefix_size,
                     const RowFragment& fragment, std::vector<std::string>* scratch,
                     std::string* key, Batch* batch) {
  for (const IndexSchema& index : table.indexes) {
    scratch->clear();
    if (!IndexValuesOf(table, index, group, prefix_size, fragment, scratch).ok()) continue;
    for (const std::string& value : *scratch) {
      const size_t value_end = MakeIndexEntryKey(table, index, value, group, prefix_size, key);
      batch->Put(IndexAddress(*key, value_end), {});
    }
  }
}

uint64_t IndexFingerprint(const TableSchema& table) {
  uint64_t fingerprint = 0;
  for (const IndexSchema& index : table.indexes) fingerprint = fingerprint * 1000003 + index.id;
  for (const TableHandle& view : table.views) fingerprint = fingerprint * 1000003 + view->id;
  return fingerprint;
}

}  // namespace cellfs::storage
