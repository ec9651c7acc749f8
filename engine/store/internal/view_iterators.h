// The RowIterator and PartitionIterator of a materialized view: its entries
// walked in the view's own order, each checked against its base row
// (view_row_check.h), so only live view rows show.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/store/internal/clustering_ranges.h"
#include "engine/store/partition_iterator.h"
#include "engine/store/read_view.h"
#include "engine/store/row_iterator.h"
#include "engine/store/storage/cursor.h"
#include "engine/store/storage/shard_cursor.h"

namespace cellfs {

struct ReadState;

// What one view partition slice reads.
struct ViewRowScan {
  // The partition's entries' prefix (view_row_check.h ViewPartitionPrefix):
  // the iterator's cursor keeps views of it, so the iterator holds it.
  std::string partition_prefix;
  std::vector<std::string> partition_key;        // the view partition's key values
  std::vector<storage::ClusteringRange> ranges;  // stored order, disjoint
  bool reverse = false;
  uint64_t limit = 0;                       // 0 = no limit
  std::optional<std::string> resume_after;  // an encoded clustering key
};

// Rows come in range order (backwards when reverse); each range costs one
// seek, each entry a read of its base row. Not thread-safe.
class ViewRowIterator final : public RowIterator {
 public:
  // Walks the view partition's entries (keys: encoded clustering) at
  // `state`'s read point, each read through `reader` (of the same state);
  // `base` is the view's base table.
  ViewRowIterator(const ReadState& state, bool fill_cache, ReadView reader, TableHandle view,
                  TableHandle base, ViewRowScan scan);

  bool Valid() const override { return valid_; }
  void Next() override;
  Status status() const override { return status_; }
  std::string_view clustering_key() const override { return clustering_; }
  Status DecodeClustering(std::vector<std::string>* values) const override;
  const RowFragment& row() const override { return row_; }

 private:
  void FindNext();
  void SeekRange();
  // The entry under the cursor when it lies in the current range and past
  // the resume point; nullopt when the range is done.
  bool InRange() const;
  bool PastResumePoint(std::string_view clustering) const;
  void Step();
  void Fail(Status status);

  ReadView reader_;
  TableHandle view_;
  TableHandle base_;
  ViewRowScan scan_;  // before it_, whose cursor views scan_.partition_prefix
  std::unique_ptr<storage::Cursor> it_;
  size_t range_ = 0;
  bool positioned_ = false;
  uint64_t returned_ = 0;
  std::vector<std::string> key_;  // partition key then clustering values

  bool valid_ = false;
  Status status_;
  std::string clustering_;
  RowFragment row_;
};

// A view's live partitions in token order: a partition is live while one
// of its entries checks out (the first such row is kept as first_row()).
class ViewPartitionIterator final : public PartitionIterator {
 public:
  ViewPartitionIterator(std::shared_ptr<const ReadState> state, ReadView reader, TableHandle view,
                        bool fill_cache, const std::optional<std::string>& resume_after);

  bool Valid() const override { return valid_; }
  void Next() override;
  Status status() const override { return status_; }
  int64_t token() const override { return token_; }
  std::string_view position() const override { return position_; }
  Status DecodePartitionKey(std::vector<std::string>* values) const override;
  const RowFragment& static_row() const override { return static_row_; }
  const RowFragment* first_row() const override { return &first_row_; }

 private:
  void FindLive();
  Status ReadPartition(bool* live);

  std::shared_ptr<const ReadState> state_;
  ReadView reader_;
  TableHandle view_;
  TableHandle base_;
  std::string space_;  // the shard cursor keeps a view of it
  std::unique_ptr<storage::ShardCursor> shards_;
  bool valid_ = false;
  Status status_;
  int64_t token_ = 0;
  std::string position_;
  std::vector<std::string> key_;
  RowFragment static_row_;  // always empty: views have no static columns
  RowFragment first_row_;
};

}  // namespace cellfs
