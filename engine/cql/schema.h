// The schema model: keyspaces, user-defined types, tables and columns, as
// the catalog holds them after validation. Plain values: copy freely.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/cql_type.h"
#include "engine/cql/key_codec.h"

namespace cellfs {

enum class ColumnKind : uint8_t { kPartitionKey, kClustering, kRegular, kStatic };

struct ColumnDef {
  std::string name;
  TypePtr type;
  ColumnKind kind = ColumnKind::kRegular;
  int position = 0;                   // index within the partition or clustering key
  SortOrder order = SortOrder::kAsc;  // clustering columns only

  bool is_primary_key() const {
    return kind == ColumnKind::kPartitionKey || kind == ColumnKind::kClustering;
  }
};

// Table options. The two that change semantics are typed; every other
// option is kept verbatim as its canonical CQL text so DESCRIBE shows it.
struct TableOptions {
  static constexpr int64_t kDefaultGcGraceSeconds = 864000;  // 10 days, as Cassandra
  static constexpr int64_t kMaxTtlSeconds = 630720000;       // 20 years, as Cassandra

  int64_t default_time_to_live = 0;
  int64_t gc_grace_seconds = kDefaultGcGraceSeconds;
  std::map<std::string, std::string> other;  // option name -> CQL text ('x', {'a': 'b'}, 0.1)

  bool operator==(const TableOptions&) const = default;
};

// What of a column an index holds: its whole value (kSimple; FULL for a
// frozen collection), or a non-frozen collection's keys, values or entries.
enum class IndexTargetKind : uint8_t { kSimple, kKeys, kValues, kEntries, kFull };

// A secondary index (CREATE INDEX, or a custom SASI / SAI one) on one
// column of its table. Names are unique within a keyspace.
struct IndexDef {
  std::string name;
  std::string column;
  IndexTargetKind target = IndexTargetKind::kSimple;
  std::string custom_class;  // empty: a plain index; else the USING class as written
  std::vector<std::pair<std::string, std::string>> options;  // WITH OPTIONS, sorted by name

  bool operator==(const IndexDef&) const = default;
};

// The CQL spelling of a target: "c", "keys(c)", "values(c)", "entries(c)",
// "full(c)" (the column quoted where CQL needs it).
std::string IndexTargetText(const IndexDef& index);

// A restriction of a materialized view's WHERE clause other than IS NOT
// NULL. Cassandra allows these on the base table's primary key columns
// only (all of which are in the view's primary key).
struct ViewRestriction {
  enum class Op : uint8_t { kEq, kLt, kLe, kGt, kGe, kIn };
  std::string column;  // a primary key column of the view
  Op op = Op::kEq;
  // Serialized values of the column's type (docs/FORMAT.md "Values"): one,
  // or the IN list's.
  std::vector<std::string> values;

  bool operator==(const ViewRestriction&) const = default;
};

// What makes a table a materialized view (CREATE MATERIALIZED VIEW). The
// view's own TableDef holds its columns: every primary key column of the
// base table plus at most one of its regular columns as the view's primary
// key, and the selected regular columns, each with the base column's name
// and type. Its rows are the base rows whose view key columns are all
// non-null and that satisfy `restrictions`, projected onto its columns.
struct ViewDef {
  std::string base_table;  // in the view's keyspace
  // SELECT *: the view has every base column, and ALTER TABLE ADD on the
  // base adds the column to the view too, as in Cassandra.
  bool select_all = false;
  std::vector<ViewRestriction> restrictions;
  // The WHERE clause as DESCRIBE prints it ("a IS NOT NULL AND b = 1").
  std::string where_text;

  bool operator==(const ViewDef&) const = default;
};

struct TableDef {
  std::string keyspace;
  std::string name;
  // Canonical column order: partition key columns in key order, clustering
  // columns in key order, then static and regular columns by name.
  std::vector<ColumnDef> columns;
  TableOptions options;
  // Its secondary indexes, in creation order.
  std::vector<IndexDef> indexes;
  // Set for a materialized view. A view shares the keyspace's table
  // namespace; it cannot be written, indexed, or altered as a table.
  std::optional<ViewDef> view;

  // The first partition_key_count() columns are the partition key, the next
  // clustering_count() the clustering key.
  size_t partition_key_count() const;
  size_t clustering_count() const;
  bool has_counters() const;
  // nullptr when no column has that name.
  const ColumnDef* FindColumn(const std::string& name) const;
  // nullptr when the table has no index of that name.
  const IndexDef* FindIndex(const std::string& name) const;
};

struct UserTypeDef {
  std::string keyspace;
  std::string name;
  std::vector<std::string> field_names;
  std::vector<TypePtr> field_types;

  // The type of a column declared with this UDT.
  TypePtr AsType(bool frozen) const;
};

// A CREATE FUNCTION / AGGREGATE statement, kept as written (never run).
// Functions and aggregates share one namespace: a name and its argument
// types (an overload) name one routine of either kind, as in Cassandra.
struct RoutineDef {
  bool aggregate = false;
  std::string name;
  std::string signature;  // the argument types, canonical: "int, text" ("" for none)
  std::string text;       // the statement, keyspace-qualified, without ';'

  // The key of `routines`: name(signature).
  std::string Key() const { return name + "(" + signature + ")"; }
  bool operator==(const RoutineDef&) const = default;
};

struct KeyspaceDef {
  std::string name;
  std::map<std::string, std::string> replication;  // 'class' -> 'SimpleStrategy', ...
  bool durable_writes = true;
  std::map<std::string, UserTypeDef> types;
  std::vector<std::string> type_order;  // creation order, which respects dependencies
  std::map<std::string, TableDef> tables;
  // CREATE FUNCTION / AGGREGATE statements by RoutineDef::Key(), so the
  // overloads of a name sit together.
  std::map<std::string, RoutineDef> routines;
};

// Structural equality of schema objects (types compared with Equals).
bool SameTable(const TableDef& a, const TableDef& b);
bool SameKeyspace(const KeyspaceDef& a, const KeyspaceDef& b);

}  // namespace cellfs
