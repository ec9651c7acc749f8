// The parsed form of CQL data statements (INSERT, UPDATE, DELETE, BATCH).
// The parser does not know the schema, so values stay terms as written
// (CqlTerm); the executor (fs/cql/dml_executor.h) types them against the
// table's columns with the literal parser every other write path uses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/internal/cql_lexer.h"

namespace cellfs {

// One value as written in the statement: its source text (a literal,
// collection, tuple or UDT literal, a function call such as now(), or
// null) and where it starts, so that typing it later reports positions in
// the script.
struct CqlTerm {
  std::string text;
  SourcePosition position;

  bool is_null() const;  // the literal null, any case
};

// USING TTL n AND TIMESTAMP t (either, both, or neither).
struct UsingClause {
  std::optional<int64_t> ttl;
  std::optional<int64_t> timestamp;
  SourcePosition ttl_position;
  SourcePosition timestamp_position;
};

// A column, and for an element operation which element: l[i], m[k]
// (`index`), or u.field (`field`).
struct ColumnRef {
  std::string name;
  std::optional<CqlTerm> index;  // l[i] / m[k]
  std::string field;             // u.f; empty when none
  SourcePosition position;
};

// `col op term` or `col IN (terms)` in a WHERE clause: =, IN and the four
// ranges.
struct Relation {
  enum class Op { kEq, kLt, kLe, kGt, kGe, kIn };
  std::string column;
  Op op = Op::kEq;
  CqlTerm value;                   // all but kIn
  std::vector<CqlTerm> in_values;  // kIn; may be empty: IN ()
  SourcePosition position;
};

// One SET assignment of UPDATE.
struct Assignment {
  enum class Kind {
    kSet,       // target = value (target may be an element: l[i], m[k], u.f)
    kAdd,       // c = c + value (counters add; collections add/append)
    kSubtract,  // c = c - value
    kPrepend,   // l = value + l
  };
  ColumnRef target;
  Kind kind = Kind::kSet;
  CqlTerm value;
};

// The comparison of a relation or condition: SELECT's WHERE relations
// take all of them; IF conditions all but CONTAINS, CONTAINS KEY and LIKE.
enum class RelationOp { kEq, kNe, kLt, kLe, kGt, kGe, kIn, kContains, kContainsKey, kLike };

// The operator as CQL writes it: "=", "!=", "<", ..., "IN", "CONTAINS KEY".
inline std::string_view RelationOpText(RelationOp op) {
  switch (op) {
    case RelationOp::kEq:
      return "=";
    case RelationOp::kNe:
      return "!=";
    case RelationOp::kLt:
      return "<";
    case RelationOp::kLe:
      return "<=";
    case RelationOp::kGt:
      return ">";
    case RelationOp::kGe:
      return ">=";
    case RelationOp::kIn:
      return "IN";
    case RelationOp::kContains:
      return "CONTAINS";
    case RelationOp::kLike:
      return "LIKE";
    case RelationOp::kContainsKey:
      break;
  }
  return "CONTAINS KEY";
}

// One IF condition of a conditional statement: `target op value`, or
// `target IN (values)`; the target is a column or one of its elements
// (l[i], m[k]: `target.index`) or fields (u.f: `target.field`).
struct Condition {
  using Op = RelationOp;  // never kContains, kContainsKey
  ColumnRef target;
  Op op = Op::kEq;
  CqlTerm value;                // all but kIn
  std::vector<CqlTerm> values;  // kIn
  SourcePosition op_position;
};

// A statement's IF clause: none, IF NOT EXISTS (INSERT), IF EXISTS
// (UPDATE, DELETE), or column conditions joined by AND.
struct ConditionClause {
  enum class Kind { kNone, kIfNotExists, kIfExists, kColumns };
  Kind kind = Kind::kNone;
  std::vector<Condition> columns;  // kColumns
  SourcePosition position;         // of IF

  bool empty() const { return kind == Kind::kNone; }
};

struct InsertStatement {
  std::string keyspace;  // empty: the session's keyspace
  std::string table;
  SourcePosition table_position;
  bool json = false;
  // VALUES form: names and terms, parallel.
  std::vector<std::string> columns;
  std::vector<SourcePosition> column_positions;
  std::vector<CqlTerm> values;
  // JSON form: the decoded string and DEFAULT UNSET (else DEFAULT NULL).
  CqlTerm json_value;
  bool default_unset = false;
  ConditionClause conditions;  // kNone or kIfNotExists
  UsingClause using_clause;
};

struct UpdateStatement {
  std::string keyspace;
  std::string table;
  SourcePosition table_position;
  UsingClause using_clause;
  std::vector<Assignment> assignments;
  std::vector<Relation> where;
  SourcePosition where_position;  // of the WHERE keyword
  ConditionClause conditions;     // kNone, kIfExists or kColumns
};

struct DeleteStatement {
  std::string keyspace;
  std::string table;
  SourcePosition table_position;
  std::vector<ColumnRef> columns;  // empty: the row, partition or range
  UsingClause using_clause;
  std::vector<Relation> where;
  SourcePosition where_position;
  ConditionClause conditions;  // kNone, kIfExists or kColumns
};

// One statement inside a BATCH.
struct BatchEntry {
  enum class Kind { kInsert, kUpdate, kDelete };
  Kind kind = Kind::kInsert;
  InsertStatement insert;
  UpdateStatement update;
  DeleteStatement remove;
  SourcePosition position;
};

struct BatchStatement {
  enum class Type { kLogged, kUnlogged, kCounter };
  Type type = Type::kLogged;
  UsingClause using_clause;
  std::vector<BatchEntry> statements;
};

}  // namespace cellfs
