// InsertParser: the input of TABLE/@insert — JSON Lines or CSV with a header
// (DESIGN.md section 3) — turned into one engine write per record, as
// `INSERT INTO t JSON '...' DEFAULT UNSET` / cqlsh COPY FROM would.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/mutation.h"
#include "fs/formats/write_suffixes.h"

namespace cellfs::fs {

// One record's write: an INSERT of its key (a row marker) with the cells it
// names. Columns the record omits are absent from `cells` (left as they
// are); a null deletes (ColumnValue::value nullopt). In a counter table the
// cells are counter values that the write ADDS (cqlsh COPY FROM), never
// null.
struct InsertRow {
  std::vector<std::string> partition_key;  // serialized, key order
  // Serialized, every clustering column; empty when `static_only`.
  std::vector<std::string> clustering;
  std::vector<ColumnValue> cells;  // static and regular columns
  WriteAttributes attributes;      // the record's, else the defaults
  // The record gave the partition key and static columns only, no
  // clustering or regular column: Cassandra's INSERT of just the static row
  // (no row, no row marker).
  bool static_only = false;
};

// Input format, decided by the first non-blank byte of the input: '{' means
// JSON Lines; anything else is CSV whose first record is the header.
//
// JSON Lines: one object per line; members name columns (exact names, or
// "\"Quoted\"" for names that need quotes in CQL); every key column must be
// present and non-null (but see "static only" below); values as a row's @json write reads them, by
// Cassandra's fromJson rules (fs/formats/json_value.h: numbers, strings
// holding CQL literals, arrays for lists/sets/tuples, objects for maps/UDTs,
// null); optional members "@ttl" (integer 0..630720000) and
// "@timestamp" (integer microseconds) override the defaults for that line.
// Blank lines are skipped.
//
// CSV (cqlsh COPY conventions): RFC 4180 quoting ('"' doubled inside a
// quoted field; a quoted field may span lines); the header names columns,
// every key column among them, each at most once, plus optionally "@ttl"
// and "@timestamp"; an unquoted empty field is null (deletes the cell; for a
// key column or "@ttl" it is an error); a quoted empty field "" is the empty
// text; other fields are the type's CQL literal text as `echo` writes them
// to a cell (text as is, 2018-07-23T11:04:22.432Z, {'a', 'b'}, 0xff). A
// record with a different number of fields than the header is an error.
//
// Static only: a record (in CSV, a header) that gives the partition key and
// static columns but no clustering and no regular column is the INSERT of
// the partition's static row alone, as Cassandra allows; any other record
// must give every key column.
//
// Counter tables: each record adds its values to the counters (cqlsh COPY
// FROM); a null counter value is refused, and "@ttl"/"@timestamp" (or the
// @insert suffixes) are refused when the record is applied, as Cassandra
// refuses them for counter updates.
//
// Errors are InvalidArgument naming the problem: "column 'age': invalid int
// value 'x'", "missing key column 'host'", "unknown column 'foo'", "not a
// JSON object", "3 fields, the header has 4".
//
// A line (bytes between two '\n') longer than `max_line_bytes` is refused
// as "longer than N bytes" with its line number, without keeping its bytes;
// the input goes on after its '\n'. In CSV the header is kept, and a quoted
// field that spanned the long line ends there (what follows the newline is
// read as new records).
//
// Not thread-safe; one parser per open @insert file. Memory: the record
// being completed (at most max_line_bytes per line), not the input.
class InsertParser {
 public:
  // The default bound on a line: a cell holds at most 64 MiB (EFBIG), so a
  // longer line could not be stored through a cell either, and a writer
  // that never sends a newline cannot grow the daemon without bound.
  static constexpr size_t kMaxLineBytes = size_t{64} << 20;

  // `defaults`: the write suffixes of the @insert name ("@insert@ttl=60")
  // that records without their own "@ttl"/"@timestamp" get.
  InsertParser(TableHandle table, const WriteAttributes& defaults,
               size_t max_line_bytes = kMaxLineBytes);
  ~InsertParser();
  InsertParser(const InsertParser&) = delete;
  InsertParser& operator=(const InsertParser&) = delete;

  // Called once per record, in input order: `line` is the 1-based line
  // number where the record starts (a CSV header is line 1), `row` its
  // write or the error that refused it (the CSV header itself produces no
  // call unless it is bad, then every later record is refused too).
  using Sink = std::function<void(uint64_t line, Result<InsertRow>&& row)>;

  // Consumes the next bytes of the input, calling `sink` for each record
  // they complete. Bytes of an unfinished record are kept for the next call.
  void Feed(std::string_view bytes, const Sink& sink);

  // The end of the input: the last record, if it had no final newline.
  void Finish(const Sink& sink);

 private:
  // Feeds the reader `bytes`, cutting out lines over the bound.
  void FeedLines(std::string_view bytes, const Sink& sink);
  // The current line is over the bound: it is refused, the reader's
  // partial record dropped, and bytes are skipped up to its '\n'.
  void RefuseLongLine(const Sink& sink);

  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace cellfs::fs
