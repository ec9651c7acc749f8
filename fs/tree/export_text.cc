// Exports and a row's @json from a read view (fs/tree/export_text.h).
#include "fs/tree/export_text.h"

#include <algorithm>
#include <utility>

#include "fs/formats/row_json.h"
#include "fs/tree/query_path.h"

namespace cellfs::fs {

Status MeasureExport(const Node& dir, bool csv, const ReadView& view, ExportMeasure* out) {
  RowSource source;
  CELLFS_RETURN_IF_ERROR(RowSourceOf(dir, &source));
  RowTextStream stream(std::move(source), view, csv);
  std::string chunk;
  ExportMeasure measure;
  while (stream.Next(&chunk)) {
    measure.size += chunk.size();
    chunk.clear();
  }
  CELLFS_RETURN_IF_ERROR(stream.status());
  measure.newest_write_micros = stream.newest_write_micros();
  *out = measure;
  return Status::Ok();
}

Status CountRows(const Node& dir, const ReadView& view, uint64_t* rows) {
  RowSource source;
  CELLFS_RETURN_IF_ERROR(RowSourceOf(dir, &source));
  source.query.columns.clear();  // count(*) counts rows, whatever is shown of them
  RowCursor cursor(std::move(source), view);
  uint64_t counted = 0;
  while (cursor.Next()) ++counted;
  CELLFS_RETURN_IF_ERROR(cursor.status());
  *rows = counted;
  return Status::Ok();
}

Status RowJsonText(const Node& row, const ReadView& view, std::string* text,
                   int64_t* newest_write_micros) {
  text->clear();
  if (newest_write_micros != nullptr) *newest_write_micros = 0;
  auto partition = row.Partition();
  if (!partition.ok()) return partition.status();
  auto content = view.GetRow(row.table, *partition.value(), row.id.clustering);
  if (!content.ok()) return content.status();
  if (!content.value()) return Status::Ok();
  auto statics = view.GetStaticRow(row.table, *partition.value());
  if (!statics.ok()) return statics.status();
  const RowFragment* static_row = statics.value() ? &*statics.value() : nullptr;
  *text =
      RowToJson(*row.table, row.id.partition_key, row.id.clustering, static_row, *content.value()) +
      "\n";
  if (newest_write_micros != nullptr) {
    *newest_write_micros = NewestWriteMicros(*content.value());
    if (static_row != nullptr) {
      *newest_write_micros = std::max(*newest_write_micros, NewestWriteMicros(*static_row));
    }
  }
  return Status::Ok();
}

}  // namespace cellfs::fs
