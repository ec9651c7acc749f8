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
//     processed entry deleted; partition and range deletions past gc_grace
//     first fold the rows they cover, then go;
//  2. every group in the fold queue is folded the same way;
//  3. dropped tables: their data is deleted in bounded batches.
// Each change is one atomic storage batch, so concurrent writers (whose new
// fragments are never touched) and readers stay correct. REQUIRES: only
// one sweep runs at a time (hold core->sweep_mutex).
Status SweepOnce(EngineCore* core, int64_t now, SweepStats* stats);

}  // namespace cellfs::storage
