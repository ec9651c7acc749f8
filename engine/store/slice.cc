// Slice narrowing (engine/store/slice.h): the tighter of two bounds on one
// side, compared as CQL compares clustering tuples.
#include "engine/store/slice.h"

#include <algorithm>

#include "engine/cql/key_codec.h"

namespace cellfs {
namespace {

// <0, 0, >0 as a's first n values compare with b's in each type's natural
// (ASC) order: a DESC column still means "greater value" for a bound.
int ComparePrefix(const TableSchema& table, const ClusteringBound& a, const ClusteringBound& b,
                  size_t n) {
  const size_t first = table.partition_key_count();
  std::string ea, eb;
  for (size_t i = 0; i < n; ++i) {
    const CqlType& type = *table.column(first + i).type;
    ea.clear();
    eb.clear();
    EncodeKeyComponent(type, a.prefix[i], SortOrder::kAsc, &ea);
    EncodeKeyComponent(type, b.prefix[i], SortOrder::kAsc, &eb);
    if (int c = ea.compare(eb); c != 0) return c;
  }
  return 0;
}

// Whether bound `a` admits fewer rows than `b` (both lower when `lower`).
bool Tighter(const TableSchema& table, const ClusteringBound& a, const ClusteringBound& b,
             bool lower) {
  const size_t common = std::min(a.prefix.size(), b.prefix.size());
  if (int c = ComparePrefix(table, a, b, common); c != 0) return lower ? c > 0 : c < 0;
  if (a.prefix.size() == b.prefix.size()) return !a.inclusive && b.inclusive;
  // Equal on the shorter one's columns: an exclusive short bound excludes
  // every row sharing those values; an inclusive one admits them all.
  const ClusteringBound& shorter = a.prefix.size() < b.prefix.size() ? a : b;
  const bool shorter_wins = !shorter.inclusive;
  return (&shorter == &a) == shorter_wins;
}

}  // namespace

void NarrowSlice(const TableSchema& table, ClusteringBound bound, bool lower, SliceSpec* slice) {
  std::optional<ClusteringBound>& current = lower ? slice->lower : slice->upper;
  if (!current || Tighter(table, bound, *current, lower)) current = std::move(bound);
}

}  // namespace cellfs
