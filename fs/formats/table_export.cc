// ExportTable (fs/formats/table_export.h): a table's RowTextStream, handed out in
// pieces.
#include "fs/formats/table_export.h"

#include "fs/formats/row_text_stream.h"

namespace cellfs::fs {

Status ExportTable(const Engine& engine, const std::string& keyspace, const std::string& table,
                   bool csv, const std::function<bool(std::string_view piece)>& write) {
  Result<TableHandle> handle = engine.FindTable(keyspace, table);
  if (!handle.ok()) return handle.status();
  RowSource whole_table;
  whole_table.table = std::move(handle).value();
  RowTextStream stream(std::move(whole_table), engine.NewReadView(), csv);
  constexpr size_t kPiece = 1u << 16;
  std::string piece;
  while (stream.Next(&piece)) {
    if (piece.size() < kPiece) continue;
    if (!write(piece)) return Status::Ok();
    piece.clear();
  }
  if (!stream.status().ok()) return stream.status();
  if (!piece.empty()) write(piece);
  return Status::Ok();
}

}  // namespace cellfs::fs
