// Exports and a row's @json from a read view (fs/tree/export_text.h).
#include "fs/tree/export_text.h"

#include <algorithm>
#include <utility>

#include "fs/formats/row_json.h"
#include "fs/tree/slice_path.h"

namespace cellfs::fs {

Status ExportSourceOf(const Node& dir, RowSource* out) {
  out->table = dir.table;
  if (dir.id.kind == NodeKind::kTable) return Status::Ok();
  out->partition_key = dir.id.partition_key;
  out->is_slice = !dir.id.slice.empty();
  if (!dir.clustered()) return Status::Ok();
  return BuildSlice(*dir.table, dir.id.slice, &out->slice);
}

Status MeasureExport(const Node& dir, bool csv, const ReadView& view, ExportMeasure* out) {
  RowSource source;
  CELLFS_RETURN_IF_ERROR(ExportSourceOf(dir, &source));
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
