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

 private:
  std::vector<size_t> columns_;  // empty: SELECT *
  RowCursor cursor_;
  bool csv_;
  bool header_done_ = false;
};

}  // namespace cellfs::fs
