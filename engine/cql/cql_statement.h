// The parsed form of CQL DDL statements: what the parser produces and the
// catalog applies. Names are as written after CQL case folding (unquoted
// identifiers lower-cased, quoted ones exact). Types are unresolved here:
// user-defined type names are looked up when the statement is applied.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/cql/dml_statement.h"
#include "engine/cql/internal/cql_lexer.h"
#include "engine/cql/schema.h"
#include "engine/cql/select_statement.h"

namespace cellfs {

// A possibly keyspace-qualified name: ks.table, or table with keyspace empty.
struct QualifiedName {
  std::string keyspace;  // empty when not given
  std::string name;
  SourcePosition position;
};

// A type as written: a native or user type name, or a parameterised type.
struct TypeExpr {
  std::string name;              // lower-cased native name ("int", "map", "frozen"
                                 // is folded into `frozen`), or a UDT name
  std::string keyspace;          // for a qualified UDT name (ks.address), else empty
  bool frozen = false;           // written inside frozen<...>
  std::vector<TypeExpr> params;  // list/set: 1, map: 2, tuple: n
  SourcePosition position;
};

// An option value: a constant, or a map of constants ({'class': 'X'}).
struct OptionValue {
  enum class Kind { kString, kNumber, kBoolean, kMap };
  Kind kind = Kind::kString;
  std::string text;  // decoded string, number spelling, or "true"/"false"
  std::vector<std::pair<std::string, std::string>> entries;  // kMap: key -> value text
  SourcePosition position;
};

struct TableOption {
  std::string name;  // lower-cased
  OptionValue value;
};

struct CreateKeyspace {
  std::string name;
  bool if_not_exists = false;
  std::vector<TableOption> options;  // replication, durable_writes
};

struct AlterKeyspace {
  std::string name;
  bool if_exists = false;
  std::vector<TableOption> options;
};

struct DropKeyspace {
  std::string name;
  bool if_exists = false;
};

struct UseKeyspace {
  std::string name;
};

struct ColumnExpr {
  std::string name;
  TypeExpr type;
  bool is_static = false;
  bool inline_primary_key = false;  // "a int PRIMARY KEY"
  SourcePosition position;
};

struct ClusteringOrderExpr {
  std::string column;
  bool descending = false;
  SourcePosition position;
};

struct CreateTable {
  QualifiedName table;
  bool if_not_exists = false;
  std::vector<ColumnExpr> columns;  // in declaration order
  // From a PRIMARY KEY (...) clause; both empty when the key is inline.
  std::vector<std::string> partition_key;
  std::vector<std::string> clustering;
  bool has_primary_key_clause = false;
  SourcePosition primary_key_position;
  std::vector<ClusteringOrderExpr> clustering_order;
  bool compact_storage = false;
  std::vector<TableOption> options;
};

struct DropTable {
  QualifiedName table;
  bool if_exists = false;
};

struct AlterTable {
  enum class Action { kAdd, kDrop, kRename, kWith };
  QualifiedName table;
  bool if_exists = false;
  Action action = Action::kWith;
  bool if_column_not_exists = false;  // ADD IF NOT EXISTS: skip columns already present
  bool if_column_exists = false;      // DROP / RENAME IF EXISTS: skip absent columns
  std::vector<ColumnExpr> added;      // kAdd
  std::vector<std::string> dropped;   // kDrop
  std::vector<std::pair<std::string, std::string>> renamed;  // kRename: from -> to
  std::vector<TableOption> options;                          // kWith
  SourcePosition action_position;
};

struct CreateType {
  QualifiedName type;
  bool if_not_exists = false;
  std::vector<std::pair<std::string, TypeExpr>> fields;
};

struct DropType {
  QualifiedName type;
  bool if_exists = false;
};

// CREATE [OR REPLACE] FUNCTION / AGGREGATE: accepted and kept as written, so
// schema files that define them load; cellfs never executes them.
struct CreateRoutine {
  enum class Kind { kFunction, kAggregate };
  Kind kind = Kind::kFunction;
  QualifiedName routine;
  bool or_replace = false;
  bool if_not_exists = false;
  // The argument types in order (a function's, after each argument name).
  std::vector<TypeExpr> arguments;
  std::string text;  // the statement's source text, without the final ';'
};

// DROP FUNCTION / AGGREGATE [IF EXISTS] [ks.]name [(type, ...)].
struct DropRoutine {
  CreateRoutine::Kind kind = CreateRoutine::Kind::kFunction;
  QualifiedName routine;
  bool if_exists = false;
  bool arguments_given = false;  // "(...)" was written, even empty
  std::vector<TypeExpr> arguments;
};

// TRUNCATE [TABLE | COLUMNFAMILY] [ks.]t: every row of the table goes,
// whatever its write time.
struct TruncateTable {
  QualifiedName table;
};

// DESCRIBE / DESC: shows schema, changes nothing (engine/cql/describe_statement.h).
struct DescribeStatement {
  enum class Kind {
    kKeyspaces,  // names of every keyspace
    kKeyspace,   // `name.name` (empty: the session's keyspace)
    kTables,     // names of the tables, per keyspace
    kTable,      // `name`, with its indexes and views
    kView,       // DESCRIBE MATERIALIZED VIEW `name`
    kTypes,
    kType,
    kFunctions,
    kFunction,
    kAggregates,
    kAggregate,
    kSchema,  // every keyspace; `full` adds nothing here (no system keyspaces)
    kName,    // DESCRIBE [ks.]name: a keyspace or a table, as cqlsh decides
  };
  Kind kind = Kind::kSchema;
  QualifiedName name;  // for the single-object kinds
  bool has_name = false;
  bool full = false;  // DESCRIBE FULL SCHEMA
};

// CREATE [CUSTOM] INDEX [IF NOT EXISTS] [name] ON [ks.]t (target, ...)
// [USING 'class' [WITH OPTIONS = {...}]]. A target is a column, or
// KEYS(col), VALUES(col), ENTRIES(col) or FULL(col).
struct CreateIndex {
  QualifiedName index;  // name empty when not given (the catalog names it)
  QualifiedName table;
  bool if_not_exists = false;
  bool custom = false;  // CREATE CUSTOM INDEX
  struct Target {
    IndexTargetKind kind = IndexTargetKind::kSimple;
    std::string column;
    SourcePosition position;
  };
  std::vector<Target> targets;
  std::string using_class;                                   // USING '...' (empty when absent)
  std::vector<std::pair<std::string, std::string>> options;  // WITH OPTIONS, as written
  SourcePosition position;                                   // of the statement
};

// DROP INDEX [IF EXISTS] [ks.]name.
struct DropIndex {
  QualifiedName index;
  bool if_exists = false;
};

// One relation of a view's WHERE clause: `col IS NOT NULL`, or a
// single-column relation with literal terms (=, <, <=, >, >=, IN).
struct ViewRelation {
  bool is_not_null = false;
  Relation relation;  // its column always; op and terms unless is_not_null
};

// CREATE MATERIALIZED VIEW [IF NOT EXISTS] [ks.]v AS SELECT (* | c, ...)
// FROM [ks.]t WHERE relations PRIMARY KEY (...) [WITH options].
struct CreateView {
  QualifiedName view;
  QualifiedName base;
  bool if_not_exists = false;
  bool select_all = false;           // SELECT *: `selected` is empty
  std::vector<Selector> selected;    // as written (aliases and functions refused later)
  std::vector<std::string> written;  // each selector's source text, for messages
  std::vector<ViewRelation> where;   // in written order
  // The key, CLUSTERING ORDER BY and table options, parsed as CREATE
  // TABLE's (only partition_key, clustering, has_primary_key_clause,
  // primary_key_position, clustering_order, compact_storage and options
  // are set).
  CreateTable layout;
};

// DROP MATERIALIZED VIEW [IF EXISTS] [ks.]v.
struct DropView {
  QualifiedName view;
  bool if_exists = false;
};

// ALTER MATERIALIZED VIEW [IF EXISTS] [ks.]v WITH options.
struct AlterView {
  QualifiedName view;
  bool if_exists = false;
  std::vector<TableOption> options;
};

// A statement cellfs parses but does not implement yet (triggers, ALTER
// TYPE).
struct UnsupportedStatement {
  std::string what;  // "CREATE TRIGGER", "ALTER TYPE", ...
};

// Data statements (INSERT, UPDATE, DELETE, BATCH) are in dml_statement.h,
// SELECT in select_statement.h.
using StatementBody =
    std::variant<CreateKeyspace, AlterKeyspace, DropKeyspace, UseKeyspace, CreateTable, DropTable,
                 AlterTable, CreateType, DropType, CreateRoutine, UnsupportedStatement, DropRoutine,
                 CreateIndex, DropIndex, CreateView, DropView, AlterView, TruncateTable,
                 DescribeStatement, InsertStatement, UpdateStatement, DeleteStatement,
                 BatchStatement, SelectStatement>;

// Whether `body` is a data statement (run by fs/cql/dml_executor.h, not the
// catalog). SELECT is not one: it reads, and is planned by select_plan.h.
inline bool IsDataStatement(const StatementBody& body) {
  return std::holds_alternative<InsertStatement>(body) ||
         std::holds_alternative<UpdateStatement>(body) ||
         std::holds_alternative<DeleteStatement>(body) ||
         std::holds_alternative<BatchStatement>(body);
}

struct Statement {
  StatementBody body;
  SourcePosition position;  // of the statement's first token
  std::string text;         // the statement's source text, without the final ';'
};

}  // namespace cellfs
