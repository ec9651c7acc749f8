// KeepLive: what a reader sees of a merged row at a given time; and
// NextSweepSecond: when the sweeper next has work on a stored fragment.
#include "engine/store/internal/live_row.h"

#include <algorithm>
#include <limits>

#include "engine/store/cell.h"

namespace cellfs::storage {
namespace {

// The newer of two optional deletions.
std::optional<RowDeletion> Newest(const std::optional<RowDeletion>& a,
                                  const std::optional<RowDeletion>& b) {
  if (!a) return b;
  if (!b) return a;
  return ReconcileDeletions(*a, *b);
}

bool IsMarkerLive(const RowMarker& marker, int64_t now) {
  return !marker.is_expiring() || IsBeforeExpiry(now, marker.expiry);
}

// a + b, saturating: stored times are untrusted and must not overflow.
int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return sum;
}

void KeepEarliest(std::optional<int64_t>* earliest, int64_t second) {
  if (!*earliest || second < **earliest) *earliest = second;
}

}  // namespace

bool KeepLive(const TableSchema& table, const std::optional<RowDeletion>& inherited, int64_t now,
              RowFragment* row) {
  const std::optional<RowDeletion> deletion = Newest(inherited, row->deletion);
  row->deletion.reset();
  if (row->marker && ((deletion && Shadows(*deletion, row->marker->write_time)) ||
                      !IsMarkerLive(*row->marker, now))) {
    row->marker.reset();
  }
  std::erase_if(row->cells, [&](const RowCell& c) {
    return (deletion && Shadows(*deletion, c.cell.write_time)) || !IsLive(c.cell, now) ||
           !table.ColumnIndexById(c.column_id).has_value();
  });
  return row->marker.has_value() || !row->cells.empty();
}

std::optional<int64_t> NextSweepSecond(const RowFragment& fragment, int64_t gc_grace_seconds) {
  std::optional<int64_t> earliest;
  if (fragment.marker && fragment.marker->is_expiring()) {
    // PurgeRowFragment keeps an expired marker until gc_grace has passed
    // (unlike a cell, it has no tombstone form to turn into at expiry).
    KeepEarliest(&earliest, SaturatingAdd(fragment.marker->expiry, gc_grace_seconds));
  }
  if (fragment.deletion) {
    KeepEarliest(&earliest,
                 SaturatingAdd(fragment.deletion->local_deletion_time, gc_grace_seconds));
  }
  for (const RowCell& c : fragment.cells) {
    if (c.cell.is_expiring()) {
      KeepEarliest(&earliest, c.cell.local_deletion_time);
    } else if (c.cell.is_tombstone()) {
      KeepEarliest(&earliest, SaturatingAdd(c.cell.local_deletion_time, gc_grace_seconds));
    }
  }
  return earliest;
}

}  // namespace cellfs::storage
