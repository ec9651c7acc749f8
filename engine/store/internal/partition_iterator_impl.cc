// PartitionIteratorImpl: a table's live partitions in token order, found by
// reading each partition's head and rows only up to its first live row.
#include "engine/store/internal/partition_iterator_impl.h"

#include <leveldb/iterator.h>

#include <cassert>
#include <utility>

#include "engine/store/internal/fold_queue.h"
#include "engine/store/internal/leveldb_status.h"
#include "engine/store/internal/live_row.h"
#include "engine/store/internal/row_iterator_impl.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/token.h"

namespace cellfs {
namespace {

constexpr size_t kTokenBytes = 8;

leveldb::Slice ToSlice(std::string_view bytes) { return {bytes.data(), bytes.size()}; }
std::string_view ToView(const leveldb::Slice& slice) { return {slice.data(), slice.size()}; }

}  // namespace

PartitionIteratorImpl::PartitionIteratorImpl(std::shared_ptr<const ReadState> state,
                                             TableHandle table,
                                             std::unique_ptr<leveldb::Iterator> it,
                                             const std::optional<std::string>& resume_after)
    : state_(std::move(state)), table_(std::move(table)), it_(std::move(it)) {
  storage::AppendTablePrefix(table_->id, &table_prefix_);
  std::string target = table_prefix_;
  if (resume_after) {
    target += *resume_after;
    target += '\xFF';
  }
  it_->Seek(ToSlice(target));
  FindLive();
}

PartitionIteratorImpl::~PartitionIteratorImpl() = default;

void PartitionIteratorImpl::Next() {
  assert(valid_);
  SkipPartition();
  FindLive();
}

std::string_view PartitionIteratorImpl::position() const {
  assert(valid_);
  return std::string_view(partition_prefix_).substr(table_prefix_.size());
}

Status PartitionIteratorImpl::DecodePartitionKey(std::vector<std::string>* values) const {
  return storage::DecodePartitionKey(*table_, position().substr(kTokenBytes), values);
}

void PartitionIteratorImpl::FindLive() {
  valid_ = false;
  while (it_->Valid() && ToView(it_->key()).starts_with(table_prefix_)) {
    bool live = false;
    status_ = ReadPartition(&live);
    if (!status_.ok()) return;
    if (live) {
      valid_ = true;
      return;
    }
    SkipPartition();
  }
  status_ = storage::FromLevelDb(it_->status());
}

Status PartitionIteratorImpl::ReadPartition(bool* live) {
  const std::string_view key = ToView(it_->key());
  const size_t key_start = table_prefix_.size() + kTokenBytes;
  size_t key_length = 0;
  Status parsed = key.size() < key_start
                      ? Status::Corruption("data key shorter than a partition prefix")
                      : storage::PartitionKeyLength(*table_, key.substr(key_start), &key_length);
  if (!parsed.ok()) return parsed.WithContext("partition of table " + table_->def.name);
  partition_prefix_.assign(key.substr(0, key_start + key_length));
  std::string_view token_bytes = std::string_view(partition_prefix_).substr(table_prefix_.size());
  DecodeToken(&token_bytes, &token_);

  storage::PartitionHeader header;
  CELLFS_RETURN_IF_ERROR(
      storage::ReadPartitionHeader(it_.get(), partition_prefix_, false, &header));
  static_row_ = std::move(header.static_row);
  has_first_row_ = false;
  *live = storage::KeepLive(*table_, header.deletion, state_->now, &static_row_);
  if (*live) return Status::Ok();
  return HasLiveRow(header, live);
}

Status PartitionIteratorImpl::HasLiveRow(const storage::PartitionHeader& header, bool* live) {
  std::string row_prefix = partition_prefix_;
  storage::AppendEntryKind(storage::EntryKind::kRow, &row_prefix);
  while (it_->Valid()) {
    const std::string_view key = ToView(it_->key());
    if (key.size() < row_prefix.size() + storage::kSequenceBytes || !key.starts_with(row_prefix)) {
      break;
    }
    storage::FragmentGroup group;
    CELLFS_RETURN_IF_ERROR(storage::ReadGroupForward(it_.get(), false, &group));
    if (group.fragments >= storage::FoldQueue::kFoldThreshold) {
      state_->core->fold_queue.Add(group.group);
    }
    const std::string_view clustering = std::string_view(group.group).substr(row_prefix.size());
    if (storage::KeepLive(*table_, storage::InheritedDeletion(header, clustering), state_->now,
                          &group.merged)) {
      first_row_ = std::move(group.merged);
      has_first_row_ = true;
      *live = true;
      return Status::Ok();
    }
  }
  return storage::FromLevelDb(it_->status());
}

void PartitionIteratorImpl::SkipPartition() { it_->Seek(ToSlice(partition_prefix_ + '\xFF')); }

}  // namespace cellfs
