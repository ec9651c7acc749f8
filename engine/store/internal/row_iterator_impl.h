// RowIteratorImpl: the RowIterator that ReadView makes. Walks the byte
// ranges of a slice over one partition's rows, one merged row at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/store/internal/buried_reader.h"
#include "engine/store/internal/clustering_ranges.h"
#include "engine/store/internal/fragment_reader.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/row_iterator.h"
#include "engine/store/storage/cursor.h"

namespace cellfs {

// What one partition slice reads.
struct RowScan {
  std::string partition_prefix;                  // storage::AppendPartitionPrefix
  storage::PartitionHeader header;               // the partition's head, already read
  std::vector<storage::ClusteringRange> ranges;  // stored order, disjoint
  bool reverse = false;                          // walk ranges and rows backwards
  uint64_t limit = 0;                            // 0 = no limit
  std::optional<std::string> resume_after;       // an encoded clustering key
  bool fill_cache = true;                        // as the partition's cursor was made
  bool count_buried_tombstones = false;          // SliceSpec's
};

// Rows come in range order (backwards when reverse). Each range costs one
// seek; each group read costs its fragments, and the fragments the sweeper
// buried of the rows it reads (BuriedReader). Groups with many fragments
// are queued for folding; a partition with a dead row in the data space is
// queued for burying. Not thread-safe; holds `state` (so the read point) and
// `table` alive.
class RowIteratorImpl final : public RowIterator {
 public:
  // Positions at the first live row. REQUIRES: `it` walks the partition
  // at state's read point.
  RowIteratorImpl(std::shared_ptr<const ReadState> state, TableHandle table,
                  std::unique_ptr<storage::Cursor> it, RowScan scan);
  ~RowIteratorImpl() override;

  bool Valid() const override { return valid_; }
  void Next() override;
  Status status() const override { return status_; }
  std::string_view clustering_key() const override { return clustering_; }
  Status DecodeClustering(std::vector<std::string>* values) const override;
  const RowFragment& row() const override { return row_; }
  uint64_t tombstones_read() const override { return tombstones_; }

 private:
  // Moves to the next live row in the slice, or ends (valid_ false).
  void FindNext();
  // The range being walked. REQUIRES: range_ < scan_.ranges.size()
  const storage::ClusteringRange& CurrentRange() const;
  // Seeks to the edge of the current range where the walk starts.
  void SeekRange();
  // The encoded clustering key of the entry at it_ when it lies in the
  // current range; nullopt otherwise.
  std::optional<std::string_view> ClusteringInRange() const;
  // True when `clustering` comes strictly after resume_after in the walk.
  bool PastResumePoint(std::string_view clustering) const;
  // Reads the group at it_ (moving in the walk's direction) and keeps it
  // as the current row when live; false when dead or on error.
  bool ReadRow();
  void Fail(Status status);
  // Adds to tombstones_ those of the buried rows in the slice's ranges
  // that the walk did not merge (count_buried_tombstones).
  void CountBuriedTombstones();

  std::shared_ptr<const ReadState> state_;
  TableHandle table_;
  std::unique_ptr<storage::Cursor> it_;
  RowScan scan_;
  storage::BuriedReader buried_;
  bool bury_queued_ = false;  // the partition went to the bury queue
  // Rows the walk merged buried fragments into (count_buried_tombstones).
  std::set<std::string, std::less<>> merged_buried_;
  std::string row_prefix_;   // kRow: what the partition's row keys start with
  size_t range_ = 0;         // how many ranges are finished, in walk order
  bool positioned_ = false;  // it_ has been sought into the current range
  uint64_t returned_ = 0;
  uint64_t tombstones_ = 0;  // tombstones_read()

  bool valid_ = false;
  Status status_;
  std::string clustering_;
  RowFragment row_;
  // The group being read; swapped with row_ so both keep their memory.
  storage::FragmentGroup group_;
};

}  // namespace cellfs
