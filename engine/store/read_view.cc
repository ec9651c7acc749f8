// ReadView: point reads (a row, a static row, a cell, a partition's
// liveness) and the iterators, all at one read point and one time.
#include "engine/store/read_view.h"

#include <algorithm>
#include <utility>

#include "engine/store/internal/buried_reader.h"
#include "engine/store/internal/clustering_ranges.h"
#include "engine/store/internal/element_cells.h"
#include "engine/store/internal/fold_queue.h"
#include "engine/store/internal/fragment_reader.h"
#include "engine/store/internal/live_row.h"
#include "engine/store/internal/partition_iterator_impl.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/internal/row_iterator_impl.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/internal/view_iterators.h"

namespace cellfs {
namespace {

// A partition whose head has been read, with the cursor (over the
// partition's shard) left at what follows the head: its first row entry,
// or invalid when it has no rows.
struct OpenPartition {
  const std::string* prefix = nullptr;  // the PartitionRef's
  std::unique_ptr<storage::Cursor> it;
  storage::PartitionHeader header;
  std::optional<storage::BuriedReader> buried;  // the rows the sweeper buried
};

Status Open(const ReadState& state, bool fill_cache, const TableSchema& table,
            const PartitionRef& partition, OpenPartition* out) {
  if (partition.table_id() != table.id) {
    return Status::InvalidArgument("partition reference made for another table");
  }
  out->prefix = &partition.prefix();
  out->it = state.NewCursor(storage::PartitionShard(partition.prefix()), fill_cache);
  storage::Storage* storage = state.core->storage.get();
  out->buried.emplace(storage, state.point.get(), table.id, partition.prefix(),
                      state.core->buried_tables.MayHave(table.id, storage), fill_cache);
  out->it->SeekToFirst();
  return storage::ReadPartitionHeader(out->it.get(), false, &out->header);
}

// Reads the row `row_key` (kRow || clustering) of an opened partition from
// its cursor, which stands where Open left it, with its buried fragments;
// nullopt when the row has no entries in the data space. The rows follow the head in key order, so
// when the cursor already stands at or past `row_key`, or at the end of the partition, the row
// starts here or is absent: no seek.
Result<std::optional<storage::FragmentGroup>> ReadRowGroup(const ReadState& state,
                                                           OpenPartition& partition,
                                                           const std::string& row_key) {
  storage::Cursor* it = partition.it.get();
  if (it->Valid() && it->key() < std::string_view(row_key)) it->Seek(row_key);
  if (!it->Valid()) {
    Status error = it->status();
    if (!error.ok()) return error;
    return std::optional<storage::FragmentGroup>();
  }
  const std::string_view key = it->key();
  if (key.size() != row_key.size() + storage::kSequenceBytes || !key.starts_with(row_key)) {
    return std::optional<storage::FragmentGroup>();
  }
  storage::FragmentGroup group;
  CELLFS_RETURN_IF_ERROR(storage::ReadGroupForward(it, false, &group));
  // Buried fragments only shadow: a row with nothing live of its own needs
  // none.
  if (IsRowLive(group.merged, state.now)) {
    CELLFS_RETURN_IF_ERROR(partition.buried->MergeInto(false, &group));
  }
  if (group.fragments >= storage::FoldQueue::kFoldThreshold) {
    state.core->fold_queue.Add(*partition.prefix + group.group);
  }
  return std::optional<storage::FragmentGroup>(std::move(group));
}

// The live content of the row with encoded clustering `encoded` of an
// opened partition; nullopt when the row is not live.
Result<std::optional<RowFragment>> LiveRow(const ReadState& state, const TableSchema& table,
                                           OpenPartition& partition, const std::string& encoded) {
  std::string row_key;
  storage::AppendEntryKind(storage::EntryKind::kRow, &row_key);
  row_key += encoded;
  auto group = ReadRowGroup(state, partition, row_key);
  if (!group.ok()) return group.status();
  if (!group->has_value()) return std::optional<RowFragment>();
  RowFragment row = std::move((*group)->merged);
  const auto inherited = storage::InheritedDeletion(partition.header, encoded);
  bool live = false;
  CELLFS_RETURN_IF_ERROR(storage::KeepLive(table, inherited, state.now, &row, &live));
  if (!live) {
    state.core->bury_queue.Add(*partition.prefix);  // a dead row in the data space
    return std::optional<RowFragment>();
  }
  return std::optional<RowFragment>(std::move(row));
}

// The live static cells of an opened partition; nullopt when none.
Result<std::optional<RowFragment>> LiveStaticRow(const ReadState& state, const TableSchema& table,
                                                 OpenPartition* partition) {
  RowFragment row = std::move(partition->header.static_row);
  bool live = false;
  CELLFS_RETURN_IF_ERROR(
      storage::KeepLive(table, partition->header.deletion, state.now, &row, &live));
  if (!live) return std::optional<RowFragment>();
  return std::optional<RowFragment>(std::move(row));
}

}  // namespace

ReadView::ReadView(std::shared_ptr<const ReadState> state) : state_(std::move(state)) {}

ReadView ReadView::ForScan() const {
  ReadView scan(state_);
  scan.fill_cache_ = false;
  return scan;
}

int64_t ReadView::now() const { return state_->now; }

Result<std::optional<RowFragment>> ReadView::GetRow(const TableHandle& table,
                                                    std::span<const std::string> partition_key,
                                                    std::span<const std::string> clustering) const {
  Result<PartitionRef> partition = PartitionRef::Make(*table, partition_key);
  if (!partition.ok()) return partition.status();
  return GetRow(table, partition.value(), clustering);
}

Result<std::optional<RowFragment>> ReadView::GetRow(const TableHandle& table,
                                                    const PartitionRef& partition,
                                                    std::span<const std::string> clustering) const {
  if (table->view) return GetViewRow(table, partition, clustering);
  std::string encoded;
  CELLFS_RETURN_IF_ERROR(storage::EncodeClustering(*table, clustering, false, &encoded));
  OpenPartition open;
  CELLFS_RETURN_IF_ERROR(Open(*state_, fill_cache_, *table, partition, &open));
  return LiveRow(*state_, *table, open, encoded);
}

Result<std::optional<RowFragment>> ReadView::GetStaticRow(
    const TableHandle& table, std::span<const std::string> partition_key) const {
  Result<PartitionRef> partition = PartitionRef::Make(*table, partition_key);
  if (!partition.ok()) return partition.status();
  return GetStaticRow(table, partition.value());
}

Result<std::optional<RowFragment>> ReadView::GetStaticRow(const TableHandle& table,
                                                          const PartitionRef& partition) const {
  if (table->view) {
    if (partition.table_id() != table->id) {
      return Status::InvalidArgument("partition reference made for another table");
    }
    return std::optional<RowFragment>();  // a view has no static row
  }
  OpenPartition open;
  CELLFS_RETURN_IF_ERROR(Open(*state_, fill_cache_, *table, partition, &open));
  return LiveStaticRow(*state_, *table, &open);
}

Result<std::optional<RowCell>> ReadView::GetCell(const TableHandle& table,
                                                 const PartitionRef& partition,
                                                 std::span<const std::string> clustering,
                                                 uint32_t column_id) const {
  const std::optional<size_t> column = table->ColumnIndexById(column_id);
  if (!column) return Status::InvalidArgument("no column with id " + std::to_string(column_id));
  if (table->view) {
    auto row = GetViewRow(table, partition, clustering);
    if (!row.ok()) return row.status();
    RowCell* cell = row->has_value() ? (*row)->FindCell(column_id) : nullptr;
    if (cell == nullptr) return std::optional<RowCell>();
    return std::optional<RowCell>(std::move(*cell));
  }
  const bool is_static = table->column(*column).kind == ColumnKind::kStatic;
  std::string encoded;
  if (!is_static) {
    CELLFS_RETURN_IF_ERROR(storage::EncodeClustering(*table, clustering, false, &encoded));
  }
  OpenPartition open;
  CELLFS_RETURN_IF_ERROR(Open(*state_, fill_cache_, *table, partition, &open));
  std::optional<RowFragment> row;
  if (is_static) {
    auto live = LiveStaticRow(*state_, *table, &open);
    if (!live.ok()) return live.status();
    row = std::move(live).value();
  } else {
    auto live = LiveRow(*state_, *table, open, encoded);
    if (!live.ok()) return live.status();
    row = std::move(live).value();
  }
  RowCell* cell = row ? row->FindCell(column_id) : nullptr;
  if (cell == nullptr) return std::optional<RowCell>();
  return std::optional<RowCell>(std::move(*cell));
}

Result<std::vector<RowCell>> ReadView::GetElements(const TableHandle& table,
                                                   const PartitionRef& partition,
                                                   std::span<const std::string> clustering,
                                                   uint32_t column_id) const {
  const std::optional<size_t> column = table->ColumnIndexById(column_id);
  if (!column) return Status::InvalidArgument("no column with id " + std::to_string(column_id));
  const ColumnDef& def = table->column(*column);
  if (!def.type->is_multi_cell()) {
    return Status::InvalidArgument("column " + def.name + " is not a non-frozen collection or UDT");
  }
  if (table->view) return GetViewElements(table, partition, clustering, column_id);
  OpenPartition open;
  CELLFS_RETURN_IF_ERROR(Open(*state_, fill_cache_, *table, partition, &open));
  RowFragment row;
  std::optional<RowDeletion> deletion = open.header.deletion;
  if (def.kind == ColumnKind::kStatic) {
    row = std::move(open.header.static_row);
  } else {
    std::string encoded;
    CELLFS_RETURN_IF_ERROR(storage::EncodeClustering(*table, clustering, false, &encoded));
    std::string row_key;
    storage::AppendEntryKind(storage::EntryKind::kRow, &row_key);
    row_key += encoded;
    auto group = ReadRowGroup(*state_, open, row_key);
    if (!group.ok()) return group.status();
    if (!group->has_value()) return std::vector<RowCell>();
    row = std::move((*group)->merged);
    deletion = storage::InheritedDeletion(open.header, encoded);
  }
  if (row.deletion) {
    deletion = deletion ? ReconcileDeletions(*deletion, *row.deletion) : row.deletion;
  }
  auto first =
      std::lower_bound(row.cells.begin(), row.cells.end(), column_id,
                       [](const RowCell& cell, uint32_t id) { return cell.column_id < id; });
  auto last = std::find_if(first, row.cells.end(),
                           [&](const RowCell& cell) { return cell.column_id != column_id; });
  std::vector<RowCell> elements;
  CELLFS_RETURN_IF_ERROR(storage::VisibleElements(*def.type, std::span<RowCell>(first, last),
                                                  deletion, state_->now, &elements));
  return elements;
}

Result<bool> ReadView::IsPartitionLive(const TableHandle& table,
                                       std::span<const std::string> partition_key) const {
  Result<PartitionRef> partition = PartitionRef::Make(*table, partition_key);
  if (!partition.ok()) return partition.status();
  return IsPartitionLive(table, partition.value());
}

Result<bool> ReadView::IsPartitionLive(const TableHandle& table,
                                       const PartitionRef& partition) const {
  if (table->view) {
    SliceSpec first;
    first.limit = 1;
    auto read = ReadViewPartition(table, partition, first);
    if (!read.ok()) return read.status();
    CELLFS_RETURN_IF_ERROR(read->rows->status());
    return read->rows->Valid();
  }
  OpenPartition open;
  CELLFS_RETURN_IF_ERROR(Open(*state_, fill_cache_, *table, partition, &open));
  RowFragment static_row = open.header.static_row;
  bool static_live = false;
  CELLFS_RETURN_IF_ERROR(
      storage::KeepLive(*table, open.header.deletion, state_->now, &static_row, &static_live));
  if (static_live) return true;
  // The whole partition, first live row only. The iterator re-seeks to the
  // first row, where `open.it` already stands: one cheap seek.
  RowScan scan;
  scan.partition_prefix = *open.prefix;
  scan.header = std::move(open.header);
  scan.ranges.push_back({std::string(), std::string(1, '\xFF')});
  scan.limit = 1;
  scan.fill_cache = fill_cache_;
  RowIteratorImpl rows(state_, table, std::move(open.it), std::move(scan));
  if (!rows.status().ok()) return rows.status();
  return rows.Valid();
}

Result<int64_t> ReadView::Token(const TableHandle& table,
                                std::span<const std::string> partition_key) const {
  storage::PartitionKey key;
  CELLFS_RETURN_IF_ERROR(storage::EncodePartitionKey(*table, partition_key, &key));
  return key.token;
}

Result<std::unique_ptr<RowIterator>> ReadView::NewRowIterator(
    const TableHandle& table, std::span<const std::string> partition_key,
    const SliceSpec& slice) const {
  Result<PartitionRef> partition = PartitionRef::Make(*table, partition_key);
  if (!partition.ok()) return partition.status();
  auto read = ReadPartition(table, partition.value(), slice);
  if (!read.ok()) return read.status();
  return std::move(read.value().rows);
}

Result<ReadView::PartitionRead> ReadView::ReadPartition(const TableHandle& table,
                                                        const PartitionRef& partition,
                                                        const SliceSpec& slice) const {
  if (table->view) return ReadViewPartition(table, partition, slice);
  RowScan scan;
  CELLFS_RETURN_IF_ERROR(storage::ClusteringRanges(*table, slice, &scan.ranges));
  OpenPartition open;
  CELLFS_RETURN_IF_ERROR(Open(*state_, fill_cache_, *table, partition, &open));
  PartitionRead read;
  // The static row moves out of the header, which the row scan takes (it
  // needs only the deletions).
  RowFragment static_row = std::move(open.header.static_row);
  bool static_live = false;
  CELLFS_RETURN_IF_ERROR(
      storage::KeepLive(*table, open.header.deletion, state_->now, &static_row, &static_live));
  if (static_live) read.static_row = std::move(static_row);
  scan.partition_prefix = *open.prefix;
  scan.header = std::move(open.header);
  scan.reverse = slice.reverse;
  scan.limit = slice.limit;
  scan.resume_after = slice.resume_after;
  scan.fill_cache = fill_cache_;
  scan.count_buried_tombstones = slice.count_buried_tombstones;
  read.rows = std::make_unique<RowIteratorImpl>(state_, table, std::move(open.it), std::move(scan));
  return read;
}

std::unique_ptr<PartitionIterator> ReadView::NewPartitionIterator(
    const TableHandle& table, std::optional<std::string> resume_after) const {
  if (table->view) {
    return std::make_unique<ViewPartitionIterator>(state_, *this, table, fill_cache_, resume_after);
  }
  return std::make_unique<PartitionIteratorImpl>(state_, table, fill_cache_, resume_after);
}

}  // namespace cellfs
