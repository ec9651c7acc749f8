// RowIteratorImpl: walks a slice's byte ranges over one partition's rows,
// merging each row's fragments and keeping what is live at the view's time.
#include "engine/store/internal/row_iterator_impl.h"

#include <cassert>
#include <utility>

#include "engine/store/internal/fold_queue.h"
#include "engine/store/internal/live_row.h"
#include "engine/store/internal/storage_keys.h"

namespace cellfs {

RowIteratorImpl::RowIteratorImpl(std::shared_ptr<const ReadState> state, TableHandle table,
                                 std::unique_ptr<storage::Cursor> it, RowScan scan)
    : state_(std::move(state)),
      table_(std::move(table)),
      it_(std::move(it)),
      scan_(std::move(scan)),
      buried_(state_->core->storage.get(), state_->point.get(), table_->id, scan_.partition_prefix,
              state_->core->buried_tables.MayHave(table_->id, state_->core->storage.get()),
              scan_.fill_cache) {
  storage::AppendEntryKind(storage::EntryKind::kRow, &row_prefix_);
  tombstones_ = (scan_.header.deletion ? 1 : 0) + scan_.header.ranges.size() +
                storage::CountTombstones(scan_.header.static_row, state_->now);
  FindNext();
}

RowIteratorImpl::~RowIteratorImpl() = default;

void RowIteratorImpl::Next() {
  assert(valid_);
  FindNext();
}

Status RowIteratorImpl::DecodeClustering(std::vector<std::string>* values) const {
  assert(valid_);
  return storage::DecodeClustering(*table_, clustering_, values);
}

void RowIteratorImpl::FindNext() {
  valid_ = false;
  if (scan_.limit != 0 && returned_ >= scan_.limit) return;
  if (range_ == scan_.ranges.size()) return;
  while (range_ < scan_.ranges.size()) {
    if (!positioned_) {
      SeekRange();
      if (!status_.ok()) return;
      positioned_ = true;
    }
    if (!ClusteringInRange()) {
      Status error = it_->status();
      if (!error.ok()) return Fail(std::move(error));
      ++range_;
      positioned_ = false;
      continue;
    }
    if (ReadRow()) {
      ++returned_;
      valid_ = true;
      return;
    }
    if (!status_.ok()) return;
  }
  if (scan_.count_buried_tombstones) CountBuriedTombstones();
}

void RowIteratorImpl::CountBuriedTombstones() {
  if (!state_->core->buried_tables.MayHave(table_->id, state_->core->storage.get())) return;
  std::string space;
  storage::AppendBuriedPrefix(table_->id, &space);
  std::unique_ptr<storage::Cursor> it = state_->core->storage->NewCursor(
      state_->point.get(), storage::BuriedShard(space, scan_.partition_prefix), {false});
  storage::FragmentGroup group;
  for (const storage::ClusteringRange& range : scan_.ranges) {
    for (it->Seek(row_prefix_ + range.start); it->Valid();) {
      const std::string_view key = it->key();
      if (!key.starts_with(row_prefix_) ||
          key.size() < row_prefix_.size() + storage::kSequenceBytes ||
          key.substr(row_prefix_.size(),
                     key.size() - row_prefix_.size() - storage::kSequenceBytes) >= range.end) {
        break;
      }
      if (Status read = storage::ReadGroupForward(it.get(), false, &group); !read.ok()) {
        return Fail(std::move(read));
      }
      if (!merged_buried_.contains(group.group)) {
        tombstones_ += storage::CountTombstones(group.merged, state_->now);
      }
    }
    if (Status error = it->status(); !error.ok()) return Fail(std::move(error));
  }
}

const storage::ClusteringRange& RowIteratorImpl::CurrentRange() const {
  const size_t n = scan_.ranges.size();
  return scan_.ranges[scan_.reverse ? n - 1 - range_ : range_];
}

void RowIteratorImpl::SeekRange() {
  const storage::ClusteringRange& range = CurrentRange();
  const std::optional<std::string>& resume = scan_.resume_after;
  // Starting at the resume point (when it lies inside the range) keeps a
  // resumed listing O(log n); PastResumePoint drops the resume row itself.
  std::string target = row_prefix_;
  if (!scan_.reverse) {
    target += (resume && *resume > range.start) ? *resume : range.start;
    it_->Seek(target);
    return;
  }
  target += (resume && *resume < range.end) ? *resume : range.end;
  // The walk starts just before the target.
  it_->SeekBefore(target);
  Status error = it_->status();
  if (!error.ok()) return Fail(std::move(error));
}

std::optional<std::string_view> RowIteratorImpl::ClusteringInRange() const {
  if (!it_->Valid()) return std::nullopt;
  const std::string_view key = it_->key();
  // The cursor ends with the partition; rows are the keys after kRow.
  if (key.size() < row_prefix_.size() + storage::kSequenceBytes || !key.starts_with(row_prefix_)) {
    return std::nullopt;
  }
  const std::string_view clustering =
      key.substr(row_prefix_.size(), key.size() - row_prefix_.size() - storage::kSequenceBytes);
  const storage::ClusteringRange& range = CurrentRange();
  if (clustering < range.start || clustering >= range.end) return std::nullopt;
  return clustering;
}

bool RowIteratorImpl::PastResumePoint(std::string_view clustering) const {
  if (!scan_.resume_after) return true;
  return scan_.reverse ? clustering < *scan_.resume_after : clustering > *scan_.resume_after;
}

bool RowIteratorImpl::ReadRow() {
  storage::FragmentGroup& group = group_;
  Status read = scan_.reverse ? storage::ReadGroupBackward(it_.get(), false, &group)
                              : storage::ReadGroupForward(it_.get(), false, &group);
  const size_t in_data = group.fragments;
  // A buried fragment holds nothing live: it can only shadow, so a row dead
  // on its own needs none (except when its tombstones are counted).
  if (read.ok() && (scan_.count_buried_tombstones || IsRowLive(group.merged, state_->now))) {
    read = buried_.MergeInto(false, &group);
  }
  if (scan_.count_buried_tombstones && group.fragments > in_data) {
    merged_buried_.insert(group.group);
  }
  if (!read.ok()) {
    Fail(std::move(read));
    return false;
  }
  if (group.fragments >= storage::FoldQueue::kFoldThreshold) {
    state_->core->fold_queue.Add(scan_.partition_prefix + group.group);
  }
  const std::string_view clustering = std::string_view(group.group).substr(row_prefix_.size());
  if (!PastResumePoint(clustering)) return false;
  const std::optional<RowDeletion> inherited = storage::InheritedDeletion(scan_.header, clustering);
  tombstones_ += storage::CountTombstones(group.merged, state_->now);
  bool live = false;
  if (Status kept = storage::KeepLive(*table_, inherited, state_->now, &group.merged, &live);
      !kept.ok()) {
    Fail(std::move(kept));
    return false;
  }
  if (!live) {
    // A dead row in the data space: the sweeper buries it (and the
    // partition's other dead rows), so later reads walk past it.
    if (!bury_queued_) state_->core->bury_queue.Add(scan_.partition_prefix);
    bury_queued_ = true;
    return false;
  }
  clustering_.assign(clustering);
  std::swap(row_, group.merged);
  return true;
}

void RowIteratorImpl::Fail(Status status) {
  status_ = std::move(status);
  valid_ = false;
  range_ = scan_.ranges.size();
}

}  // namespace cellfs
