// What the formats of the @insert parser (fs/formats/insert_parser.h) share: the
// record being built, reused from record to record, and the interface of a
// format's reader. Internal to fs/formats/insert_parser.cc, insert_json.cc, insert_csv.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/mutation.h"
#include "fs/formats/insert_parser.h"
#include "fs/formats/write_suffixes.h"

namespace cellfs::fs::insert_internal {

using Sink = InsertParser::Sink;

// What a member or header name may name besides a column (an index in
// TableSchema::def.columns).
inline constexpr size_t kTtlTarget = SIZE_MAX - 2;        // "@ttl"
inline constexpr size_t kTimestampTarget = SIZE_MAX - 1;  // "@timestamp"
inline constexpr size_t kUnknownTarget = SIZE_MAX;

// `name` single-quoted for messages: "unknown column 'foo'".
std::string Quoted(std::string_view name);

// One record's InsertRow, built in place: its strings and vectors keep their
// capacity from record to record, so a steady stream of records allocates
// nothing. Not thread-safe.
class RowBuilder {
 public:
  RowBuilder(TableHandle table, const WriteAttributes& defaults);

  const TableSchema& table() const { return *table_; }
  // Ok: every table takes records (kept for the readers' one check).
  const Status& table_status() const { return table_status_; }

  // What `name` names: a column index (exact name first, then "\"Name\""
  // unquoted), kTtlTarget, kTimestampTarget or kUnknownTarget.
  size_t Find(std::string_view name) const;

  // Starts a record: nothing given, the default attributes.
  void Begin();
  // Notes that the record gives `target` (a column index, kTtlTarget or
  // kTimestampTarget); InvalidArgument when it gave it already.
  Status Claim(size_t target, std::string_view name);
  // The string that receives column `column`'s serialized value: a key
  // component or a new cell. REQUIRES: Claim(column) succeeded this record.
  std::string* Value(size_t column);
  // A null for `column`: a cell deletion; InvalidArgument for a key column
  // or a counter.
  Status Null(size_t column);
  WriteAttributes& attributes() { return row_.attributes; }
  // InvalidArgument naming the first key column the record (in CSV, the
  // header) did not give, unless it gave the partition key and static
  // columns only (InsertRow::static_only), which it notes for Emit.
  Status CheckKeys();
  // Hands the record to `sink` as the write of line `line`, then takes its
  // buffers back when the sink left them. A record whose partition or row
  // key would have a directory name over kMaxNameBytes (fs/formats/key_name.h) is
  // handed over as that error instead: no listing could show its key.
  void Emit(uint64_t line, const Sink& sink);

 private:
  // NameTooLong, saying which key, when a key's name would be too long.
  Status CheckKeyNames() const;

  TableHandle table_;
  WriteAttributes defaults_;
  std::vector<const CqlType*> partition_types_;   // of the partition key columns
  std::vector<const CqlType*> clustering_types_;  // of the clustering columns
  // KeyNameAlwaysFits of each: no key of the table is formatted to check it.
  bool partition_name_fits_ = false;
  bool clustering_name_fits_ = false;
  Status table_status_;
  std::unordered_map<std::string_view, size_t> by_name_;  // views of table_'s column names
  // Per column, then "@ttl" and "@timestamp": the record that last gave it.
  std::vector<uint32_t> given_in_;
  uint32_t record_ = 0;
  InsertRow row_;
  size_t cells_ = 0;          // cells of row_ in use; the vector may hold more, reused
  bool static_only_ = false;  // as the last CheckKeys found
};

// One input format's reader: splits bytes into records and builds them.
class RecordReader {
 public:
  virtual ~RecordReader() = default;
  // As InsertParser::Feed / Finish.
  virtual void Feed(std::string_view bytes, const Sink& sink) = 0;
  virtual void Finish(const Sink& sink) = 0;
};

// Readers that write records through `builder` (which must outlive them);
// `first_line` is the line number of the first byte they are fed.
std::unique_ptr<RecordReader> NewJsonLinesReader(RowBuilder* builder, uint64_t first_line);
std::unique_ptr<RecordReader> NewCsvReader(RowBuilder* builder, uint64_t first_line);

}  // namespace cellfs::fs::insert_internal
