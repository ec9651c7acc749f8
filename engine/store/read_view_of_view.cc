// ReadView's reads of a materialized view: its entries walked in its own
// order, each row read through its base row (view_row_check.h).
#include <utility>

#include "engine/store/internal/clustering_ranges.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/internal/view_entries.h"
#include "engine/store/internal/view_iterators.h"
#include "engine/store/internal/view_row_check.h"
#include "engine/store/read_view.h"

namespace cellfs {
namespace {

constexpr size_t kTokenBytes = 8;

Status CheckReference(const TableSchema& view, const PartitionRef& partition) {
  if (partition.table_id() != view.id) {
    return Status::InvalidArgument("partition reference made for another table");
  }
  return Status::Ok();
}

}  // namespace

Result<std::optional<RowFragment>> ReadView::GetViewRow(
    const TableHandle& view, const PartitionRef& partition,
    std::span<const std::string> clustering) const {
  CELLFS_RETURN_IF_ERROR(CheckReference(*view, partition));
  std::string encoded;
  CELLFS_RETURN_IF_ERROR(storage::EncodeClustering(*view, clustering, false, &encoded));
  std::vector<std::string> key;
  CELLFS_RETURN_IF_ERROR(
      storage::DecodePartitionKey(*view, partition.position().substr(kTokenBytes), &key));
  std::vector<std::string> canonical;
  CELLFS_RETURN_IF_ERROR(storage::DecodeClustering(*view, encoded, &canonical));
  for (std::string& value : canonical) key.push_back(std::move(value));
  auto base = storage::ViewBase(*state_, *view);
  if (!base.ok()) return base.status();
  return storage::ReadViewRow(*this, base.value(), *view, key);
}

Result<ReadView::PartitionRead> ReadView::ReadViewPartition(const TableHandle& view,
                                                            const PartitionRef& partition,
                                                            const SliceSpec& slice) const {
  CELLFS_RETURN_IF_ERROR(CheckReference(*view, partition));
  ViewRowScan scan;
  CELLFS_RETURN_IF_ERROR(storage::ClusteringRanges(*view, slice, &scan.ranges));
  CELLFS_RETURN_IF_ERROR(storage::DecodePartitionKey(
      *view, partition.position().substr(kTokenBytes), &scan.partition_key));
  scan.reverse = slice.reverse;
  scan.limit = slice.limit;
  scan.resume_after = slice.resume_after;
  auto base = storage::ViewBase(*state_, *view);
  if (!base.ok()) return base.status();
  scan.partition_prefix = storage::ViewPartitionPrefix(partition.prefix());
  PartitionRead read;
  read.rows = std::make_unique<ViewRowIterator>(*state_, fill_cache_, *this, view,
                                                std::move(base).value(), std::move(scan));
  return read;
}

Result<std::vector<RowCell>> ReadView::GetViewElements(const TableHandle& view,
                                                       const PartitionRef& partition,
                                                       std::span<const std::string> clustering,
                                                       uint32_t column_id) const {
  auto row = GetViewRow(view, partition, clustering);
  if (!row.ok()) return row.status();
  if (!row->has_value() || (*row)->FindCell(column_id) == nullptr) return std::vector<RowCell>();
  // The row is live and holds the column: its elements are the base row's.
  std::vector<std::string> key;
  CELLFS_RETURN_IF_ERROR(
      storage::DecodePartitionKey(*view, partition.position().substr(kTokenBytes), &key));
  for (const std::string& value : clustering) key.push_back(value);
  std::vector<std::string> base_key;
  storage::BaseKeyOf(*view, key, &base_key);
  auto base = storage::ViewBase(*state_, *view);
  if (!base.ok()) return base.status();
  const size_t partition_count = base.value()->partition_key_count();
  auto base_partition =
      PartitionRef::Make(*base.value(), std::span(base_key).first(partition_count));
  if (!base_partition.ok()) return base_partition.status();
  return GetElements(base.value(), base_partition.value(),
                     std::span(base_key).subspan(partition_count), column_id);
}

}  // namespace cellfs
