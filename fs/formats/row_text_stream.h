// RowTextStream: the rows of a table, partition or slice (narrowed by its
// query) as JSON Lines or CSV (header first), produced piece by piece from
// one read view.
#pragma once

#include <string>
#include <vector>

#include "engine/status.h"
#include "engine/store/read_view.h"
#include "fs/formats/row_cursor.h"

namespace cellfs::fs {

// Not thread-safe. Memory stays flat (fs/formats/row_cursor.h). The
// columns are SELECT *'s, or the query's projection in its order.
class RowTextStream {
 public:
  RowTextStream(RowSource source, ReadView view, bool csv);
  // Appends at least one line to *out; false (nothing appended) at the
  // end or on error (status()).
  bool Next(std::string* out);
  Status status() const { return cursor_.status(); }
  // The newest write time (microseconds) in what Next has produced so far:
  // the rows' markers and cells and the static cells shown with them; 0
  // before any row.
  int64_t newest_write_micros() const { return newest_write_micros_; }

 private:
  std::vector<size_t> columns_;  // empty: SELECT *
  RowCursor cursor_;
  bool csv_;
  bool header_done_ = false;
  int64_t newest_write_micros_ = 0;
};

// The newest write time in `row`: its marker's and its cells'; 0 when it
// holds neither.
int64_t NewestWriteMicros(const RowFragment& row);

}  // namespace cellfs::fs
