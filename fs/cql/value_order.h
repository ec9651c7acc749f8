// CompareValues: the order of two values of one CQL type, as Cassandra's
// comparators give it; what SELECT filters and IF conditions compare with.
// Pure functions: thread-safe.
#pragma once

#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/cql/select_statement.h"

namespace cellfs::fs {

// <0, 0, >0 as `a` sorts before, with or after `b` in `type`'s order (the
// order of its values, never a column's DESC): numbers numerically, text
// and blobs by unsigned bytes, uuids and timeuuids as Cassandra orders
// them, collections, tuples and UDTs element by element (a non-frozen
// collection or UDT as its frozen form). Counters compare as bigints.
// Durations, and types holding one, have no order in Cassandra: they
// compare by bytes, which is right for equality (the only comparison
// Cassandra allows on them). REQUIRES: both values valid for `type`.
int CompareValues(const CqlType& type, std::string_view a, std::string_view b);

// Whether `order` (a CompareValues result of a stored value against a
// given one) satisfies `op`: =, !=, <, <=, >, >= (IN counts as =).
// REQUIRES: op is none of the CONTAINS operators.
bool OrderSatisfies(SelectRelation::Op op, int order);

}  // namespace cellfs::fs
