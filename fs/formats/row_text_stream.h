// RowTextStream: the rows of a table, partition or slice as JSON Lines or
// CSV (header first), produced piece by piece from one read view.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/status.h"
#include "engine/store/read_view.h"
#include "engine/store/slice.h"

namespace cellfs::fs {

// What a stream covers: a whole table in token order, or one partition's
// rows that `slice` selects.
struct RowSource {
  TableHandle table;
  // Serialized key values; nullopt = the whole table.
  std::optional<std::vector<std::string>> partition_key;
  SliceSpec slice;        // partition streams only
  bool is_slice = false;  // a slice never shows a static-only row
};

// Not thread-safe. Memory stays flat: one partition iterator and one row
// iterator at a time.
class RowTextStream {
 public:
  RowTextStream(RowSource source, ReadView view, bool csv);
  ~RowTextStream();
  // Appends at least one line to *out; false (nothing appended) at the
  // end or on error (status()).
  bool Next(std::string* out);
  Status status() const { return status_; }
  // The newest write time (microseconds) in what Next has produced so far:
  // the rows' markers and cells and the static cells shown with them; 0
  // before any row.
  int64_t newest_write_micros() const { return newest_write_micros_; }

 private:
  bool StartPartition();  // positions rows_ on the next partition
  RowSource source_;
  ReadView view_;
  bool csv_;
  bool header_done_ = false;
  std::unique_ptr<PartitionIterator> partitions_;  // table streams only
  std::vector<std::string> partition_key_;
  std::optional<RowFragment> static_row_;
  std::unique_ptr<RowIterator> rows_;
  bool rows_seen_ = false;  // the current partition produced a row
  bool done_ = false;
  int64_t newest_write_micros_ = 0;
  Status status_;
};

// The newest write time in `row`: its marker's and its cells'; 0 when it
// holds neither.
int64_t NewestWriteMicros(const RowFragment& row);

}  // namespace cellfs::fs
