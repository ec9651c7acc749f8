// SelectPlan: what a SELECT reads, decided from the table's definition by
// Cassandra 4.x's restriction rules (which partitions, which clustering
// range, which relations are filters, the order, the limits, the resolved
// selectors). Planning types nothing: values stay CqlTerm for the executor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/cql/schema.h"
#include "engine/cql/select_statement.h"
#include "engine/status.h"

namespace cellfs {

// A selector with its columns resolved to indexes in TableDef::columns.
struct ResolvedSelector {
  Selector::Kind kind = Selector::Kind::kColumn;
  // kColumn, kWriteTime, kTtl: the column's index; -1 otherwise.
  int column = -1;
  // kFunction: the function's name; kCast: the target type; else empty.
  std::string name;
  std::vector<ResolvedSelector> args;  // kToken: the partition key columns
  CqlTerm term;                        // kTerm
  std::string alias;                   // AS alias; empty when none
};

// One end of a range: the term as written, whether it is included, and
// for a multi-column bound how many clustering columns its tuple spans.
struct TermBound {
  CqlTerm value;
  bool inclusive = false;
  size_t column_count = 1;  // > 1: `value` is a tuple literal (c1, c2, ...)
};

// One restriction of the clustering key's prefix that the read itself
// narrows (not a filter). Steps cover consecutive clustering positions
// from 0: every step but the last is kEq or kIn, the last may be kSlice.
struct ClusteringStep {
  enum class Kind { kEq, kIn, kSlice };
  Kind kind = Kind::kEq;
  size_t first = 0;             // clustering position of the first column covered
  size_t column_count = 1;      // columns covered; > 1 for a tuple relation
  bool multi_column = false;    // written as a tuple: each value is a tuple literal
  std::vector<CqlTerm> values;  // kEq: one; kIn: the list (maybe empty)
  // kSlice: either or both bounds. A multi-column slice's bounds may span
  // fewer columns than `column_count` ((a, b) > (1, 2) AND a < 5).
  std::optional<TermBound> start;
  std::optional<TermBound> end;
};

// A relation checked on each partition or row read (ALLOW FILTERING, or a
// token() bound on named partitions).
struct RowFilter {
  std::vector<size_t> columns;  // indexes in TableDef::columns; several for a tuple
  SelectRelation::Op op = SelectRelation::Op::kEq;
  CqlTerm value;                 // every op but kIn
  std::vector<CqlTerm> in_list;  // kIn
  bool multi_column = false;
  // Map-entry equality `m[map_key] = value` (op kEq).
  std::optional<CqlTerm> map_key{};
};

// A restriction a secondary index answers (Cassandra's "uses secondary
// indexing"): `col = v` on a column with a plain or FULL index, `col
// CONTAINS v` with a VALUES index, `col CONTAINS KEY k` with a KEYS one,
// and a slice (`col > v AND col <= w`) with a SASI or SAI index on a
// column of a non-text type (IndexAnswersRanges).
struct IndexQuery {
  size_t index = 0;    // position in TableDef::indexes
  CqlTerm value{};     // not for a slice; a LIKE's pattern
  bool slice = false;  // the bounds are the filters' on the column
  bool like = false;   // `value` is a LIKE pattern
  // An ENTRIES index answering `m[map_key] = value`.
  std::optional<CqlTerm> map_key{};
};

// Whether `index` answers a slice of values of `type` (a column's, for a
// plain target; FULL and collection targets answer no slices); `reversed`:
// the column is a clustering column in DESC order (SasiIsLiteral). SAI's
// (IndexTermType) does except on its "literal" types: text, ascii,
// boolean, uuid and frozen collections, tuples and UDTs. SASI's does
// except on literal columns (the is_literal option, else text and ascii)
// and in CONTAINS mode. A plain index answers equality only.
bool IndexAnswersRanges(const IndexDef& index, const CqlType& type, bool reversed);

// Whether `index` answers `col = v` on a column of `type`: any index on
// the whole value (a plain target or FULL) but a SASI index whose analyser
// splits text into tokens (ColumnIndex.supports: EQ only when untokenized).
bool IndexAnswersEquality(const IndexDef& index, const CqlType& type);

// Whether `index` answers LIKE on a column of `type` (SASIIndex's
// supportsExpression(LIKE)): a SASI index, on the whole value, of a
// literal column (the is_literal option, else text and ascii). Which LIKE
// forms it answers depends on its mode (LikeModeSupports).
bool IndexAnswersLike(const IndexDef& index, const CqlType& type, bool reversed);

struct SelectPlan {
  enum class Partitions {
    kKeys,        // exactly `partition_keys`
    kTokenRange,  // token_start..token_end, in token order
    kAll,         // every partition, in token order
  };
  Partitions partitions = Partitions::kAll;
  // kKeys: each key's terms in partition key order; the cartesian product
  // of the = and IN relations, in the order written (duplicate values are
  // the executor's to fold once typed). Empty after an IN ().
  std::vector<std::vector<CqlTerm>> partition_keys;
  // Bounds of token(pk...) relations: the range for kTokenRange, a filter
  // on the named partitions for kKeys. Either may be absent.
  std::optional<TermBound> token_start;
  std::optional<TermBound> token_end;

  std::vector<ClusteringStep> clustering;
  // Relations the read does not narrow by: on partition key columns (a
  // partial key or a range, with ALLOW FILTERING), clustering columns past
  // the prefix, static and regular columns, CONTAINS (KEY).
  std::vector<RowFilter> filters;
  bool allow_filtering = false;
  // Set when an index answers a restriction of a query over every
  // partition: the partitions it names are read instead of all of them
  // (the restriction stays among `filters`, so each row is checked).
  std::optional<IndexQuery> index;

  // ORDER BY: true when rows come in the reverse of the clustering order.
  bool reversed = false;
  std::optional<int32_t> limit;
  std::optional<int32_t> per_partition_limit;

  bool distinct = false;
  bool json = false;
  bool wildcard = false;                    // SELECT *: every column, `selectors` empty
  std::vector<ResolvedSelector> selectors;  // in written order
  bool aggregate = false;                   // count(*), count(c), min, max, sum, avg
};

// Plans `select` against `table` (REQUIRES: the statement names that table;
// the caller resolved the keyspace). On success fills *plan. On failure
// returns InvalidArgument with Cassandra's InvalidRequest message, without
// a position ("Undefined column name x in table ks.t", "Cannot execute this query as it
// might involve data filtering ..."), and *plan is unspecified.
// Thread-safe: a pure function.
[[nodiscard]] Status PlanSelect(const TableDef& table, const SelectStatement& select,
                                SelectPlan* plan);

}  // namespace cellfs
