// KeepLive: what a reader sees of a merged row at a given time; and
// NextSweepSecond: when the sweeper next has work on a stored fragment.
#include "engine/store/internal/live_row.h"

#include <algorithm>
#include <limits>

#include "engine/store/cell.h"
#include "engine/store/internal/element_cells.h"

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

Status KeepLive(const TableSchema& table, const std::optional<RowDeletion>& inherited, int64_t now,
                RowFragment* row, bool* live) {
  const std::optional<RowDeletion> deletion = Newest(inherited, row->deletion);
  row->deletion.reset();
  if (row->marker && ((deletion && Shadows(*deletion, row->marker->write_time)) ||
                      !IsMarkerLive(*row->marker, now))) {
    row->marker.reset();
  }
  // One pass, compacting in place: simple cells stay when visible; the
  // cells of a multi-cell column (a run of one column id) become one.
  std::vector<RowCell>& cells = row->cells;
  size_t kept = 0;
  for (size_t i = 0; i < cells.size();) {
    const std::optional<size_t> index = table.ColumnIndexById(cells[i].column_id);
    const CqlType* type = index ? table.column(*index).type.get() : nullptr;
    if (type == nullptr || !type->is_multi_cell()) {
      const Cell& cell = cells[i].cell;
      if (type != nullptr && IsLive(cell, now) &&
          !(deletion && Shadows(*deletion, cell.write_time))) {
        if (kept != i) cells[kept] = std::move(cells[i]);
        ++kept;
      }
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < cells.size() && cells[end].column_id == cells[i].column_id) ++end;
    std::optional<RowCell> assembled;
    CELLFS_RETURN_IF_ERROR(AssembleElements(*type, std::span<RowCell>(cells).subspan(i, end - i),
                                            deletion, now, &assembled));
    if (assembled) cells[kept++] = std::move(*assembled);
    i = end;
  }
  cells.resize(kept);
  *live = row->marker.has_value() || !cells.empty();
  return Status::Ok();
}

uint64_t CountTombstones(const RowFragment& fragment, int64_t now) {
  uint64_t count = fragment.deletion ? 1 : 0;
  for (const RowCell& cell : fragment.cells) {
    if (!IsLive(cell.cell, now)) ++count;
  }
  return count;
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
