// The content of the generated files that read a directory's rows: the
// @json and @csv exports of a table, partition or slice, and a row's
// @json (and a query's, fs/tree/query_path.h). Shared by stat (exact sizes, write times as mtime)
// and open (the bytes read), so both describe the same content from a read view.
#pragma once

#include <cstdint>
#include <string>

#include "engine/status.h"
#include "engine/store/read_view.h"
#include "fs/formats/row_text_stream.h"
#include "fs/tree/node.h"

namespace cellfs::fs {

// The size and newest write of the export of `dir` (a table, partition,
// slice or query directory: fs/tree/query_path.h RowSourceOf), measured by
// streaming it once from `view` (cost: the export's rows, as reading it; memory flat).
struct ExportMeasure {
  uint64_t size = 0;
  int64_t newest_write_micros = 0;  // 0 when it holds no row
};
Status MeasureExport(const Node& dir, bool csv, const ReadView& view, ExportMeasure* out);

// The number of rows the directory `dir` shows (its @count: what SELECT
// count(*) gives, whatever a projection shows of them), counted from `view`
// (cost: one pass over the rows, nothing rendered).
Status CountRows(const Node& dir, const ReadView& view, uint64_t* rows);

// A row's @json as read (`row` a row node, or the partition node of a table
// without clustering columns): the row as one JSON object and a newline,
// empty when the row is not live. *newest_write_micros (may be null): its
// newest write, 0 when not live.
Status RowJsonText(const Node& row, const ReadView& view, std::string* text,
                   int64_t* newest_write_micros = nullptr);

}  // namespace cellfs::fs
