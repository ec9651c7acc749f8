// SliceSpec: which rows of a partition a read returns, in CQL terms:
// clustering bounds compared as Cassandra compares tuples, a limit, and the
// direction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/cql/table_schema.h"

namespace cellfs {

// A bound on the clustering key: the serialized values of the first N
// clustering columns (1 <= N <= the clustering column count), compared with
// each row's first N clustering values as CQL compares tuples, column by
// column in each type's natural order (a DESC column still means "greater
// value" for `>`; DESC changes only the order rows are returned in).
struct ClusteringBound {
  std::vector<std::string> prefix;
  bool inclusive = true;
};

// Plain value type.
struct SliceSpec {
  std::optional<ClusteringBound> lower;  // rows with clustering >= / > lower
  std::optional<ClusteringBound> upper;  // rows with clustering <= / < upper
  // Keeps the first `limit` live rows in the order returned; 0 = no limit.
  uint64_t limit = 0;
  // false: the table's clustering order (ASC/DESC per column); true: the
  // opposite.
  bool reverse = false;
  // Resume point: only rows strictly after this encoded clustering key (as
  // RowIterator::clustering_key() returned it) in the direction of the
  // slice. Directory offsets use it to continue a listing.
  std::optional<std::string> resume_after;
  // Counts in RowIterator::tombstones_read() the tombstones of the rows the
  // sweeper buried (engine/store/internal/buried_reader.h) in the slice,
  // which a plain walk never reads: what Cassandra would scan. Costs a
  // second walk over them when the first ends (not when `limit` ends it).
  bool count_buried_tombstones = false;
};

// Narrows `slice` by one more bound on one side (`lower`: a lower bound),
// as CQL ANDs two restrictions: keeps whichever of `bound` and the current
// bound on that side admits fewer rows. The clustering key codec compares
// the values, so callers (nested slice directories) need no codec of
// their own. REQUIRES: bound.prefix holds 1..table.clustering_count()
// values that are valid for their columns' types (as SliceSpec asks).
void NarrowSlice(const TableSchema& table, ClusteringBound bound, bool lower, SliceSpec* slice);

}  // namespace cellfs
