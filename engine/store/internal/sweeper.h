// The sweeper: purges what the expiry index says is due, folds fragmented
// rows, reclaims dropped tables. Work follows what expired, never a scan of
// the store.
#pragma once

#include <cstdint>

#include "engine/engine.h"
#include "engine/store/internal/engine_core.h"

namespace cellfs::storage {

// One sweep at `now` (microseconds):
//  1. every expiry-index entry due at or before now's second, in due order:
//     the group's fragments (and its partition's header) are read and merged,
//     shadowed data dropped, PurgeRowFragment applied with the table's
//     current gc_grace_seconds, the fragments replaced by the one result
//     (or removed), an index entry added for its NextSweepSecond, and the
//     processed entry deleted; a row left with nothing live is buried
//     (buried_reader.h); partition and range deletions past gc_grace first
//     fold the rows they cover, then go. Row folds are committed up to
//     1000 at a time, one table's per batch (a group met twice, or a
//     partition or range deletion, commits what is pending first); after
//     10,000 entries the index's range is compacted (Storage::CompactShard);
//  2. every group in the fold queue is folded the same way;
//  3. every partition in the bury queue: its dead rows are buried;
//  4. on a shared store, once an hour, each table's expiry buckets past by a
//     whole bucket that were swept empty are forgotten (Storage::
//     ForgetEmptyShards) and their leases retired;
//  5. dropped tables: their data is deleted in bounded batches.
// The index's layout (expiry_index.h) decides how step 1 walks it: from its
// start, by due second; or, on a shared store, each live table's buckets up
// to now's, each under the lease ExpiryIndex::LeaseName names, so that
// several mounts sweep different buckets at once (a bucket whose lease
// another mount holds is left to it, one with nothing due is not leased).
// Steps 4 and 5 run only while this process holds the "sweeper" lease
// (always, on a store only it writes).
// Each fold is in one atomic storage batch, so concurrent writers (whose
// new fragments are never touched) and readers stay correct. REQUIRES: only
// one sweep runs at a time (hold core->sweep_mutex).
Status SweepOnce(EngineCore* core, int64_t now, SweepStats* stats);

}  // namespace cellfs::storage
