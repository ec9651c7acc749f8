// SASI's text matching in a SELECT's WHERE clause, once planned
// (engine/cql/select_plan.h admits LIKE only on a column with a SASI index
// on a literal column): a LIKE's pattern typed, split and checked against
// the column's index modes; the analysed comparison of `=` and LIKE through
// an index with NonTokenizingAnalyzer (engine/cql/text_analyzer.h); and the
// index values a read through the index visits.
#pragma once

#include "engine/cql/select_plan.h"
#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/index_iterator.h"
#include "fs/cql/select_query.h"

namespace cellfs::fs {

// Types LIKE filter `filter` into *out: values[0] is the pattern's term
// (analysed when the answering index analyses), like_kind its form.
// InvalidArgument as Cassandra binds it: the value's type error or
// "Invalid null value in condition for column v"; "LIKE value can't be
// empty."; and when no SASI index of the column answers the form (a
// PREFIX-mode index and '%abc'), "v LIKE '%<term>' abc is only supported on
// properly indexed columns". NotSupported when the index answering it
// splits values into tokens (StandardAnalyzer, DelimiterAnalyzer).
Status BuildLikeFilter(const TableSchema& table, const RowFilter& filter, TypedFilter* out);

// Sets out->analyzer (and analyses out->values[0]) when the index that
// answers `column = v` on the filter's column is a SASI index with
// NonTokenizingAnalyzer: then, as in Cassandra, 'Bob' matches 'bob' when
// the index is case-insensitive. REQUIRES: *out is a typed single-column =.
void AnalyzeEquality(const TableSchema& table, TypedFilter* out);

// Whether a row's `value` of the filter's column passes an analysed = or a
// LIKE filter.
bool TextFilterMatches(const TypedFilter& filter, std::string_view value);

// The index values a read through the index visits for `filter` (a LIKE,
// or an analysed =) on a column of `type`: a prefix's slice (from the term
// to the first value past all it prefixes), a whole value; otherwise every
// value, each tested (IndexBounds::accept) before its rows are read.
IndexBounds TextIndexBounds(const TypedFilter& filter, const CqlType& type);

}  // namespace cellfs::fs
