// PartitionIteratorImpl: the PartitionIterator that ReadView makes. Visits a
// table's partitions in key (= token) order, one seek each, and skips the
// dead ones.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/store/internal/fragment_reader.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/partition_iterator.h"

namespace leveldb {
class Iterator;
}  // namespace leveldb

namespace cellfs {

// position() is the partition prefix without the table prefix:
// EncodeToken(token) || the encoded partition key (8 + n bytes). Resuming
// after a position seeks to table prefix || position || 0xFF, past every
// entry of that partition (their kind bytes are below 0xFF) and before the
// next partition's (its prefix differs from this one inside the prefix).
//
// Deciding that a partition is live reads its head and its rows up to the
// first live one. Not thread-safe; holds `state` (so the snapshot) and
// `table` alive.
class PartitionIteratorImpl final : public PartitionIterator {
 public:
  // Positions at the first live partition (after `resume_after` when
  // given). REQUIRES: `it` reads at state's snapshot.
  PartitionIteratorImpl(std::shared_ptr<const ReadState> state, TableHandle table,
                        std::unique_ptr<leveldb::Iterator> it,
                        const std::optional<std::string>& resume_after);
  ~PartitionIteratorImpl() override;

  bool Valid() const override { return valid_; }
  void Next() override;
  Status status() const override { return status_; }
  int64_t token() const override { return token_; }
  std::string_view position() const override;
  Status DecodePartitionKey(std::vector<std::string>* values) const override;
  const RowFragment& static_row() const override { return static_row_; }
  const RowFragment* first_row() const override { return has_first_row_ ? &first_row_ : nullptr; }

 private:
  // From it_'s position, moves to the first live partition, or ends.
  void FindLive();
  // Reads the partition whose first entry is at it_; sets *live. Leaves it_
  // somewhere inside or after the partition.
  Status ReadPartition(bool* live);
  // Reads rows forward from it_ until one is live; false when none is.
  Status HasLiveRow(const storage::PartitionHeader& header, bool* live);
  void SkipPartition();

  std::shared_ptr<const ReadState> state_;
  TableHandle table_;
  std::unique_ptr<leveldb::Iterator> it_;
  std::string table_prefix_;

  bool valid_ = false;
  Status status_;
  std::string partition_prefix_;  // table prefix || token || key
  int64_t token_ = 0;
  RowFragment static_row_;
  RowFragment first_row_;       // the live row that made the partition live
  bool has_first_row_ = false;  // false when its static cells did
};

}  // namespace cellfs
