// Reading stored entries back: the fragments of one row merged, and the head
// of a partition (its deletion, range deletions and static row). Shared by
// the read path and the sweeper.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/row_fragment.h"
#include "engine/store/storage/cursor.h"

namespace cellfs::storage {

// The merged fragments of one group (a row, the static row or the partition
// deletion). Keys are the cursor's: inside the partition (kind || ...).
struct FragmentGroup {
  std::string group;              // the key without its sequence
  RowFragment merged;             // every fragment merged (nothing filtered)
  std::vector<std::string> keys;  // the keys read (only when asked for)
  // The keys of the fragments merged in from the buried space
  // (BuriedReader; only when asked for): keys in the partition's shard of
  // the table's buried space.
  std::vector<std::string> buried_keys;
  size_t fragments = 0;  // both spaces' fragments
};

// Reads the group at `it`'s position, moving forward: every entry whose key
// shares the current key's group (the key minus kSequenceBytes), decoded and
// merged into `*out`. Leaves `it` at the first entry after the group.
// `keep_keys` fills out->keys (the sweeper deletes them). Corruption naming
// the key when an entry does not decode.
// REQUIRES: it->Valid() at a data entry of a fragment kind.
Status ReadGroupForward(Cursor* it, bool keep_keys, FragmentGroup* out);

// The same moving backward: reads the group that ends at `it`'s position
// and leaves `it` at the last entry before it (or invalid).
Status ReadGroupBackward(Cursor* it, bool keep_keys, FragmentGroup* out);

// What sits at the head of a partition, before its rows.
struct PartitionHeader {
  std::optional<RowDeletion> deletion;  // the partition deletion, merged
  std::vector<RangeDeletion> ranges;    // every range deletion, in key order
  RowFragment static_row;               // merged; deletion not yet applied
  std::vector<std::string> keys;        // the keys read (only when asked for)
  size_t entries = 0;
};

// Reads, from the first entry of the partition `it` walks, its deletion,
// range deletions and static row (REQUIRES: `it` is there: SeekToFirst).
// Leaves `it` at the partition's first row entry, or invalid.
Status ReadPartitionHeader(Cursor* it, bool keep_keys, PartitionHeader* header);

// The deletion that shadows the row with encoded clustering `clustering`
// from above: the newest of the partition deletion and every range deletion
// covering it. nullopt when none.
std::optional<RowDeletion> InheritedDeletion(const PartitionHeader& header,
                                             std::string_view clustering);

}  // namespace cellfs::storage
