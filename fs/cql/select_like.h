// LIKE in a SELECT's WHERE clause, once planned (engine/cql/select_plan.h
// admits it only on a column with a SASI index on a literal column): the
// pattern typed and split, checked against the index modes of the column,
// and the index values a read through the index visits.
#pragma once

#include "engine/cql/select_plan.h"
#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/index_iterator.h"
#include "fs/cql/select_query.h"

namespace cellfs::fs {

// Types LIKE filter `filter` into *out: values[0] is the pattern's term,
// like_kind its form. InvalidArgument as Cassandra binds it: the value's
// type error or "Invalid null value in condition for column v"; "LIKE
// value can't be empty."; and when no SASI index of the column answers the
// form (a PREFIX-mode index and '%abc'), "v LIKE '%<term>' abc is only
// supported on properly indexed columns".
Status BuildLikeFilter(const TableSchema& table, const RowFilter& filter, TypedFilter* out);

// The values of the indexed column a LIKE reads through its index: from the
// term up to the first value past every value it prefixes (a prefix), the
// term alone (a whole value), every value (a suffix or substring: each
// row read is checked).
IndexBounds LikeIndexBounds(const TypedFilter& filter);

}  // namespace cellfs::fs
