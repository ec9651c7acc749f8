// DmlWriter's INSERT JSON: the object read by the @insert JSON Lines
// parser (fs/formats/insert_parser.h), so a value means the same in a
// statement and in a file; DEFAULT NULL (the default) nulls every column
// the object omits, DEFAULT UNSET leaves them.
#include <algorithm>

#include "engine/cql/literal.h"
#include "fs/cql/dml_writer.h"
#include "fs/formats/insert_parser.h"

namespace cellfs::fs {

Status DmlWriter::InsertJson(const TableHandle& table, const InsertStatement& statement,
                             const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  std::string line = statement.json_value.text;
  // The reader would take anything else for a CSV header.
  const size_t first = line.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || line[first] != '{') {
    return ErrorAt(statement.json_value.position,
                   "Could not decode JSON string as a map: " + QuoteForMessage(line));
  }
  // One JSON Lines record: a raw newline can only be white space in JSON.
  std::replace(line.begin(), line.end(), '\n', ' ');
  std::replace(line.begin(), line.end(), '\r', ' ');
  line += '\n';
  std::optional<Result<InsertRow>> parsed;
  InsertParser parser(table, attributes);
  auto sink = [&](uint64_t, Result<InsertRow>&& row) {
    if (!parsed) parsed.emplace(std::move(row));
  };
  parser.Feed(line, sink);
  parser.Finish(sink);
  if (!parsed) {
    return ErrorAt(statement.json_value.position,
                   "Could not decode JSON string as a map: " + QuoteForMessage(line));
  }
  if (!parsed->ok()) {
    return ErrorAt(statement.json_value.position, parsed->status().message());
  }
  InsertRow row = std::move(parsed->value());
  if (!(row.attributes == attributes)) {
    return ErrorAt(statement.json_value.position,
                   "JSON values map contains unrecognized column: @ttl or @timestamp");
  }
  if (!statement.default_unset) {
    std::vector<bool> given(t.def.columns.size(), false);
    for (const ColumnValue& cell : row.cells) given[cell.column] = true;
    for (size_t i = t.partition_key_count() + t.clustering_count(); i < given.size(); ++i) {
      const bool is_static = t.column(i).kind == ColumnKind::kStatic;
      if (!given[i] && (is_static || !row.static_only)) row.cells.push_back({i, std::nullopt});
    }
  }
  Status s =
      row.static_only
          ? mutation_->Update(table, row.partition_key, {}, row.cells, attributes)
          : mutation_->Insert(table, row.partition_key, row.clustering, row.cells, attributes);
  if (!s.ok()) return ErrorAt(statement.table_position, s.message());
  Key key;
  key.partition = row.partition_key;
  key.clustering = row.clustering;
  std::vector<size_t> columns;
  for (const ColumnValue& cell : row.cells) columns.push_back(cell.column);
  return Touch(table, DmlTouched::Scope::kCells, key, std::move(columns), statement.table_position);
}

}  // namespace cellfs::fs
