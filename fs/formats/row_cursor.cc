// RowCursor (fs/formats/row_cursor.h): partitions in token order, rows in
// clustering order, each checked against the query.
#include "fs/formats/row_cursor.h"

namespace cellfs::fs {

RowCursor::RowCursor(RowSource source, ReadView view, bool rows_only)
    : source_(std::move(source)),
      view_(source_.partition_key ? std::move(view) : view.ForScan()),
      rows_only_(rows_only) {
  if (source_.partition_key) return;
  if (source_.query.index) {
    auto opened = IndexedPartitions::Open(view_, source_.table, *source_.query.index,
                                          source_.query.index_bounds);
    if (opened.ok()) {
      indexed_ = std::move(opened).value();
      return;
    }
    if (!IndexUnusable(opened.status())) {
      status_ = opened.status();
      return;  // StartPartition finds no source: nothing is read
    }
    // Dropped or unbuilt since the query was planned: scan instead.
  }
  partitions_ = view_.NewPartitionIterator(source_.table);
}

RowCursor::~RowCursor() = default;

const RowFragment& RowCursor::row() const { return on_row_ ? rows_->row() : no_row_; }

bool RowCursor::StartPartition() {
  static_row_.reset();
  SliceSpec whole_partition;
  const SliceSpec* slice = &whole_partition;
  if (indexed_) {
    if (!indexed_->Next()) {
      status_ = indexed_->status();
      return false;
    }
    partition_key_ = indexed_->partition_key();
    auto statics = view_.GetStaticRow(source_.table, partition_key_);
    if (!statics.ok()) {
      status_ = statics.status();
      return false;
    }
    static_row_ = statics.value();
  } else if (partitions_) {
    if (!partitions_->Valid()) {
      status_ = partitions_->status();
      return false;
    }
    if (status_ = partitions_->DecodePartitionKey(&partition_key_); !status_.ok()) return false;
    if (!partitions_->static_row().cells.empty()) static_row_ = partitions_->static_row();
    partitions_->Next();
  } else {
    if (single_done_ || !source_.partition_key) return false;
    single_done_ = true;
    partition_key_ = *source_.partition_key;
    slice = &source_.slice;
    auto statics = view_.GetStaticRow(source_.table, partition_key_);
    if (!statics.ok()) {
      status_ = statics.status();
      return false;
    }
    static_row_ = statics.value();
  }
  auto rows = view_.NewRowIterator(source_.table, partition_key_, *slice);
  if (!rows.ok()) {
    status_ = rows.status();
    return false;
  }
  rows_ = std::move(rows).value();
  rows_seen_ = false;
  return true;
}

bool RowCursor::Step() {
  if (on_row_) {
    rows_->Next();
    on_row_ = false;
  }
  while (true) {
    if (!rows_) {
      if (!StartPartition()) return false;
    }
    if (rows_->Valid()) {
      if (status_ = rows_->DecodeClustering(&clustering_); !status_.ok()) return false;
      on_row_ = true;
      rows_seen_ = true;
      return true;
    }
    if (status_ = rows_->status(); !status_.ok()) return false;
    rows_.reset();
    if (!rows_seen_ && static_row_ && !source_.is_slice && !rows_only_) {
      clustering_.clear();
      return true;
    }
  }
}

bool RowCursor::Next() {
  const RowQuery& query = source_.query;
  if (query.limit != 0 && yielded_ >= query.limit) {
    on_row_ = false;  // rows_ stays where it is: nothing more is read
    return false;
  }
  while (Step()) {
    if ((query.filters.empty() && query.bounds.empty()) ||
        RowMatches(*source_.table, query, partition_key_, clustering_, static_row(), row())) {
      ++yielded_;
      return true;
    }
  }
  return false;
}

}  // namespace cellfs::fs
