// Rows as JSON and CSV: the shape of `SELECT JSON` for @json reads, cqlsh
// COPY TO's CSV for @csv reads, and a row's @json write (a JSON object of
// columns to change).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/mutation.h"
#include "engine/store/row_fragment.h"

namespace cellfs::fs {

// Every function here is thread-safe (pure over immutable inputs).
//
// JSON values follow Cassandra's toJson(): numbers (int, bigint, smallint,
// tinyint, varint, counter, float, double, decimal) as JSON numbers (float
// and double NaN and Infinity as null, as Cassandra 4 prints them; a
// decimal in its canonical plain text, 10 not 1E+1); boolean as
// true/false; timestamp as SELECT JSON's "2018-07-23 11:04:22.432Z" (a
// space, not the names' 'T'); text, ascii, date, time, uuid, timeuuid,
// inet, duration as strings of their canonical text; blob as the string
// "0x..."; list and set as arrays; map as an object (keys that are not
// text: their canonical text as the key string); tuple as an array; UDT as
// an object. Absent cells are null. Column names are the schema's names,
// unquoted.

// One value as toJson() writes it (the rules above). REQUIRES: a valid value.
void AppendJsonValue(const CqlType& type, std::string_view value, std::string* out);

// `text` as a JSON string, quoted and escaped.
void AppendJsonText(std::string_view text, std::string* out);

// The indexes in def.columns of every column in SELECT *'s order:
// partition key and clustering columns in key order, then static columns,
// then regular ones, each by name (Cassandra's allColumnsInSelectOrder).
std::vector<size_t> SelectStarOrder(const TableSchema& table);

// One row as a JSON object with every column of the table in SELECT *'s
// order: partition key, clustering, then static columns by name, then
// regular columns by name: key columns from `partition_key` /
// `clustering`, static columns from `static_row` (may be null when the
// table has none or the caller has none to show), regular columns from
// `row`. No trailing
// newline. For a table without clustering columns, `clustering` is empty;
// for a clustered table it may also be empty (a partition holding only
// static cells, as SELECT shows it): the clustering columns are then null.
// `columns` (indexes in def.columns), when not empty, replaces SELECT *'s
// columns with these, in this order (a projection, `SELECT a, b`); so for
// CsvHeader and RowToCsv.
// REQUIRES: key values fit the table (as the engine returns them).
std::string RowToJson(const TableSchema& table, std::span<const std::string> partition_key,
                      std::span<const std::string> clustering, const RowFragment* static_row,
                      const RowFragment& row, std::span<const size_t> columns = {});

// The CSV header line: every column name in the order RowToJson uses,
// comma-separated, ending in "\n".
std::string CsvHeader(const TableSchema& table, std::span<const size_t> columns = {});

// One row as a CSV line, same columns as CsvHeader, ending in "\n". cqlsh
// COPY TO conventions: a null (absent) value is an empty field; values are
// their canonical text (FormatLiteral), but a timestamp column shows as
// COPY TO writes it, "2018-07-23 11:04:22.432+0000"; a field holding ',', '"', '\n' or
// '\r', or that is text and empty (to tell it from null: written ""), is
// double-quoted with '"' doubled.
std::string RowToCsv(const TableSchema& table, std::span<const std::string> partition_key,
                     std::span<const std::string> clustering, const RowFragment* static_row,
                     const RowFragment& row, std::span<const size_t> columns = {});

// RowToJson and RowToCsv appended to *out, for a stream of rows: pass the
// resolved `columns` (SelectStarOrder for SELECT *) to skip computing the
// order per row.
void AppendRowJson(const TableSchema& table, std::span<const std::string> partition_key,
                   std::span<const std::string> clustering, const RowFragment* static_row,
                   const RowFragment& row, std::span<const size_t> columns, std::string* out);
void AppendRowCsv(const TableSchema& table, std::span<const std::string> partition_key,
                  std::span<const std::string> clustering, const RowFragment* static_row,
                  const RowFragment& row, std::span<const size_t> columns, std::string* out);

// A row's @json write: a JSON object whose members name static or regular
// columns of `table` (exactly, or "\"Quoted\"" as Cassandra's fromJson takes
// case-sensitive names) and give their new values, read as @insert's JSON
// Lines read them (Cassandra's fromJson rules, fs/formats/json_value.h: JSON
// as RowToJson writes them, and for non-string types a string holding a CQL
// literal too, "42" for an int); null deletes the cell. Members naming key
// columns must equal the row's key (compare after parsing) and are otherwise
// ignored. On success *cells holds one ColumnValue per member that is not a
// key column, in member order.
// InvalidArgument naming the column and problem for: text that is not one
// JSON object, an unknown column, a column given twice, a value of the
// wrong JSON type or that does not fit the column's type, a counter column
// (counters change only by adding), a key column whose value differs from
// the row's or is null.
// On error *cells is unspecified.
Status ParseRowJson(const TableSchema& table, std::span<const std::string> partition_key,
                    std::span<const std::string> clustering, std::string_view json,
                    std::vector<ColumnValue>* cells);

}  // namespace cellfs::fs
