// Clustering bounds to byte ranges: each tuple bound becomes a union of
// "equal on a prefix, strictly beyond on the next column" sets, each one
// byte range of the stored order; the two unions are then intersected.
#include "engine/store/internal/clustering_ranges.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"

namespace cellfs::storage {
namespace {

using RangeList = std::vector<ClusteringRange>;

enum class Side { kLower, kUpper };

RangeList WholePartition() { return {ClusteringRange{"", PrefixSuccessor("")}}; }

// Checks the bound's shape and values; fills `*encoded` with the encodings
// of its prefixes: (*encoded)[j] is the first j components concatenated.
Status EncodeBoundPrefixes(const TableSchema& table, const ClusteringBound& bound,
                           std::vector<std::string>* encoded) {
  const size_t count = bound.prefix.size();
  if (count == 0) return Status::InvalidArgument("clustering bound has no values");
  if (count > table.clustering_count()) {
    return Status::InvalidArgument(
        "clustering bound has " + std::to_string(count) + " values but " + table.def.name +
        " has " + std::to_string(table.clustering_count()) + " clustering columns");
  }
  encoded->assign(1, std::string());
  for (size_t i = 0; i < count; ++i) {
    const ColumnDef& column = table.column(table.partition_key_count() + i);
    Status valid = ValidateValue(*column.type, bound.prefix[i]);
    if (!valid.ok()) return valid.WithContext("clustering column " + column.name);
    std::string next = encoded->back();
    EncodeKeyComponent(*column.type, bound.prefix[i], column.order, &next);
    encoded->push_back(std::move(next));
  }
  return Status::Ok();
}

// The keys equal to the bound on columns 0..i-1 whose column i lies beyond
// it on `side` (greater for a lower bound, less for an upper one). Greater
// values come after the bound's component for an ASC column and before it
// for a DESC one.
ClusteringRange BeyondRange(const TableSchema& table, const std::vector<std::string>& encoded,
                            size_t i, Side side) {
  const bool ascending = table.column(table.partition_key_count() + i).order == SortOrder::kAsc;
  const bool after_in_storage = (side == Side::kLower) == ascending;
  if (after_in_storage) return {PrefixSuccessor(encoded[i + 1]), PrefixSuccessor(encoded[i])};
  return {encoded[i], encoded[i + 1]};
}

// The keys satisfying one bound, as sorted disjoint ranges.
RangeList BoundRanges(const TableSchema& table, const ClusteringBound& bound,
                      const std::vector<std::string>& encoded, Side side) {
  RangeList ranges;
  for (size_t i = 0; i < bound.prefix.size(); ++i) {
    ranges.push_back(BeyondRange(table, encoded, i, side));
  }
  if (bound.inclusive) ranges.push_back({encoded.back(), PrefixSuccessor(encoded.back())});
  std::sort(ranges.begin(), ranges.end(),
            [](const ClusteringRange& a, const ClusteringRange& b) { return a.start < b.start; });
  return ranges;
}

Status RangesForBound(const TableSchema& table, const std::optional<ClusteringBound>& bound,
                      Side side, RangeList* ranges) {
  if (!bound.has_value()) {
    *ranges = WholePartition();
    return Status::Ok();
  }
  std::vector<std::string> encoded;
  CELLFS_RETURN_IF_ERROR(EncodeBoundPrefixes(table, *bound, &encoded));
  *ranges = BoundRanges(table, *bound, encoded, side);
  return Status::Ok();
}

// Both inputs sorted and disjoint; so is the result, which keeps only
// non-empty pieces.
RangeList Intersect(const RangeList& a, const RangeList& b) {
  RangeList out;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const std::string& start = std::max(a[i].start, b[j].start);
    const std::string& end = std::min(a[i].end, b[j].end);
    if (start < end) out.push_back({start, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

// Joins ranges where one ends exactly where the next starts.
RangeList MergeAdjacent(RangeList ranges) {
  RangeList out;
  for (ClusteringRange& range : ranges) {
    if (!out.empty() && out.back().end == range.start) {
      out.back().end = std::move(range.end);
    } else {
      out.push_back(std::move(range));
    }
  }
  return out;
}

}  // namespace

Status ClusteringRanges(const TableSchema& table, const SliceSpec& slice,
                        std::vector<ClusteringRange>* ranges) {
  RangeList lower;
  RangeList upper;
  CELLFS_RETURN_IF_ERROR(RangesForBound(table, slice.lower, Side::kLower, &lower));
  CELLFS_RETURN_IF_ERROR(RangesForBound(table, slice.upper, Side::kUpper, &upper));
  *ranges = MergeAdjacent(Intersect(lower, upper));
  return Status::Ok();
}

}  // namespace cellfs::storage
