// Mutations: CQL writes validated, turned into row fragments, range and
// partition deletions with their expiry-index entries, and encoded into one
// LevelDB WriteBatch (docs/FORMAT.md "Storage layout").
#include "engine/store/mutation.h"

#include <algorithm>
#include <utility>

#include "engine/cql/literal.h"
#include "engine/store/cell.h"
#include "engine/store/internal/clustering_ranges.h"
#include "engine/store/internal/element_cells.h"
#include "engine/store/internal/engine_core.h"
#include "engine/store/internal/index_entries.h"
#include "engine/store/internal/live_row.h"
#include "engine/store/internal/mutation_batch.h"
#include "engine/store/internal/mutation_steps.h"
#include "engine/store/internal/storage_keys.h"

namespace cellfs {
namespace mutation_steps {

Status TimestampError() {
  return Status::InvalidArgument("timestamp " + std::to_string(INT64_MIN) + " is out of range");
}

Status TtlRangeError(int64_t seconds) {
  return Status::InvalidArgument("TTL must be between 0 and " + std::to_string(kMaxTtlSeconds) +
                                 ", got " + std::to_string(seconds));
}

Status DataColumnError(const TableSchema& table, size_t index) {
  if (index >= table.def.columns.size()) {
    return Status::InvalidArgument("column index " + std::to_string(index) + " is out of range");
  }
  return Status::InvalidArgument("primary key column " + table.column(index).name +
                                 " cannot be set or deleted on its own");
}

Status CheckNoTtl(const WriteAttributes& attributes, std::string_view what) {
  if (attributes.ttl) return Status::InvalidArgument("a TTL cannot be set on " + std::string(what));
  return CheckTimestamp(attributes);
}

// The slot for column `index`'s cell: in the row or in the static row.
RowCell& AddCell(const TableSchema& table, size_t index, FragmentBuilder* row,
                 FragmentBuilder* static_row) {
  bool is_static = table.column(index).kind == ColumnKind::kStatic;
  RowCell& slot = (is_static ? static_row : row)->AddCell();
  slot.column_id = table.column_ids[index];
  slot.path.clear();
  return slot;
}

void SetCell(RowCell* slot, CellKind kind, int64_t write_time, int64_t local_deletion_time,
             uint32_t ttl, std::string_view value) {
  slot->cell.kind = kind;
  slot->cell.write_time = write_time;
  slot->cell.local_deletion_time = local_deletion_time;
  slot->cell.ttl = ttl;
  // Into the capacity the slot kept from earlier rows; clear and append is
  // the short path (assign also handles a source inside the string).
  slot->cell.value.clear();
  slot->cell.value.append(value);
}

// Sorts both builders and refuses a column given twice.
Status FinishCells(const TableSchema& table, FragmentBuilder* row, FragmentBuilder* static_row) {
  uint32_t twice = row->Finish();
  if (twice == 0) twice = static_row->Finish();
  if (twice != 0) {
    auto index = table.ColumnIndexById(twice);
    return Status::InvalidArgument("column " + (index ? table.column(*index).name : "?") +
                                   " is given more than once");
  }
  return Status::Ok();
}

Status AppendElementCells(const TableSchema& table, size_t column, std::string_view value,
                          int64_t timestamp, uint32_t ttl, int64_t now_s, int64_t list_time,
                          uint64_t* list_order, FragmentBuilder* row, FragmentBuilder* static_row,
                          int32_t list_nudge) {
  std::vector<storage::ElementValue> elements;
  CELLFS_RETURN_IF_ERROR(storage::SplitIntoElements(*table.column(column).type, value, list_time,
                                                    *list_order, &elements, list_nudge));
  *list_order += elements.size();
  for (storage::ElementValue& element : elements) {
    RowCell& slot = AddCell(table, column, row, static_row);
    SetCell(&slot, CellKind::kRegular, timestamp, ttl == 0 ? 0 : now_s + ttl, ttl, element.value);
    slot.path = std::move(element.path);
  }
  return Status::Ok();
}

namespace {

using storage::EntryKind;

// The cells of an INSERT or UPDATE: values checked against their types;
// counters refused (they are only added to). A multi-cell column's value
// replaces the whole collection: a collection deletion at timestamp - 1,
// then its elements (lists at `list_time` with orders from `*list_order`).
Status ValueCells(const TableSchema& table, std::span<const ColumnValue> cells, int64_t timestamp,
                  uint32_t ttl, int64_t now_s, int64_t list_time, uint64_t* list_order,
                  FragmentBuilder* row, FragmentBuilder* static_row) {
  for (const ColumnValue& given : cells) {
    CELLFS_RETURN_IF_ERROR(CheckDataColumn(table, given.column));
    const ColumnDef& column = table.column(given.column);
    if (column.type->kind() == TypeKind::kCounter) {
      return Status::InvalidArgument("counter column " + column.name +
                                     " can only be added to, not set");
    }
    if (given.value) {
      Status valid = ValidateValue(*column.type, *given.value);
      if (!valid.ok()) return valid.WithContext("column " + column.name);
    }
    RowCell& slot = AddCell(table, given.column, row, static_row);
    if (column.type->is_multi_cell()) {
      SetCell(&slot, CellKind::kTombstone, timestamp - 1, now_s, 0, {});
      if (!given.value) continue;
      CELLFS_RETURN_IF_ERROR(AppendElementCells(table, given.column, *given.value, timestamp, ttl,
                                                now_s, list_time, list_order, row, static_row));
      continue;
    }
    if (!given.value) {
      SetCell(&slot, CellKind::kTombstone, timestamp, now_s, 0, {});
      continue;
    }
    SetCell(&slot, CellKind::kRegular, timestamp, ttl == 0 ? 0 : now_s + ttl, ttl, *given.value);
  }
  return FinishCells(table, row, static_row);
}

// Clustering of a write of cells: a full key, or none when every cell is
// static. Sets *row_group (empty when only the static row is written).
Status ResolveRowGroup(const TableSchema& table, std::string_view partition_prefix,
                       std::span<const std::string> clustering, bool writes_row,
                       std::string* row_group) {
  row_group->clear();
  if (!writes_row) {
    if (!clustering.empty() && clustering.size() != table.clustering_count()) {
      return Status::InvalidArgument("clustering key needs " +
                                     std::to_string(table.clustering_count()) + " values, got " +
                                     std::to_string(clustering.size()));
    }
    return Status::Ok();
  }
  if (clustering.empty() && table.clustering_count() > 0) {
    return Status::InvalidArgument("the clustering key is needed to write regular columns");
  }
  row_group->assign(partition_prefix);
  storage::AppendEntryKind(EntryKind::kRow, row_group);
  Status encoded = storage::EncodeClustering(table, clustering, false, row_group);
  if (!encoded.ok()) row_group->clear();
  return encoded;
}

}  // namespace

Status ResolvePartition(const TableSchema& table, std::span<const std::string> partition_key,
                        std::string* prefix) {
  if (table.view) {
    return Status::ReadOnly("Cannot directly modify a materialized view (" + table.def.name + ")");
  }
  prefix->clear();
  return storage::AppendPartitionPrefix(table, partition_key, prefix);
}

}  // namespace mutation_steps

using namespace mutation_steps;  // NOLINT(google-build-using-namespace): this file's own steps
using storage::EntryKind;

Mutation::Mutation(EngineCore* core, int64_t write_time, int64_t now, std::unique_ptr<Batch> batch)
    : core_(core), write_time_(write_time), now_(now), batch_(std::move(batch)) {}
Mutation::Mutation(Mutation&&) noexcept = default;
Mutation& Mutation::operator=(Mutation&&) noexcept = default;
Mutation::~Mutation() = default;

size_t Mutation::byte_size() const { return batch_->batch->ApproximateSize(); }

uint32_t FragmentBuilder::Finish() {
  fragment_.cells.resize(used_);
  auto& cells = fragment_.cells;
  // Lambdas, not function pointers: the calls inline (a row per operation).
  auto before = [](const RowCell& a, const RowCell& b) { return CellBefore(a, b); };
  // One pass for the usual case, cells given in order and none twice.
  auto out_of_order =
      std::adjacent_find(cells.begin(), cells.end(),
                         [&](const RowCell& a, const RowCell& b) { return !before(a, b); });
  if (out_of_order == cells.end()) return 0;
  std::sort(cells.begin(), cells.end(), before);
  auto same =
      std::adjacent_find(cells.begin(), cells.end(),
                         [](const RowCell& a, const RowCell& b) { return SameCellSlot(a, b); });
  return same == cells.end() ? 0 : same->column_id;
}

Status Mutation::ReserveSequences(size_t entries, std::vector<uint64_t>* sequences) {
  sequences->resize(entries);
  for (uint64_t& sequence : *sequences) CELLFS_RETURN_IF_ERROR(core_->sequences.Next(&sequence));
  return Status::Ok();
}

void Mutation::PutFragment(const TableSchema& table, std::string* group, size_t prefix_size,
                           uint64_t sequence, const RowFragment& fragment) {
  Batch& b = *batch_;
  const size_t group_size = group->size();
  storage::AppendSequence(sequence, group);
  b.value.clear();
  EncodeRowFragment(fragment, &b.value);
  b.batch->Put(storage::DataAddress(*group, prefix_size), b.value);
  group->resize(group_size);
  if (auto due = storage::NextSweepSecond(fragment, table.def.options.gc_grace_seconds)) {
    b.index_key.clear();
    core_->expiry.AppendKey(*due, *group, FloorSeconds(now_), &b.index_key);
    b.batch->Put(core_->expiry.AddressOf(b.index_key), {});
  }
  if (!table.indexes.empty()) {
    storage::PutIndexEntries(table, *group, prefix_size, fragment, &b.index_values, &b.index_entry,
                             b.batch.get());
  }
  if (!table.views.empty()) {
    storage::PutViewEntries(table, *group, prefix_size, fragment, &b.view_entry, b.batch.get());
  }
}

void Mutation::PutDeletion(const TableSchema& table, std::string_view group, size_t prefix_size,
                           uint64_t sequence, bool index_whole_key, std::string_view value,
                           const RowDeletion& deletion) {
  Batch& b = *batch_;
  b.key.assign(group);
  storage::AppendSequence(sequence, &b.key);
  b.batch->Put(storage::DataAddress(b.key, prefix_size), value);
  b.index_key.clear();
  core_->expiry.AppendKey(deletion.local_deletion_time + table.def.options.gc_grace_seconds,
                          index_whole_key ? std::string_view(b.key) : group, FloorSeconds(now_),
                          &b.index_key);
  b.batch->Put(core_->expiry.AddressOf(b.index_key), {});
}

Status Mutation::PutRowAndStatic(const TableSchema& table) {
  Batch& b = *batch_;
  const bool has_row = !b.row.empty();
  const bool has_static = !b.static_row.empty();
  uint64_t sequences[2] = {0, 0};
  // A value an index or a view's key cannot hold refuses the write whole.
  if (!table.indexes.empty()) {
    if (has_row) CELLFS_RETURN_IF_ERROR(storage::CheckIndexedValues(table, b.row.fragment()));
    if (has_static) {
      CELLFS_RETURN_IF_ERROR(storage::CheckIndexedValues(table, b.static_row.fragment()));
    }
  }
  if (!table.views.empty() && has_row) {
    CELLFS_RETURN_IF_ERROR(storage::CheckViewKeyValues(table, b.row.fragment()));
  }
  if (has_row) CELLFS_RETURN_IF_ERROR(core_->sequences.Next(&sequences[0]));
  if (has_static) CELLFS_RETURN_IF_ERROR(core_->sequences.Next(&sequences[1]));
  if (has_row) PutFragment(table, &b.row_group, b.prefix.size(), sequences[0], b.row.fragment());
  if (has_static) {
    b.group.assign(b.prefix);
    storage::AppendEntryKind(EntryKind::kStaticRow, &b.group);
    PutFragment(table, &b.group, b.prefix.size(), sequences[1], b.static_row.fragment());
  }
  return Status::Ok();
}

Status Mutation::FinishCellWrite(const TableSchema& table,
                                 std::span<const std::string> clustering) {
  Batch& b = *batch_;
  CELLFS_RETURN_IF_ERROR(
      ResolveRowGroup(table, b.prefix, clustering, !b.row.empty(), &b.row_group));
  CELLFS_RETURN_IF_ERROR(PutRowAndStatic(table));
  Commit(table);
  return Status::Ok();
}

void Mutation::Commit(const TableSchema& table) {
  ++operations_;
  auto& ids = batch_->table_ids;
  const uint64_t indexes = storage::IndexFingerprint(table);
  auto it = std::find(ids.begin(), ids.end(), table.id);
  if (it == ids.end()) {
    ids.push_back(table.id);
    batch_->index_fingerprints.push_back(indexes);
  } else if (batch_->index_fingerprints[static_cast<size_t>(it - ids.begin())] != indexes) {
    batch_->mixed_index_sets = true;  // written through two versions of its indexes
  }
}

Status Mutation::Insert(const TableHandle& table, std::span<const std::string> partition_key,
                        std::span<const std::string> clustering, std::span<const ColumnValue> cells,
                        const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  Batch& b = *batch_;
  if (t.def.has_counters()) {
    return Status::InvalidArgument("INSERT is not allowed on counter tables; add to the counters");
  }
  uint32_t ttl = 0;
  CELLFS_RETURN_IF_ERROR(ResolveTtl(t, attributes, &ttl));
  CELLFS_RETURN_IF_ERROR(ResolvePartition(t, partition_key, &b.prefix));
  const int64_t timestamp = attributes.timestamp.value_or(write_time_);
  const int64_t now_s = FloorSeconds(now_);
  b.row.Reset();
  b.static_row.Reset();
  CELLFS_RETURN_IF_ERROR(ValueCells(t, cells, timestamp, ttl, now_s, write_time_, &list_order_,
                                    &b.row, &b.static_row));
  // Cassandra's static-only INSERT (no clustering given) writes no row.
  const bool writes_row =
      !(clustering.empty() && t.clustering_count() > 0 && b.row.empty() && !b.static_row.empty());
  CELLFS_RETURN_IF_ERROR(ResolveRowGroup(t, b.prefix, clustering, writes_row, &b.row_group));
  if (writes_row) b.row.fragment().marker = RowMarker{timestamp, ttl != 0 ? now_s + ttl : 0, ttl};
  CELLFS_RETURN_IF_ERROR(PutRowAndStatic(t));
  Commit(t);
  return Status::Ok();
}

Status Mutation::Update(const TableHandle& table, std::span<const std::string> partition_key,
                        std::span<const std::string> clustering, std::span<const ColumnValue> cells,
                        const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  Batch& b = *batch_;
  if (cells.empty()) return Status::InvalidArgument("an update needs at least one column");
  uint32_t ttl = 0;
  CELLFS_RETURN_IF_ERROR(ResolveTtl(t, attributes, &ttl));
  CELLFS_RETURN_IF_ERROR(ResolvePartition(t, partition_key, &b.prefix));
  const int64_t timestamp = attributes.timestamp.value_or(write_time_);
  b.row.Reset();
  b.static_row.Reset();
  CELLFS_RETURN_IF_ERROR(ValueCells(t, cells, timestamp, ttl, FloorSeconds(now_), write_time_,
                                    &list_order_, &b.row, &b.static_row));
  return FinishCellWrite(t, clustering);
}

Status Mutation::AddToCounter(const TableHandle& table, std::span<const std::string> partition_key,
                              std::span<const std::string> clustering, size_t column, int64_t delta,
                              const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  Batch& b = *batch_;
  CELLFS_RETURN_IF_ERROR(CheckNoTtl(attributes, "counters"));
  if (attributes.timestamp) {
    // As in CQL: a counter is a sum of increments, which a replayed or
    // back-dated timestamp cannot order.
    return Status::InvalidArgument("a custom timestamp cannot be set on a counter update");
  }
  CELLFS_RETURN_IF_ERROR(CheckDataColumn(t, column));
  if (t.column(column).type->kind() != TypeKind::kCounter) {
    return Status::InvalidArgument("column " + t.column(column).name + " is not a counter");
  }
  CELLFS_RETURN_IF_ERROR(ResolvePartition(t, partition_key, &b.prefix));
  b.row.Reset();
  b.static_row.Reset();
  AddCell(t, column, &b.row, &b.static_row).cell = Cell::Counter(write_time_, delta);
  CELLFS_RETURN_IF_ERROR(FinishCells(t, &b.row, &b.static_row));
  return FinishCellWrite(t, clustering);
}

Status Mutation::DeleteCells(const TableHandle& table, std::span<const std::string> partition_key,
                             std::span<const std::string> clustering,
                             std::span<const size_t> columns, const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  Batch& b = *batch_;
  CELLFS_RETURN_IF_ERROR(CheckNoTtl(attributes, "a deletion"));
  if (columns.empty()) return Status::InvalidArgument("no column to delete");
  CELLFS_RETURN_IF_ERROR(ResolvePartition(t, partition_key, &b.prefix));
  const int64_t timestamp = attributes.timestamp.value_or(write_time_);
  b.row.Reset();
  b.static_row.Reset();
  for (size_t index : columns) {
    CELLFS_RETURN_IF_ERROR(CheckDataColumn(t, index));
    SetCell(&AddCell(t, index, &b.row, &b.static_row), CellKind::kTombstone, timestamp,
            FloorSeconds(now_), 0, {});
  }
  CELLFS_RETURN_IF_ERROR(FinishCells(t, &b.row, &b.static_row));
  return FinishCellWrite(t, clustering);
}

Status Mutation::DeleteRow(const TableHandle& table, std::span<const std::string> partition_key,
                           std::span<const std::string> clustering,
                           const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  Batch& b = *batch_;
  CELLFS_RETURN_IF_ERROR(CheckNoTtl(attributes, "a deletion"));
  CELLFS_RETURN_IF_ERROR(ResolvePartition(t, partition_key, &b.prefix));
  CELLFS_RETURN_IF_ERROR(ResolveRowGroup(t, b.prefix, clustering, true, &b.row_group));
  b.row.Reset();
  b.static_row.Reset();
  b.row.Finish();
  b.row.fragment().deletion =
      RowDeletion{attributes.timestamp.value_or(write_time_), FloorSeconds(now_)};
  CELLFS_RETURN_IF_ERROR(PutRowAndStatic(t));
  Commit(t);
  return Status::Ok();
}

Status Mutation::DeleteRange(const TableHandle& table, std::span<const std::string> partition_key,
                             const SliceSpec& range, const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  CELLFS_RETURN_IF_ERROR(CheckNoTtl(attributes, "a deletion"));
  if (t.clustering_count() == 0) {
    return Status::InvalidArgument("table " + t.def.name + " has no clustering columns");
  }
  if (range.limit != 0 || range.reverse || range.resume_after) {
    return Status::InvalidArgument("a range deletion takes only clustering bounds");
  }
  std::string prefix;
  CELLFS_RETURN_IF_ERROR(ResolvePartition(t, partition_key, &prefix));
  std::vector<storage::ClusteringRange> ranges;
  CELLFS_RETURN_IF_ERROR(storage::ClusteringRanges(t, range, &ranges));
  std::vector<uint64_t> sequences;
  CELLFS_RETURN_IF_ERROR(ReserveSequences(ranges.size(), &sequences));
  const RowDeletion deletion{attributes.timestamp.value_or(write_time_), FloorSeconds(now_)};
  std::string group(prefix);
  storage::AppendEntryKind(EntryKind::kRangeDeletion, &group);
  std::string value;
  for (size_t i = 0; i < ranges.size(); ++i) {
    value.clear();
    storage::EncodeRangeDeletion({ranges[i].start, ranges[i].end, deletion}, &value);
    PutDeletion(t, group, prefix.size(), sequences[i], /*index_whole_key=*/true, value, deletion);
  }
  Commit(t);
  return Status::Ok();
}

Status Mutation::DeletePartition(const TableHandle& table,
                                 std::span<const std::string> partition_key,
                                 const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  CELLFS_RETURN_IF_ERROR(CheckNoTtl(attributes, "a deletion"));
  std::string prefix;
  CELLFS_RETURN_IF_ERROR(ResolvePartition(t, partition_key, &prefix));
  std::vector<uint64_t> sequences;
  CELLFS_RETURN_IF_ERROR(ReserveSequences(1, &sequences));
  RowFragment fragment;
  fragment.deletion = RowDeletion{attributes.timestamp.value_or(write_time_), FloorSeconds(now_)};
  std::string value;
  EncodeRowFragment(fragment, &value);
  std::string group(prefix);
  storage::AppendEntryKind(EntryKind::kPartitionDeletion, &group);
  PutDeletion(t, group, prefix.size(), sequences.front(), /*index_whole_key=*/false, value,
              *fragment.deletion);
  Commit(t);
  return Status::Ok();
}

}  // namespace cellfs
