// Turns CQL clustering bounds (tuple comparisons in value order) into the
// byte ranges of encoded clustering keys they select. With a mix of ASC and
// DESC columns one bound can select several separate ranges of the stored
// order, as in Cassandra; this is where that is worked out.
#pragma once

#include <string>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/slice.h"

namespace cellfs::storage {

// Encoded clustering keys c with start <= c < end (memcmp). An empty start
// is the beginning of the partition; end "\xFF" (PrefixSuccessor of the
// empty prefix) is its end. Never empty (start < end).
struct ClusteringRange {
  std::string start;
  std::string end;

  friend bool operator==(const ClusteringRange&, const ClusteringRange&) = default;
};

// The ranges that `slice.lower` and `slice.upper` select together (limit,
// reverse and resume_after are ignored), sorted in stored order and
// disjoint; empty when no key can satisfy both bounds. InvalidArgument for
// a bound with no values, more values than clustering columns, or a value
// that fails ValidateValue (the message names the column).
Status ClusteringRanges(const TableSchema& table, const SliceSpec& slice,
                        std::vector<ClusteringRange>* ranges);

}  // namespace cellfs::storage
