// PartitionIteratorImpl: a table's live partitions in token order, found by
// reading each partition's head and rows only up to its first live row.
#include "engine/store/internal/partition_iterator_impl.h"

#include <cassert>
#include <optional>
#include <utility>

#include "engine/store/internal/buried_reader.h"
#include "engine/store/internal/fold_queue.h"
#include "engine/store/internal/live_row.h"
#include "engine/store/internal/row_iterator_impl.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/token.h"

namespace cellfs {
namespace {

constexpr size_t kTokenBytes = 8;

}  // namespace

PartitionIteratorImpl::PartitionIteratorImpl(std::shared_ptr<const ReadState> state,
                                             TableHandle table, bool fill_cache,
                                             const std::optional<std::string>& resume_after)
    : state_(std::move(state)), table_(std::move(table)), fill_cache_(fill_cache) {
  storage::AppendTablePrefix(table_->id, &table_prefix_);
  // After the read point (the state's): a burial committed before it was
  // announced before it.
  may_have_buried_ = state_->core->buried_tables.MayHave(table_->id, state_->core->storage.get());
  storage::ShardSplitter split = [table = table_](std::string_view shard_and_key, size_t* length) {
    return storage::PartitionShardLength(*table, shard_and_key, length);
  };
  shards_ = state_->core->storage->NewShardCursor(state_->point.get(), table_prefix_,
                                                  std::move(split), {fill_cache});
  std::string target;
  if (resume_after) {
    target = *resume_after;
    target += '\xFF';
  }
  shards_->Seek(target);
  FindLive();
}

PartitionIteratorImpl::~PartitionIteratorImpl() = default;

void PartitionIteratorImpl::Next() {
  assert(valid_);
  shards_->Next();
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
  while (shards_->Valid()) {
    bool live = false;
    status_ = ReadPartition(&live);
    if (!status_.ok()) return;
    if (live) {
      valid_ = true;
      return;
    }
    shards_->Next();
  }
  status_ = shards_->status();
}

Status PartitionIteratorImpl::ReadPartition(bool* live) {
  partition_prefix_.assign(table_prefix_);
  partition_prefix_.append(shards_->shard());
  std::string_view token_bytes = shards_->shard();
  DecodeToken(&token_bytes, &token_);

  storage::Cursor& entries = shards_->entries();
  storage::PartitionHeader header;
  CELLFS_RETURN_IF_ERROR(storage::ReadPartitionHeader(&entries, false, &header));
  static_row_ = std::move(header.static_row);
  has_first_row_ = false;
  CELLFS_RETURN_IF_ERROR(
      storage::KeepLive(*table_, header.deletion, state_->now, &static_row_, live));
  if (*live) return Status::Ok();
  return HasLiveRow(header, &entries, live);
}

Status PartitionIteratorImpl::HasLiveRow(const storage::PartitionHeader& header,
                                         storage::Cursor* rows, bool* live) {
  std::string row_prefix;
  storage::AppendEntryKind(storage::EntryKind::kRow, &row_prefix);
  std::optional<storage::BuriedReader> buried;  // made for the first row live on its own
  while (rows->Valid()) {
    const std::string_view key = rows->key();
    if (key.size() < row_prefix.size() + storage::kSequenceBytes || !key.starts_with(row_prefix)) {
      break;
    }
    storage::FragmentGroup group;
    CELLFS_RETURN_IF_ERROR(storage::ReadGroupForward(rows, false, &group));
    // Buried fragments only shadow: a row dead on its own needs none.
    if (IsRowLive(group.merged, state_->now)) {
      if (!buried) {
        storage::Cursor* entries = nullptr;
        if (may_have_buried_) CELLFS_RETURN_IF_ERROR(BuriedEntries(&entries));
        buried.emplace(entries);
      }
      CELLFS_RETURN_IF_ERROR(buried->MergeInto(false, &group));
    }
    if (group.fragments >= storage::FoldQueue::kFoldThreshold) {
      state_->core->fold_queue.Add(partition_prefix_ + group.group);
    }
    const std::string_view clustering = std::string_view(group.group).substr(row_prefix.size());
    bool row_live = false;
    CELLFS_RETURN_IF_ERROR(storage::KeepLive(*table_,
                                             storage::InheritedDeletion(header, clustering),
                                             state_->now, &group.merged, &row_live));
    if (row_live) {
      first_row_ = std::move(group.merged);
      has_first_row_ = true;
      *live = true;
      return Status::Ok();
    }
    state_->core->bury_queue.Add(partition_prefix_);  // a dead row in the data space
  }
  return rows->status();
}

Status PartitionIteratorImpl::BuriedEntries(storage::Cursor** entries) {
  *entries = nullptr;
  const std::string_view shard = shards_->shard();
  if (buried_shards_ == nullptr) {
    storage::AppendBuriedPrefix(table_->id, &buried_space_);
    storage::ShardSplitter split = [table = table_](std::string_view shard_and_key,
                                                    size_t* length) {
      return storage::PartitionShardLength(*table, shard_and_key, length);
    };
    buried_shards_ = state_->core->storage->NewShardCursor(state_->point.get(), buried_space_,
                                                           std::move(split), {fill_cache_});
    buried_shards_->Seek(shard);
  } else if (buried_shards_->Valid() && buried_shards_->shard() < shard) {
    buried_shards_->Seek(shard);
  }
  // Invalid with no error: no buried shard at or after the last seek.
  if (!buried_shards_->Valid()) return buried_shards_->status();
  if (buried_shards_->shard() == shard) *entries = &buried_shards_->entries();
  return Status::Ok();
}

}  // namespace cellfs
