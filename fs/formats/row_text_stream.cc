// RowTextStream (fs/formats/row_text_stream.h): the cursor's rows, each
// rendered by fs/formats/row_json.h.
#include "fs/formats/row_text_stream.h"

#include <algorithm>

#include "fs/formats/row_json.h"

namespace cellfs::fs {

int64_t NewestWriteMicros(const RowFragment& row) {
  int64_t newest = row.marker ? row.marker->write_time : 0;
  for (const RowCell& cell : row.cells) newest = std::max(newest, cell.cell.write_time);
  return newest;
}

RowTextStream::RowTextStream(RowSource source, ReadView view, bool csv)
    : columns_(source.query.columns), cursor_(std::move(source), std::move(view)), csv_(csv) {}

bool RowTextStream::Next(std::string* out) {
  const TableSchema& table = cursor_.table();
  if (csv_ && !header_done_) {
    header_done_ = true;
    out->append(CsvHeader(table, columns_));
    return true;
  }
  if (!cursor_.Next()) return false;
  if (columns_.empty()) columns_ = SelectStarOrder(table);  // resolved once, not per row
  newest_write_micros_ = std::max(newest_write_micros_, NewestWriteMicros(cursor_.row()));
  if (const RowFragment* statics = cursor_.static_row()) {
    newest_write_micros_ = std::max(newest_write_micros_, NewestWriteMicros(*statics));
  }
  if (csv_) {
    AppendRowCsv(table, cursor_.partition_key(), cursor_.clustering(), cursor_.static_row(),
                 cursor_.row(), columns_, out);
  } else {
    AppendRowJson(table, cursor_.partition_key(), cursor_.clustering(), cursor_.static_row(),
                  cursor_.row(), columns_, out);
    out->push_back('\n');
  }
  return true;
}

}  // namespace cellfs::fs
