// SelectQuery: a planned SELECT (engine/cql/select_plan.h) with its terms
// typed against the table's columns, by the literal parser every write path
// uses, into what the read needs: which partitions, the clustering slices in
// the order rows are returned, the filters, the limits and the output
// columns. Internal to fs/cql; the reading is select_rows.h's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/cql/like_pattern.h"
#include "engine/cql/select_plan.h"
#include "engine/cql/table_schema.h"
#include "engine/cql/text_analyzer.h"
#include "engine/status.h"
#include "engine/store/index_iterator.h"
#include "engine/store/slice.h"
#include "fs/cql/select_aggregates.h"
#include "fs/cql/select_functions.h"

namespace cellfs::fs {

// One column of the result.
struct OutputColumn {
  enum class Source {
    kColumn,     // the value of `column`
    kWriteTime,  // writetime(`column`): bigint microseconds
    kTtl,        // ttl(`column`): int seconds left, null without a TTL
    kToken,      // token(partition key): bigint
    kCount,      // count(*) / count(1): bigint, one row for the whole result
    kAggregate,  // `aggregate` of args[0] over the rows: count(c), min, max, sum, avg
    kFunction,   // `function` of `args` (a native function or a CAST)
    kConstant,   // `constant`: a function's constant argument
  };
  Source source = Source::kColumn;
  size_t column = 0;  // index in def.columns (kColumn, kWriteTime, kTtl)
  // The header cqlsh prints ("v", "writetime(v)", "count", "system.max(v)", an alias).
  std::string name;
  TypePtr type;
  ScalarFunction function;              // kFunction
  AggregateFunction aggregate;          // kAggregate
  std::vector<OutputColumn> args;       // kFunction; kAggregate: its one argument
  std::optional<std::string> constant;  // kConstant; nullopt: null
};

// Whether `column` is, or holds, count(*) or an aggregate.
bool HasAggregate(const OutputColumn& column);

// A relation checked on each row: the row's value(s) of `columns` against
// typed values.
struct TypedFilter {
  std::vector<size_t> columns;  // one, or several for a tuple relation
  SelectRelation::Op op = SelectRelation::Op::kEq;
  // Each compared value: one per column (a tuple's components), or for kIn
  // one entry per listed value, flattened (columns.size() values each).
  std::vector<std::string> values;
  TypePtr compared_type;  // kContains: the element (or map value) type; kContainsKey: the key type
  // kLike: the pattern's form; values[0] is its term (select_like.h).
  LikePattern::Kind like_kind = LikePattern::Kind::kMatches;
  // kEq written `m[key] = value`: values are the entry's key and value.
  bool map_entry = false;
  // kEq and kLike through a SASI index with NonTokenizingAnalyzer: values
  // are compared analysed (values[0] is already).
  std::optional<TextAnalyzer> analyzer;
};

struct SelectQuery {
  TableHandle table;
  SelectPlan::Partitions partitions = SelectPlan::Partitions::kAll;
  // kKeys: typed keys, duplicates folded, in the partition key's order.
  std::vector<std::vector<std::string>> keys;
  // Token bounds (kTokenRange, or a filter on kKeys).
  std::optional<int64_t> token_lower;
  bool token_lower_inclusive = false;
  std::optional<int64_t> token_upper;
  bool token_upper_inclusive = false;
  // The clustering slices of each partition, in the order their rows are
  // returned (one slice with no bounds when the clustering is not
  // restricted); `reverse` set in each for ORDER BY the other way.
  std::vector<SliceSpec> slices;
  bool clustering_restricted = false;
  std::vector<TypedFilter> filters;
  // kAll narrowed by a secondary index (SelectPlan::index): the partitions
  // holding the values `index_bounds` allows in index `index`, instead of
  // every partition.
  std::optional<size_t> index;
  IndexBounds index_bounds;
  uint64_t limit = 0;  // 0: none
  uint64_t per_partition_limit = 0;
  bool distinct = false;
  bool json = false;
  // Some output holds kCount or kAggregate: one row for the whole result.
  // An aggregate's argument holds no aggregate; the outputs outside the
  // aggregates show the first row read (null when none was).
  bool aggregate = false;
  std::vector<OutputColumn> outputs;
};

// Types `plan`'s terms for `table`. InvalidArgument with Cassandra's
// message at the term's position ("line 1:40: Invalid STRING constant
// ..."; a function's or aggregate's refusal, select_functions.h and
// select_aggregates.h; "aggregate functions cannot be used as arguments of
// aggregate functions"; "Cannot infer type for term 1 in selection clause
// (try using a cast to force a type)" for a constant selector),
// NotSupported for selections cellfs does not run yet (constants inside
// CAST, the casts ResolveCast names, the aggregates ResolveAggregate names).
Status BuildSelectQuery(const TableHandle& table, const SelectPlan& plan, SelectQuery* query);

}  // namespace cellfs::fs
