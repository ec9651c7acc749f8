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
#include "engine/store/storage/shard_cursor.h"

namespace cellfs {

// position() is the partition's shard in the table's data space:
// EncodeToken(token) || the encoded partition key (8 + n bytes). Resuming
// after a position seeks the shard cursor to position || 0xFF, past that
// partition (no shard extends it: partition keys are prefix-free) and before
// the next one (its shard differs from this one inside the position).
//
// Deciding that a partition is live reads its head and its rows up to the
// first live one. Not thread-safe; holds `state` (so the read point) and
// `table` alive.
class PartitionIteratorImpl final : public PartitionIterator {
 public:
  // Positions at the first live partition (after `resume_after` when
  // given), reading at state's read point.
  PartitionIteratorImpl(std::shared_ptr<const ReadState> state, TableHandle table, bool fill_cache,
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
  // From shards_'s position, moves to the first live partition, or ends.
  void FindLive();
  // Reads the partition at shards_; sets *live.
  Status ReadPartition(bool* live);
  // Reads rows forward from `rows` until one is live; false when none is.
  // Merges each row's buried fragments; queues the partition for burying
  // when it meets a dead row.
  Status HasLiveRow(const storage::PartitionHeader& header, storage::Cursor* rows, bool* live);
  // Sets *entries to the current partition's entries in the buried space,
  // nullptr when it has none. Seeks buried_shards_ only when it stands
  // before the partition.
  Status BuriedEntries(storage::Cursor** entries);

  std::shared_ptr<const ReadState> state_;
  TableHandle table_;
  std::string table_prefix_;  // the data space
  std::unique_ptr<storage::ShardCursor> shards_;
  bool fill_cache_ = true;
  bool may_have_buried_ = false;  // BuriedTables::MayHave for the table
  // The table's buried space, walked forward beside shards_ (made at the
  // first row that needs it).
  std::string buried_space_;
  std::unique_ptr<storage::ShardCursor> buried_shards_;

  bool valid_ = false;
  Status status_;
  std::string partition_prefix_;  // table prefix || token || key (for the fold queue)
  int64_t token_ = 0;
  RowFragment static_row_;
  RowFragment first_row_;       // the live row that made the partition live
  bool has_first_row_ = false;  // false when its static cells did
};

}  // namespace cellfs
