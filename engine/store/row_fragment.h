// RowFragment: everything one write stores for one row (marker, deletion,
// cells by column id), its byte format, and the merge of several fragments
// of a row into one. Writes are blind, so a row may be spread over many
// fragments; readers merge them. Byte format: docs/FORMAT.md, "Row fragments".
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/status.h"
#include "engine/store/cell.h"

namespace cellfs {

// The row marker an INSERT writes: it keeps the row alive with no cells.
struct RowMarker {
  int64_t write_time = 0;  // microseconds
  int64_t expiry = 0;      // seconds; meaningful only when ttl != 0
  uint32_t ttl = 0;        // 0 = never expires; else 1..kMaxTtlSeconds

  bool is_expiring() const { return ttl != 0; }
  friend bool operator==(const RowMarker&, const RowMarker&) = default;
};

// A row tombstone: shadows every marker and cell written at or before
// write_time. Purgeable gc_grace seconds after local_deletion_time.
struct RowDeletion {
  int64_t write_time = 0;           // microseconds
  int64_t local_deletion_time = 0;  // seconds

  friend bool operator==(const RowDeletion&, const RowDeletion&) = default;
};

// A cell of a row. Simple columns (and frozen values) have one cell with an
// empty `path`. A non-frozen collection or UDT (a multi-cell column) has one
// cell per element, keyed by a non-empty `path` (docs/FORMAT.md "Element
// cells"), and at most one cell with an empty path: a tombstone there is the
// column's collection deletion (it shadows every element written at or
// before its write time); a regular value there is a whole value written
// before element cells existed, read as a collection deletion at its write
// time - 1 plus its elements (engine/store/internal/element_cells.h).
struct RowCell {
  RowCell() = default;
  RowCell(uint32_t id, Cell value, std::string element_path = {})
      : column_id(id), cell(std::move(value)), path(std::move(element_path)) {}

  uint32_t column_id = 0;  // stable per table, assigned by the schema layer
  Cell cell;
  std::string path;  // empty, or an element's path within the column

  friend bool operator==(const RowCell&, const RowCell&) = default;
};

// Cells are ordered by column id, then by path (unsigned bytes, the empty
// path first).
inline bool CellBefore(const RowCell& a, const RowCell& b) {
  return a.column_id != b.column_id ? a.column_id < b.column_id : a.path < b.path;
}
inline bool SameCellSlot(const RowCell& a, const RowCell& b) {
  return a.column_id == b.column_id && a.path == b.path;
}

// A plain value type; thread-compatible.
// Invariant for encoding and merging: `cells` strictly increasing by
// (column_id, path), and no element cell of a column shadowed by that
// column's empty-path cell (see RowCell). NormalizeRowFragment establishes
// it for any input.
struct RowFragment {
  std::optional<RowMarker> marker;
  std::optional<RowDeletion> deletion;
  std::vector<RowCell> cells;

  bool empty() const { return !marker && !deletion && cells.empty(); }
  // The first cell of column `column_id` (its empty-path cell when it has
  // one), or null when the fragment holds none.
  // A stored cell, whatever its state: a tombstone or an expired cell is
  // returned too. Whether it is live is the reader's judgement (a ReadView
  // hands out rows holding live cells only, one per column: element cells
  // are assembled into the column's value). REQUIRES: cells in CellBefore
  // order (every fragment read from the store is).
  const RowCell* FindCell(uint32_t column_id) const;
  RowCell* FindCell(uint32_t column_id) {
    return const_cast<RowCell*>(static_cast<const RowFragment&>(*this).FindCell(column_id));
  }
  friend bool operator==(const RowFragment&, const RowFragment&) = default;
};

// The winner of two markers, as for cells: the higher write time; on a tie
// expiring beats non-expiring, then the later expiry, then the greater ttl.
// Commutative, associative, idempotent.
RowMarker ReconcileMarkers(const RowMarker& a, const RowMarker& b);

// The newer of two row deletions: the higher write time, then the later
// local deletion time.
RowDeletion ReconcileDeletions(const RowDeletion& a, const RowDeletion& b);

// True when a deletion written at `deletion.write_time` shadows something
// written at `write_time` (Cassandra's DeletionTime.deletes: <=).
inline bool Shadows(const RowDeletion& deletion, int64_t write_time) {
  return write_time <= deletion.write_time;
}

// For the empty-path cell `head` of a column: the write time at or below
// which that column's element cells are shadowed. A tombstone shadows
// through its own write time; a whole value (written before element cells
// existed) through its write time - 1, as Cassandra's overwrite of a
// collection does. INT64_MIN (nothing shadowed) for a counter.
int64_t ElementShadowThrough(const Cell& head);

// Sorts cells (CellBefore), reconciles cells sharing a column id and path,
// and drops the marker and cells that the deletion shadows, and element
// cells that their column's deletion shadows. Merging and encoding keep the
// result normalised.
void NormalizeRowFragment(RowFragment* fragment);

// Merges `other` into `*target`: markers and deletions reconcile, cells
// reconcile per (column id, path) in one linear pass, then everything the
// merged deletion shadows is dropped, and every element cell its column's
// merged empty-path cell shadows. Values are moved from `other`, not copied.
// REQUIRES: both normalised.
// Commutative and associative (see ReconcileInto for counters, which add
// and so must not be merged twice; a row deletion shadows a counter by the
// counter's merged write time, so counter deletion is order-dependent, as
// Cassandra documents).
void MergeRowFragmentInto(RowFragment* target, RowFragment&& other);

// The merge of `a` and `b`, by value. REQUIRES: both normalised.
RowFragment MergeRowFragments(const RowFragment& a, const RowFragment& b);

// True when the row is live at `now` (microseconds): a live marker or a
// live cell that the fragment's deletion does not shadow.
bool IsRowLive(const RowFragment& fragment, int64_t now);

// Garbage-collects `*fragment` at `now` (microseconds) with the table's
// gc_grace_seconds, as compaction does. With now_s = FloorSeconds(now):
//   - a cell, marker or deletion shadowed by the deletion is dropped;
//   - an expired cell (IsLive false, expiring) becomes a tombstone with
//     local_deletion_time = its expiry;
//   - a tombstone cell, an expired marker and the row deletion are dropped
//     when local_deletion_time (expiry, for a marker) + gc_grace <= now_s.
// Returns true when anything is left (!fragment->empty()).
// REQUIRES: `*fragment` is the merge of ALL of the row's fragments. Purging
// one fragment among several can resurrect data a dropped tombstone shadowed.
bool PurgeRowFragment(RowFragment* fragment, int64_t now, uint32_t gc_grace_seconds);

// Appends the encoding of `fragment` to `*out` (docs/FORMAT.md). Equal
// fragments encode to equal bytes.
// REQUIRES: cells strictly increasing (CellBefore); each cell and the marker
// satisfy Cell's invariants; element cells are not counters. (Asserted.)
void EncodeRowFragment(const RowFragment& fragment, std::string* out);

// Decodes one whole fragment from `bytes` into `*fragment` (replacing its
// contents). Returns Corruption, naming the problem and its byte offset, for
// any input EncodeRowFragment cannot produce structurally: truncation, bad
// flags, a ttl out of range, cells not strictly increasing by (column id,
// path), an empty path or a counter element cell, lengths
// past the end, trailing bytes. Never reads outside `bytes`. On error
// `*fragment` holds unspecified (but valid) contents.
Status DecodeRowFragment(std::string_view bytes, RowFragment* fragment);

// Decodes each of `encoded` (a row's fragments, in any order) and merges
// them into `*merged` with linear merges of the sorted cell vectors; the
// first Corruption is returned with the fragment's index as context.
Status MergeEncodedRowFragments(std::span<const std::string_view> encoded, RowFragment* merged);

}  // namespace cellfs
