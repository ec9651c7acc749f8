// NumericAggregate: the running state of SELECT's sum() and avg() over one
// numeric type, computed as Cassandra 4.x/5.0's AggregateFcts computes it
// (Java's wrapping integer sums, integer division, Kahan summation for
// float and double, exact varint and decimal arithmetic). Internal to
// fs/cql; select_aggregates.h drives it.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs::fs {

// Not thread-safe; one per aggregate and statement. Its state is a few
// words, or for varint and decimal a number as long as the values summed.
class NumericAggregate {
 public:
  enum class Op { kSum, kAvg };

  // REQUIRES: `kind` is tinyint, smallint, int, bigint, counter, varint,
  // float, double or decimal.
  static std::unique_ptr<NumericAggregate> Make(Op op, TypeKind kind);

  virtual ~NumericAggregate() = default;

  // Adds one non-null value. REQUIRES: a valid serialized value of the kind.
  virtual void Add(std::string_view value) = 0;

  // The serialized result, of the argument's kind; no value added gives 0.
  // Rules, by kind:
  //  - tinyint, smallint, int, bigint, counter: sum wraps at the type's
  //    width (Java's `sum += v`); avg is the exact sum divided by the count,
  //    truncated toward zero, then narrowed to the width (Cassandra sums in
  //    a long, falling back to BigInteger on overflow).
  //  - float, double: Kahan-compensated sum in double (a NaN from adding
  //    same-signed infinities gives the plain sum's infinity), narrowed to
  //    float for float; avg divides that sum by the count, or once the
  //    double sum overflowed on finite values, sums Java's decimal text of
  //    each value exactly and divides that, HALF_EVEN at the sum's scale.
  //  - varint: exact; avg truncated toward zero.
  //  - decimal: exact sum (scale the largest of the values'); avg is
  //    Cassandra's running mean avg += (v - avg) / n, each division rounded
  //    HALF_EVEN at the scale of (v - avg).
  // InvalidArgument when the float/double avg met NaN or an infinity after
  // its sum overflowed (Java's BigDecimal refuses them; Cassandra fails the
  // query the same way).
  virtual Status Result(std::string* out) const = 0;
};

}  // namespace cellfs::fs
