// Differential fuzz target for the two readers of a JSON row: one @insert
// line (fs/formats/insert_parser.h) and a row's @json write
// (fs/formats/row_json.h, ParseRowJson) must agree on the same JSON object.
//
// Input: a selector byte, then lines ('\n'-separated).
//   byte 0: bit 0 picks the table: 0 ks.types (tests/fs/all_types_schema.h,
//           key k int), 1 ks.rows (key p text, c int; a static column).
//   the first lines, one per key column in key order: that column's JSON
//           value as text (missing or empty lines: 1 for an int, "a" for text);
//   each later line: a member. Its first byte picks the name: column
//           byte % N of the table (N columns, in schema order), spelt by
//           byte >> 6 as the name (0x00-0x3f), as "\"name\"" (quoted,
//           0x40-0x7f), with its first letter \u-escaped (0x80-0xbf), or as
//           "\"\"name\"\"" (quoted twice: no column; 0xc0-0xff); the rest of
//           the line is the member's value, verbatim JSON text (valid or not).
// The harness writes {"<key>": <value>, ..., <member>, ...} on one line and
// gives it to both readers; the row's key (its path, for @json) is what
// @insert makes of the key members alone, or the defaults if it refuses them.
// Properties: nothing crashes; both readers accept or both refuse (a line
// whose "@ttl"/"@timestamp" members @insert accepted has no @json
// counterpart and is skipped); when both accept, the key is the row's and
// the same columns are set or deleted, in the same order, to the same
// serialized bytes, each valid for its column.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/catalog.h"
#include "engine/cql/literal.h"
#include "engine/cql/table_schema.h"
#include "fs/formats/insert_parser.h"
#include "fs/formats/row_json.h"
#include "tests/fs/all_types_schema.h"
#include "tests/fuzz/fuzz_tables.h"
#include "tests/fuzz/fuzz_util.h"

namespace cellfs::fuzz {
namespace {

constexpr char kSchema[] = R"(
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.rows (p text, c int, s text static, v text, n int, l list<double>,
  PRIMARY KEY (p, c));
)";

const std::vector<TableHandle>& Tables() {
  static const std::vector<TableHandle> tables =
      MakeTables({kSchema, testing::kAllTypesDdl}, {"types", "rows"});
  return tables;
}

// `name` as a JSON string's contents, in one of four spellings (see the top).
std::string MemberName(const std::string& name, unsigned style) {
  static constexpr char kDigits[] = "0123456789abcdef";
  switch (style) {
    case 1:
      return "\\\"" + name + "\\\"";
    case 2: {
      const auto first = static_cast<unsigned char>(name[0]);
      return std::string("\\u00") + kDigits[first >> 4] + kDigits[first & 0xF] + name.substr(1);
    }
    case 3:
      return "\\\"\\\"" + name + "\\\"\\\"";
    default:
      return name;
  }
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t newline; (newline = text.find('\n')) != std::string_view::npos;) {
    lines.push_back(text.substr(0, newline));
    text.remove_prefix(newline + 1);
  }
  lines.push_back(text);
  return lines;
}

// The one record @insert makes of `line`.
Result<fs::InsertRow> InsertLine(const TableHandle& table, std::string_view line) {
  fs::InsertParser parser(table, WriteAttributes{});
  std::vector<Result<fs::InsertRow>> records;
  const fs::InsertParser::Sink sink = [&](uint64_t, Result<fs::InsertRow>&& row) {
    records.push_back(std::move(row));
  };
  parser.Feed(line, sink);
  parser.Finish(sink);
  if (records.size() != 1) Fail("a line of one object is one record", Printable(line));
  return std::move(records.front());
}

std::string Render(const TableSchema& table, const std::vector<ColumnValue>& cells) {
  std::string text;
  for (const ColumnValue& cell : cells) {
    text += " " + table.column(cell.column).name + "=" + (cell.value ? Hex(*cell.value) : "null");
  }
  return text;
}

bool SameCells(const std::vector<ColumnValue>& a, const std::vector<ColumnValue>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].column != b[i].column || a[i].value != b[i].value) return false;
  }
  return true;
}

void Compare(const TableSchema& table, std::string_view line, const Result<fs::InsertRow>& insert,
             const std::vector<std::string>& partition_key,
             const std::vector<std::string>& clustering) {
  std::vector<ColumnValue> cells;
  const Status row = fs::ParseRowJson(table, partition_key, clustering, line, &cells);
  const std::string where = "table " + table.def.name + " line " + Printable(line) + "\n@insert: " +
                            (insert.ok() ? std::string("ok") : insert.status().ToString()) +
                            "\n@json: " + row.ToString();
  if (insert.ok() != row.ok()) Fail("@insert and @json both accept or both refuse", where);
  if (!row.ok()) return;
  if (insert->partition_key != partition_key || insert->clustering != clustering) {
    Fail("the key is the row's both ways", where);
  }
  if (!SameCells(insert->cells, cells)) {
    Fail("@insert and @json give the same cells",
         where + "\n@insert cells:" + Render(table, insert->cells) +
             "\n@json cells:" + Render(table, cells));
  }
  for (const ColumnValue& cell : cells) {
    if (cell.value && !ValidateValue(*table.column(cell.column).type, *cell.value).ok()) {
      Fail("accepted values validate", where + Render(table, {cell}));
    }
  }
}

void Run(const TableHandle& table, std::string_view data) {
  const std::vector<std::string_view> lines = Lines(data);
  const size_t key_count = table->partition_key_count() + table->clustering_count();
  std::string keys;
  std::vector<std::string> default_pk, default_ck;
  for (size_t i = 0; i < key_count; ++i) {
    const ColumnDef& column = table->column(i);
    const bool text = column.type->kind() == TypeKind::kText;
    const std::string_view value = i < lines.size() && !lines[i].empty() ? lines[i]
                                   : text                                ? "\"a\""
                                                                         : "1";
    keys += (i > 0 ? ", \"" : "\"") + column.name + "\": " + std::string(value);
    Result<std::string> fallback = ParseLiteral(*column.type, text ? "a" : "1");
    if (!fallback.ok()) Fail("the default keys parse", fallback.status().ToString());
    (column.kind == ColumnKind::kPartitionKey ? default_pk : default_ck).push_back(*fallback);
  }
  std::string line = "{" + keys;
  const size_t columns = table->def.columns.size();
  for (size_t i = key_count; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    const auto selector = static_cast<unsigned char>(lines[i][0]);
    const std::string& name = table->column(selector % columns).name;
    line += ", \"" + MemberName(name, selector >> 6) + "\": ";
    line += lines[i].substr(1);
  }
  line += "}";

  // The row's path: the key @insert makes of the key members alone.
  const Result<fs::InsertRow> key_only = InsertLine(table, "{" + keys + "}");
  const std::vector<std::string>& partition_key =
      key_only.ok() ? key_only->partition_key : default_pk;
  const std::vector<std::string>& clustering = key_only.ok() ? key_only->clustering : default_ck;

  const Result<fs::InsertRow> insert = InsertLine(table, line);
  if (insert.ok() && (insert->attributes.ttl || insert->attributes.timestamp)) return;
  Compare(*table, line, insert, partition_key, clustering);
}

}  // namespace
}  // namespace cellfs::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const auto& table = cellfs::fuzz::Tables()[data[0] % 2];
  cellfs::fuzz::Run(table, std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  return 0;
}
