// ExportTable (fs/table_export.h): a table's RowTextStream, handed out in
// pieces.
#include "fs/table_export.h"

#include "fs/row_text_stream.h"

namespace cellfs::fs {

Status ExportTable(const Engine& engine, const std::string& keyspace, const std::string& table,
                   bool csv, const std::function<bool(std::string_view piece)>& write) {
  Result<TableHandle> handle = engine.FindTable(keyspace, table);
  if (!handle.ok()) return handle.status();
  Node node;
  node.id.kind = NodeKind::kTable;
  node.id.keyspace = keyspace;
  node.id.table = table;
  node.id.table_id = handle.value()->id;
  node.table = std::move(handle).value();
  RowTextStream stream(node, engine.NewReadView(), csv);
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
