// SELECT's native aggregates other than count(*) (Cassandra 4.x/5.0's
// AggregateFcts): count(c), min(c), max(c), sum(c) and avg(c), resolved on
// their argument's type once, when the query is typed, then fed one value
// per row. Internal to fs/cql. Resolution is a pure function; an
// Aggregator is not thread-safe (one per statement).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/cql_type.h"
#include "engine/status.h"
#include "fs/cql/numeric_aggregates.h"

namespace cellfs::fs {

// One resolved aggregate: what it computes, on what, and its result type.
struct AggregateFunction {
  enum class Kind { kCount, kMin, kMax, kSum, kAvg };
  Kind kind = Kind::kCount;
  TypePtr argument;
  TypePtr result;    // bigint for count, the argument's type for the others
  std::string name;  // as the result's header shows it: "system.max"
};

// Whether `name` (lower-cased unless quoted) names a native aggregate:
// count, min, max, sum or avg.
bool IsAggregateName(std::string_view name);

// Resolves the aggregate `name` on arguments of `arg_types` (nullptr: a
// constant still to be typed). count, min and max take one value of any
// native type (counter included), sum and avg one of tinyint, smallint,
// int, bigint, float, double, decimal, varint or counter. Otherwise
// InvalidArgument with Cassandra's words: "Invalid call to function sum,
// none of its type signatures match (known type signatures: system.sum :
// (tinyint) -> tinyint, ...)". NotSupported for what cellfs does not run:
// a constant argument, and count/min/max of a collection, tuple or UDT.
// REQUIRES: IsAggregateName(name).
Status ResolveAggregate(const std::string& name, const std::vector<TypePtr>& arg_types,
                        AggregateFunction* out);

// The running state of one aggregate over the rows read: O(1) but for
// min/max (one value of the type) and varint/decimal sums (a number as long
// as the values summed).
class Aggregator {
 public:
  explicit Aggregator(const AggregateFunction& function);

  // One row's argument value; nulls are skipped, as Cassandra skips them.
  void Add(const std::optional<std::string>& value);

  // The result over the values added: count 0, min and max null, sum and
  // avg 0 when none were (numeric_aggregates.h has the arithmetic).
  Status Result(std::optional<std::string>* out) const;

 private:
  AggregateFunction function_;
  uint64_t count_ = 0;
  std::optional<std::string> best_;  // min, max
  std::unique_ptr<NumericAggregate> numeric_;
};

}  // namespace cellfs::fs
