// A view row's check against its base row, and its projection.
#include "engine/store/internal/view_row_check.h"

#include <algorithm>

#include "engine/cql/key_codec.h"
#include "engine/store/internal/catalog_store.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/internal/view_entries.h"

namespace cellfs::storage {
namespace {

std::string Component(const CqlType& type, std::string_view value) {
  std::string out;
  EncodeKeyComponent(type, value, SortOrder::kAsc, &out);
  return out;
}

// Whether key value `value` of view column `column` satisfies `restriction`
// (in the type's order: ascending key components compare as the values do).
bool Satisfies(const ColumnDef& column, std::string_view value,
               const ViewRestriction& restriction) {
  const std::string have = Component(*column.type, value);
  for (const std::string& bound : restriction.values) {
    const int c = have.compare(Component(*column.type, bound));
    switch (restriction.op) {
      case ViewRestriction::Op::kEq:
      case ViewRestriction::Op::kIn:
        if (c == 0) return true;
        break;
      case ViewRestriction::Op::kLt:
        return c < 0;
      case ViewRestriction::Op::kLe:
        return c <= 0;
      case ViewRestriction::Op::kGt:
        return c > 0;
      case ViewRestriction::Op::kGe:
        return c >= 0;
    }
  }
  return false;
}

bool SatisfiesRestrictions(const TableSchema& view, std::span<const std::string> view_key) {
  for (const ViewRestriction& restriction : view.def.view->restrictions) {
    const ColumnDef* column = view.def.FindColumn(restriction.column);
    if (column == nullptr || !column->is_primary_key()) continue;  // the catalog refuses these
    const size_t position =
        column->kind == ColumnKind::kPartitionKey
            ? static_cast<size_t>(column->position)
            : view.partition_key_count() + static_cast<size_t>(column->position);
    if (!Satisfies(*column, view_key[position], restriction)) return false;
  }
  return true;
}

RowMarker MarkerFrom(const Cell& cell) {
  RowMarker marker;
  marker.write_time = cell.write_time;
  if (cell.is_expiring()) {
    marker.ttl = cell.ttl;
    marker.expiry = cell.local_deletion_time;
  }
  return marker;
}

// The marker of a view row whose base row has none: it lives exactly as
// long as what keeps the view row alive: the regular key cell, else the
// base row (its newest cell's time; no expiry while any cell has none,
// else the latest expiry).
RowMarker LentMarker(const RowFragment& base_row, const RowCell* key_cell) {
  if (key_cell != nullptr) return MarkerFrom(key_cell->cell);
  RowMarker marker;
  const Cell* latest = nullptr;
  bool expires = true;
  for (const RowCell& cell : base_row.cells) {
    marker.write_time = std::max(marker.write_time, cell.cell.write_time);
    if (!cell.cell.is_expiring()) {
      expires = false;
    } else if (latest == nullptr || cell.cell.local_deletion_time > latest->local_deletion_time) {
      latest = &cell.cell;
    }
  }
  if (expires && latest != nullptr) {
    marker.ttl = latest->ttl;
    marker.expiry = latest->local_deletion_time;
  }
  return marker;
}

}  // namespace

Result<TableHandle> ViewBase(const ReadState& state, const TableSchema& view) {
  std::shared_ptr<const SchemaState> schema = state.core->CurrentSchema();
  TableHandle base = schema->FindTableById(view.view->base_table_id);
  // A view dropped after its handle was taken: its entries' space may be
  // being reclaimed, so it is read no more (as a dropped index).
  if (base == nullptr || !schema->IsLiveId(view.id)) {
    return Status::NotFound("materialized view " + view.def.name + " was dropped");
  }
  // Built by the snapshot's time, so the build's entries are all in it (a
  // snapshot from before the view existed, or before its build ended, may
  // lack some).
  if (TableHandle then = state.schema_before->FindTableById(view.id);
      then == nullptr || !then->view || !then->view->built) {
    return Status::Aborted("materialized view " + view.def.name + " is still being built");
  }
  return base;
}

Result<std::optional<RowFragment>> ReadViewRow(const ReadView& base_reader, const TableHandle& base,
                                               const TableSchema& view,
                                               std::span<const std::string> view_key) {
  const ViewSchema& map = *view.view;
  if (!SatisfiesRestrictions(view, view_key)) return std::optional<RowFragment>();
  std::vector<std::string> base_key;
  BaseKeyOf(view, view_key, &base_key);
  const size_t partition_count = base->partition_key_count();
  auto row = base_reader.GetRow(base, std::span(base_key).first(partition_count),
                                std::span(base_key).subspan(partition_count));
  if (!row.ok()) return row.status();
  if (!row->has_value()) return std::optional<RowFragment>();
  RowFragment& base_row = **row;
  const RowCell* key_cell = nullptr;
  if (map.regular_key) {
    key_cell = base_row.FindCell(map.regular_key_column_id);
    const CqlType& type = *view.column(*map.regular_key).type;
    if (key_cell == nullptr ||
        Component(type, key_cell->cell.value) != Component(type, view_key[*map.regular_key])) {
      return std::optional<RowFragment>();
    }
  }
  RowFragment out;
  out.marker = base_row.marker;
  if (!out.marker) out.marker = LentMarker(base_row, key_cell);
  for (RowCell& cell : base_row.cells) {
    if (view.ColumnIndexById(cell.column_id)) out.cells.push_back(std::move(cell));
  }
  return std::optional<RowFragment>(std::move(out));
}

std::string ViewPartitionPrefix(std::string_view data_prefix) {
  std::string prefix(data_prefix);
  if (!prefix.empty()) prefix[0] = kViewTag;
  return prefix;
}

}  // namespace cellfs::storage
