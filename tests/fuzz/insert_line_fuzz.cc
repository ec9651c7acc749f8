// Fuzz target for the @insert parser (fs/formats/insert_parser.h): JSON Lines and CSV
// records for tables with keys and columns of many types, fed whole and in
// chunks.
//
// Input: three selector bytes, then the data.
//   byte 0: bits 0-1 pick the table (types, logs, counts, odd; see kSchema);
//           bit 2 prepends a CSV header naming every column of the table,
//           bit 3 adds "@ttl" and "@timestamp" to that header;
//           bit 4 gives the parser default attributes (@insert@ttl=60@timestamp=7).
//   byte 1: where to split the data for the two-chunk feeding (byte/256 of it).
//   byte 2: the chunk size, 1 + byte % 16, for the many-chunk feeding.
// The parser picks the format itself: JSON Lines when the first non-blank
// byte is '{', else CSV with a header. The seeds use printable selector bytes.
// Properties: nothing crashes; the records (line, error or row) are the same
// however the input is split; line numbers never decrease; every accepted
// row has the table's key, valid values for their columns, no key or
// repeated column among its cells, and attributes in range (a static-only
// record may omit the clustering key); a counter table's records add
// non-null values without @ttl or @timestamp.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/catalog.h"
#include "engine/cql/literal.h"
#include "engine/cql/schema.h"
#include "engine/cql/table_schema.h"
#include "fs/formats/insert_parser.h"
#include "fs/tree/virtual_name.h"
#include "tests/fs/all_types_schema.h"
#include "tests/fuzz/fuzz_tables.h"
#include "tests/fuzz/fuzz_util.h"

namespace cellfs::fuzz {
namespace {

constexpr char kSchema[] = R"(
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.logs (host text, day int, ts timestamp, seq int, s text static, msg text,
  n int, ok boolean, PRIMARY KEY ((host, day), ts, seq))
  WITH CLUSTERING ORDER BY (ts DESC, seq ASC);
CREATE TABLE ks.counts (k text PRIMARY KEY, hits counter);
)";

// Declared after kAllTypesDdl, which creates ks.address.
constexpr char kOddTable[] = R"(
CREATE TABLE ks.odd (k frozen<tuple<int, text>>, c frozen<set<decimal>>, "Q" text, "a,b" int,
  u frozen<address>, m map<text, frozen<list<inet>>>, PRIMARY KEY (k, c));
)";

const std::vector<TableHandle>& Tables() {
  static const std::vector<TableHandle> tables =
      MakeTables({kSchema, testing::kAllTypesDdl, kOddTable}, {"types", "logs", "counts", "odd"});
  return tables;
}

// A CSV header naming every column, quoted where CSV needs it.
std::string Header(const TableSchema& table, bool attributes) {
  std::string header;
  auto add = [&](std::string_view name) {
    if (!header.empty()) header += ',';
    if (name.find_first_of(",\"\r\n") == std::string_view::npos) {
      header += name;
      return;
    }
    header += '"';
    for (char c : name) header += c == '"' ? std::string("\"\"") : std::string(1, c);
    header += '"';
  };
  for (const ColumnDef& column : table.def.columns) add(column.name);
  if (attributes) {
    add("@ttl");
    add("@timestamp");
  }
  return header + "\n";
}

void AppendField(std::string_view bytes, std::string* out) {
  *out += std::to_string(bytes.size());
  *out += ':';
  *out += bytes;
}

// The record being checked, described only when a property fails.
struct Where {
  const TableSchema* table;
  uint64_t line;
  std::string_view input;

  std::string operator()(std::string_view more = "") const {
    return "table " + table->def.name + " line " + std::to_string(line) + " input " + Hex(input) +
           " " + std::string(more);
  }
};

void CheckRow(const TableSchema& table, const fs::InsertRow& row, const Where& where) {
  const size_t partition = table.partition_key_count();
  const size_t clustering = table.clustering_count();
  if (table.def.has_counters()) {
    // Counters are added to (cqlsh COPY FROM): no null, no TTL, no timestamp.
    if (!row.attributes.empty()) Fail("a counter record carries no @ttl or @timestamp", where());
    for (const ColumnValue& cell : row.cells) {
      if (!cell.value) Fail("a counter record adds no null", where());
    }
  }
  // A record of only static columns may leave the clustering key out
  // (Cassandra's static-only INSERT).
  const bool static_only =
      !row.cells.empty() && std::all_of(row.cells.begin(), row.cells.end(), [&](const auto& c) {
        return c.column < table.def.columns.size() &&
               table.column(c.column).kind == ColumnKind::kStatic;
      });
  if (row.partition_key.size() != partition ||
      (row.clustering.size() != clustering && !(static_only && row.clustering.empty()))) {
    Fail("rows carry the whole primary key", where());
  }
  for (size_t i = 0; i < partition + row.clustering.size(); ++i) {
    const std::string& value = i < partition ? row.partition_key[i] : row.clustering[i - partition];
    if (!ValidateValue(*table.column(i).type, value).ok()) {
      Fail("key values validate", where(table.column(i).name + " " + Hex(value)));
    }
  }
  std::set<size_t> seen;
  for (const ColumnValue& cell : row.cells) {
    if (cell.column >= table.def.columns.size() || table.column(cell.column).is_primary_key()) {
      Fail("cells name static or regular columns", where());
    }
    if (!seen.insert(cell.column).second) Fail("a record gives a column once", where());
    if (cell.value && !ValidateValue(*table.column(cell.column).type, *cell.value).ok()) {
      Fail("cell values validate", where(table.column(cell.column).name + " " + Hex(*cell.value)));
    }
  }
  const WriteAttributes& attributes = row.attributes;
  if (attributes.ttl && (*attributes.ttl < 0 || *attributes.ttl > TableOptions::kMaxTtlSeconds)) {
    Fail("TTLs are in range", where());
  }
  if (attributes.timestamp && *attributes.timestamp == std::numeric_limits<int64_t>::min()) {
    Fail("timestamps are not INT64_MIN", where());
  }
}

// Every record of `input` fed in `chunks` pieces, rendered to one string,
// checking each accepted row on the way.
std::string Load(const TableHandle& table, const WriteAttributes& defaults,
                 const std::vector<std::string_view>& chunks, std::string_view input) {
  fs::InsertParser parser(table, defaults);
  std::string records;
  uint64_t last_line = 1;
  const fs::InsertParser::Sink sink = [&](uint64_t line, Result<fs::InsertRow>&& row) {
    const Where where{table.get(), line, input};
    if (line < last_line) Fail("line numbers never decrease", where());
    last_line = line;
    records += std::to_string(line);
    if (!row.ok()) {
      // A bad record, or a key whose name would pass 255 bytes (DESIGN §2).
      const StatusCode code = row.status().code();
      if (code != StatusCode::kInvalidArgument && code != StatusCode::kNameTooLong) {
        Fail("refused records are InvalidArgument or NameTooLong", where(row.status().ToString()));
      }
      records += " error " + row.status().message() + "\n";
      return;
    }
    CheckRow(*table, *row, where);
    for (const std::string& value : row->partition_key) AppendField(value, &records);
    records += '|';
    for (const std::string& value : row->clustering) AppendField(value, &records);
    for (const ColumnValue& cell : row->cells) {
      records += ' ' + std::to_string(cell.column) + (cell.value ? "=" : "=null");
      if (cell.value) AppendField(*cell.value, &records);
    }
    const WriteAttributes& attributes = row->attributes;
    if (attributes.ttl) records += " ttl=" + std::to_string(*attributes.ttl);
    if (attributes.timestamp) records += " timestamp=" + std::to_string(*attributes.timestamp);
    records += '\n';
  };
  for (std::string_view chunk : chunks) parser.Feed(chunk, sink);
  parser.Finish(sink);
  return records;
}

std::vector<std::string_view> Pieces(std::string_view input, size_t size) {
  std::vector<std::string_view> pieces;
  for (size_t at = 0; at < input.size(); at += size) pieces.push_back(input.substr(at, size));
  return pieces;
}

}  // namespace
}  // namespace cellfs::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cellfs;  // NOLINT: harness shorthand
  if (size < 3) return 0;
  const TableHandle& table = fuzz::Tables()[data[0] % 4];
  std::string input;
  if ((data[0] & 4) != 0) input = fuzz::Header(*table, (data[0] & 8) != 0);
  input.append(reinterpret_cast<const char*>(data) + 3, size - 3);
  WriteAttributes defaults;
  if ((data[0] & 16) != 0) defaults = {.timestamp = 7, .ttl = 60};
  const size_t split = input.size() * data[1] / 256;
  const std::string_view view = input;

  const std::string whole = fuzz::Load(table, defaults, {view}, view);
  const std::string two =
      fuzz::Load(table, defaults, {view.substr(0, split), view.substr(split)}, view);
  if (two != whole) {
    fuzz::Fail("a split input gives the same records",
               "split at " + std::to_string(split) + " input " + fuzz::Hex(view) +
                   "\n--- whole ---\n" + fuzz::Printable(whole) + "--- split ---\n" +
                   fuzz::Printable(two));
  }
  const size_t piece = 1 + data[2] % 16;
  const std::string many = fuzz::Load(table, defaults, fuzz::Pieces(view, piece), view);
  if (many != whole) {
    fuzz::Fail("a chunked input gives the same records",
               "pieces of " + std::to_string(piece) + " input " + fuzz::Hex(view) +
                   "\n--- whole ---\n" + fuzz::Printable(whole) + "--- chunked ---\n" +
                   fuzz::Printable(many));
  }
  return 0;
}
