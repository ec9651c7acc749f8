// The parsed form of a CQL SELECT: selectors, WHERE relations, ORDER BY,
// limits and ALLOW FILTERING, as written. The parser does not know the
// schema: names are unresolved and values stay terms (CqlTerm); the planner
// (engine/cql/select_plan.h) applies Cassandra's restriction rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/cql/dml_statement.h"
#include "engine/cql/internal/cql_lexer.h"

namespace cellfs {

// One item of the selection list, possibly nested (a function's arguments,
// the operand of CAST).
struct Selector {
  enum class Kind {
    kColumn,     // name
    kCountRows,  // count(*) or count(1): `name` is "count"
    kWriteTime,  // writetime(column): `name` is the column
    kTtl,        // ttl(column): `name` is the column
    kToken,      // token(c1, c2, ...): `args` are columns
    kCast,       // cast(args[0] AS type): `name` is the type as written, lower-cased
    kFunction,   // name(args...): now(), totimestamp(now()), dateof(c), count(c), ...
    kTerm,       // a constant: `term`
  };
  Kind kind = Kind::kColumn;
  std::string name;  // see Kind; functions lower-cased unless quoted
  std::vector<Selector> args;
  CqlTerm term;       // kTerm
  std::string alias;  // AS alias; empty when none
  SourcePosition position;
};

// One WHERE relation. A single-column relation names one column; a
// multi-column one ((c1, c2) > (1, 2)) names several, and its values are
// tuple literals; a token relation (token(k1, k2) > t) names the token()
// arguments.
struct SelectRelation {
  using Op = RelationOp;
  enum class Target { kColumn, kMultiColumn, kToken };
  Target target = Target::kColumn;
  std::vector<std::string> columns;  // one for kColumn
  Op op = Op::kEq;
  CqlTerm value;                 // every op but kIn
  std::vector<CqlTerm> in_list;  // kIn: (v1, v2, ...), each a tuple for kMultiColumn
  // kColumn written `m[key] op value`: a map entry's key (only = passes
  // the planner).
  std::optional<CqlTerm> map_key;
  SourcePosition position;
};

struct Ordering {
  std::string column;
  bool descending = false;
  SourcePosition position;
};

struct SelectStatement {
  std::string keyspace;  // empty: the session's keyspace
  std::string table;
  SourcePosition table_position;
  bool json = false;
  bool distinct = false;
  bool wildcard = false;            // SELECT *: `selectors` is empty
  std::vector<Selector> selectors;  // in written order
  std::vector<SelectRelation> where;
  std::vector<Ordering> order_by;
  // LIMIT / PER PARTITION LIMIT as written (an integer literal, possibly
  // negative or zero: the planner refuses those with Cassandra's words).
  std::optional<CqlTerm> per_partition_limit;
  std::optional<CqlTerm> limit;
  bool allow_filtering = false;
};

}  // namespace cellfs
