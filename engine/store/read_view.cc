// ReadView: point reads (a row, a static row, a partition's liveness) and
// the iterators, all at one read point and one time.
#include "engine/store/read_view.h"

#include <utility>

#include "engine/store/internal/clustering_ranges.h"
#include "engine/store/internal/fold_queue.h"
#include "engine/store/internal/fragment_reader.h"
#include "engine/store/internal/live_row.h"
#include "engine/store/internal/partition_iterator_impl.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/internal/row_iterator_impl.h"
#include "engine/store/internal/storage_keys.h"

namespace cellfs {
namespace {

// A partition whose head has been read, with the cursor left at its first
// row.
struct OpenPartition {
  std::string prefix;
  std::unique_ptr<storage::Cursor> it;
  storage::PartitionHeader header;
};

Status Open(const ReadState& state, bool fill_cache, const TableSchema& table,
            std::span<const std::string> partition_key, OpenPartition* out) {
  storage::PartitionKey key;
  CELLFS_RETURN_IF_ERROR(storage::EncodePartitionKey(table, partition_key, &key));
  storage::AppendPartitionPrefix(table.id, key, &out->prefix);
  out->it = state.NewCursor(storage::PartitionShard(out->prefix), fill_cache);
  out->it->SeekToFirst();
  return storage::ReadPartitionHeader(out->it.get(), false, &out->header);
}

// Reads the row `row_key` (kRow || clustering) of the partition at
// `prefix` from `it`; nullopt when it has no entries.
Result<std::optional<storage::FragmentGroup>> ReadRowGroup(const ReadState& state,
                                                           std::string_view prefix,
                                                           storage::Cursor* it,
                                                           const std::string& row_key) {
  it->Seek(row_key);
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
  if (group.fragments >= storage::FoldQueue::kFoldThreshold) {
    state.core->fold_queue.Add(std::string(prefix) + group.group);
  }
  return std::optional<storage::FragmentGroup>(std::move(group));
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
  std::string encoded;
  CELLFS_RETURN_IF_ERROR(storage::EncodeClustering(*table, clustering, false, &encoded));
  OpenPartition partition;
  CELLFS_RETURN_IF_ERROR(Open(*state_, fill_cache_, *table, partition_key, &partition));
  std::string row_key;
  storage::AppendEntryKind(storage::EntryKind::kRow, &row_key);
  row_key += encoded;
  auto group = ReadRowGroup(*state_, partition.prefix, partition.it.get(), row_key);
  if (!group.ok()) return group.status();
  if (!group->has_value()) return std::optional<RowFragment>();
  RowFragment row = std::move((*group)->merged);
  const auto inherited = storage::InheritedDeletion(partition.header, encoded);
  if (!storage::KeepLive(*table, inherited, state_->now, &row)) return std::optional<RowFragment>();
  return std::optional<RowFragment>(std::move(row));
}

Result<std::optional<RowFragment>> ReadView::GetStaticRow(
    const TableHandle& table, std::span<const std::string> partition_key) const {
  OpenPartition partition;
  CELLFS_RETURN_IF_ERROR(Open(*state_, fill_cache_, *table, partition_key, &partition));
  RowFragment row = std::move(partition.header.static_row);
  if (!storage::KeepLive(*table, partition.header.deletion, state_->now, &row)) {
    return std::optional<RowFragment>();
  }
  return std::optional<RowFragment>(std::move(row));
}

Result<bool> ReadView::IsPartitionLive(const TableHandle& table,
                                       std::span<const std::string> partition_key) const {
  OpenPartition partition;
  CELLFS_RETURN_IF_ERROR(Open(*state_, fill_cache_, *table, partition_key, &partition));
  RowFragment static_row = partition.header.static_row;
  if (storage::KeepLive(*table, partition.header.deletion, state_->now, &static_row)) return true;
  // The whole partition, first live row only. The cursor re-seeks to the
  // first row, where `partition.it` already stands: one cheap seek.
  RowScan scan;
  scan.partition_prefix = std::move(partition.prefix);
  scan.header = std::move(partition.header);
  scan.ranges.push_back({std::string(), std::string(1, '\xFF')});
  scan.limit = 1;
  RowIteratorImpl rows(state_, table, std::move(partition.it), std::move(scan));
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
  RowScan scan;
  CELLFS_RETURN_IF_ERROR(storage::ClusteringRanges(*table, slice, &scan.ranges));
  OpenPartition partition;
  CELLFS_RETURN_IF_ERROR(Open(*state_, fill_cache_, *table, partition_key, &partition));
  scan.partition_prefix = std::move(partition.prefix);
  scan.header = std::move(partition.header);
  scan.reverse = slice.reverse;
  scan.limit = slice.limit;
  scan.resume_after = slice.resume_after;
  return std::unique_ptr<RowIterator>(
      std::make_unique<RowIteratorImpl>(state_, table, std::move(partition.it), std::move(scan)));
}

std::unique_ptr<PartitionIterator> ReadView::NewPartitionIterator(
    const TableHandle& table, std::optional<std::string> resume_after) const {
  return std::make_unique<PartitionIteratorImpl>(state_, table, fill_cache_, resume_after);
}

}  // namespace cellfs
