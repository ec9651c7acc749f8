// IndexIteratorImpl: an index's entries in a value range walked with a
// shard cursor (a shard per indexed value), each checked against its row
// through a ReadView of the same snapshot.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/store/index_iterator.h"
#include "engine/store/read_view.h"
#include "engine/store/storage/shard_cursor.h"

namespace cellfs {

struct ReadState;

// The ascending component(s) an index keys `value` (a serialized value of
// IndexedValueType) by. InvalidArgument when the value does not validate.
Status IndexComponentOf(const TableSchema& table, const IndexSchema& index, std::string_view value,
                        std::string* out);

class IndexIteratorImpl final : public IndexIterator {
 public:
  // `lower` / `upper`: encoded bounds (IndexComponentOf), nullopt unbounded.
  IndexIteratorImpl(std::shared_ptr<const ReadState> state, ReadView view, TableHandle table,
                    const IndexSchema& index, std::optional<std::string> lower,
                    bool lower_inclusive, std::optional<std::string> upper, bool upper_inclusive,
                    std::function<bool(std::string_view)> accept, bool fill_cache);

  bool Valid() const override { return valid_; }
  void Next() override;
  Status status() const override { return status_; }
  std::span<const std::string> partition_key() const override { return partition_key_; }
  bool partition_match() const override { return partition_match_; }
  std::span<const std::string> clustering() const override { return clustering_; }
  const RowFragment& row() const override { return row_; }
  std::string_view value() const override { return shards_->shard(); }

 private:
  // From the cursors' position on, the first entry that checks out.
  void Settle();
  // Moves shards_ to the next shard within the upper bound; false past it.
  bool ShardInRange() const;
  // Whether accept_ (if any) takes the current shard's value.
  Result<bool> ShardAccepted() const;
  // Decodes the entry under the cursor and checks it against its row.
  Result<bool> Check(std::string_view shard, std::string_view key);
  bool CellHolds(const RowFragment& row, std::string_view component) const;

  std::shared_ptr<const ReadState> state_;
  ReadView view_;
  TableHandle table_;
  IndexSchema index_;
  std::optional<std::string> upper_;
  bool upper_inclusive_;
  std::function<bool(std::string_view)> accept_;  // IndexBounds::accept
  TypePtr value_type_;                            // to decode a shard for accept_
  std::string space_;  // the index's space; the cursor keeps a view of it
  std::unique_ptr<storage::ShardCursor> shards_;
  bool valid_ = false;
  Status status_;
  std::vector<std::string> partition_key_;
  std::vector<std::string> clustering_;
  bool partition_match_ = false;
  RowFragment row_;
};

}  // namespace cellfs
