// BuriedReader: merges a partition's buried rows into the rows a read finds
// in the data space.
//
// The sweeper buries a row it finds dead at its time (nothing live in it;
// what is left are tombstones and expired content, kept until
// gc_grace_seconds so that they still shadow late writes): it moves the
// row's one purged fragment from the table's data space to its buried space
// (storage_keys.h AppendBuriedPrefix), same shard, same key. Reads walk the
// data space only, so a partition of 99,990 deleted rows and 10 live ones
// lists as fast as a 10-row one, and a partition or table whose rows are all
// buried is not met at all.
//
// A buried row matters to a read only when the data space has a fragment of
// the same row, written after the burial (a late write, perhaps with an
// older timestamp): its tombstones must still shadow that fragment. So
// every read that meets a row in the data space merges in that row's buried
// fragments, here. A buried row with no data-space fragment is dead and
// stays unread: what reads return is exactly what they would return were
// the row never moved.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "engine/store/internal/fragment_reader.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {

// One partition's buried rows, for a walk over its rows in either
// direction. Opens its cursor at the first row it is asked about, and only
// when the table may have buried rows (BuriedTables). A forward walk seeks
// only when it passes the buried entry it last stood at, so a partition
// with no buried rows near its live ones costs one seek. Not thread-safe;
// must not outlive `storage` or `at`.
class BuriedReader {
 public:
  // `enabled` false (the table has no buried rows): MergeInto does nothing.
  // `partition_prefix` as AppendPartitionPrefix gives it.
  BuriedReader(Storage* storage, const ReadPoint* at, uint32_t table_id,
               std::string_view partition_prefix, bool enabled, bool fill_cache);
  // Over `entries`, a cursor over the partition's shard of the buried space
  // that a walk over many partitions keeps (ShardCursor::entries); nullptr
  // when the buried space has no such shard: MergeInto does nothing.
  explicit BuriedReader(Cursor* entries);
  ~BuriedReader();

  // Merges the buried fragments of `group` (inside the partition: kRow ||
  // clustering, as FragmentGroup::group holds it) into `*out`: its merged
  // row, its fragment count, and with `keep_keys` its buried_keys.
  Status MergeInto(bool keep_keys, FragmentGroup* out);

 private:
  // True when no buried key of `group` can exist, from what the last seek
  // showed: nothing lies in [empty_from_, at_key_).
  bool KnownAbsent(std::string_view group) const;

  Storage* const storage_ = nullptr;
  const ReadPoint* const at_ = nullptr;
  const bool enabled_;
  const bool fill_cache_ = false;
  std::string space_;
  std::string shard_;
  std::unique_ptr<Cursor> owned_;  // opened at the first MergeInto, unless borrowed
  Cursor* it_ = nullptr;           // owned_, or the borrowed one
  bool seeked_ = false;
  std::string empty_from_;  // no buried key in [empty_from_, the cursor's key)
  FragmentGroup buried_;    // reused between rows
};

}  // namespace cellfs::storage
