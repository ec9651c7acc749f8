// ViewRowIterator and ViewPartitionIterator: a view's entries walked like a
// table's rows, each row read through its base row.
#include "engine/store/internal/view_iterators.h"

#include <cassert>
#include <utility>

#include "engine/store/internal/read_state.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/internal/view_row_check.h"
#include "engine/store/token.h"

namespace cellfs {
namespace {

constexpr size_t kTokenBytes = 8;

}  // namespace

// ---- ViewRowIterator ----------------------------------------------------------

ViewRowIterator::ViewRowIterator(const ReadState& state, bool fill_cache, ReadView reader,
                                 TableHandle view, TableHandle base, ViewRowScan scan)
    : reader_(std::move(reader)),
      view_(std::move(view)),
      base_(std::move(base)),
      scan_(std::move(scan)) {
  it_ = state.NewCursor(storage::PartitionShard(scan_.partition_prefix), fill_cache);
  FindNext();
}

void ViewRowIterator::Next() {
  assert(valid_);
  FindNext();
}

Status ViewRowIterator::DecodeClustering(std::vector<std::string>* values) const {
  assert(valid_);
  return storage::DecodeClustering(*view_, clustering_, values);
}

void ViewRowIterator::FindNext() {
  valid_ = false;
  if (scan_.limit != 0 && returned_ >= scan_.limit) return;
  while (range_ < scan_.ranges.size()) {
    if (!positioned_) {
      SeekRange();
      positioned_ = true;
    }
    if (!InRange()) {
      Status error = it_->status();
      if (!error.ok()) return Fail(std::move(error));
      ++range_;
      positioned_ = false;
      continue;
    }
    const std::string clustering(it_->key());
    Step();
    if (!PastResumePoint(clustering)) continue;
    key_.resize(scan_.partition_key.size());
    std::copy(scan_.partition_key.begin(), scan_.partition_key.end(), key_.begin());
    std::vector<std::string> values;
    Status decoded = storage::DecodeClustering(*view_, clustering, &values);
    if (!decoded.ok()) return Fail(std::move(decoded));
    for (std::string& value : values) key_.push_back(std::move(value));
    auto row = storage::ReadViewRow(reader_, base_, *view_, key_);
    if (!row.ok()) return Fail(row.status());
    if (!row->has_value()) continue;
    clustering_ = clustering;
    row_ = std::move(**row);
    ++returned_;
    valid_ = true;
    return;
  }
}

void ViewRowIterator::SeekRange() {
  const size_t n = scan_.ranges.size();
  const storage::ClusteringRange& range = scan_.ranges[scan_.reverse ? n - 1 - range_ : range_];
  const std::optional<std::string>& resume = scan_.resume_after;
  if (!scan_.reverse) {
    it_->Seek((resume && *resume > range.start) ? *resume : range.start);
  } else {
    it_->SeekBefore((resume && *resume < range.end) ? *resume : range.end);
  }
}

bool ViewRowIterator::InRange() const {
  if (!it_->Valid()) return false;
  const size_t n = scan_.ranges.size();
  const storage::ClusteringRange& range = scan_.ranges[scan_.reverse ? n - 1 - range_ : range_];
  const std::string_view key = it_->key();
  return key >= range.start && key < range.end;
}

bool ViewRowIterator::PastResumePoint(std::string_view clustering) const {
  if (!scan_.resume_after) return true;
  return scan_.reverse ? clustering < *scan_.resume_after : clustering > *scan_.resume_after;
}

void ViewRowIterator::Step() {
  if (scan_.reverse) {
    it_->Prev();
  } else {
    it_->Next();
  }
}

void ViewRowIterator::Fail(Status status) {
  status_ = std::move(status);
  valid_ = false;
  range_ = scan_.ranges.size();
}

// ---- ViewPartitionIterator ----------------------------------------------------

ViewPartitionIterator::ViewPartitionIterator(std::shared_ptr<const ReadState> state,
                                             ReadView reader, TableHandle view, bool fill_cache,
                                             const std::optional<std::string>& resume_after)
    : state_(std::move(state)), reader_(std::move(reader)), view_(std::move(view)) {
  auto base = storage::ViewBase(*state_, *view_);
  if (!base.ok()) {
    status_ = base.status();
    return;
  }
  base_ = std::move(base).value();
  storage::AppendViewPrefix(view_->id, &space_);
  storage::ShardSplitter split = [table = view_](std::string_view shard_and_key, size_t* length) {
    return storage::PartitionShardLength(*table, shard_and_key, length);
  };
  shards_ = state_->core->storage->NewShardCursor(state_->point.get(), space_, std::move(split),
                                                  {fill_cache});
  std::string target;
  if (resume_after) {
    target = *resume_after;
    target += '\xFF';
  }
  shards_->Seek(target);
  FindLive();
}

void ViewPartitionIterator::Next() {
  assert(valid_);
  shards_->Next();
  FindLive();
}

Status ViewPartitionIterator::DecodePartitionKey(std::vector<std::string>* values) const {
  *values = key_;
  return Status::Ok();
}

void ViewPartitionIterator::FindLive() {
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

Status ViewPartitionIterator::ReadPartition(bool* live) {
  position_.assign(shards_->shard());
  std::string_view token_bytes = position_;
  DecodeToken(&token_bytes, &token_);
  CELLFS_RETURN_IF_ERROR(
      storage::DecodePartitionKey(*view_, std::string_view(position_).substr(kTokenBytes), &key_));
  const size_t partition_count = key_.size();
  storage::Cursor& entries = shards_->entries();
  std::vector<std::string> view_key;
  std::vector<std::string> clustering;
  for (; entries.Valid(); entries.Next()) {
    CELLFS_RETURN_IF_ERROR(storage::DecodeClustering(*view_, entries.key(), &clustering));
    view_key.assign(key_.begin(), key_.begin() + static_cast<ptrdiff_t>(partition_count));
    for (std::string& value : clustering) view_key.push_back(std::move(value));
    auto row = storage::ReadViewRow(reader_, base_, *view_, view_key);
    if (!row.ok()) return row.status();
    if (row->has_value()) {
      first_row_ = std::move(**row);
      *live = true;
      return Status::Ok();
    }
  }
  return entries.status();
}

}  // namespace cellfs
