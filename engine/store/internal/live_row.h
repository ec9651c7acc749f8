// The live view of a merged row, and when the sweeper next has work on one.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/row_fragment.h"

namespace cellfs::storage {

// Applies `inherited` (a partition or range deletion) and the row's own
// deletion to `*row`, then keeps only what is live at `now` (microseconds)
// and belongs to a column `table` still has: the marker if live, live
// cells, and for each multi-cell column one cell assembling its live
// elements (AssembleElements, element_cells.h). Clears the deletion. Sets
// `*live` when the row is live (a live marker or cell remains).
// Corruption for element cells that do not decode; `*row` is then
// unspecified.
Status KeepLive(const TableSchema& table, const std::optional<RowDeletion>& inherited, int64_t now,
                RowFragment* row, bool* live);

// The tombstones in `fragment` at `now` (microseconds), as a read counts
// them (RowIterator::tombstones_read): its deletion, and each cell that is
// a tombstone or has expired.
uint64_t CountTombstones(const RowFragment& fragment, int64_t now);

// The earliest second at which sweeping `fragment` would change it: an
// expiring cell's expiry (it then becomes a tombstone), an expiring
// marker's expiry + gc_grace_seconds (PurgeRowFragment keeps an expired
// marker until then), or a tombstone's (cell or row deletion) local
// deletion time + gc_grace_seconds. nullopt when nothing in
// it ever expires or is purged.
std::optional<int64_t> NextSweepSecond(const RowFragment& fragment, int64_t gc_grace_seconds);

}  // namespace cellfs::storage
