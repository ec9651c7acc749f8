// View entries from the keys and cells of a stored base fragment.
#include "engine/store/internal/view_entries.h"

#include <algorithm>

#include "engine/cql/cql_identifier.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/token.h"

namespace cellfs::storage {
namespace {

constexpr size_t kTokenBytes = 8;

// Whether the fragment holds anything that can keep a row alive.
bool HasLiveContent(const RowFragment& fragment) {
  if (fragment.marker) return true;
  return std::any_of(fragment.cells.begin(), fragment.cells.end(),
                     [](const RowCell& cell) { return !cell.cell.is_tombstone(); });
}

// The base key values of a row group; false when it is not a row's or does
// not decode.
bool DecodeBaseKey(const TableSchema& base, std::string_view group, size_t prefix_size,
                   std::vector<std::string>* values) {
  if (group.size() <= prefix_size ||
      static_cast<EntryKind>(group[prefix_size]) != EntryKind::kRow ||
      prefix_size < kTablePrefixBytes + kTokenBytes) {
    return false;
  }
  std::vector<std::string> clustering;
  const std::string_view partition =
      group.substr(kTablePrefixBytes + kTokenBytes, prefix_size - kTablePrefixBytes - kTokenBytes);
  if (!DecodePartitionKey(base, partition, values).ok()) return false;
  if (!DecodeClustering(base, group.substr(prefix_size + 1), &clustering).ok()) return false;
  for (std::string& value : clustering) values->push_back(std::move(value));
  return true;
}

}  // namespace

Status CheckViewKeyValues(const TableSchema& base, const RowFragment& fragment) {
  constexpr size_t kMaxKeyValueBytes = 0xFFFF;  // a key component's u16 length
  for (const TableHandle& handle : base.views) {
    const TableSchema& view = *handle;
    if (!view.view->regular_key) continue;
    const RowCell* cell = fragment.FindCell(view.view->regular_key_column_id);
    if (cell == nullptr || cell->cell.kind != CellKind::kRegular) continue;
    if (cell->cell.value.size() <= kMaxKeyValueBytes) continue;
    const ColumnDef& column = view.column(*view.view->regular_key);
    return Status::InvalidArgument(
        "Key length of " + std::to_string(cell->cell.value.size()) + " is longer than maximum of " +
        std::to_string(kMaxKeyValueBytes) + ": column " + column.name +
        " is in the primary key of materialized view " + QuoteIdentifier(view.def.keyspace) + "." +
        QuoteIdentifier(view.def.name));
  }
  return Status::Ok();
}

void ViewKeyOf(const TableSchema& view, std::span<const std::string> base_key,
               std::string_view regular_value, std::vector<std::string>* view_key) {
  const ViewSchema& map = *view.view;
  view_key->resize(map.base_column.size());
  for (size_t i = 0; i < map.base_column.size(); ++i) {
    if (map.regular_key && *map.regular_key == i) {
      (*view_key)[i].assign(regular_value);
    } else {
      (*view_key)[i] = base_key[map.base_column[i]];  // base key columns come first
    }
  }
}

void BaseKeyOf(const TableSchema& view, std::span<const std::string> view_key,
               std::vector<std::string>* base_key) {
  const ViewSchema& map = *view.view;
  base_key->resize(map.view_key_position.size());
  for (size_t i = 0; i < map.view_key_position.size(); ++i) {
    (*base_key)[i] = view_key[map.view_key_position[i]];
  }
}

Status MakeViewEntryKey(const TableSchema& view, std::span<const std::string> view_key,
                        std::string* key, size_t* prefix_size) {
  const size_t partition_count = view.partition_key_count();
  PartitionKey partition;
  CELLFS_RETURN_IF_ERROR(EncodePartitionKey(view, view_key.first(partition_count), &partition));
  key->clear();
  AppendViewPrefix(view.id, key);
  EncodeToken(partition.token, key);
  key->append(partition.encoded);
  *prefix_size = key->size();
  return EncodeClustering(view, view_key.subspan(partition_count), false, key);
}

void PutViewEntries(const TableSchema& base, std::string_view group, size_t prefix_size,
                    const RowFragment& fragment, ViewEntryScratch* scratch, Batch* batch) {
  if (!HasLiveContent(fragment)) return;
  bool decoded = false;
  for (const TableHandle& handle : base.views) {
    const TableSchema& view = *handle;
    std::string_view regular_value;
    if (view.view->regular_key) {
      const RowCell* cell = fragment.FindCell(view.view->regular_key_column_id);
      if (cell == nullptr || cell->cell.kind != CellKind::kRegular) continue;
      regular_value = cell->cell.value;
    }
    if (!decoded) {
      scratch->base_key.clear();
      if (!DecodeBaseKey(base, group, prefix_size, &scratch->base_key)) return;
      decoded = true;
    }
    ViewKeyOf(view, scratch->base_key, regular_value, &scratch->view_key);
    size_t view_prefix = 0;
    if (!MakeViewEntryKey(view, scratch->view_key, &scratch->key, &view_prefix).ok()) continue;
    batch->Put(DataAddress(scratch->key, view_prefix), {});
  }
}

}  // namespace cellfs::storage
