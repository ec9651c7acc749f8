// Query paths: the segments of query directories (@where/col=value,
// a table's @limit=N, @columns=a,b) turned into the RowQuery the row
// cursor applies, and a directory node turned into the RowSource its
// exports, @count and listing walk (docs/FILESYSTEM.md "Queries past the key").
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "fs/formats/row_cursor.h"
#include "fs/tree/node.h"

namespace cellfs::fs {

// The segment that opens a filter; the next segment is its term.
inline constexpr std::string_view kWhereSegment = "@where";
// The segment that opens an index lookup; the next two are the indexed
// column and the value.
inline constexpr std::string_view kBySegment = "@by";

// Combines query segments, from the outermost in: "@where" followed by a
// term "col=value" adds an equality filter (nested filters AND); the
// smallest "@limit=N" applies; "@columns=a,b" sets the projection. A
// trailing "@where" without its term is allowed (the @where directory).
// "@by" followed by a column and a value adds the same filter, answered by
// the column's index (a plain or FULL one; "@by" and "@by/<column>" alone
// are directories that list nothing); followed by a column and slice
// bounds ("@by/age/@ge=30/@lt=40"), the rows whose value lies in the
// slice (each bound also a filter; the index reads the intersection), in
// token order. An @where filter on a column with a
// built index also reads through it (RowQuery::index).
// InvalidArgument, with the reason, for a term that is not `col=value`, an
// unknown column, a non-frozen collection or UDT column (no equality on
// it), a value that does not parse for the column's type (its key-name
// spelling: fs/formats/key_name.h), an unknown column in a projection, an
// @by column without such an index or whose index is still being built, a
// bound on a duration column.
// Pure; thread-safe.
Status BuildQuery(const TableSchema& table, std::span<const std::string> segments, RowQuery* out);

// Whether `segments` ends in an "@where" awaiting its term, or an "@by"
// awaiting its column or value.
bool AwaitsFilterTerm(std::span<const std::string> segments);
// Whether `segments` ends in "@by/<column>" or in slice bounds after it:
// then a slice bound (@ge=V, @gt=V, @le=V, @lt=V) may follow.
bool EndsInIndexColumnOrBound(std::span<const std::string> segments);
// Whether `segments` holds a projection (only @json and @csv live below it).
bool HasProjection(std::span<const std::string> segments);

// What a table, partition, slice or query directory covers. REQUIRES:
// dir.table set. Errors as BuildSlice and BuildQuery.
Status RowSourceOf(const Node& dir, RowSource* out);

}  // namespace cellfs::fs
